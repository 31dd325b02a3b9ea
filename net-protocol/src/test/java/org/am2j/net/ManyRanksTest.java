package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.am2j.shm.LauncherTestSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many more ranks than CPUs: 16 rank JVMs on one emulated node and 16 on another, every pair exchanging requests
 * ({@link ManyRanksMain}) over shared memory within a node and the network between them, must finish within a
 * bound sized for a machine of two busy CPUs; the launcher kills the ranks at the bound and the test everything
 * it started.
 * <p>
 * In the soak profile: 32 JVMs on the 2 CPUs of the build machine take 30-50 s, much of it starting the JVMs.
 */
class ManyRanksTest extends LauncherTestSupport
{
    private static final int RANKS = 32;
    private static final int NODES = 2;
    private static final int PER_PEER = 4;
    /** The launcher's bound; a rank gives up waiting for messages a little before it, with what it lacks. */
    private static final int BOUND_SECONDS = 150;

    @Tag("soak")
    @Test
    @Timeout(value = BOUND_SECONDS + 30, unit = TimeUnit.SECONDS)
    void sixteenRanksOnEachOfTwoNodesAllExchangeRequests() throws Exception
    {
        final JobResult result = runJob(BOUND_SECONDS, RANKS, NODES, List.of(), ManyRanksMain.class,
            Integer.toString(PER_PEER), Integer.toString(BOUND_SECONDS - 20));
        result.assertSucceeded(RANKS);
        final long expected = (long)(RANKS - 1) * PER_PEER;
        for (int r = 0; r < RANKS; r++)
        {
            final String line = "[" + r + "] rank " + r + " ok: " + expected + " replies, " + expected + " requests";
            assertEquals(1, result.out.lines().filter(line::equals).count(), "missing '" + line + "'" +
                result.output());
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
