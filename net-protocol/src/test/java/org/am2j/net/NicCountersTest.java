package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A NIC opened through its transport context counts in the context's counters (the process's counters file, where
 * {@code bin/am2j stat} reads them), one labelled counter per {@link NicEvent}.
 */
@Timeout(30)
class NicCountersTest
{
    /** A test context whose counters live in a counters manager over heap buffers, like the runtime's file. */
    private static final class CountingContext extends TestContext
    {
        final CountersManager manager = new CountersManager(
            new UnsafeBuffer(new byte[64 * CountersReader.METADATA_LENGTH]),
            new UnsafeBuffer(new byte[64 * CountersReader.COUNTER_LENGTH]));

        CountingContext()
        {
            super(7, "nic", "inline", "keeperUs", "0");
        }

        @Override
        public AtomicCounter counter(final String transport, final String name)
        {
            return manager.newCounter(transport + " " + name);
        }

        Map<String, Long> values()
        {
            final Map<String, Long> values = new HashMap<>();
            manager.forEach((value, id, label) -> values.put(label, value));
            return values;
        }
    }

    @Test
    void everyNicEventHasALabelledCounterInTheContextAndIncrementsLandThere()
    {
        final CountingContext context = new CountingContext();
        final NicCounters counters = new NicCounters(context);
        counters.increment(NicEvent.EMPTY_RECEIVES);
        counters.increment(NicEvent.EMPTY_RECEIVES);
        counters.increment(NicEvent.IO_ERRORS);

        final Map<String, Long> values = context.values();
        assertEquals(NicEvent.values().length, values.size(), values.toString());
        for (final NicEvent event : NicEvent.values())
        {
            final String label = "net nic " + event.name().toLowerCase(java.util.Locale.ROOT);
            assertTrue(values.containsKey(label), label + " in " + values);
        }
        assertEquals(2L, values.get("net nic empty_receives"));
        assertEquals(1L, values.get("net nic io_errors"));
        assertEquals(0L, values.get("net nic datagrams_sent"));
        assertEquals(2, counters.get(NicEvent.EMPTY_RECEIVES));
    }

    @Test
    void aTransportOpenedFromItsContextCountsItsNicThere()
    {
        final CountingContext context = new CountingContext();
        final NetTransport transport = new NetTransport(context);
        try
        {
            // An inline NIC's duty cycle reads the socket; finding nothing is counted.
            transport.nic().doWork();
            assertTrue(context.values().get("net nic empty_receives") >= 1, context.values().toString());
            assertEquals(transport.nic().counters().get(NicEvent.EMPTY_RECEIVES),
                context.values().get("net nic empty_receives"));
        }
        finally
        {
            transport.close();
        }
    }

    @Test
    void anEventCountedFromSeveralThreadsLosesNoCount() throws InterruptedException
    {
        // IO_ERRORS is counted by the agent and by host threads blocking in the wire at the same time.
        final NicCounters counters = new NicCounters();
        final int perThread = 1_000_000;
        final CyclicBarrier start = new CyclicBarrier(2);
        final Runnable count = () ->
        {
            try
            {
                // Both writers start together, so their increments overlap even where threads run one at a time.
                start.await(10, TimeUnit.SECONDS);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
            for (int i = 0; i < perThread; i++)
            {
                counters.increment(NicEvent.IO_ERRORS);
            }
        };
        final Thread other = new Thread(count, "other writer");
        other.start();
        count.run();
        other.join();
        assertEquals(2L * perThread, counters.get(NicEvent.IO_ERRORS));
        assertTrue(NicEvent.IO_ERRORS.hasSeveralWriters());
        assertFalse(NicEvent.DATAGRAMS_SENT.hasSeveralWriters());
    }
}
