package org.am2j.launch;

import org.am2j.spi.RankScope;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;
import org.am2j.spmd.SpmdEnvironment;

/**
 * Test rank program: rank 1 (as its environment says, {@link RankScope#environment()}) returns from {@code main}
 * without joining the job; the other ranks join it, which can only fail, and enter a barrier.
 */
public final class ReturnsBeforeJoiningOnRank1Main
{
    private ReturnsBeforeJoiningOnRank1Main()
    {
    }

    /**
     * @param args ignored.
     */
    public static void main(final String[] args)
    {
        if ("1".equals(RankScope.environment().get(SpmdEnvironment.AM2J_RANK)))
        {
            return;
        }
        try (Job job = Spmd.init())
        {
            job.barrier();
        }
    }
}
