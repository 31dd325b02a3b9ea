package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Short and medium round trips between two rank JVMs over shared memory, sent and polled through the public API by
 * SEQ bundles, allocate nothing per message in steady state at either end (see {@link PollAllocationMain}).
 */
class PollAllocationTest extends LauncherTestSupport
{
    private static final Pattern LINE =
        Pattern.compile("(?m)^\\[(\\d)] rank \\d allocated (\\d+) bytes in (\\d+) round trips over (\\S+)$");

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void roundTripsThroughTheSeqPollAllocateNothing() throws Exception
    {
        final JobResult result = runJob(80, 2, List.of(), PollAllocationMain.class, "60000", "40000");
        result.assertSucceeded(2);
        final Matcher matcher = LINE.matcher(result.out);
        int ranks = 0;
        while (matcher.find())
        {
            ranks++;
            assertEquals("shm", matcher.group(4), result.output());
            assertEquals("40000", matcher.group(3));
            // Less than a byte per round trip: a message that allocated anything (16 bytes at least) fails this by
            // far, while a one-off of the JVM inside the window (a few KiB seen now and then on a loaded machine, e.g.
            // a deoptimisation rematerialising objects) does not.
            assertTrue(Long.parseLong(matcher.group(2)) < Long.parseLong(matcher.group(3)),
                "rank " + matcher.group(1) + " allocated " + matcher.group(2) + " bytes\n" + result.output());
        }
        assertEquals(2, ranks, result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
