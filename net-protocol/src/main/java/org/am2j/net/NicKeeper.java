package org.am2j.net;

import java.util.concurrent.locks.LockSupport;

/**
 * Inline mode's safety net: a daemon thread that wakes every period and, when no host thread has called into the
 * NIC for a period and none sleeps in its selector, runs the NIC's duty cycle once ({@link NicAgent#keep(long)}).
 * Without it an inline NIC stands still while its process computes or waits outside am2j: nothing is acknowledged
 * or refused, and after the timeout the peers take the process for dead. The thread does nothing else: a host that
 * polls does all the work itself, and one wake-up per period costs a few microseconds of CPU.
 */
final class NicKeeper implements Runnable
{
    private final NicAgent nic;
    private final long periodNanos;
    private volatile boolean running = true;
    private final Thread thread;

    NicKeeper(final NicAgent nic, final long periodNanos)
    {
        this.nic = nic;
        this.periodNanos = periodNanos;
        this.thread = new Thread(this, "am2j-nic-keeper");
        thread.setDaemon(true);
    }

    void start()
    {
        thread.start();
    }

    @Override
    public void run()
    {
        while (running)
        {
            LockSupport.parkNanos(this, periodNanos);
            if (running)
            {
                nic.keep(periodNanos);
            }
        }
    }

    /**
     * Stop the thread and wait for it (briefly) so it does not touch a closed socket.
     */
    void close()
    {
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(1000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
