package org.am2j.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.Handler;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.Tags;
import org.am2j.core.stats.EndpointCounters;
import org.am2j.core.stats.ProtocolCounters;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.am2j.spi.SegmentBounds;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportCounters;
import org.am2j.spi.TransportEndpoint;

/**
 * The protocol-neutral endpoint: tag, handler table, translation table, segment, and the send and dispatch paths
 * that every transport shares. Each transport of the process contributes a {@link TransportEndpoint}; a
 * {@link Receiver} per transport dispatches what it delivers.
 */
final class EndpointCore implements Endpoint, EndpointHost
{
    /** Returned messages that find their queue full are retried this many times, polling, before being dropped. */
    private static final int RETURN_ATTEMPTS = 10_000;

    private static final VarHandle POLL_OWNER;

    static
    {
        try
        {
            POLL_OWNER = MethodHandles.lookup().findVarHandle(EndpointCore.class, "pollOwner", Thread.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    final HandlerTable handlers;
    final EndpointCounters counters;
    private final AmRuntime runtime;
    private final int endpointId;
    private final TranslationTable translations = new TranslationTable();
    private final Receiver[] receivers;
    /** The receivers of the local transports other than the in-process one (receivers[0]). */
    private final Receiver[] localReceivers;
    /** The receivers of the network transports. */
    private final Receiver[] networkReceivers;
    private final Transport[] transports;
    private final EndpointName name;
    private final Route selfRoute;
    private final ReturnedMessageLog returnedLog;

    private volatile BundleCore bundle;
    private volatile long tag = Tags.NONE;
    private volatile AtomicBuffer segment;
    private volatile boolean closed;
    private volatile Thread pollOwner;

    EndpointCore(final AmRuntime runtime, final BundleCore bundle, final int endpointId)
    {
        this.runtime = runtime;
        this.bundle = bundle;
        this.endpointId = endpointId;
        this.counters = runtime.newEndpointCounters(endpointId);
        this.returnedLog = new ReturnedMessageLog(endpointId);
        this.handlers = new HandlerTable(returnedLog);

        final List<Transport> open = runtime.transports();
        this.transports = open.toArray(new Transport[0]);
        this.receivers = new Receiver[transports.length];
        final Map<String, String> addresses = new TreeMap<>();
        try
        {
            for (int i = 0; i < transports.length; i++)
            {
                final Transport transport = transports[i];
                final TransportEndpoint te = transport.attach(this);
                receivers[i] = new Receiver(this, te, counters.transport(transport.name()));
                final String address = te.address();
                if (null != address)
                {
                    addresses.put(transport.name(), address);
                }
            }
            this.name = new EndpointName(runtime.node(), runtime.processId(), runtime.pid(), endpointId, addresses);
            for (final Receiver receiver : receivers)
            {
                receiver.transportEndpoint.named(name);
            }
            this.selfRoute = receivers[0].transportEndpoint.connect(name, Tags.ALL);
            if (null == selfRoute)
            {
                throw new AmException(AmError.RESOURCE, "transport " + transports[0].name() +
                    " cannot route to its own endpoint " + name);
            }
        }
        catch (final RuntimeException ex)
        {
            releaseTransports();
            counters.close();
            throw ex;
        }
        this.localReceivers = IntStream.range(1, receivers.length).filter(i -> !transports[i].isNetwork())
            .mapToObj(i -> receivers[i]).toArray(Receiver[]::new);
        this.networkReceivers = IntStream.range(0, receivers.length).filter(i -> transports[i].isNetwork())
            .mapToObj(i -> receivers[i]).toArray(Receiver[]::new);
        counters.singleWriter(bundle.isSeq());
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Identity and tag
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public EndpointName name()
    {
        return name;
    }

    @Override
    public int endpointId()
    {
        return endpointId;
    }

    @Override
    public Bundle bundle()
    {
        return bundle;
    }

    @Override
    public long tag()
    {
        return tag;
    }

    @Override
    public void tag(final long tag)
    {
        final BundleCore b = enter("tag");
        try
        {
            this.tag = tag;
            for (final Receiver receiver : receivers)
            {
                receiver.transportEndpoint.tagChanged(tag);
            }
        }
        finally
        {
            b.exit();
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Translation table
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public void map(final int index, final EndpointName name, final long tag)
    {
        final BundleCore b = enter("map");
        try
        {
            AmException.checkRange("translation index", index, 0, translations.size());
            translations.put(index, connect(name, tag));
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public int mapAny(final EndpointName name, final long tag)
    {
        final BundleCore b = enter("mapAny");
        try
        {
            return translations.putAny(connect(name, tag));
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public void unmap(final int index)
    {
        final BundleCore b = enter("unmap");
        try
        {
            translations.remove(index);
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public boolean isMapped(final int index)
    {
        final BundleCore b = enter("isMapped");
        try
        {
            return null != translations.find(index);
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public long translationTag(final int index)
    {
        return mapped(index, "translationTag").tag;
    }

    @Override
    public EndpointName translationName(final int index)
    {
        return mapped(index, "translationName").name;
    }

    @Override
    public String translationTransport(final int index)
    {
        return mapped(index, "translationTransport").route.transport();
    }

    @Override
    public int numTranslations()
    {
        checkOpen("numTranslations");
        return translations.size();
    }

    @Override
    public void numTranslations(final int count)
    {
        final BundleCore b = enter("numTranslations");
        try
        {
            translations.resize(count);
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public void expectedResources(final int endpoints, final int outstandingRequests)
    {
        final BundleCore b = enter("expectedResources");
        try
        {
            AmException.checkRange("endpoints", endpoints, 0, Am.MAX_TRANSLATIONS + 1);
            if (outstandingRequests < 0)
            {
                throw new AmException(AmError.BAD_ARG, "outstandingRequests = " + outstandingRequests +
                    " is outside [0, " + Integer.MAX_VALUE + "]");
            }
            if (endpoints > translations.size())
            {
                translations.resize(endpoints);
            }
        }
        finally
        {
            b.exit();
        }
    }

    private Translation mapped(final int index, final String call)
    {
        final BundleCore b = enter(call);
        try
        {
            final Translation translation = translations.find(index);
            if (null == translation)
            {
                throw new AmException(AmError.BAD_ARG, "translation index = " + index + " is not mapped");
            }
            return translation;
        }
        finally
        {
            b.exit();
        }
    }

    private Translation connect(final EndpointName destination, final long tag)
    {
        AmException.checkNotNull("name", destination);
        for (final Receiver receiver : receivers)
        {
            final Route route = receiver.transportEndpoint.connect(destination, tag);
            if (null != route)
            {
                return new Translation(destination, tag, route, receiver.counters);
            }
        }
        throw new AmException(AmError.BAD_ARG, "name: no transport reaches " + destination + " from node " +
            runtime.node() + "; transports present: " + runtime.transportNames());
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Handler table
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public void handler(final int index, final Handler handler)
    {
        final BundleCore b = enter("handler");
        try
        {
            handlers.set(index, handler);
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public int handlerAny(final Handler handler)
    {
        final BundleCore b = enter("handlerAny");
        try
        {
            return handlers.setAny(handler);
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public Handler handler(final int index)
    {
        checkOpen("handler");
        AmException.checkRange("handler index", index, 0, Am.NUM_HANDLERS);
        return handlers.get(index);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Segment
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public void segment(final AtomicBuffer segment)
    {
        final BundleCore b = enter("segment");
        try
        {
            if (null != segment && segment.capacity() > Am.MAX_SEGMENT_LENGTH)
            {
                throw new AmException(AmError.BAD_ARG, "segment capacity = " + segment.capacity() +
                    " is outside [0, " + Am.MAX_SEGMENT_LENGTH + "]");
            }
            this.segment = segment;
            segmentChanged(segment);
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public AtomicBuffer segment()
    {
        return segment;
    }

    @Override
    public AtomicBuffer allocateSegment(final int length)
    {
        final BundleCore b = enter("allocateSegment");
        try
        {
            AmException.checkRange("segment length", length, 1, (long)Am.MAX_SEGMENT_LENGTH + 1);
            AtomicBuffer allocated = null;
            for (int i = 0; i < transports.length && null == allocated; i++)
            {
                allocated = transports[i].allocateSegment(this, length);
            }
            if (null == allocated)
            {
                try
                {
                    allocated = new UnsafeBuffer(BufferUtil.allocateDirectAligned(align(length), 64), 0, length);
                }
                catch (final OutOfMemoryError ex)
                {
                    throw new AmException(AmError.RESOURCE, "cannot allocate a segment of " + length + " bytes", ex);
                }
            }
            this.segment = allocated;
            segmentChanged(allocated);
            return allocated;
        }
        finally
        {
            b.exit();
        }
    }

    private void segmentChanged(final AtomicBuffer newSegment)
    {
        for (final Receiver receiver : receivers)
        {
            receiver.transportEndpoint.segmentChanged(newSegment);
        }
    }

    private static int align(final int length)
    {
        return length > Integer.MAX_VALUE - 64 ? length : (length + 63) & ~63;
    }

    @Override
    public int checkSegment(final long segmentOffset, final int length)
    {
        return SegmentBounds.check(segment, segmentOffset, length);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Sending
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public int requestN(
        final int destination, final MessageCategory category, final int handler, final DirectBuffer src,
        final int srcOffset, final int length, final long segmentOffset, final boolean async, final int argCount,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        final BundleCore b = bundle;
        final DispatchContext context = b.enterWithContext("request");
        exitIfClosed(b, "request");
        try
        {
            checkNotInHandler(context, "a request");
            final Translation translation = translations.get(destination);
            MessageChecks.check(category, handler, src, srcOffset, length, segmentOffset, argCount);
            if (b.pollsBeforeSend())
            {
                // The paper's send polls first: handlers of messages waiting here run before this request adds to
                // the traffic (they run one level deeper, so this depth's frame below is not theirs).
                b.pollForProgress(context, false);
            }
            if (MessageCategory.SHORT == category && Route.SENT == translation.route.sendShort(context.frame(),
                Opcode.REQUEST_SHORT.code(), handler, translation.tag, endpointId, argCount, a0, a1, a2, a3, a4, a5,
                a6, a7))
            {
                // The common case, written straight into the destination; anything else (a full queue, a refusal)
                // takes the frame path below, which tries again, backs off or returns the message.
                translation.counters.onRequestSent();
                return Am.OK;
            }
            final OutboundMessage frame = context.frame()
                .header(Opcode.of(true, category).code(), 0, handler, translation.tag)
                .args(argCount, a0, a1, a2, a3, a4, a5, a6, a7)
                .data(MessageCategory.SHORT == category ? null : src, srcOffset,
                    MessageCategory.SHORT == category ? 0 : length, segmentOffset)
                .source(endpointId);
            return sendRequest(context, translation, frame, async);
        }
        finally
        {
            b.exit();
        }
    }

    @Override
    public int requestBulk(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final long segmentOffset, final int a0, final int a1)
    {
        final BundleCore b = enter("requestBulk");
        try
        {
            return sendBulk(destination, handler, src, srcOffset, length, segmentOffset, a0, a1);
        }
        finally
        {
            b.exit();
        }
    }

    private int sendBulk(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final long segmentOffset, final int a0, final int a1)
    {
        AmException.checkNotNull("src", src);
        if (length < 0 || srcOffset < 0 || srcOffset > src.capacity() - length)
        {
            throw new AmException(AmError.BAD_ARG, "srcOffset = " + srcOffset + " with length = " + length +
                " is outside the source buffer [0, " + src.capacity() + ")");
        }
        if (segmentOffset < 0 || segmentOffset > Am.MAX_SEGMENT_LENGTH - (long)length)
        {
            throw new AmException(AmError.BAD_ARG, "segmentOffset = " + segmentOffset + " is outside [0, " +
                (Am.MAX_SEGMENT_LENGTH - (long)length) + "] for length " + length);
        }
        int sent = 0;
        int done = 0;
        do
        {
            final int chunk = Math.min(Am.MAX_LONG, length - done);
            requestN(destination, MessageCategory.LONG, handler, src, srcOffset + done, chunk, segmentOffset + done,
                false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
            done += chunk;
            sent++;
        }
        while (done < length);
        return sent;
    }

    private int sendRequest(
        final DispatchContext context, final Translation translation, final OutboundMessage frame, final boolean async)
    {
        final ProtocolCounters protocol = translation.counters;
        int attempt = 0;
        while (true)
        {
            final int result = translation.route.send(frame);
            if (Route.SENT == result)
            {
                protocol.onRequestSent();
                if (0 != frame.dataLength())
                {
                    protocol.onBytesSent(frame.dataLength());
                }
                return Am.OK;
            }
            if (Route.FULL != result)
            {
                returnLocally(context, frame, result);
                return Am.OK;
            }
            if (async)
            {
                return AmError.IN_USE.code();
            }
            protocol.queueFullBackoff();
            if (0 == bundle.pollForProgress(context, false))
            {
                attempt = Backoff.idle(attempt);
            }
        }
    }

    /**
     * Send a reply from a request handler, waiting out a full queue while polling reply queues only.
     */
    void sendReply(
        final DispatchContext context, final Receiver receiver, final Route route, final OutboundMessage frame)
    {
        int attempt = 0;
        while (true)
        {
            final int result = route.send(frame);
            if (Route.SENT == result)
            {
                receiver.counters.onReplySent();
                if (0 != frame.dataLength())
                {
                    receiver.counters.onBytesSent(frame.dataLength());
                }
                return;
            }
            if (Route.FULL != result)
            {
                returnLocally(context, frame, result);
                return;
            }
            receiver.counters.queueFullBackoff();
            if (0 == bundle.pollForProgress(context, true))
            {
                attempt = Backoff.idle(attempt);
            }
        }
    }

    /**
     * Send a message this endpoint refused back to its sender. A returned message is never itself returned: when its
     * sender cannot take it, it is counted as a drop.
     */
    void sendReturned(
        final DispatchContext context, final Receiver receiver, final Route route, final OutboundMessage frame)
    {
        if (!sendBack(context, route, frame))
        {
            receiver.counters.drop();
        }
    }

    private void returnLocally(final DispatchContext context, final OutboundMessage frame, final int status)
    {
        frame.returnStatus(status);
        if (!sendBack(context, selfRoute, frame))
        {
            receivers[0].counters.drop();
        }
    }

    /**
     * Send a returned message, polling reply queues while its queue is full, for a bounded number of attempts: the
     * queue being waited on may be the one this thread is reading further up its stack.
     *
     * @return true when it was sent.
     */
    private boolean sendBack(final DispatchContext context, final Route route, final OutboundMessage frame)
    {
        int attempt = 0;
        while (attempt < RETURN_ATTEMPTS)
        {
            final int result = route.send(frame);
            if (Route.SENT == result)
            {
                return true;
            }
            if (Route.FULL != result)
            {
                return false;
            }
            attempt = 0 == bundle.pollForProgress(context, true) ? Backoff.idle(attempt) : attempt + 1;
        }
        return false;
    }

    private static void checkNotInHandler(final DispatchContext context, final String what)
    {
        if (0 != context.depth)
        {
            throw new AmException(AmError.BAD_ARG, what + " may not be made from inside a handler (handler depth " +
                context.depth + "); a request handler may only reply through its token");
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Polling
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * Poll this endpoint's transports for a PAR bundle, under the endpoint's poll ownership.
     *
     * @param context       of the polling thread.
     * @param budget        messages per local transport.
     * @param networkBudget messages per network transport, 0 to skip them.
     * @param repliesOnly   poll reply queues only.
     * @return messages handled.
     */
    int poll(final DispatchContext context, final int budget, final int networkBudget, final boolean repliesOnly)
    {
        boolean owned = false;
        final Thread thread = Thread.currentThread();
        if (pollOwner != thread)
        {
            // CAS: one thread at a time reads this endpoint's queues (they have a single consumer); a thread that
            // loses returns at once, the winner is making the progress.
            if (!POLL_OWNER.compareAndSet(this, null, thread))
            {
                return 0;
            }
            owned = true;
        }
        try
        {
            int handled = pollLocal(context, budget, repliesOnly);
            if (networkBudget > 0)
            {
                final int found = pollNetwork(context, networkBudget, repliesOnly);
                context.networkFound += found;
                handled += found;
            }
            return handled;
        }
        finally
        {
            if (owned)
            {
                // Release store: the queues' consumer positions written while polling are visible to the next owner.
                POLL_OWNER.setRelease(this, null);
            }
        }
    }

    /**
     * Poll this endpoint's local transports, in-process first (AmRuntime keeps it the cheapest), then shared memory.
     * Takes no poll ownership: a SEQ bundle calls it directly (one thread at a time by contract), a PAR bundle
     * through {@link #poll}.
     *
     * @param context     of the polling thread.
     * @param budget      messages per transport.
     * @param repliesOnly poll reply queues only.
     * @return messages handled.
     */
    int pollLocal(final DispatchContext context, final int budget, final boolean repliesOnly)
    {
        int handled = receivers[0].pollInProcess(context, budget, repliesOnly);
        for (final Receiver receiver : localReceivers)
        {
            handled += receiver.pollLocal(context, budget, repliesOnly);
        }
        return handled;
    }

    /**
     * Poll this endpoint's network transports, for a bundle whose scheduler chose to poll the network; takes no poll
     * ownership (as {@link #pollLocal}).
     *
     * @param context     of the polling thread.
     * @param budget      messages per network transport.
     * @param repliesOnly poll reply queues only.
     * @return messages handled.
     */
    int pollNetwork(final DispatchContext context, final int budget, final boolean repliesOnly)
    {
        int found = 0;
        for (final Receiver receiver : networkReceivers)
        {
            found += receiver.pollNetwork(context, budget, repliesOnly);
        }
        return found;
    }

    boolean hasPending()
    {
        for (final Receiver receiver : receivers)
        {
            if (receiver.transportEndpoint.hasPending())
            {
                return true;
            }
        }
        return false;
    }

    void sleeping(final boolean sleeping)
    {
        for (final Receiver receiver : receivers)
        {
            receiver.transportEndpoint.sleeping(sleeping);
        }
    }

    @Override
    public void signalArrival()
    {
        bundle.wakeup();
    }

    @Override
    public TransportCounters counters(final String transport)
    {
        return counters.transport(transport);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Life cycle
    // ----------------------------------------------------------------------------------------------------------------

    void movedTo(final BundleCore target)
    {
        bundle = target;
        counters.singleWriter(target.isSeq());
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        final BundleCore b = bundle;
        b.enter("Endpoint.close");
        try
        {
            checkNotInHandler(DispatchContext.current(), "freeing an endpoint");
            closeFromBundle();
            b.remove(this);
        }
        finally
        {
            b.exit();
        }
    }

    /**
     * Close without leaving the bundle's list: the bundle is closing.
     */
    void closeFromBundle()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        releaseTransports();
        counters.close();
    }

    private void releaseTransports()
    {
        for (final Receiver receiver : receivers)
        {
            if (null != receiver)
            {
                try
                {
                    receiver.transportEndpoint.close();
                }
                catch (final RuntimeException ex)
                {
                    runtime.log("closing the " + receiver.transportEndpoint + " part of endpoint " + endpointId, ex);
                }
            }
        }
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    public EndpointStatistics statistics()
    {
        return counters;
    }

    /**
     * @return the number of returned messages the default handler 0 has seen.
     */
    long defaultHandlerCount()
    {
        return returnedLog.count();
    }

    @Override
    public String toString()
    {
        return "Endpoint[" + name + (closed ? " closed" : "") + "]";
    }

    private BundleCore enter(final String call)
    {
        final BundleCore b = bundle;
        b.enter(call);
        exitIfClosed(b, call);
        return b;
    }

    private void exitIfClosed(final BundleCore b, final String call)
    {
        if (closed)
        {
            b.exit();
            throw new AmException(AmError.NOT_INIT, "endpoint " + endpointId + " is closed (" + call + ")");
        }
    }

    private void checkOpen(final String call)
    {
        if (closed)
        {
            throw new AmException(AmError.NOT_INIT, "endpoint " + endpointId + " is closed (" + call + ")");
        }
    }
}
