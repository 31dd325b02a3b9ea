package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.am2j.spmd.RendezvousConfig;
import org.am2j.perf.BenchCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The matrix's time limit, without launching a job: with less than {@link AppsMatrix#MIN_JOB_SECONDS} left no job
 * starts, and each is reported as not run.
 */
@Timeout(60)
class AppsMatrixTest
{
    @Test
    void noJobStartsPastTheTimeLimit(@TempDir final Path dir) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final Path md = dir.resolve("m.md");
        final int status = new AppsMatrix(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run(new String[] { "--apps", "fft3d", "--configs",
            "shm-only,clump32", "--time-limit", "1", "--out", md.toString(), "--keep", dir.resolve("work").toString() });
        assertEquals(BenchCommand.FAILURE_STATUS, status);
        if (null == System.getenv(RendezvousConfig.JOIN_TIMEOUT_VARIABLE))
        {
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("the launcher waits up to 300 s for the ranks " +
                "of a job to join"), out.toString(StandardCharsets.UTF_8));
        }
        assertNull(System.getProperty(RendezvousConfig.JOIN_TIMEOUT_PROP), "the longer join wait ends with the matrix");
        final String errors = err.toString(StandardCharsets.UTF_8);
        assertTrue(errors.contains("[1/2] fft3d, shm-only, poll follow, repeat 1: not run: the matrix's time limit of " +
            "1 s (--time-limit) was reached"), errors);
        assertTrue(errors.contains("[2/2] fft3d, clump32, poll follow, repeat 1: not run"), errors);
        final String text = Files.readString(md, StandardCharsets.UTF_8);
        assertTrue(text.contains("**2 job(s) did not start: the time limit was reached**"), text);
        assertTrue(text.contains("- 3D FFT (small), clump32, poll follow: repeat 1: not run: the matrix's time limit " +
            "of 1 s (--time-limit) was reached"), text);
        assertTrue(text.contains("No verified run of 3D FFT (small) in `clump32`"), text);
        try (var files = Files.list(dir.resolve("work")))
        {
            assertEquals(0, files.count(), "no job ran");
        }
    }
}
