package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Floods through fast boxes of 4 packets between rank JVMs ({@link FloodMain}): the boxes overflow into small shared
 * queues (depth 8, 2 bulk blocks) all the time, so every pair goes back and forth between its box and the shared
 * queue; every request and reply must arrive exactly once and in order per pair, with nothing dropped. Also with
 * sixteen senders into one receiver whose cap is eight boxes (soak).
 */
class FastBoxFloodTest extends LauncherTestSupport
{
    private static final List<String> SMALL = List.of(
        "-Dam2j.shm.requestDepth=8", "-Dam2j.shm.replyDepth=8", "-Dam2j.shm.bulkDepth=2",
        "-Dam2j.shm.boxes=8", "-Dam2j.shm.boxDepth=4");
    private static final Pattern OK_LINE = Pattern.compile(
        "^\\[(\\d+)] rank \\1 ok in \\d+ us: backoffs=(\\d+) drops=(\\d+)$", Pattern.MULTILINE);

    private void flood(final int ranks, final int n, final String mode, final int n0, final long timeoutSeconds)
        throws Exception
    {
        final JobResult result = runJob(timeoutSeconds, ranks, SMALL, FloodMain.class, Integer.toString(n), mode,
            Integer.toString(n0));
        result.assertSucceeded(ranks);
        final Matcher m = OK_LINE.matcher(result.out);
        int ok = 0;
        while (m.find())
        {
            ok++;
            assertEquals("0", m.group(3), "drops at rank " + m.group(1) + result.output());
        }
        assertEquals(ranks, ok, "ok lines" + result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void threeSendersOverflowTheirBoxesAndKeepTheirOrder() throws Exception
    {
        flood(4, 2000, "both", 500, 60);
    }

    @Tag("soak")
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void sixteenSendersIntoOneReceiverWithACapOfEightBoxes() throws Exception
    {
        flood(17, 2000, "both", 500, 240);
    }
}
