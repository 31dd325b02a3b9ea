package org.am2j.core.stats;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.ReturnStatus;

/**
 * The counters of one endpoint, kept in the process's counters file: an identity counter labelled
 * {@code ep 3 endpoint <label>} (its value: how many transports serve the endpoint), one returned-message counter
 * per {@link ReturnStatus} labelled {@code ep 3 returned EBADTAG}, and a {@link ProtocolCounters} per transport,
 * created by {@link #transport(String)}.
 * <p>
 * {@link #onReturned(ReturnStatus)} and the {@link ProtocolCounters} methods allocate nothing. The
 * {@link EndpointStatistics} queries read live values (a single writer's plain counts as the writer sees them, see
 * {@link ProtocolCounters}); after {@link #close()} they return the values at close.
 * <p>
 * Thread-safety: {@link #transport(String)}, {@link #singleWriter(boolean)} and {@link #close()} hold this object's
 * monitor; the list of transports is copied on write and published through a volatile field, so the queries and the
 * counting methods take no lock.
 */
public final class EndpointCounters implements EndpointStatistics, AutoCloseable
{
    private static final ProtocolCounters[] NO_TRANSPORTS = new ProtocolCounters[0];
    private static final Pattern NOT_IN_TRANSPORT_NAME = Pattern.compile("[^A-Za-z0-9._-]");

    private final CountersManager countersManager;
    private final int endpointId;
    private final String label;
    private final AtomicCounter identity;
    private final AtomicCounter[] returnedByCode;

    /** Copy-on-write list of transports, replaced under this object's monitor; read lock-free. */
    private volatile ProtocolCounters[] transports = NO_TRANSPORTS;

    /** A {@link WriterMode}, written under this object's monitor, read by every returned-message increment. */
    private volatile int mode;

    /** Returned-message counts at close, indexed by status code, published before the counters are freed. */
    private volatile long[] closedReturned;

    /**
     * Allocate an endpoint's identity and returned-message counters in a counters file.
     *
     * @param countersFile the process's counters file, open.
     * @param endpointId   the endpoint's id, 0 or more, used in every label.
     * @param label        a description of the endpoint shown by {@code bin/am2j stat}, e.g. its name; not null.
     * @throws AmException {@link AmError#BAD_ARG} for a bad argument, {@link AmError#RESOURCE} when the file is full,
     *                     {@link AmError#NOT_INIT} when it is closed.
     */
    public EndpointCounters(final CountersFile countersFile, final int endpointId, final String label)
    {
        this(AmException.checkNotNull("countersFile", countersFile).countersManager(), endpointId, label);
    }

    /**
     * Allocate an endpoint's identity and returned-message counters.
     *
     * @param countersManager to allocate from; its allocation must be thread-safe if endpoints are created on
     *                        several threads (as {@link CountersFile#countersManager()} is).
     * @param endpointId      the endpoint's id, 0 or more, used in every label.
     * @param label           a description of the endpoint shown by {@code bin/am2j stat}, e.g. its name; not null.
     * @throws AmException {@link AmError#BAD_ARG} for a bad argument, {@link AmError#RESOURCE} when the file is full,
     *                     {@link AmError#NOT_INIT} when it is closed.
     */
    public EndpointCounters(final CountersManager countersManager, final int endpointId, final String label)
    {
        this(countersManager, endpointId, label, EndpointCounterDescriptor.NO_RANK, "");
    }

