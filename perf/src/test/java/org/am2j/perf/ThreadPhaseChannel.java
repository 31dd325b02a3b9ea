package org.am2j.perf;

import java.util.concurrent.SynchronousQueue;

/**
 * A {@link PhaseChannel} between two threads of one JVM, for tests that run both ranks of a pair in-process: each
 * command and each report is handed over through a {@link SynchronousQueue}, a rendezvous as in the job's
 * all-gather.
 */
final class ThreadPhaseChannel implements PhaseChannel
{
    private final SynchronousQueue<Long> commands = new SynchronousQueue<>();
    private final SynchronousQueue<byte[]> reports = new SynchronousQueue<>();

    @Override
    public void command(final int type, final int count)
    {
        try
        {
            commands.put(PhaseChannel.pack(type, count));
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public long next()
    {
        try
        {
            return commands.take();
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void report(final byte[] report)
    {
        try
        {
            reports.put(report.clone());
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public byte[] awaitReport()
    {
        try
        {
            return reports.take();
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
