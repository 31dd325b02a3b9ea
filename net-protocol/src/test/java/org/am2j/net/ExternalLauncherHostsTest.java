package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Node identity on real hosts, as an external launcher starts a job there: two emulated hosts ({@link VethPair}),
 * each with its own host name, which does not resolve, and its own {@code /dev/shm}, two ranks on each, started with
 * Open MPI's launcher environment ({@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}) and
 * {@code AM2J_BOOTSTRAP}, and no other variable (no {@code AM2J_NODE_ID}, no {@code AM2J_NET_HOST}). The ranks of
 * one host must find themselves on one node and reach each other over shared memory, and the ranks of the other host
 * over the network ({@link NamespaceFloodMain} checks the node of every endpoint name and the transport of every
 * translation), and every message of a ping-pong between every pair and of floods from every rank to every other
 * arrives exactly once with its reply. Skipped, with the reason, where namespaces cannot be made.
 */
class ExternalLauncherHostsTest extends TwoHostTestSupport
{
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void ranksOfOneHostShareMemoryAndReachTheOtherHostOverTheNetworkUnderOpenMpisEnvironment() throws Exception
    {
        for (final NamespaceHost host : List.of(pair.a(), pair.b()))
        {
            assertFalse(host.run(10_000, "getent", "hosts", host.hostName()).succeeded(),
                "the host name " + host.hostName() + " resolves, the test needs one that does not");
        }
        final NamespaceJob job = new NamespaceJob(dir, 4);
        final String bootstrap = pair.a().address() + ":" + VethFloodTest.BOOTSTRAP_PORT;
        final long seconds = 120;
        for (int r = 0; r < 4; r++)
        {
            job.start(r, r < 2 ? pair.a() : pair.b(), Map.of(
                "OMPI_COMM_WORLD_RANK", Integer.toString(r),
                "OMPI_COMM_WORLD_SIZE", "4",
                "AM2J_BOOTSTRAP", bootstrap),
                List.of("-Xmx256m", "-XX:+UseSerialGC"),
                NamespaceFloodMain.class, "aabb", "all", "50", "100", "1000", Long.toString(seconds));
        }
        assertTrue(job.await(TimeUnit.SECONDS.toMillis(seconds + 30)), "the job did not end in time" + job.output());
        for (int r = 0; r < 4; r++)
        {
            assertEquals(0, job.status(r), "rank " + r + " failed" + job.output());
            final NamespaceHost host = r < 2 ? pair.a() : pair.b();
            final String start = "rank=" + r + " node=" + (r < 2 ? 0 : 1) + " of 2 host=" + host.hostName();
            assertTrue(job.out(r).contains(start), "rank " + r + " did not print '" + start + "'" + job.output());
            final String prefix = "rank " + r + " ok: ";
            final String ok = job.out(r).lines().filter(line -> line.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no '" + prefix + "' line" + job.output()));
            System.out.println("  " + ok);
        }
        System.out.println("ExternalLauncherHostsTest: 4 ranks on 2 hosts (" + pair + ") under OMPI_COMM_WORLD_* " +
            "and AM2J_BOOTSTRAP alone: same host over shm, other host over net, every message once");
    }
}
