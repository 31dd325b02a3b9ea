package org.am2j.net;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The NIC's counters, one per {@link NicEvent}: written by the NIC agent, readable from any thread.
 */
final class NicCounters
{
    private static final NicEvent[] EVENTS = NicEvent.values();
    private final AtomicLongArray counts = new AtomicLongArray(EVENTS.length);

    /**
     * @param event one more of it.
     */
    void increment(final NicEvent event)
    {
        // Single writer (the agent): an ordered store is enough for readers on other threads.
        counts.lazySet(event.ordinal(), counts.get(event.ordinal()) + 1);
    }

    /**
     * One more, from a thread that does not hold the agent (an atomic add).
     *
     * @param event what happened.
     */
    void incrementShared(final NicEvent event)
    {
        counts.getAndIncrement(event.ordinal());
    }

    /**
     * @param event a counter.
     * @return its value.
     */
    long get(final NicEvent event)
    {
        return counts.get(event.ordinal());
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("nic{");
        for (final NicEvent event : EVENTS)
        {
            final long value = get(event);
            if (0 != value)
            {
                text.append(event.name().toLowerCase()).append('=').append(value).append(' ');
            }
        }
        return text.append('}').toString();
    }
}
