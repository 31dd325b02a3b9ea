package org.am2j.core.stats;

import java.util.Locale;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.am2j.api.EndpointStatistics;
import org.am2j.spi.TransportCounters;

/**
 * The counters of one endpoint on one transport: one {@link AtomicCounter} in the counters file for each
 * {@link EndpointStatistics.Counter}, labelled like {@code ep 3 [inproc] requests sent}. Obtain one with
 * {@link EndpointCounters#transport(String)}.
 * <p>
 * The {@code on...} methods are for the core's send, dispatch and poll paths and allocate nothing. Under
 * {@linkplain #singleWriter(boolean) single-writer} mode they use release increments, which are correct while one
 * thread at a time counts (a SEQ bundle); otherwise atomic increments (a PAR bundle). The {@link TransportCounters}
 * methods are called by transports, possibly from their own threads (a NIC agent), and always increment atomically;
 * they count rare events.
 * <p>
 * Once freed by the endpoint counters' {@code close()}, increments are ignored and {@link #get} returns the last
 * values.
 */
public final class ProtocolCounters implements TransportCounters
{
    private static final EndpointStatistics.Counter[] COUNTERS = EndpointStatistics.Counter.values();

    private final String transport;
    private final AtomicCounter[] counters;
    private final AtomicCounter requestsSent;
    private final AtomicCounter repliesSent;
    private final AtomicCounter requestsReceived;
    private final AtomicCounter repliesReceived;
    private final AtomicCounter bytesSent;
    private final AtomicCounter bytesReceived;
    private final AtomicCounter polls;
    private final AtomicCounter queueFullBackoffs;
    private final AtomicCounter retransmits;
    private final AtomicCounter drops;

    /**
     * A {@link WriterMode}: written under the monitor of the owning {@link EndpointCounters}, read by every increment
     * on any thread; volatile so a mode change (an endpoint moved between bundles) is seen by the next increment.
     */
    private volatile int mode;

    /** The values at close, published (volatile) before the counters are freed; null while open. */
    private volatile long[] closedValues;

    /**
     * Allocate the counters of one endpoint on one transport.
     *
     * @param countersManager to allocate from (thread-safe, see {@link CountersFile#countersManager()}).
     * @param endpointId      the endpoint's id, for labels and keys.
     * @param transport       the transport's name, already validated.
     * @param singleWriter    the initial writer mode.
     */
    ProtocolCounters(
        final CountersManager countersManager, final int endpointId, final String transport, final boolean singleWriter)
    {
        this.transport = transport;
        this.counters = new AtomicCounter[COUNTERS.length];
        try
        {
            for (final EndpointStatistics.Counter counter : COUNTERS)
            {
                final int index = counter.ordinal();
                counters[index] = countersManager.newCounter(
                    "ep " + endpointId + " [" + transport + "] " + labelOf(counter),
                    EndpointCounterDescriptor.TRANSPORT_COUNTER_TYPE_ID,
                    (key) -> EndpointCounterDescriptor.writeKey(key, endpointId, index, transport));
            }
        }
        catch (final RuntimeException ex)
        {
            for (final AtomicCounter counter : counters)
            {
                if (null != counter)
                {
                    counter.close();
                }
            }
            throw ex;
        }

        requestsSent = counters[EndpointStatistics.Counter.REQUESTS_SENT.ordinal()];
        repliesSent = counters[EndpointStatistics.Counter.REPLIES_SENT.ordinal()];
        requestsReceived = counters[EndpointStatistics.Counter.REQUESTS_RECEIVED.ordinal()];
        repliesReceived = counters[EndpointStatistics.Counter.REPLIES_RECEIVED.ordinal()];
        bytesSent = counters[EndpointStatistics.Counter.BYTES_SENT.ordinal()];
        bytesReceived = counters[EndpointStatistics.Counter.BYTES_RECEIVED.ordinal()];
        polls = counters[EndpointStatistics.Counter.POLLS.ordinal()];
        queueFullBackoffs = counters[EndpointStatistics.Counter.QUEUE_FULL_BACKOFFS.ordinal()];
        retransmits = counters[EndpointStatistics.Counter.RETRANSMITS.ordinal()];
        drops = counters[EndpointStatistics.Counter.DROPS.ordinal()];
        mode = WriterMode.of(singleWriter);
    }

    /**
     * @param counter a counter kind.
     * @return the words its label ends with, e.g. "requests sent".
     */
    public static String labelOf(final EndpointStatistics.Counter counter)
    {
        return counter.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /**
     * @return the transport's name.
     */
    public String transport()
    {
        return transport;
    }

    /**
     * One more request sent.
     */
    public void onRequestSent()
    {
        WriterMode.increment(mode, requestsSent);
    }

    /**
     * One more reply sent.
     */
    public void onReplySent()
    {
        WriterMode.increment(mode, repliesSent);
    }

    /**
     * One more request whose handler ran here.
     */
    public void onRequestReceived()
    {
        WriterMode.increment(mode, requestsReceived);
    }

    /**
     * One more reply whose handler ran here.
     */
    public void onReplyReceived()
    {
        WriterMode.increment(mode, repliesReceived);
    }

    /**
     * @param bytes data bytes of a medium or long message sent.
     */
    public void onBytesSent(final int bytes)
    {
        WriterMode.add(mode, bytesSent, bytes);
    }

    /**
     * @param bytes data bytes of a medium or long message received.
     */
    public void onBytesReceived(final int bytes)
    {
        WriterMode.add(mode, bytesReceived, bytes);
    }

    /**
     * One more poll of the transport.
     */
    public void onPoll()
    {
        WriterMode.increment(mode, polls);
    }

    /**
     * {@inheritDoc}
     */
    public void queueFullBackoff()
    {
        WriterMode.incrementShared(mode, queueFullBackoffs);
    }

    /**
     * {@inheritDoc}
     */
    public void retransmit()
    {
        WriterMode.incrementShared(mode, retransmits);
    }

    /**
     * {@inheritDoc}
     */
    public void drop()
    {
        WriterMode.incrementShared(mode, drops);
    }

    /**
     * @param counter what to read; not null.
     * @return its current value, or its value at close once closed.
     */
    public long get(final EndpointStatistics.Counter counter)
    {
        final long[] values = closedValues;
        return null != values ? values[counter.ordinal()] : counters[counter.ordinal()].get();
    }

    /**
     * @return true while increments use release stores for a single writer thread.
     */
    public boolean isSingleWriter()
    {
        return WriterMode.SINGLE_WRITER == mode;
    }

    /**
     * @param counter a counter kind.
     * @return the id in the counters file of this transport's counter of that kind, for readers and tests.
     */
    public int counterId(final EndpointStatistics.Counter counter)
    {
        return counters[counter.ordinal()].id();
    }

    /**
     * Set the writer mode; ignored once closed. Called by {@link EndpointCounters#singleWriter(boolean)}.
     *
     * @param singleWriter true when one thread at a time counts.
     */
    void singleWriter(final boolean singleWriter)
    {
        if (WriterMode.CLOSED != mode)
        {
            mode = WriterMode.of(singleWriter);
        }
    }

    /**
     * Stop counting, keep the last values, and free the counters. Called once, by {@link EndpointCounters#close()}.
     */
    void close()
    {
        mode = WriterMode.CLOSED;
        final long[] values = new long[counters.length];
        for (int i = 0; i < counters.length; i++)
        {
            values[i] = counters[i].get();
        }
        closedValues = values;

        for (final AtomicCounter counter : counters)
        {
            counter.close();
        }
    }
}
