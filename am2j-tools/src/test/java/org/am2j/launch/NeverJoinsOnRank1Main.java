package org.am2j.launch;

import org.am2j.spmd.Spmd;
import org.am2j.spmd.Job;
import org.am2j.spmd.SpmdEnvironment;

/**
 * Test rank program: rank 1 never joins its job (as a rank whose JVM never started), the others join and would then
 * finish at once.
 */
public final class NeverJoinsOnRank1Main
{
    private NeverJoinsOnRank1Main()
    {
    }

    /**
     * @param args ignored.
     * @throws InterruptedException never expected.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        if ("1".equals(System.getenv(SpmdEnvironment.AM2J_RANK)))
        {
            Thread.sleep(120_000);
            System.exit(4);
        }
        try (Job job = Spmd.init())
        {
            System.out.println("joined " + job.rank());
        }
    }
}
