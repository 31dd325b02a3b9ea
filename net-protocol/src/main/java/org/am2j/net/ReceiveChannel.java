package org.am2j.net;

/**
 * The receiving side of one channel (requests or replies) from one peer: which sequence numbers have been taken, so
 * that a duplicate is recognised and not delivered twice, and the acknowledgement owed to the peer. Owned by the NIC
 * agent's thread.
 * <p>
 * State: every sequence below {@link #next()} has been taken; bit {@code i} of {@link #bits()} says whether
 * {@code next + 1 + i} has. An honest sender never has more than the network depth (at most 64) messages
 * unacknowledged, so a sequence at or beyond {@code next + 65} is garbage.
 */
final class ReceiveChannel
{
    /** Not taken yet: deliver it. */
    static final int NEW = 0;
    /** Taken already: acknowledge again, do not deliver. */
    static final int DUPLICATE = 1;
    /** Outside the window: drop. */
    static final int OUT_OF_WINDOW = 2;

    private long next;
    private long bits;
    private boolean ackOwed;
    private int owedCount;
    private long ackDueNanos;

    /**
     * @param sequence of an arriving message.
     * @return {@link #NEW}, {@link #DUPLICATE} or {@link #OUT_OF_WINDOW}.
     */
    int check(final long sequence)
    {
        if (sequence < next)
        {
            return DUPLICATE;
        }
        if (sequence == next)
        {
            return NEW;
        }
        final long bit = sequence - next - 1;
        if (bit >= Long.SIZE)
        {
            return OUT_OF_WINDOW;
        }
        return 0 != (bits & (1L << bit)) ? DUPLICATE : NEW;
    }

    /**
     * Record a message as taken (delivered to its receive queue or answered).
     *
     * @param sequence a sequence {@link #check(long)} called {@link #NEW}.
     */
    void take(final long sequence)
    {
        if (sequence == next)
        {
            boolean nextTaken = step();
            while (nextTaken)
            {
                nextTaken = step();
            }
        }
        else if (sequence > next && sequence - next - 1 < Long.SIZE)
        {
            bits |= 1L << (sequence - next - 1);
        }
    }

    /**
     * The sender has given up every sequence below {@code floor} (it returned them to their senders after the
     * timeout): none of them will come again, and a late copy must not be delivered. Move past them.
     *
     * @param floor the sender's oldest sequence still in its window; ignored when not ahead of {@link #next()} or
     *              further ahead than an honest sender's window (then it is garbage).
     * @return true when {@link #next()} moved.
     */
    boolean skipTo(final long floor)
    {
        if (floor <= next || floor - next > Long.SIZE + 1)
        {
            return false;
        }
        boolean nextTaken = false;
        while (next < floor)
        {
            nextTaken = step();
        }
        while (nextTaken)
        {
            nextTaken = step();
        }
        return true;
    }

    /**
     * Advance {@link #next()} by one.
     *
     * @return whether the new next sequence has been taken already (bit 0 before the shift).
     */
    private boolean step()
    {
        final boolean nextTaken = 0 != (bits & 1);
        bits >>>= 1;
        next++;
        return nextTaken;
    }

    /**
     * An acknowledgement is owed: send it with the next datagram to the peer, or on its own when that has not
     * happened by {@code now + delay}.
     *
     * @param nowNanos   the time.
     * @param delayNanos longest wait.
     * @param batch      once this many messages are owed an acknowledgement, it is due at once (so a sender
     *                   streaming into a window of network depth is not held up by the delay).
     */
    void owe(final long nowNanos, final long delayNanos, final int batch)
    {
        final long due = ++owedCount >= batch ? nowNanos : nowNanos + delayNanos;
        if (!ackOwed || due < ackDueNanos)
        {
            ackDueNanos = due;
        }
        ackOwed = true;
    }

    /**
     * The acknowledgement state went out with a datagram.
     */
    void acknowledged()
    {
        ackOwed = false;
        owedCount = 0;
    }

    /**
     * @param nowNanos the time.
     * @return true when an acknowledgement is owed and due.
     */
    boolean ackDue(final long nowNanos)
    {
        return ackOwed && nowNanos - ackDueNanos >= 0;
    }

    /**
     * @return when the owed acknowledgement is due (meaningful while {@link #ackOwed()}).
     */
    long ackDueNanos()
    {
        return ackDueNanos;
    }

    boolean ackOwed()
    {
        return ackOwed;
    }

    long next()
    {
        return next;
    }

    long bits()
    {
        return bits;
    }
}
