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
    /** Answer to a give-up: the message was given up and will never be delivered. */
    static final int GIVEN_UP = 3;
    /** Answer to a give-up: the message had been taken (delivered or answered) before the give-up came. */
    static final int DELIVERED = 4;

    private long next;
    private long bits;
    /** The sender's floor as last heard: it has resolved everything below. */
    private long floor;
    /** Bit i: sequence {@code floor + i} was given up at the sender's request. */
    private long givenUp;
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
            // Step past it, and past every later sequence taken already.
            while (step())
            {
                continue;
            }
        }
        else if (sequence > next && sequence - next - 1 < Long.SIZE)
        {
            bits |= 1L << (sequence - next - 1);
        }
    }

    /**
     * The sender asks to give up a sequence it has not had acknowledged ({@link WireDescriptor#TYPE_GIVE_UP}). A
     * sequence not taken yet is taken now without being delivered, so no later copy of it is ever delivered, and is
     * remembered as given up until the sender's floor passes it, so that a repeated request (the answer was lost) is
     * answered the same way.
     *
     * @param sequence the sequence the sender gives up.
     * @return {@link #GIVEN_UP} when it was (now or before) given up, {@link #DELIVERED} when it had been taken
     *         before the request came, {@link #OUT_OF_WINDOW} when it is outside what an honest sender can ask.
     */
    int giveUp(final long sequence)
    {
        if (sequence < floor || sequence - floor >= Long.SIZE)
        {
            return OUT_OF_WINDOW;
        }
        final long mask = 1L << (sequence - floor);
        if (0 != (givenUp & mask))
        {
            return GIVEN_UP;
        }
        final int state = check(sequence);
        if (state == OUT_OF_WINDOW)
        {
            return OUT_OF_WINDOW;
        }
        if (state == DUPLICATE)
        {
            return DELIVERED;
        }
        take(sequence);
        givenUp |= mask;
        return GIVEN_UP;
    }

    /**
     * The sender's floor (its oldest unresolved sequence) arrived with a datagram: it has its answers for every
     * sequence below it, so what was given up below it can be forgotten. An honest sender's floor never passes
     * {@link #next()}: it moves only past sequences this side has taken.
     *
     * @param senderFloor the floor in the datagram; ignored when not ahead of the one known (datagrams may come out of
     *                    order) or beyond {@link #next()} (garbage).
     */
    void floor(final long senderFloor)
    {
        if (senderFloor <= floor || senderFloor > next)
        {
            return;
        }
        final long shift = senderFloor - floor;
        givenUp = shift >= Long.SIZE ? 0 : givenUp >>> shift;
        floor = senderFloor;
    }

    /**
     * The first datagram of a new session arrived: everything below the sender's floor it carried was resolved before
     * the session began, and what this side remembers of earlier sessions does not apply to this one.
     *
     * @param senderFloor the floor in that datagram.
     */
    void anchor(final long senderFloor)
    {
        next = senderFloor;
        bits = 0;
        floor = senderFloor;
        givenUp = 0;
        ackOwed = false;
        owedCount = 0;
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