    /**
     * Allocate the identity and returned-message counters of an endpoint of a rank of a job.
     *
     * @param countersManager to allocate from; its allocation must be thread-safe if endpoints are created on
     *                        several threads (as {@link CountersFile#countersManager()} is).
     * @param endpointId      the endpoint's id, 0 or more, used in every label.
     * @param label           a description of the endpoint shown by {@code bin/am2j stat}, e.g. its name; not null.
     * @param rank            the rank the endpoint belongs to, or {@link EndpointCounterDescriptor#NO_RANK}; shown by
     *                        {@code bin/am2j stat}.
     * @param job             the id of the job the endpoint belongs to, or ""; shown by {@code bin/am2j stat}.
     * @throws AmException {@link AmError#BAD_ARG} for a bad argument, {@link AmError#RESOURCE} when the file is full,
     *                     {@link AmError#NOT_INIT} when it is closed.
     */
    public EndpointCounters(
        final CountersManager countersManager, final int endpointId, final String label, final int rank,
        final String job)
    {
        AmException.checkNotNull("countersManager", countersManager);
        AmException.checkRange("endpointId", endpointId, 0, Integer.MAX_VALUE + 1L);
        AmException.checkNotNull("label", label);
        AmException.checkRange("rank", rank, EndpointCounterDescriptor.NO_RANK, Integer.MAX_VALUE + 1L);
        AmException.checkNotNull("job", job);

        this.countersManager = countersManager;
        this.endpointId = endpointId;
        this.label = label;
        this.returnedByCode = new AtomicCounter[ReturnStatus.CODE_LIMIT];

        AtomicCounter identityCounter = null;
        try
        {
            identityCounter = countersManager.newCounter(
                label.isEmpty() ? "ep " + endpointId + " endpoint" : "ep " + endpointId + " endpoint " + label,
                EndpointCounterDescriptor.ENDPOINT_TYPE_ID,
                (key) -> EndpointCounterDescriptor.writeIdentityKey(key, endpointId, rank, job));

            for (final ReturnStatus status : ReturnStatus.values())
            {
                returnedByCode[status.code()] = countersManager.newCounter(
                    "ep " + endpointId + " returned " + status.name(),
                    EndpointCounterDescriptor.RETURNED_TYPE_ID,
                    (key) -> EndpointCounterDescriptor.writeKey(key, endpointId, status.code(), ""));
            }
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(identityCounter);
            CloseHelper.quietCloseAll(returnedByCode);
            throw ex;
        }

        this.identity = identityCounter;
        this.mode = WriterMode.MANY_WRITERS;
    }

    /**
     * @return the endpoint's id.
     */
    public int endpointId()
    {
        return endpointId;
    }

    /**
     * @return the endpoint's description.
     */
    public String label()
    {
        return label;
    }

    /**
     * The counters of this endpoint on a transport, created on the first call for that name (not a hot-path call)
     * and the same instance afterwards.
     *
     * @param name the transport's name, 1 to {@value EndpointCounterDescriptor#MAX_TRANSPORT_NAME_LENGTH} characters
     *             from {@code [A-Za-z0-9._-]}, e.g. {@code "inproc"}.
     * @return the transport's counters, in the writer mode last set by {@link #singleWriter(boolean)}.
     * @throws AmException {@link AmError#BAD_ARG} for a bad name, {@link AmError#NOT_INIT} once closed,
     *                     {@link AmError#RESOURCE} when the counters file is full.
     */
    public synchronized ProtocolCounters transport(final String name)
    {
        checkTransportName(name);
        if (WriterMode.CLOSED == mode)
        {
            throw new AmException(AmError.NOT_INIT, "the counters of endpoint " + endpointId + " are closed");
        }

        final ProtocolCounters existing = find(name);
        if (null != existing)
        {
            return existing;
        }

        final ProtocolCounters created =
            new ProtocolCounters(countersManager, endpointId, name, WriterMode.SINGLE_WRITER == mode);
        final ProtocolCounters[] current = transports;
        final ProtocolCounters[] updated = new ProtocolCounters[current.length + 1];
        System.arraycopy(current, 0, updated, 0, current.length);
        updated[current.length] = created;
        transports = updated;
        identity.setRelease(updated.length);

        return created;
    }

    /**
     * Count a message of this endpoint that came back to it. Allocation free; ignored once closed.
     *
     * @param status why it came back; null is ignored (the hot path does not throw).
     */
    public void onReturned(final ReturnStatus status)
    {
        if (null != status)
        {
            WriterMode.increment(mode, returnedByCode[status.code()]);
        }
    }

