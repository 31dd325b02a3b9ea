package org.am2j.net;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.ControlledMessageHandler;
import org.am2j.api.EndpointName;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.MessageSink;
import org.am2j.spi.Route;
import org.am2j.spi.TransportCounters;
import org.am2j.spi.TransportQueues;

/**
 * An endpoint's network queue block: request and reply send queues (host to NIC), request and reply receive queues
 * (NIC to host), the tag copy the NIC checks arriving requests against, and the table of inverse-mapping routes
 * received messages refer to. Replies and returned messages have their own queues in both directions, so a request
 * flood never holds them up.
 */
final class NetQueues extends ServedQueues implements TransportQueues
{
    /** Thread mode: a host yields its CPU after this many empty polls in a row. */
    static final int YIELD_AFTER_EMPTY_POLLS = 64;

    /** Most inverse-mapping routes one endpoint keeps (distinct remote senders). */
    static final int MAX_ROUTES = 1 << 16;

    final NicAgent nic;
    final EndpointHost host;
    private final TransportCounters counters;
    private final int id;
    /**
     * The two receive queues and their readers, each reader with its own flyweight: a nested poll of the reply queue
     * (a reply waiting for space) must not move the flyweight of the request being handled.
     */
    private final ReceiveQueueReader receiveQueues;
    /** This endpoint's offers to take messages straight from the NIC's receive buffer (inline mode). */
    private final DirectDelivery direct = new DirectDelivery(this);
    private final Long2ObjectHashMap<NetRoute> inverseRoutes = new Long2ObjectHashMap<>();
    private volatile NetRoute[] routes = new NetRoute[16];
    private int routeCount;
    private volatile long tag;
    private volatile boolean sleeping;
    private volatile boolean closed;
    /** Set once a route of this endpoint leads to an endpoint of the same NIC: its send queues then need the drain
     *  that can hold a record back ({@link #sendsSameNic}). */
    private volatile boolean sameNicRoutes;
    private volatile byte[] encodedName;
    private final boolean threadMode;
    private int emptyPolls;
    private MessageSink sink;

    NetQueues(final NetTransport transport, final EndpointHost host, final int queueBytes)
    {
        super(null, queueBytes);
        this.nic = transport.nic();
        this.host = host;
        this.id = host.endpointId();
        this.counters = host.counters(NetTransport.NAME);
        this.threadMode = transport.config().mode == NicMode.THREAD;
        this.tag = host.tag();
        this.receiveQueues = new ReceiveQueueReader(receiveQueue(false), reader(new NetInbound(this)),
            receiveQueue(true), reader(new NetInbound(this)));
    }

    @Override
    public String address()
    {
        return nic.publishedAddress();
    }

    @Override
    public void named(final EndpointName name)
    {
        this.encodedName = name.toBytes();
        nic.register(this);
    }

    @Override
    public Route connect(final EndpointName destination, final long tag)
    {
        final SharedNicAddress.Target target = SharedNicAddress.target(destination);
        if (null == target)
        {
            return null;
        }
        // An endpoint of this NIC: the NIC moves the records between the two endpoints' queues (as a shared NIC
        // does); any other through its peer.
        final Peer peer = target.nicId() == nic.nicId ? nic.sameNicPeer(target.nicAddress()) :
            nic.peerFor(target.nicId(), target.nicAddress());
        if (null == peer)
        {
            return null;
        }
        peer.learnName(target.wireId(), destination);
        if (peer.sameNic)
        {
            sameNicRoutes = true;
        }
        return new NetRoute(this, peer, target.wireId(), destination);
    }

    @Override
    public int poll(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        final MessageSink outer = this.sink;
        this.sink = sink;
        try
        {
            int handled = 0;
            while (handled < budget)
            {
                final int read = readQueues(budget - handled, repliesOnly);
                if (read > 0)
                {
                    handled += read;
                }
                // A poll with the base budget (its scheduler polls the network every time) reads the wire only
                // while it has handled nothing: after a message, a read would mostly find the socket empty, and that
                // system call (about half a microsecond) would delay the return to the caller, often waiting for just
                // that message (a reply); datagrams that came meanwhile are read by the next poll, which comes at
                // once. A larger budget comes from a scheduler that polls the network now and then and wants it
                // drained: that poll reads on until the socket is empty or the budget is spent.
                else if ((0 != handled && budget <= BASE_POLL_BUDGET) || !receive(repliesOnly))
                {
                    break;
                }
                else if (direct.accepted)
                {
                    handled += runHandedOver();
                }
            }
            nic.inlineTimers();
            if (0 == handled && threadMode && ++emptyPolls >= YIELD_AFTER_EMPTY_POLLS)
            {
                // Thread mode: the NIC's thread may share this thread's CPU (a rank pinned to one CPU): a host
                // that polls an empty queue without end would starve the thread that fills it.
                emptyPolls = 0;
                java.util.concurrent.locks.LockSupport.parkNanos(1_000L);
            }
            return handled;
        }
        finally
        {
            this.sink = outer;
        }
    }

