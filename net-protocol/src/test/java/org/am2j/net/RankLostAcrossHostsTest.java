package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rank killed on another host mid-flood, where nothing on the survivor's host can see its process: two emulated
 * hosts ({@link VethPair}, each with its own host name, {@code /dev/shm} and node identity), the survivor and a third
 * rank on one, the victim on the other, one SPMD job under Open MPI's environment whose rendezvous rank 0 hosts
 * ({@link KilledMidFloodMain} in {@code spmd} mode). The victim's address is not a loopback one and its node is not
 * the survivor's, so the survivor's NIC has no evidence of its own: only the job's rendezvous, which loses the
 * victim's connection, can tell it. Without that news the survivor's requests to the victim would stay outstanding
 * and the survivor would fail after 60 s. The accounting is {@link KilledMidFloodTest}'s, per request id. Skipped,
 * with the reason, where namespaces cannot be made.
 */
class RankLostAcrossHostsTest extends TwoHostTestSupport
{
    private NamespaceJob job;

    @AfterEach
    void stopRanks() throws InterruptedException
    {
        if (null != job)
        {
            job.await(0);
        }
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void theRendezvousTellsTheSurvivorsNicThatARankOnAnotherHostDied() throws Exception
    {
        job = new NamespaceJob(dir, 3);
        final String bootstrap = pair.a().address() + ":" + VethFloodTest.BOOTSTRAP_PORT;
        final String[] roles = { "survivor", "other", "victim" };
        for (int r = 0; r < 3; r++)
        {
            job.start(r, r < 2 ? pair.a() : pair.b(), Map.of(
                "OMPI_COMM_WORLD_RANK", Integer.toString(r),
                "OMPI_COMM_WORLD_SIZE", "3",
                "AM2J_BOOTSTRAP", bootstrap),
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-Dam2j.net.timeoutMs=1000"),
                KilledMidFloodMain.class, roles[r], dir.toString(), "spmd");
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(dir.resolve("survivor.flooding")))
        {
            assertTrue(job.isAlive(0) && job.isAlive(2) && System.nanoTime() < deadline,
                "the survivor never flooded" + job.output());
            Thread.sleep(5);
        }
        assertTrue(job.kill(2), "the victim did not die");
        Files.writeString(dir.resolve("victim.killed"), "killed");
        assertTrue(job.await(TimeUnit.SECONDS.toMillis(90)), "the job did not end in time" + job.output());
        assertEquals(0, job.status(0), "the survivor failed" + job.output());
        assertEquals(0, job.status(1), "the third rank failed" + job.output());
        assertTrue(job.output().contains("rank 2 of this job was lost"), "no rank-lost notice" + job.output());
        KilledMidFloodTest.checkAccounting(dir, "victim on another host", job.out(0), job::output);
    }
}
