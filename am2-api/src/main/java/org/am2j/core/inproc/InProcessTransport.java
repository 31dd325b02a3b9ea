package org.am2j.core.inproc;

import java.util.Arrays;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.DeadRoute;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.Route;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportQueues;

/**
 * The in-process transport: endpoints of one process (same or different bundles) exchange messages through a
 * request and a reply queue per endpoint, many-to-one ring buffers in direct memory. It is always present and the
 * cheapest, so it also carries the messages an endpoint returns to itself.
 * <p>
 * Configuration: {@code am2j.inproc.queueBytes}, the capacity of each receive queue (a power of two, at least
 * 128 KiB so that one maximal medium message fits in an eighth of it; default 256 KiB). {@code am2j.inproc.selfOnly}
 * ({@code AM2J_INPROC_SELFONLY}), {@code true} or {@code false} (the default): when true the transport routes only an
 * endpoint's messages to itself (its returned messages, a translation to itself), and a translation to another
 * endpoint of the process goes to the next cheapest transport that reaches it (shared memory, network), as between
 * processes. It exists so that benchmarks and tests can drive those transports' send and poll paths inside one JVM.
 */
public final class InProcessTransport implements Transport
{
    /** The transport's name. */
    public static final String NAME = "inproc";

    /** Smallest queue capacity: a ring takes messages up to an eighth of its capacity. */
    public static final int MIN_QUEUE_BYTES = 128 * 1024;

    private static final int DEFAULT_QUEUE_BYTES = 256 * 1024;

    private final TransportContext context;
    private final Route unknownSender = new DeadRoute(null, NAME);
    private final int queueBytes;
    private final boolean selfOnly;
    private volatile InProcessQueues[] byId = new InProcessQueues[16];

    InProcessTransport(final TransportContext context)
    {
        this.context = context;
        final Settings settings = context.settings();
        final Setting queueSetting = Setting.of(NAME, "queueBytes");
        this.queueBytes = settings.intValue(queueSetting, DEFAULT_QUEUE_BYTES, MIN_QUEUE_BYTES, 1 << 30);
        if (Integer.bitCount(queueBytes) != 1)
        {
            throw settings.invalid(queueSetting, "a power of two in [" + MIN_QUEUE_BYTES + ", " + (1 << 30) + "]");
        }
        this.selfOnly = settings.flag(Setting.of(NAME, "selfOnly"), false);
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int cost()
    {
        return 0;
    }

    @Override
    public boolean isNetwork()
    {
        return false;
    }

    @Override
    public boolean canReach(final EndpointName name)
    {
        return name.processId() == context.processId();
    }

    @Override
    public TransportQueues attach(final EndpointHost host)
    {
        final InProcessQueues endpoint = new InProcessQueues(this, host, queueBytes);
        register(host.endpointId(), endpoint);
        return endpoint;
    }

    @Override
    public AtomicBuffer allocateSegment(final EndpointHost host, final int length)
    {
        return null;
    }

    @Override
    public boolean canBlock()
    {
        return false;
    }

    @Override
    public long prepareBlock()
    {
        throw new UnsupportedOperationException("the in-process transport does not block");
    }

    @Override
    public void block(final long ticket, final long nanos)
    {
        throw new UnsupportedOperationException("the in-process transport does not block");
    }

    @Override
    public void wakeup()
    {
    }

    @Override
    public void close()
    {
        synchronized (this)
        {
            byId = new InProcessQueues[0];
        }
    }

    /**
     * The route to an endpoint of this process.
     *
     * @param sourceEndpointId the endpoint that connects.
     * @param destination      its name.
     * @return the route, or null when the name is of another process (or, under {@code selfOnly}, of another
     * endpoint).
     */
    Route connect(final int sourceEndpointId, final EndpointName destination)
    {
        if (!canReach(destination) || (selfOnly && destination.endpointId() != sourceEndpointId))
        {
            return null;
        }
        final InProcessQueues endpoint = lookUp(destination.endpointId());
        return null == endpoint ? new DeadRoute(destination, NAME) : endpoint.inboundRoute();
    }

    /**
     * The inverse mapping of a received message: the route back to its sender.
     *
     * @param endpointId of the sender.
     * @return the sender's inbound route, or a dead route when it has been freed.
     */
    Route routeTo(final int endpointId)
    {
        final InProcessQueues endpoint = lookUp(endpointId);
        return null == endpoint ? unknownSender : endpoint.inboundRoute();
    }

    void unregister(final int endpointId, final InProcessQueues endpoint)
    {
        synchronized (this)
        {
            final InProcessQueues[] table = byId;
            if (endpointId < table.length && table[endpointId] == endpoint)
            {
                final InProcessQueues[] copy = table.clone();
                copy[endpointId] = null;
                byId = copy;
            }
        }
    }

    private InProcessQueues lookUp(final int endpointId)
    {
        final InProcessQueues[] table = byId;
        return endpointId >= 0 && endpointId < table.length ? table[endpointId] : null;
    }

    private void register(final int endpointId, final InProcessQueues endpoint)
    {
        synchronized (this)
        {
            final InProcessQueues[] table = byId;
            final InProcessQueues[] copy =
                Arrays.copyOf(table, Math.max(table.length, Integer.highestOneBit(endpointId) << 1));
            copy[endpointId] = endpoint;
            // Volatile store of a complete copy: look-ups never see a half-registered endpoint.
            byId = copy;
        }
    }
}