    private int readQueues(final int budget, final boolean repliesOnly)
    {
        // The NIC reads the queues of a closed endpoint (it returns what is there to the senders).
        return closed ? 0 : receiveQueues.read(budget, repliesOnly);
    }

    /**
     * Inline mode: let the NIC read one datagram, offering to take a message of it for this endpoint directly.
     *
     * @return true when a datagram was read.
     */
    private boolean receive(final boolean repliesOnly)
    {
        if (closed)
        {
            return nic.inlineReceive(null);
        }
        direct.offer(!repliesOnly && !receiveQueues.readingRequests, !receiveQueues.readingReplies);
        return nic.inlineReceive(direct);
    }

    /**
     * Run the message the NIC handed over, then give the NIC its receive buffer back. Its queue counts as being read
     * meanwhile, as when its records are: a nested poll in the handler takes no message of that queue.
     *
     * @return 1.
     */
    private int runHandedOver()
    {
        final boolean reply = direct.acceptedReply;
        receiveQueues.reading(reply, true);
        try
        {
            sink.onMessage(direct.inbound);
        }
        finally
        {
            receiveQueues.reading(reply, false);
            direct.done();
            nic.returnReceiveBuffer();
        }
        return 1;
    }

    private ControlledMessageHandler reader(final NetInbound inbound)
    {
        return (msgTypeId, buffer, index, length) ->
        {
            if (closed)
            {
                // Closed by a handler of this very read: the record stays, for the NIC to return to its sender.
                return ControlledMessageHandler.Action.ABORT;
            }
            sink.onMessage(inbound.wrap(buffer, index, length));
            return ControlledMessageHandler.Action.CONTINUE;
        };
    }

    @Override
    public boolean hasPending()
    {
        nic.inlineReceive(null);
        return receiveQueues.pending();
    }

    @Override
    public void sleeping(final boolean sleeping)
    {
        // Volatile store, then the caller's volatile reads of the receive queues: the Dekker pair with the NIC's
        // commit then sleeping-flag read.
        this.sleeping = sleeping;
    }

    @Override
    public void tagChanged(final long tag)
    {
        this.tag = tag;
    }

    @Override
    public void close()
    {
        closed = true;
        nic.unregister(this);
        // What this endpoint's sends held goes out now, not when the keeper next runs the NIC.
        nic.directSends.flushHeld();
    }

    /**
     * The inverse mapping for messages from an endpoint of a peer (NIC thread).
     *
     * @param peer             the peer NIC.
     * @param remoteEndpointId the sending endpoint there.
     * @return the index of the route in {@link #routeAt(int)}, or -1 when the table is full.
     */
    @Override
    public int inverseRoute(final Peer peer, final int remoteEndpointId)
    {
        final long key = ((long)peer.index << 32) | (remoteEndpointId & 0xFFFF_FFFFL);
        NetRoute route = inverseRoutes.get(key);
        if (null == route)
        {
            if (routeCount >= MAX_ROUTES)
            {
                return -1;
            }
            if (peer.sameNic)
            {
                sameNicRoutes = true;
            }
            route = new NetRoute(this, peer, remoteEndpointId, peer.name(remoteEndpointId));
            // A route leads to the peer now: it keeps its place in the NIC's table.
            peer.routes.incrementAndGet();
            inverseRoutes.put(key, route);
            NetRoute[] table = routes;
            if (routeCount == table.length)
            {
                table = java.util.Arrays.copyOf(table, table.length * 2);
            }
            table[routeCount] = route;
            route.index = routeCount++;
            // Volatile store of the (possibly new) table after the entry is written: a host that reads an index
            // from a receive queue record, committed after this, finds the route.
            routes = table;
        }
        return route.index;
    }

    /**
     * @param index from a receive queue record.
     * @return the route.
     */
    Route routeAt(final int index)
    {
        return routes[index];
    }

    @Override
    public Peer routePeer(final int route)
    {
        return routes[route].peer;
    }

    @Override
    public boolean routeNamed(final int route)
    {
        return null != routes[route].peer();
    }

    @Override
    public boolean hostTakesCredits()
    {
        return true;
    }

    @Override
    public boolean sendsSameNic()
    {
        return sameNicRoutes;
    }

    @Override
    public org.agrona.concurrent.AtomicBuffer depositSegment()
    {
        return host.segment();
    }

    @Override
    public int checkSegment(final long segmentOffset, final int length)
    {
        return host.checkSegment(segmentOffset, length);
    }

    @Override
    public void signalArrival()
    {
        host.signalArrival();
    }

    @Override
    public void countRetransmit()
    {
        counters.retransmit();
    }

    @Override
    public int id()
    {
        return id;
    }

    @Override
    public long tag()
    {
        return tag;
    }

    @Override
    public boolean isSleeping()
    {
        return sleeping;
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    byte[] encodedName()
    {
        final byte[] name = encodedName;
        return null != name ? name : new byte[0];
    }

    @Override
    public String toString()
    {
        return "net endpoint " + id;
    }
}
