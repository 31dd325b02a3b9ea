package org.am2j.core;

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
import org.am2j.api.Tags;
import org.am2j.core.stats.EndpointCounters;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.Route;
import org.am2j.spi.SegmentBounds;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportCounters;
import org.am2j.spi.TransportQueues;

/**
 * The protocol-neutral endpoint, the paper's control block: its name, tag, translation table, handler table and
 * segment (administered here), and the parts that do the rest: a {@link Sender} for requests, replies and returned
 * messages, a {@link Poller} for the local and network polls, a {@link Closing} for freeing. Each transport of the
 * process contributes its part of the endpoint (a {@link TransportQueues}: its queues and routes) and a
 * {@link Dispatcher} runs the handlers of what that part receives.
 */
final class EndpointCore implements Endpoint, EndpointHost
{
    final HandlerTable handlers;
    final EndpointCounters counters;
    final int endpointId;
    final TranslationTable translations = new TranslationTable();
    /** One per transport, in the runtime's order: the in-process transport first. */
    final Dispatcher[] dispatchers;
    /** The route of this endpoint to itself, through the in-process transport: returned messages of its own. */
    final Route selfRoute;
    final Sender sender = new Sender(this);
    final Poller poller;
    private final Closing closing;
    private final AmRuntime runtime;
    private final Transport[] transports;
    private final EndpointName name;
    private final ReturnedMessageLog returnedLog;

    volatile BundleCore bundle;
    private volatile long tag = Tags.NONE;
    private volatile AtomicBuffer segment;
    private volatile boolean closed;

    EndpointCore(final AmRuntime runtime, final BundleCore bundle, final int endpointId)
    {
        this.runtime = runtime;
        this.bundle = bundle;
        this.endpointId = endpointId;
        this.counters = runtime.newEndpointCounters(endpointId);
        this.returnedLog = new ReturnedMessageLog(endpointId);
        this.handlers = new HandlerTable(returnedLog);

        this.closing = new Closing(this, runtime);
        final List<Transport> open = runtime.transports();
        this.transports = open.toArray(new Transport[0]);
        this.dispatchers = new Dispatcher[transports.length];
        final Map<String, String> addresses = new TreeMap<>();
        try
        {
            for (int i = 0; i < transports.length; i++)
            {
                final Transport transport = transports[i];
                final TransportQueues te = transport.attach(this);
                dispatchers[i] = new Dispatcher(this, te, counters.transport(transport.name()));
                final String address = te.address();
                if (null != address)
                {
                    addresses.put(transport.name(), address);
                }
            }
            this.name = new EndpointName(runtime.node(), runtime.processId(), runtime.pid(), endpointId, addresses);
            for (final Dispatcher dispatcher : dispatchers)
            {
                dispatcher.transportQueues.named(name);
            }
            this.selfRoute = dispatchers[0].transportQueues.connect(name, Tags.ALL);
            if (null == selfRoute)
            {
                throw new AmException(AmError.RESOURCE, "transport " + transports[0].name() +
                    " cannot route to its own endpoint " + name);
            }
        }
        catch (final RuntimeException ex)
        {
            closing.releaseTransports(dispatchers);
            counters.close();
            throw ex;
        }
        this.poller = new Poller(dispatchers,
            IntStream.range(1, dispatchers.length).filter(i -> !transports[i].isNetwork())
                .mapToObj(i -> dispatchers[i]).toArray(Dispatcher[]::new),
            IntStream.range(0, dispatchers.length).filter(i -> transports[i].isNetwork())
                .mapToObj(i -> dispatchers[i]).toArray(Dispatcher[]::new));
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
            for (final Dispatcher dispatcher : dispatchers)
            {
                dispatcher.transportQueues.tagChanged(tag);
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
            translations.expect(endpoints, outstandingRequests);
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
        for (final Dispatcher dispatcher : dispatchers)
        {
            final Route route = dispatcher.transportQueues.connect(destination, tag);
            if (null != route)
            {
                return new Translation(destination, tag, route, dispatcher.counters);
            }
        }
        throw new AmException(AmError.BAD_ARG, "name: no transport reaches " + destination + " from node " +
            runtime.node() + "; transports present: " + runtime.transportNames() +
            ModuleArtifacts.missingTransportsHint(runtime.transportNames()));
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
        for (final Dispatcher dispatcher : dispatchers)
        {
            dispatcher.transportQueues.segmentChanged(newSegment);
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
    // Sending (the Sender)
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public int requestN(
        final int destination, final MessageCategory category, final int handler, final DirectBuffer src,
        final int srcOffset, final int length, final long segmentOffset, final boolean async, final int argCount,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return sender.request(destination, category, handler, src, srcOffset, length, segmentOffset, async, argCount,
            a0, a1, a2, a3, a4, a5, a6, a7);
    }

    @Override
    public int requestBulk(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final long segmentOffset, final int a0, final int a1)
    {
        final BundleCore b = enter("requestBulk");
        try
        {
            return sender.requestBulk(destination, handler, src, srcOffset, length, segmentOffset, a0, a1);
        }
        finally
        {
            b.exit();
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // What transports tell the endpoint
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public void receiveQueuesChanged()
    {
        bundle.receiveQueuesChanged();
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
            Sender.checkNotInHandler(DispatchContext.current(), "freeing an endpoint");
            b.publishStatistics();
            closeFromBundle(true);
            b.remove(this);
        }
        finally
        {
            b.exit();
        }
    }

    /**
     * Close without leaving the bundle's list: the bundle is closing.
     *
     * @param returnQueued true when the caller is the owner, outside any handler: every message still queued goes
     *                     back ({@link #returnQueued()}); false at process exit, from the shutdown thread, while the
     *                     owner may be anywhere in a poll, so the queues are not read and what they hold is dropped.
     */
    void closeFromBundle(final boolean returnQueued)
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            if (returnQueued)
            {
                closing.returnQueued();
            }
        }
        finally
        {
            closing.releaseTransports(dispatchers);
            counters.close();
        }
    }

    /**
     * @param route a message's inverse mapping.
     * @return true when it leads back to this endpoint: the message was sent by this endpoint to itself.
     */
    boolean isSelf(final Route route)
    {
        return route == selfRoute;
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

    BundleCore enter(final String call)
    {
        final BundleCore b = bundle;
        b.enter(call);
        exitIfClosed(b, call);
        return b;
    }

    void exitIfClosed(final BundleCore b, final String call)
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
