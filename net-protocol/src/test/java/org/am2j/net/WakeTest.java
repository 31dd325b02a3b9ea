package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.am2j.shm.LauncherTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rank of a job with both protocols asleep in {@code waitSema()} wakes for a message from either medium without
 * waiting out its time slice, and uses little CPU while asleep ({@link WakeMain}).
 */
class WakeTest extends LauncherTestSupport
{
    /**
     * Median round trip to the sleeper. The ranks run with a sleep slice of {@value #SLICE_MS} ms, longer than the
     * sleeper's one-second {@code waitSema} timeout, so a message nothing wakes the sleeper for waits about half a
     * second on average; a woken sleeper answers in well under 10 ms even on a loaded 2-vCPU machine.
     */
    private static final long MEDIAN_US = 250_000;
    private static final long SLICE_MS = 5_000;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aSleeperWakesForSharedMemoryAndForTheNetwork() throws Exception
    {
        final JobResult result = runJob(80, 3, 2, List.of("-Dam2j.sleepSliceMs=" + SLICE_MS), WakeMain.class);
        result.assertSucceeded(3);
        final Matcher senders = Pattern.compile("\\[(\\d)] sender ok: over (\\w+) medianUs=(\\d+)").matcher(result.out);
        int found = 0;
        while (senders.find())
        {
            found++;
            assertTrue(Long.parseLong(senders.group(3)) < MEDIAN_US, senders.group() + result.output());
        }
        assertEquals(2, found, result.output());
        final Matcher sleeper = Pattern.compile("sleeper ok: cpuMs=(\\d+) wallMs=(\\d+)").matcher(result.out);
        assertTrue(sleeper.find(), result.output());
        System.out.println(result.out);
        // Asleep for most of the wall time: CPU well under half of it.
        assertTrue(Long.parseLong(sleeper.group(1)) * 2 < Long.parseLong(sleeper.group(2)), sleeper.group());
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
