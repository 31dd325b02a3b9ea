package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * All-to-one floods into small queues (request and reply depth 4, bulk depth 2) between 8 rank JVMs (see
 * {@link FloodMain}): every request delivered exactly once and in order, every reply received, no deadlock, also
 * while rank 0 sends requests to the flooders at the same time.
 */
@Tag("soak") // floods of 8 rank JVMs: soak (AllKindsTest carries shared memory between JVMs in the default build)
class FloodTest extends LauncherTestSupport
{
    private static final int RANKS = 8;
    private static final int N = 2000;
    private static final int N0 = 500;
    private static final List<String> SMALL_QUEUES = List.of(
        "-Dam2j.shm.requestDepth=4", "-Dam2j.shm.replyDepth=4", "-Dam2j.shm.bulkDepth=2");
    private static final Pattern OK_LINE = Pattern.compile(
        "^\\[(\\d+)] rank \\1 ok in \\d+ us: backoffs=(\\d+) drops=(\\d+)$", Pattern.MULTILINE);

    private void flood(final String mode, final int n0) throws Exception
    {
        final JobResult result = runJob(50, RANKS, SMALL_QUEUES, FloodMain.class, Integer.toString(N), mode,
            Integer.toString(n0));

        result.assertSucceeded(RANKS);
        final Matcher m = OK_LINE.matcher(result.out);
        int ok = 0;
        long senderBackoffs = 0;
        while (m.find())
        {
            ok++;
            if (!"0".equals(m.group(1)))
            {
                senderBackoffs += Long.parseLong(m.group(2));
            }
            assertEquals("0", m.group(3), "drops at rank " + m.group(1) + result.output());
        }
        assertEquals(RANKS, ok, "ok lines" + result.output());
        assertTrue(senderBackoffs > 0, "the senders never found rank 0's queue full: the test did not flood" +
            result.output());
        System.out.println("FloodTest " + mode + ": " + result.out.lines().filter(l -> l.contains(" ok in "))
            .reduce((a, b) -> a + "\n" + b).orElse(""));
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void sevenSendersFloodRankZero() throws Exception
    {
        flood("oneway", 0);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void rankZeroSendsWhileBeingFlooded() throws Exception
    {
        flood("both", N0);
    }
}
