package org.am2j.launch;

import org.am2j.spmd.Spmd;
import org.am2j.spmd.Job;

/**
 * Test rank program: every rank writes a line to standard output and one to standard error and enters a barrier;
 * then rank 1 exits with status 3 while the others wait to be stopped (at most a minute, then exit with 4).
 */
public final class ExitOnRank1Main
{
    private ExitOnRank1Main()
    {
    }

    /**
     * @param args ignored.
     * @throws InterruptedException never expected.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final Job job = Spmd.init();
        System.out.println("out " + job.rank());
        System.err.println("err " + job.rank());
        job.barrier();
        if (job.rank() == 1)
        {
            System.exit(3);
        }
        Thread.sleep(60_000);
        System.exit(4);
    }
}
