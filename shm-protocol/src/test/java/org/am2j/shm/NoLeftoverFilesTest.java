package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * After a job, nothing am2j made for it is left under {@code /dev/shm/am2j-<user>/}: not its job directory (queue
 * blocks, segments, doorbells), not the counters files of its processes, however the ranks ended normally: freeing
 * everything, returning from main with bundles still allocated, or {@code System.exit(0)} (see
 * {@link CleanExitMain}). The ranks check that the directory held every kind of file while they ran.
 */
class NoLeftoverFilesTest extends LauncherTestSupport
{
    private void job(final String mode) throws Exception
    {
        final JobResult result = runJob(35, 3, List.of(), CleanExitMain.class, mode);

        result.assertSucceeded(3);
        for (int r = 0; r < 3; r++)
        {
            assertTrue(result.out.contains("[" + r + "] rank " + r + " ending: " + mode + "\n"), result.output());
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void freeingEverythingLeavesNothing() throws Exception
    {
        job("close");
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void returningWithBundlesAllocatedLeavesNothing() throws Exception
    {
        job("noclose");
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void systemExitLeavesNothing() throws Exception
    {
        job("exit");
    }
}
