package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.am2j.shm.LauncherTestSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flood of both media into one rank ({@link MixedFloodMain}): 3 senders on its node (shared memory) and 4 on
 * another (network), small queues on both (8 request packets and 2 bulk blocks per shared-memory queue, a network
 * depth of 4): every request is delivered exactly once, each medium on its own transport, and no sender takes more
 * than 3 times as long as the fastest.
 */
@Tag("soak") // a flood of 8 rank JVMs: soak (CrossNodeTest carries both protocols in the default build)
class MixedFloodTest extends LauncherTestSupport
{
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void threeSharedMemoryAndFourNetworkSendersIntoOneRank() throws Exception
    {
        final int ranks = 8;
        final JobResult result = runJob(120, ranks, 2, List.of(
            "-Dam2j.shm.requestDepth=8", "-Dam2j.shm.replyDepth=8", "-Dam2j.shm.bulkDepth=2", "-Dam2j.net.depth=4"),
            MixedFloodMain.class, "3000");
        result.assertSucceeded(ranks);
        final List<String> summary = result.out.lines()
            .filter((line) -> line.contains("flood ok: 3 shm senders, 4 net senders")).toList();
        assertEquals(1, summary.size(), "no flood summary" + result.output());
        System.out.println(summary.get(0));
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
