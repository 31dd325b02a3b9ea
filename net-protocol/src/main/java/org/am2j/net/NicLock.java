package org.am2j.net;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The lock of an inline NIC ({@link NicMode#INLINE}): at most one thread runs the NIC's steps at a time, and a thread
 * that finds it taken leaves the work to the holder, who looks at the send queues again (and sends what direct sends
 * held, when a thread asked for it) as it gives the NIC back. In {@link NicMode#THREAD} mode only the agent thread
 * takes it, and giving it back does nothing more.
 */
final class NicLock
{
    /** Most passes of a host's send over the send queues (others' messages included) before it leaves them. */
    private static final int SEND_PASSES = 4;

    private final AtomicBoolean lock = new AtomicBoolean();
    private final boolean inline;
    private final EndpointTable endpoints;
    private final SendQueues sendQueues;
    private final NicClock clock;
    /** A thread found the NIC taken when it wanted held sends out: the holder sends them as it gives the NIC back. */
    private volatile boolean flushWanted;

    NicLock(final boolean inline, final EndpointTable endpoints, final SendQueues sendQueues, final NicClock clock)
    {
        this.inline = inline;
        this.endpoints = endpoints;
        this.sendQueues = sendQueues;
        this.clock = clock;
    }

    /**
     * @return true when this thread now holds the NIC.
     */
    boolean tryLock()
    {
        // CAS: at most one thread runs the agent's steps at a time; the agent's state is never shared.
        return !lock.get() && lock.compareAndSet(false, true);
    }

    /**
     * Give the NIC back; then, inline, drain what other threads queued meanwhile (a few passes at most).
     */
    void unlock()
    {
        // Ordered store: everything the holder wrote is visible to the next thread that takes the lock.
        lock.setRelease(false);
        // A host that queued a message while we held the lock found it taken and left the message to us: look
        // again (a few passes at most, so that no caller drains another thread's stream for ever). The same for a
        // host that wanted held sends out (flushHeld): the drain sends them.
        for (int pass = 0; pass < SEND_PASSES && inline && (endpoints.hasQueuedSends() || flushWanted) && tryLock();
            pass++)
        {
            try
            {
                flushWanted = false;
                clock.nowNanos = System.nanoTime();
                sendQueues.drain();
            }
            finally
            {
                lock.setRelease(false);
            }
        }
    }

    /**
     * Ask for held sends to go out: before a lock attempt, so that either the attempt finds the NIC free or the
     * holder sees the request as it gives the NIC back.
     */
    void wantFlush()
    {
        // Volatile store before the lock attempt, as the holder's release of the lock comes before its read of the
        // flag (unlock): either our attempt finds the NIC free, or the holder sees the flag.
        flushWanted = true;
    }

    /**
     * The holder is about to send what is held: the request is served.
     */
    void flushing()
    {
        flushWanted = false;
    }
}
