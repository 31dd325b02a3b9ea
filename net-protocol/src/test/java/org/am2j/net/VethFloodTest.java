package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The net protocol over a real network path: two emulated hosts joined by a veth pair with MTU 1500
 * ({@link VethPair}), each with its own host name and {@code /dev/shm}, two ranks on each ({@link NamespaceFloodMain}
 * with the ranks {@code aabb}), and 5% of the UDP datagrams arriving at host B dropped at random: a ping-pong between
 * every pair of ranks, then an 8 KiB flood and a request flood from every rank to both ranks of the other host. Every
 * request arrives exactly once, every reply arrives, nothing comes back to handler 0; the loss table dropped
 * datagrams and the NICs retransmitted, so the loss was met and overcome. 8 KiB messages cross the 1500-byte MTU in
 * fragments.
 * <p>
 * The ranks are started as an external launcher would start them (Open MPI's {@code OMPI_COMM_WORLD_RANK} and
 * {@code OMPI_COMM_WORLD_SIZE}, rank 0 running the rendezvous at {@code AM2J_BOOTSTRAP}), with {@code AM2J_NODE_ID}
 * set to the host's name and {@code AM2J_NET_HOST} to its veth address. The default build runs a short flood; the
 * {@code soak} profile sends 100,000 short requests from every rank across the hosts.
 * Skipped, with the reason, where namespaces cannot be made (not root, iproute2 or nftables missing).
 */
class VethFloodTest extends TwoHostTestSupport
{
    /** The rendezvous port on host A: the namespaces are new, so any port is free. */
    static final int BOOTSTRAP_PORT = 7000;
    /** Percentage of the UDP datagrams arriving at host B that are dropped. */
    static final int LOSS_PERCENT = 5;
    private static final Pattern RETRANSMITS = Pattern.compile("net retransmits (\\d+)");

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void pingPongAnd8KiBAndRequestFloodsAcrossTwoHostsWith5PercentLoss() throws Exception
    {
        flood(100, 200, 2_000, 150);
    }

    @Test
    @Tag("soak")
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void soakOf100000RequestsFromEveryRankAcrossTwoHostsWith5PercentLoss() throws Exception
    {
        // Each rank sends 50,000 short requests to each of the 2 ranks of the other host: 100,000 per rank.
        flood(2_000, 5_000, 50_000, 780);
    }

    private void flood(final int pings, final int mediums, final int shorts, final long seconds) throws Exception
    {
        pair.dropUdp(pair.b(), LOSS_PERCENT);
        final NamespaceJob job = new NamespaceJob(dir, 4);
        final String bootstrap = pair.a().address() + ":" + BOOTSTRAP_PORT;
        for (int r = 0; r < 4; r++)
        {
            final NamespaceHost host = r < 2 ? pair.a() : pair.b();
            job.start(r, host, Map.of(
                "OMPI_COMM_WORLD_RANK", Integer.toString(r),
                "OMPI_COMM_WORLD_SIZE", "4",
                "AM2J_BOOTSTRAP", bootstrap,
                "AM2J_NODE_ID", host.hostName(),
                "AM2J_NET_HOST", host.address()),
                List.of("-Xmx256m", "-XX:+UseSerialGC"),
                NamespaceFloodMain.class, "aabb", "cross", Integer.toString(pings), Integer.toString(mediums),
                Integer.toString(shorts), Long.toString(seconds));
        }
        final long start = System.nanoTime();
        final boolean inTime = job.await(TimeUnit.SECONDS.toMillis(seconds + 30));
        final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(inTime, "the job did not end within " + (seconds + 30) + " s" + job.output());
        long retransmits = 0;
        for (int r = 0; r < 4; r++)
        {
            assertEquals(0, job.status(r), "rank " + r + " failed" + job.output());
            final String prefix = "rank " + r + " ok: ";
            final String ok = job.out(r).lines().filter(line -> line.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no '" + prefix + "' line" + job.output()));
            final Matcher m = RETRANSMITS.matcher(ok);
            assertTrue(m.find(), ok);
            retransmits += Long.parseLong(m.group(1));
            System.out.println("  " + ok);
        }
        final long dropped = pair.droppedUdp(pair.b());
        assertTrue(dropped > 0, "the loss table dropped nothing: the test did not meet loss");
        assertTrue(retransmits > 0, "no NIC retransmitted, yet " + dropped + " datagrams were dropped");
        System.out.println("VethFloodTest: 4 ranks on 2 hosts (" + pair + "), " + pings + " pings per pair, " +
            mediums + " 8 KiB and " + shorts + " short requests per cross-host pair, exactly once: " + dropped +
            " UDP datagrams dropped at B, " + retransmits + " retransmits, " + millis + " ms");
    }
}
