package org.am2j.perf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * The {@link PhaseChannel} of a two-rank SPMD job: each command is an all-gather in which rank 0 contributes the
 * packed command (8 bytes) and rank 1 nothing; each report one in which rank 1 contributes the report and rank 0
 * nothing. The all-gather goes through the job's TCP rendezvous, never through
 * the transports being measured, and blocks (no spinning) while it waits.
 */
final class JobPhaseChannel implements PhaseChannel
{
    private static final byte[] NOTHING = new byte[0];

    private final Job job;

    /**
     * A rank program of a pair, once its job, cache line and channel are up.
     */
    @FunctionalInterface
    interface Rank
    {
        /**
         * @param config  of the pair.
         * @param job     of the two ranks.
         * @param line    the pair's cache line.
         * @param channel between the two ranks.
         * @throws IOException when the rank's sockets or results fail.
         */
        void run(RankConfig config, Job job, CacheLinePingPong line, PhaseChannel channel) throws IOException;
    }

    /**
     * The two sides of a pair: rank 0 measures and writes its results to the configuration's {@code out} file, rank 1
     * serves it (until the end command).
     *
     * @param config of the pair.
     * @param job    of the two ranks.
     * @param rank0  rank 0's measurements.
     * @param rank1  rank 1's serving.
     * @throws IOException when the results cannot be written.
     */
    static void split(final RankConfig config, final Job job, final Supplier<Results> rank0, final Runnable rank1)
        throws IOException
    {
        if (job.rank() == 0)
        {
            rank0.get().write(config.out());
        }
        else
        {
            rank1.run();
        }
    }

    /**
     * @param job of two ranks.
     */
    JobPhaseChannel(final Job job)
    {
        this.job = job;
    }

    /**
     * The frame of every rank program of a pair: read its {@link RankConfig} command line, join the job (of two
     * ranks), map the pair's cache line, run the rank, and close the line and the job.
     *
     * @param args the rank program's command line.
     * @param rank what the rank does.
     * @throws IOException when the line cannot be mapped or the rank fails so.
     */
    static void run(final String[] args, final Rank rank) throws IOException
    {
        final RankConfig config = RankConfig.parse(args);
        try (Job job = Spmd.init(); CacheLinePingPong line = CacheLinePingPong.map(config.line()))
        {
            if (job.size() != RankPairs.RANKS)
            {
                throw new IllegalStateException("the ping-pong needs 2 ranks, the job has " + job.size());
            }
            rank.run(config, job, line, new JobPhaseChannel(job));
        }
    }

    @Override
    public void command(final int type, final int count)
    {
        job.allGather(ByteBuffer.allocate(Long.BYTES).putLong(PhaseChannel.pack(type, count)).array());
    }

    @Override
    public long next()
    {
        final byte[] command = job.allGather(NOTHING)[0];
        if (command.length != Long.BYTES)
        {
            throw new IllegalStateException("rank 0 sent a command of " + command.length + " bytes, not " +
                Long.BYTES);
        }
        return ByteBuffer.wrap(command).getLong();
    }

    @Override
    public void report(final byte[] report)
    {
        job.allGather(report);
    }

    @Override
    public byte[] awaitReport()
    {
        return job.allGather(NOTHING)[1];
    }
}
