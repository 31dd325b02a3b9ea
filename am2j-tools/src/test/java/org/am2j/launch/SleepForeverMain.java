package org.am2j.launch;

import java.io.IOException;
import java.nio.file.Path;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Test rank program: joins the job, writes its pid file like {@link PidFileMain} and sleeps until it is stopped,
 * however long that takes.
 */
public final class SleepForeverMain
{
    private SleepForeverMain()
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
        PidFileMain.writePidFile(Path.of(args[0]), job.rank());
        while (true)
        {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
