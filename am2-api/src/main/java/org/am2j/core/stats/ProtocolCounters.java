package org.am2j.core.stats;

import java.util.Locale;

import org.agrona.CloseHelper;
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
 * {@linkplain #singleWriter(boolean) single-writer} mode (a SEQ bundle: one thread at a time counts) they add to plain
 * fields of this object, which {@link #publish()} copies into the counters file with release stores: the bundle
 * publishes at least once in {@link #PUBLISH_INTERVAL} polls and sends and when it goes idle ({@link #IDLE_POLLS}
 * empty polls after a busy one), never per message, so a reader of the file lags by at most that many. {@link #get} on the
 * counting thread sees every count at once. Otherwise (a PAR bundle) they increment the file's counters atomically.
 * The {@link TransportCounters} methods are called by transports, possibly from their own threads (a NIC agent), and
 * always increment the file's counters atomically; they count rare events.
 * <p>
 * Once freed by the endpoint counters' {@code close()}, increments are ignored and {@link #get} returns the last
 * values.
 */
public final class ProtocolCounters implements TransportCounters
{
    /**
     * Most polls and sends of a SEQ bundle between two publications of its counts: {@code bin/am2j stat} (a reader of
     * the counters file) lags its endpoints' counts by fewer than this many polls and sends.
     */
    public static final int PUBLISH_INTERVAL = 4096;

    /**
     * Empty polls in a row, after a poll that handled a message, at which a SEQ bundle publishes its counts: a bundle
     * that stopped after a burst is shown within this many polls, and a busy one is not published per message (in a
     * ping-pong the polls between two messages are fewer).
     */
    public static final int IDLE_POLLS = 256;

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
    private final AtomicCounter unsettled;

    /**
     * A {@link WriterMode}: written under the monitor of the owning {@link EndpointCounters}, read by every increment
     * on any thread; volatile so a mode change (an endpoint moved between bundles) is seen by the next increment.
     */
    private volatile int mode;

    /*
     * The counts of a single writer, in plain fields read and written by the counting thread alone (a SEQ bundle's
     * owner): the file's counters hold them as of the last publish().
     */
    private long requestsSentCount;
    private long repliesSentCount;
    private long requestsReceivedCount;
    private long repliesReceivedCount;
    private long bytesSentCount;
    private long bytesReceivedCount;
    private long pollsCount;

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
            CloseHelper.quietCloseAll(counters);
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
        unsettled = counters[EndpointStatistics.Counter.UNSETTLED.ordinal()];
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
        onSent(true, 0);
    }

    /**
     * One more reply sent.
     */
    public void onReplySent()
    {
        onSent(false, 0);
    }

    /**
     * A message sent, with its data bytes: its counts in one call, which reads the writer mode once.
     *
     * @param request true for a request, false for a reply.
     * @param bytes   data bytes, 0 for a short message.
     */
    public void onSent(final boolean request, final int bytes)
    {
        final int mode = this.mode;
        if (WriterMode.SINGLE_WRITER == mode)
        {
            if (request)
            {
                requestsSentCount++;
            }
            else
            {
                repliesSentCount++;
            }
            if (0 != bytes)
            {
                bytesSentCount += bytes;
            }
        }
        else
        {
            WriterMode.increment(mode, request ? requestsSent : repliesSent);
            if (0 != bytes)
            {
                WriterMode.add(mode, bytesSent, bytes);
            }
        }
    }

    /**
     * A message whose handler ran here, with its data bytes: its counts in one call, which reads the writer mode once.
     *
     * @param request true for a request, false for a reply.
     * @param bytes   data bytes, 0 for a short message.
     */
    public void onReceived(final boolean request, final int bytes)
    {
        final int mode = this.mode;
        if (WriterMode.SINGLE_WRITER == mode)
        {
            if (request)
            {
                requestsReceivedCount++;
            }
            else
            {
                repliesReceivedCount++;
            }
            if (0 != bytes)
            {
                bytesReceivedCount += bytes;
            }
        }
        else
        {
            WriterMode.increment(mode, request ? requestsReceived : repliesReceived);
            if (0 != bytes)
            {
                WriterMode.add(mode, bytesReceived, bytes);
            }
        }
    }

    /**
     * One more poll of the transport.
     */
    public void onPoll()
    {
        onPolls(1);
    }

    /**
     * @param count polls of the transport made by a SEQ bundle's poll loop since the last {@link #publish()}.
     */
    public void onPolls(final long count)
    {
        final int mode = this.mode;
        if (WriterMode.SINGLE_WRITER == mode)
        {
            pollsCount += count;
        }
        else
        {
            WriterMode.add(mode, polls, count);
        }
    }

    /**
     * Copy the single writer's counts into the counters file, each with a release store (a reader in another process
     * sees each value complete and never going backwards). Called by the counting thread; does nothing in the other
     * modes, whose increments go to the file at once.
     */
    public void publish()
    {
        if (WriterMode.SINGLE_WRITER == mode)
        {
            publish(requestsSent, requestsSentCount);
            publish(repliesSent, repliesSentCount);
            publish(requestsReceived, requestsReceivedCount);
            publish(repliesReceived, repliesReceivedCount);
            publish(bytesSent, bytesSentCount);
            publish(bytesReceived, bytesReceivedCount);
            publish(polls, pollsCount);
        }
    }

    private static void publish(final AtomicCounter counter, final long value)
    {
        // Plain read of our own last store: only the single writer stores these counters. A release store only when
        // the value moved, so an idle counter's line is not written.
        if (counter.getPlain() != value)
        {
            counter.setRelease(value);
        }
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
     * {@inheritDoc}
     */
    public void unsettled()
    {
        WriterMode.incrementShared(mode, unsettled);
    }

    /**
     * @param counter what to read; not null.
     * @return its current value, or its value at close once closed.
     */
    public long get(final EndpointStatistics.Counter counter)
    {
        final long[] values = closedValues;
        if (null != values)
        {
            return values[counter.ordinal()];
        }
        if (WriterMode.SINGLE_WRITER == mode)
        {
            final long count = singleWriterCount(counter);
            if (count >= 0)
            {
                return count;
            }
        }
        return counters[counter.ordinal()].get();
    }

    /**
     * @return the single writer's count of {@code counter}, or -1 when it is not one of those counted in plain fields.
     */
    private long singleWriterCount(final EndpointStatistics.Counter counter)
    {
        return switch (counter)
        {
            case REQUESTS_SENT -> requestsSentCount;
            case REPLIES_SENT -> repliesSentCount;
            case REQUESTS_RECEIVED -> requestsReceivedCount;
            case REPLIES_RECEIVED -> repliesReceivedCount;
            case BYTES_SENT -> bytesSentCount;
            case BYTES_RECEIVED -> bytesReceivedCount;
            case POLLS -> pollsCount;
            default -> -1;
        };
    }

    /**
     * @return true while one writer thread counts in plain fields, published by {@link #publish()}.
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
        final int from = mode;
        final int to = WriterMode.of(singleWriter);
        if (WriterMode.CLOSED == from || from == to)
        {
            return;
        }
        if (WriterMode.SINGLE_WRITER == from)
        {
            // The plain counts go to the file, which the many writers increment from now on.
            publish();
        }
        else
        {
            // The single writer goes on from the file's values.
            requestsSentCount = requestsSent.get();
            repliesSentCount = repliesSent.get();
            requestsReceivedCount = requestsReceived.get();
            repliesReceivedCount = repliesReceived.get();
            bytesSentCount = bytesSent.get();
            bytesReceivedCount = bytesReceived.get();
            pollsCount = polls.get();
        }
        mode = to;
    }

    /**
     * Stop counting, keep the last values, and free the counters. Called once, by {@link EndpointCounters#close()}.
     */
    void close()
    {
        publish();
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
