package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process that scribbles on the packets, claim words, tail and head of a live request queue (see
 * {@link PacketScribbleMain}): no exception escapes, no request is lost without being counted, nothing forged is
 * delivered, and the queue serves every request once the scribbling stops.
 */
class PacketScribbleTest extends LauncherTestSupport
{
    private static final List<String> FAST_LIVENESS = List.of("-Dam2j.shm.livenessMs=50");

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void scribbledPacketsAreCountedAndTheQueueRecovers() throws Exception
    {
        runAndCheck(20_000, 2_000, 150, 2_000, 140);
    }

    @Test
    @Tag("soak")
    @Timeout(value = 500, unit = TimeUnit.SECONDS)
    void scribbledPacketsDuringALongFlood() throws Exception
    {
        runAndCheck(500_000, 20_000, 3_000, 500, 480);
    }

    private void runAndCheck(
        final int phase1, final int phase2, final int attacks, final int pauseMicros, final long timeoutSeconds)
        throws Exception
    {
        final JobResult result = runJob(timeoutSeconds, 2, FAST_LIVENESS, PacketScribbleMain.class,
            String.valueOf(phase1), String.valueOf(phase2), String.valueOf(attacks), String.valueOf(pauseMicros));

        result.out.lines().filter(line -> line.startsWith("[1] rank 1")).forEach(System.out::println);
        result.assertSucceeded(2);
        assertTrue(result.out.contains("[1] rank 1 phase 2: " + phase2 + " replies of " + phase2 + " requests\n"),
            result.output());
        assertTrue(result.out.contains("[1] rank 1 ok\n"), result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
