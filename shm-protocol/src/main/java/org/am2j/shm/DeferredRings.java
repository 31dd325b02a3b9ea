package org.am2j.shm;

import org.am2j.idle.CpuShare;

/**
 * The doorbells this process owes a ring and has not rung yet: while the CPUs are oversubscribed, a sender that takes
 * a sleeping peer's ring ({@link QueueBlock#takeRing()}) keeps it here instead of ringing at once, so that the peer
 * wakes once for everything sent to it until the sender's next poll, not for the first message of it.
 * <p>
 * Why: with more runnable threads than CPUs, a woken peer competes for the CPU with its waker. Rung at the first
 * message, it runs (often preempting the sender), handles that one message, finds nothing more and sleeps again; the
 * next message wakes it again. Rung when the sender has sent its burst, it handles the burst in one turn.
 * <p>
 * The owed rings are rung, all of them, at the next of: a poll of any bundle by any thread of this process (once per
 * poll, before its endpoints' queues are looked at: {@link ShmTransport#beforePoll()}), a sleep ({@code waitSema()}
 * publishing the sleeping flags), a send that finds a queue full (the sender is about to back off), and the close of an
 * endpoint or of the transport. A thread that sends and then neither polls nor sleeps (it computes, or waits outside
 * am2j) leaves the peer asleep until the peer's sleep slice ends ({@code am2j.sleepSliceMs}, and a Split-C wait's
 * shorter one), after which the peer looks at its queues by itself. With a CPU to spare (not oversubscribed, or
 * {@code am2j.idle=spin}) every ring goes out at once.
 * <p>
 * At most {@value #CAPACITY} rings are kept; one more is rung at once. A doorbell may be kept twice (its process
 * slept again and was taken again): it is then rung twice, which costs a system call and nothing else.
 */
final class DeferredRings
{
    /** Rings kept at most before one is rung at once. */
    static final int CAPACITY = 64;

    private final CpuShare share;
    private final Doorbell[] owed = new Doorbell[CAPACITY];
    /** Rings in {@link #owed}: written under this object's monitor, read without it by {@link #flush()}. */
    private volatile int count;
    private long deferred;
    private long flushes;

    DeferredRings(final CpuShare share)
    {
        this.share = share;
    }

    /**
     * Ring a doorbell whose ring the caller took: now, or at the next flush point while the CPUs are oversubscribed.
     *
     * @param doorbell of the sleeping destination process.
     */
    void ring(final Doorbell doorbell)
    {
        if (share.oversubscribed())
        {
            synchronized (this)
            {
                final int n = count;
                if (n < CAPACITY)
                {
                    owed[n] = doorbell;
                    deferred++;
                    // Volatile store after the slot: a flush that reads the count under the monitor sees the slot.
                    count = n + 1;
                    return;
                }
            }
        }
        doorbell.ring();
    }

    /**
     * Ring every owed doorbell. Cheap when none is owed (one volatile read): called once on every poll.
     */
    void flush()
    {
        if (0 != count)
        {
            ringOwed();
        }
    }

    private synchronized void ringOwed()
    {
        final int n = count;
        for (int i = 0; i < n; i++)
        {
            final Doorbell doorbell = owed[i];
            owed[i] = null;
            doorbell.ring();
        }
        if (0 != n)
        {
            flushes++;
        }
        count = 0;
    }

    /**
     * @return rings owed now.
     */
    int owed()
    {
        return count;
    }

    /**
     * @return rings kept for a later flush since the transport opened.
     */
    synchronized long deferred()
    {
        return deferred;
    }

    /**
     * @return flushes that rang at least one doorbell since the transport opened.
     */
    synchronized long flushes()
    {
        return flushes;
    }
}
