package org.am2j.net;

import java.util.concurrent.locks.LockSupport;

import org.am2j.idle.CpuShare;

/**
 * Inline mode's safety net: a daemon thread that wakes every period and, when no host thread has called into the
 * NIC for a period and none sleeps in its selector, runs the NIC's duty cycle once ({@link NicAgent#keep(long)}).
 * Without it an inline NIC stands still while its process computes or waits outside am2j: nothing is acknowledged
 * or refused, and after the timeout the peers take the process for dead. The thread does nothing else: a host that
 * polls does all the work itself.
 * <p>
 * While the keeper has nothing to do, the period doubles after each visit, up to {@value #QUIET_PERIODS} periods:
 * when the NIC has neither network traffic nor armed timers ({@link #busy()}), and when its host calls
 * in on its own ({@link NicAgent#hostPresent(long)}: it polls, or sleeps in the selector), as in a ping-pong or in a
 * rank that shares its CPU with others and waits for them; and while the CPUs are oversubscribed ({@link CpuShare}):
 * then a host that is away is mostly a host off the CPU, which does the NIC's work itself when it gets the CPU back,
 * and a keeper's wake-up would take a CPU from a thread that has work (on the 32-rank all-to-all of {@code bin/am2j
 * scale}, 2 CPUs, the flood took 25-31 s with the keeper at one period, 17-18 s with it at 16). A rank of a
 * multi-protocol process that talks only through shared memory, or a polling rank, is then woken 60 times a second
 * rather than 1,000; with 16 ranks on a CPU, those wake-ups were a sixth of the machine. Each wake-up takes the CPU
 * from the rank (all of it when the rank is pinned to one): on the 3D FFT of the paper preset (2 ranks pinned to 2
 * CPUs) the local FFT phases of a multi-protocol rank ran 5-20 % slower than a shared-memory-only rank's, and as
 * fast with the keeper off. A visit that does the NIC's work, or finds traffic or timers while the host is away,
 * brings the period back to one, on CPUs that are not oversubscribed. The cost: the first datagram after the host
 * leaves (to compute, say), or after a quiet spell, waits up to {@value #QUIET_PERIODS} periods (16 ms by default)
 * for its acknowledgement, and its sender may retransmit it meanwhile; the timeouts that decide a peer's fate are
 * seconds.
 */
final class NicKeeper implements Runnable
{
    /** The longest sleep of a quiet NIC's keeper, in periods. */
    static final int QUIET_PERIODS = 16;

    private final NicAgent nic;
    private final long periodNanos;
    private final CpuShare share;
    private volatile boolean running = true;
    /** The NIC's datagram counts at the last visit (the keeper thread's alone). */
    private long seenTraffic;
    private final Thread thread;

    NicKeeper(final NicAgent nic, final long periodNanos, final CpuShare share)
    {
        this.nic = nic;
        this.periodNanos = periodNanos;
        this.share = share;
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
        long sleep = periodNanos;
        while (running)
        {
            LockSupport.parkNanos(this, sleep);
            if (running)
            {
                final boolean worked = nic.keep(periodNanos);
                final boolean busy = busy();
                sleep = nextSleep(sleep, periodNanos,
                    needed(worked, busy, nic.hostPresent(periodNanos), share.oversubscribed()));
            }
        }
    }

    /**
     * Whether the NIC had network traffic (datagrams sent or received, wake-ups from shared-memory senders not
     * counted) since the last visit, or has timers armed (messages in flight, acknowledgements owed).
     *
     * Called by the keeper thread only (tests call it on a keeper not started).
     *
     * @return true when the keeper should come back after one period.
     */
    boolean busy()
    {
        final NicCounters counters = nic.counters();
        final long traffic = counters.get(NicEvent.DATAGRAMS_SENT) + counters.get(NicEvent.DATAGRAMS_RECEIVED) -
            counters.get(NicEvent.WAKEUPS);
        final boolean busy = traffic != seenTraffic || nic.hasTimers();
        seenTraffic = traffic;
        return busy;
    }

    /**
     * @param worked      whether the visit did the NIC's work.
     * @param busy        whether the NIC had network traffic or armed timers since the last visit.
     * @param hostPresent whether a host tends the NIC itself (polls, or sleeps in the selector).
     * @param crowded     whether more threads are runnable than there are CPUs ({@link CpuShare}).
     * @return whether the keeper should come back after one period.
     */
    static boolean needed(final boolean worked, final boolean busy, final boolean hostPresent, final boolean crowded)
    {
        return !crowded && (worked || (busy && !hostPresent));
    }

    /**
     * @param sleep  the sleep just ended.
     * @param period the keeper's period.
     * @param busy   whether the keeper is needed: it did the NIC's work, or the NIC had network traffic or armed
     *               timers while its host was away.
     * @return the next sleep: one period when busy, else twice the last, at most {@value #QUIET_PERIODS} periods.
     */
    static long nextSleep(final long sleep, final long period, final boolean busy)
    {
        return busy ? period : Math.min(sleep * 2, period * QUIET_PERIODS);
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
