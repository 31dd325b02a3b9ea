package org.am2j.splitc;

import org.am2j.spmd.Job;

/**
 * What the Split-C layer needs from the job that started its ranks, once, to set itself up: this rank's place, a
 * barrier, and an all-gather of small byte arrays (endpoint names, tags and segment lengths). {@link #of(Job)} adapts
 * an SPMD {@link Job}; tests may run ranks as threads of one JVM with their own implementation. The Split-C layer
 * does none of its own traffic through it: that goes through AM-II messages.
 */
public interface Bootstrap
{
    /**
     * @return this rank, 0 to {@link #size()} - 1.
     */
    int rank();

    /**
     * @return number of ranks.
     */
    int size();

    /**
     * @param mine this rank's contribution.
     * @return every rank's contribution, in rank order.
     */
    byte[][] allGather(byte[] mine);

    /**
     * Wait until every rank has entered this barrier.
     */
    void barrier();

    /**
     * @param job an SPMD job from {@link org.am2j.spmd.Spmd#init()}.
     * @return the job as a bootstrap.
     */
    static Bootstrap of(final Job job)
    {
        return new Bootstrap()
        {
            @Override
            public int rank()
            {
                return job.rank();
            }

            @Override
            public int size()
            {
                return job.size();
            }

            @Override
            public byte[][] allGather(final byte[] mine)
            {
                return job.allGather(mine);
            }

            @Override
            public void barrier()
            {
                job.barrier();
            }
        };
    }
}
