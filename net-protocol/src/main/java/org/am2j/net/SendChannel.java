package org.am2j.net;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sending side of one channel (requests, or replies and returned messages) to one peer: the retransmission
 * window of at most network-depth messages and the credits that bound it.
 * <p>
 * <b>Credits.</b> A host thread takes a credit ({@link #tryAcquire(int)}) before it queues a message for this
 * channel; the NIC gives credits back as the oldest end of the window advances. Invariant: messages queued plus
 * messages in the window never exceed the depth, so the slot the NIC assigns next ({@code sequence mod depth}) is
 * always free, and a slow receiver throttles its senders (they see {@code FULL}) instead of losing messages.
 * Everything but the credit counter is owned by the NIC agent's thread.
 */
final class SendChannel
{
    private final WindowSlot[] slots;
    private final int depth;
    private final AtomicInteger credits;
    private long nextSequence;
    private long oldest;
    /** The first sequence of the current session: everything below was resolved, or is being returned, before it. */
    private long sessionBase;

    SendChannel(final int depth)
    {
        this.depth = depth;
        this.slots = new WindowSlot[depth];
        for (int i = 0; i < depth; i++)
        {
            slots[i] = new WindowSlot();
        }
        this.credits = new AtomicInteger(depth);
    }

    /**
     * Take credits for messages about to be queued (any thread).
     *
     * @param count credits needed.
     * @return true when taken; false when the window is full.
     */
    boolean tryAcquire(final int count)
    {
        while (true)
        {
            final int available = credits.get();
            if (available < count)
            {
                return false;
            }
            // CAS: credits never go below zero, so the window never holds more than depth messages.
            if (credits.compareAndSet(available, available - count))
            {
                return true;
            }
        }
    }

    /**
     * Give back credits of messages that will not be sent after all, or whose slots have been freed.
     *
     * @param count credits.
     */
    void release(final int count)
    {
        credits.getAndAdd(count);
    }

    /**
     * The slot {@link #assign()} hands out next, not assigned yet: a caller that holds a credit and the NIC may write
     * a message into it before assigning it (the credit keeps the window from holding {@code depth} messages, so the
     * slot is not in flight).
     *
     * @return the slot of the next sequence number (NIC thread).
     */
    WindowSlot next()
    {
        return slots[(int)(nextSequence % depth)];
    }

    /**
     * @return the slot of the next sequence number, marked in flight (NIC thread; a credit was taken for it).
     */
    WindowSlot assign()
    {
        final WindowSlot slot = slots[(int)(nextSequence % depth)];
        slot.sequence = nextSequence++;
        slot.inFlight = true;
        slot.givingUp = false;
        slot.returnStatus = 0;
        slot.retransmits = 0;
        slot.log = null;
        slot.sentIn = null;
        return slot;
    }

    /**
     * Apply a peer's acknowledgement state.
     *
     * @param next     every sequence below it has been taken by the peer.
     * @param bits     bit i: sequence next + 1 + i has been taken.
     * @param nowNanos the time, for round-trip samples.
     * @param rtt      estimator fed with the round trips of messages sent once.
     * @return number of slots freed, or -1 when the acknowledgement names sequences never sent (it is ignored).
     */
    int acknowledge(final long next, final long bits, final long nowNanos, final RttEstimator rtt)
    {
        if (next > nextSequence || next < 0)
        {
            return -1;
        }
        if (oldest == nextSequence || next < oldest && 0 == bits)
        {
            return 0;
        }
        int freed = 0;
        final long end = Math.min(nextSequence, next + 1 + Long.SIZE);
        for (long sequence = oldest; sequence < end; sequence++)
        {
            // The peer's next expected sequence itself is not taken; (sequence - next - 1) is then -1, which a
            // shift would wrap to bit 63.
            final boolean taken = sequence < next || (sequence > next && 0 != (bits & (1L << (sequence - next - 1))));
            if (taken)
            {
                final WindowSlot slot = slots[(int)(sequence % depth)];
                // A slot being given up is resolved by the peer's answer alone: the peer marks a sequence it gives
                // up as taken, so an acknowledgement cannot tell whether the message ran there. One resolved as
                // returned (waiting for room in its sender's queue) is not the peer's to acknowledge.
                if (slot.inFlight && slot.sequence == sequence && !slot.givingUp && 0 == slot.returnStatus)
                {
                    if (0 == slot.retransmits)
                    {
                        rtt.sample(nowNanos - slot.lastSentNanos);
                    }
                    slot.inFlight = false;
                    slot.resolved();
                    freed++;
                }
            }
        }
        advance();
        return freed;
    }

    /**
     * The message in the slot is done without an acknowledgement: the peer answered a give-up (it gave the message
     * up, or had taken it already), or the peer died.
     *
     * @param slot in flight in this channel.
     */
    void complete(final WindowSlot slot)
    {
        slot.inFlight = false;
        slot.givingUp = false;
        slot.returnStatus = 0;
        slot.resolved();
        advance();
    }

    /**
     * @param sequence a sequence number.
     * @return its slot when it is in the window and unresolved, else null.
     */
    WindowSlot inFlight(final long sequence)
    {
        if (sequence < oldest || sequence >= nextSequence)
        {
            return null;
        }
        final WindowSlot slot = slots[(int)(sequence % depth)];
        return slot.inFlight && slot.sequence == sequence ? slot : null;
    }

    private void advance()
    {
        long moved = 0;
        while (oldest < nextSequence && !slots[(int)(oldest % depth)].inFlight)
        {
            oldest++;
            moved++;
        }
        if (moved > 0)
        {
            release((int)moved);
        }
    }

    /**
     * @return true when messages are waiting for acknowledgement.
     */
    boolean hasInFlight()
    {
        return oldest < nextSequence;
    }

    long oldest()
    {
        return oldest;
    }

    /**
     * @return the channel's floor, as every datagram carries it: its oldest unresolved sequence of the current session
     *         (the peer's receive state of a new session starts there).
     */
    long floor()
    {
        return Math.max(oldest, sessionBase);
    }

    /**
     * A new session replaced the one the in-flight messages were sent in: the peer knows nothing of them. The caller
     * has resolved everything below the new session's first sequence (the messages above it never left, and go out
     * in the new session).
     *
     * @param base the first sequence of the new session.
     */
    void restart(final long base)
    {
        sessionBase = base;
    }

    long nextSequence()
    {
        return nextSequence;
    }

    /**
     * @param sequence in [{@link #oldest()}, {@link #nextSequence()}).
     * @return its slot (check {@link WindowSlot#inFlight}).
     */
    WindowSlot slot(final long sequence)
    {
        return slots[(int)(sequence % depth)];
    }

    int credits()
    {
        return credits.get();
    }
}