    /**
     * Copy every transport's single-writer counts into the counters file ({@link ProtocolCounters#publish()}). Called
     * by the thread that counts (a SEQ bundle's owner); allocation free.
     */
    public void publish()
    {
        for (final ProtocolCounters transport : transports)
        {
            transport.publish();
        }
    }

    /**
     * Choose how every counter of this endpoint is incremented, now and for transports added later: plain
     * counts published now and then while one thread at a time counts (the endpoint is in a SEQ bundle, see
     * {@link ProtocolCounters#publish()}), atomic increments otherwise
     * (a PAR bundle). The default is atomic. Change it only while no thread counts, e.g. while the endpoint moves
     * between bundles. Ignored once closed.
     *
     * @param singleWriter true for one writer thread at a time.
     */
    public synchronized void singleWriter(final boolean singleWriter)
    {
        if (WriterMode.CLOSED == mode)
        {
            return;
        }

        mode = WriterMode.of(singleWriter);
        for (final ProtocolCounters transport : transports)
        {
            transport.singleWriter(singleWriter);
        }
    }

    /**
     * @return true while one writer thread counts (plain counts published by {@code publish()}, release increments
     * of returned messages).
     */
    public boolean isSingleWriter()
    {
        return WriterMode.SINGLE_WRITER == mode;
    }

    /**
     * {@inheritDoc}
     */
    public long get(final String transport, final Counter counter)
    {
        AmException.checkNotNull("transport", transport);
        AmException.checkNotNull("counter", counter);

        final ProtocolCounters counters = find(transport);
        return null != counters ? counters.get(counter) : 0;
    }

    /**
     * {@inheritDoc}
     */
    public long total(final Counter counter)
    {
        AmException.checkNotNull("counter", counter);

        long total = 0;
        for (final ProtocolCounters transport : transports)
        {
            total += transport.get(counter);
        }

        return total;
    }

    /**
     * {@inheritDoc}
     */
    public long returned(final ReturnStatus status)
    {
        AmException.checkNotNull("status", status);

        final long[] values = closedReturned;
        return null != values ? values[status.code()] : returnedByCode[status.code()].get();
    }

    /**
     * @return true once {@link #close()} has been called.
     */
    public boolean isClosed()
    {
        return WriterMode.CLOSED == mode;
    }

    /**
     * Stop counting and free every counter this endpoint allocated, keeping the last values for the queries.
     * Idempotent.
     */
    public synchronized void close()
    {
        if (WriterMode.CLOSED == mode)
        {
            return;
        }
        mode = WriterMode.CLOSED;

        final long[] values = new long[returnedByCode.length];
        for (int code = 1; code < returnedByCode.length; code++)
        {
            values[code] = returnedByCode[code].get();
        }
        closedReturned = values;

        for (final ProtocolCounters transport : transports)
        {
            transport.close();
        }
        for (int code = 1; code < returnedByCode.length; code++)
        {
            returnedByCode[code].close();
        }
        identity.close();
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "EndpointCounters{endpointId=" + endpointId + ", label=" + label + ", closed=" + isClosed() + '}';
    }

    private ProtocolCounters find(final String name)
    {
        for (final ProtocolCounters transport : transports)
        {
            if (transport.transport().equals(name))
            {
                return transport;
            }
        }

        return null;
    }

    private static void checkTransportName(final String name)
    {
        AmException.checkNotNull("transport name", name);
        final int length = name.length();
        if (0 == length || length > EndpointCounterDescriptor.MAX_TRANSPORT_NAME_LENGTH)
        {
            throw new AmException(
                AmError.BAD_ARG,
                "transport name \"" + name + "\" has " + length + " characters, allowed 1 to " +
                EndpointCounterDescriptor.MAX_TRANSPORT_NAME_LENGTH);
        }

        final Matcher refused = NOT_IN_TRANSPORT_NAME.matcher(name);
        if (refused.find())
        {
            throw new AmException(
                AmError.BAD_ARG, "transport name \"" + name + "\" has character '" + refused.group() + "' at " +
                refused.start() + ", allowed [A-Za-z0-9._-]");
        }
    }
}
