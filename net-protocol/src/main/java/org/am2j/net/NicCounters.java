package org.am2j.net;

import java.util.Locale;

import org.agrona.concurrent.status.AtomicCounter;
import org.am2j.spi.TransportContext;

/**
 * The NIC's counters, one per {@link NicEvent}: written by the NIC agent (and, for the events that say so, by hosts
 * too: {@link NicEvent#hasSeveralWriters()}), readable from any thread, and, for a NIC opened by the runtime, from
 * other processes through the counters file ({@code bin/am2j stat}, labelled {@code "net nic <event>"}).
 */
final class NicCounters
{
    private static final NicEvent[] EVENTS = NicEvent.values();
    private final AtomicCounter[] counts = new AtomicCounter[EVENTS.length];

    /**
     * Counters in private memory, for a NIC built without a runtime (tests).
     */
    NicCounters()
    {
        for (int i = 0; i < counts.length; i++)
        {
            counts[i] = TransportContext.privateCounter();
        }
    }

    /**
     * @param context whose counters file holds the counters.
     */
    NicCounters(final TransportContext context)
    {
        for (final NicEvent event : EVENTS)
        {
            counts[event.ordinal()] = context.counter(NetTransport.NAME, "nic " + name(event));
        }
    }

    /**
     * @param event one more of it.
     */
    void increment(final NicEvent event)
    {
        final AtomicCounter count = counts[event.ordinal()];
        if (event.hasSeveralWriters())
        {
            // Atomic add: another thread may add to this counter at the same time.
            count.increment();
        }
        else
        {
            // Single writer (the agent): a release store is enough for readers on other threads and in other
            // processes.
            count.incrementRelease();
        }
    }

    /**
     * @param event a gauge ({@link NicEvent#OUTSTANDING}), written by the agent only.
     * @param value its value now.
     */
    void set(final NicEvent event, final long value)
    {
        // Single writer (the agent): a release store is enough for readers elsewhere.
        counts[event.ordinal()].setRelease(value);
    }

    /**
     * @param event a counter.
     * @return its value.
     */
    long get(final NicEvent event)
    {
        return counts[event.ordinal()].get();
    }

    private static String name(final NicEvent event)
    {
        return event.name().toLowerCase(Locale.ROOT);
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
                text.append(name(event)).append('=').append(value).append(' ');
            }
        }
        return text.append('}').toString();
    }
}
