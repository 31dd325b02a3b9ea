package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random bytes over the headers of two live queue blocks (see {@link HeaderScribbleMain}): no exception escapes,
 * every message is delivered, returned or counted, and once the scribbling stops both owners have repaired their
 * headers and every request is answered.
 */
class HeaderScribbleTest extends LauncherTestSupport
{
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void scribbledHeadersAreRepairedAndNothingIsLost() throws Exception
    {
        runAndCheck(6_000, 2_000, 12, 110);
    }

    @Test
    @Tag("soak")
    @Timeout(value = 400, unit = TimeUnit.SECONDS)
    void manyScribbledHeadersDuringALongFlood() throws Exception
    {
        runAndCheck(300_000, 20_000, 3_000, 380);
    }

    private void runAndCheck(final int phase1, final int phase2, final int scribbles, final long timeoutSeconds)
        throws Exception
    {
        final JobResult result = runJob(timeoutSeconds, 2, List.of(), HeaderScribbleMain.class,
            String.valueOf(phase1), String.valueOf(phase2), String.valueOf(scribbles));

        result.out.lines().filter(line -> line.startsWith("[1] rank 1")).forEach(System.out::println);
        result.assertSucceeded(2);
        assertTrue(result.out.contains("[1] rank 1 phase 2: " + phase2 + " replies of " + phase2 + " requests\n"),
            result.output());
        assertTrue(result.out.contains("[1] rank 1 ok\n"), result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
