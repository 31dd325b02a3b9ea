package org.am2j.core.stats;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * How a group of counters is written: by one thread at a time (a SEQ bundle), by any threads (a PAR bundle), or not
 * at all (closed). Allocation free.
 * <p>
 * {@link ProtocolCounters} counts messages, bytes and polls of a single writer in plain fields of its own and publishes
 * them; the increments here serve the other counters.
 * <p>
 * {@link #SINGLE_WRITER} uses a plain read and a release store ({@link AtomicCounter#incrementRelease()}): correct
 * when each counter has one writing thread at a time and writers hand over with a happens-before edge (the SEQ
 * bundle's lock); a reader in another process sees each value complete and never going backwards.
 * {@link #MANY_WRITERS} uses an atomic read-modify-write ({@link AtomicCounter#increment()}), correct for any
 * number of concurrent writers.
 */
final class WriterMode
{
    /** The counters are freed: increments are ignored so they never land in a reused counter. */
    static final int CLOSED = 0;

    /** One writer thread at a time: release increments. */
    static final int SINGLE_WRITER = 1;

    /** Any number of writer threads: atomic increments. */
    static final int MANY_WRITERS = 2;

    private WriterMode()
    {
    }

    /**
     * @param singleWriter true for one writer thread at a time.
     * @return {@link #SINGLE_WRITER} or {@link #MANY_WRITERS}.
     */
    static int of(final boolean singleWriter)
    {
        return singleWriter ? SINGLE_WRITER : MANY_WRITERS;
    }

    /**
     * Add one to a counter as the mode says.
     *
     * @param mode    the current mode.
     * @param counter to bump.
     */
    static void increment(final int mode, final AtomicCounter counter)
    {
        if (SINGLE_WRITER == mode)
        {
            counter.incrementRelease();
        }
        else if (MANY_WRITERS == mode)
        {
            counter.increment();
        }
    }

    /**
     * Add to a counter as the mode says.
     *
     * @param mode    the current mode.
     * @param counter to add to.
     * @param delta   to add.
     */
    static void add(final int mode, final AtomicCounter counter, final long delta)
    {
        if (SINGLE_WRITER == mode)
        {
            counter.getAndAddRelease(delta);
        }
        else if (MANY_WRITERS == mode)
        {
            counter.getAndAdd(delta);
        }
    }

    /**
     * Add one to a counter that any thread may bump, unless closed.
     *
     * @param mode    the current mode.
     * @param counter to bump.
     */
    static void incrementShared(final int mode, final AtomicCounter counter)
    {
        if (CLOSED != mode)
        {
            counter.increment();
        }
    }
}
