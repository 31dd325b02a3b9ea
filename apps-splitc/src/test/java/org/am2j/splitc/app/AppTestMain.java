package org.am2j.splitc.app;

import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * {@link AppMain} for the launcher tests: prints the job line the test support reads first, then runs the
 * application; exits with its status.
 */
public final class AppTestMain
{
    private AppTestMain()
    {
    }

    public static void main(final String[] args)
    {
        int status;
        try (Job job = Spmd.init())
        {
            System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + job.rank());
            status = AppMain.run(job, args, System.out);
        }
        catch (final Throwable t)
        {
            System.err.println("FAIL AppTestMain: " + t);
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}
