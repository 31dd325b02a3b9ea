package org.am2j.perf;

import java.nio.ByteBuffer;

import org.am2j.spmd.Job;

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
     * @param job of two ranks.
     */
    JobPhaseChannel(final Job job)
    {
        this.job = job;
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
