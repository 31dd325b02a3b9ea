package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every message kind, argument count 0..8 and payload size 0, 1, 63, 64, 4095, 8192 between every pair of ranks of a
 * job on one node, contents verified at both ends (see {@link AllKindsMain}): long messages both into shared-memory
 * segments (deposited by the sender) and into private user segments (through the bulk queue). By default most
 * messages go through fast boxes; also with 4-packet boxes that overflow into the shared queues all the time, and
 * with fast boxes off (the paper's queues alone).
 */
class AllKindsTest extends LauncherTestSupport
{
    private void allKinds(final int ranks, final int rounds, final long timeoutSeconds) throws Exception
    {
        allKinds(ranks, rounds, timeoutSeconds, List.of());
    }

    private void allKinds(final int ranks, final int rounds, final long timeoutSeconds, final List<String> jvmOptions)
        throws Exception
    {
        final JobResult result = runJob(timeoutSeconds, ranks, jvmOptions, AllKindsMain.class,
            Integer.toString(rounds));

        result.assertSucceeded(ranks);
        for (int r = 0; r < ranks; r++)
        {
            final int expected = (ranks - 1) * rounds * AllKindsMain.MESSAGES;
            final String ok = "[" + r + "] rank " + r + " ok: handled " + expected + " requests, received " +
                expected + " replies";
            assertEquals(1, result.out.lines().filter(ok::equals).count(), "missing '" + ok + "'" + result.output());
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    // soak: the default build sends every kind between JVMs through overflowing four-packet boxes (the boxes and the
    // packet queues behind them both carry messages)
    @Tag("soak")
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void twoRanks() throws Exception
    {
        allKinds(2, 4, 25);
    }

    // soak: as twoRanks
    @Tag("soak")
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void threeRanks() throws Exception
    {
        allKinds(3, 2, 25);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void threeRanksThroughOverflowingFourPacketBoxes() throws Exception
    {
        allKinds(3, 2, 25, List.of("-Dam2j.shm.boxDepth=4"));
    }

    // soak: as twoRanks, the packet queues alone
    @Tag("soak")
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void twoRanksWithoutFastBoxes() throws Exception
    {
        allKinds(2, 2, 25, List.of("-Dam2j.shm.boxes=0"));
    }

    // 8 rank JVMs on 2 CPUs: soak (three ranks stay in the default build)
    @Tag("soak")
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eightRanks() throws Exception
    {
        allKinds(8, 1, 55);
    }

    /**
     * The smallest long messages: no data, into shared-memory segments and into user segments, as request and as
     * reply (see {@link EmptyLongMain}).
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void emptyLongMessagesAreDelivered() throws Exception
    {
        final JobResult result = runJob(25, 2, List.of(), EmptyLongMain.class);

        result.assertSucceeded(2);
        for (final String segments : List.of("shared", "user"))
        {
            for (int r = 0; r < 2; r++)
            {
                final String ok = "[" + r + "] rank " + r + " ok with " + segments + " segments\n";
                assertEquals(true, result.out.contains(ok), "missing " + ok + result.output());
            }
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
