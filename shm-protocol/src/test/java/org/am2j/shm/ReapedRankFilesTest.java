package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code am2j run} removes the shared-memory files of a rank it reaps after a SIGKILL (the rank could not): its
 * counters file, and with named files ({@code am2j.shm.sealed=false}) its queue block, segment and doorbell files.
 * The test's own JVM opens no transport, so no stale-file sweep of another process can have removed them.
 */
class ReapedRankFilesTest extends LauncherTestSupport
{
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theFilesOfAKilledRankAreRemovedWithSealedMemory() throws Exception
    {
        check(List.of());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theFilesOfAKilledRankAreRemovedWithNamedFiles() throws Exception
    {
        final JobResult result = check(List.of("-D" + SealedMemory.DISABLE_PROPERTY + "=false"));
        assertTrue(result.out.contains(".qb") && result.out.contains(".seg") && result.out.contains(".bell"),
            "the ranks had named files" + result.output());
    }

    private JobResult check(final List<String> jvmOptions) throws Exception
    {
        final JobResult result = runJob(40, 2, jvmOptions, SelfKillMain.class);

        assertEquals(137, result.status, "the launcher reports the SIGKILL" + result.output());
        assertTrue(result.err.contains("rank 1 was killed by signal 9"), result.output());
        assertEquals(2, result.rankPids().size(), result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
        return result;
    }
}
