package org.am2j.launch;

import org.am2j.spmd.Spmd;
import org.am2j.spmd.Job;

/**
 * Test rank program: after a barrier, rank 1 throws out of main while the others wait to be stopped (at most a
 * minute, then exit with 4).
 */
public final class ThrowOnRank1Main
{
    private ThrowOnRank1Main()
    {
    }

    /**
     * @param args ignored.
     * @throws InterruptedException never expected.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final Job job = Spmd.init();
        job.barrier();
        if (job.rank() == 1)
        {
            throw new IllegalStateException("boom on rank 1");
        }
        Thread.sleep(60_000);
        System.exit(4);
    }
}
