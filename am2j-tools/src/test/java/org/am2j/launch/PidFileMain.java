package org.am2j.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Test rank program: joins the job, writes its pid to {@code <dir>/rank-<R>.pid} (atomically) and waits to be stopped
 * (at most a minute, then exits with 4).
 */
public final class PidFileMain
{
    private PidFileMain()
    {
    }

    /**
     * @param args the directory for the pid files.
     * @throws IOException          when the pid file cannot be written.
     * @throws InterruptedException never expected.
     */
    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final Job job = Spmd.init();
        writePidFile(Path.of(args[0]), job.rank());
        Thread.sleep(60_000);
        System.exit(4);
    }

    /**
     * Write this process's pid to {@link #pidFile(Path, int)}, atomically.
     *
     * @param dir  of the pid files.
     * @param rank of this process.
     * @throws IOException when the file cannot be written.
     */
    static void writePidFile(final Path dir, final int rank) throws IOException
    {
        final Path tmp = dir.resolve("rank-" + rank + ".tmp");
        Files.write(tmp, Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII));
        Files.move(tmp, pidFile(dir, rank), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * @param dir  of the pid files.
     * @param rank a rank.
     * @return the pid file of that rank.
     */
    static Path pidFile(final Path dir, final int rank)
    {
        return dir.resolve("rank-" + rank + ".pid");
    }
}
