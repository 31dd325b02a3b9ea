package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A same-user process that truncates the shared files of a live exchange cannot make either process fault: the
 * files are sealed against shrinking, so the truncation is refused and the flood completes, every request answered
 * (see {@link TruncationMain}). Two rank JVMs; rank 1 is the attacker and also a party of the exchange.
 */
class TruncationTest extends LauncherTestSupport
{
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void truncatingLiveFilesIsRefusedAndTheExchangeCompletes() throws Exception
    {
        runAndCheck(3_000, 80);
    }

    @Test
    @Tag("soak")
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void truncatingLiveFilesDuringALongFloodIsRefused() throws Exception
    {
        runAndCheck(300_000, 280);
    }

    private void runAndCheck(final int requests, final long timeoutSeconds) throws Exception
    {
        final JobResult result = runJob(timeoutSeconds, 2, List.of(), TruncationMain.class,
            String.valueOf(requests));

        result.assertSucceeded(2);
        assertTrue(result.out.contains("[1] rank 1: truncation refused for 5 files\n"), result.output());
        assertTrue(result.out.contains("[1] rank 1 ok: " + requests + " replies of " + requests + " requests\n"),
            result.output());
        assertTrue(result.out.contains("[0] rank 0 ok: handled " + requests + "\n"), result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
