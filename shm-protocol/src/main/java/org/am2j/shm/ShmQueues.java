package org.am2j.shm;

import static org.am2j.shm.FastBoxDescriptor.REPLIES;
import static org.am2j.shm.FastBoxDescriptor.REQUESTS;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OPEN;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.am2j.spi.DeadRoute;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.MessageSink;
import org.am2j.spi.ReceiveQueues;
import org.am2j.spi.Route;
import org.am2j.spi.TransportCounters;
import org.am2j.spi.TransportQueues;

/**
 * An endpoint's shared-memory part: its queue block, which it owns and polls, the routes it made into other queue
 * blocks, and the inverse mappings of the senders it heard from.
 * <p>
 * Receiving is done by its {@link ShmReceiveQueues}, per queue by a {@link PacketReceiver}, and for the fast boxes by
 * a {@link FastBoxReceiver}.
 */
final class ShmQueues implements TransportQueues
{
    /**
     * Liveness timeouts the drain of a freed endpoint's queues waits at most, from the start of the close: a live
     * claimer's {@link PacketReceiver#LIVE_CLAIM_TIMEOUTS} and two more.
     */
    static final int DRAIN_TIMEOUTS = PacketReceiver.LIVE_CLAIM_TIMEOUTS + 2;

    private final ShmTransport transport;
    private final EndpointHost host;
    private final MappedRegion region;
    private final QueueBlock block;
    private final String path;
    private final PacketReceiver requests;
    private final PacketReceiver replies;
    private final FastBoxReceiver boxes;
    private final ShmReceiveQueues receiveQueues;
    private final TransportCounters counters;
    private final List<ShmRoute> routes = new ArrayList<>();
    /** Finds dead peer processes among the routes' destinations and hands back what was sent to them. */
    private final DeadPeers deadPeers;
    /** How long a sender whose route back could not be made is answered by a dead route before trying again. */
    private static final long DEAD_ROUTE_RETRY_NANOS = 50_000_000L;
    /** The sender of a packet whose inverse mapping names no readable queue block: no pid, a dead route. */
    private final ShmPeer unknownSender =
        new ShmPeer(-1, null, new DeadRoute(null, ShmTransport.NAME), ShmPeer.UNKNOWN_PID, 0);
    private ShmPeer[] peers;
    private MappedRegion segmentRegion;
    private int segments;
    /** Set when the endpoint is being freed: polls hand nothing over from then on ({@link #returnQueued}). */
    private volatile boolean closed;
    private boolean released;
    /** The tails read when the queue block was closed: the drain's ends. */
    private long repliesEnd;
    private long requestsEnd;
    /** When the drain stops waiting ({@link System#nanoTime()}). */
    private long drainDeadline;

    ShmQueues(final ShmTransport transport, final EndpointHost host)
    {
        this.transport = transport;
        this.host = host;
        final ShmConfig config = transport.config;
        final Path file = transport.directory().resolve(
            transport.pid + "-" + transport.startMs + "-" + host.endpointId() + ".qb");
        this.region = MappedRegion.create(file,
            QueueBlockDescriptor.length(config.slots, config.requestDepth, config.replyDepth, config.bulkDepth,
                config.boxes, config.boxDepth), config.sealed);
        this.path = region.path.toString();
        this.block = QueueBlock.format(region.buffer, config, transport.pid, transport.startMs, transport.processId,
            host.endpointId(), transport.doorbellPath());
        this.block.tag(host.tag());
        this.peers = new ShmPeer[config.slots];
        this.counters = host.counters(ShmTransport.NAME);
        this.deadPeers = new DeadPeers(transport, host, routes, counters);
        this.boxes = new FastBoxReceiver(block, new ShmInbound(this, block.requests),
            new ShmInbound(this, block.replies), counters, config.livenessNanos, transport.pid);
        this.requests = new PacketReceiver(block, block.requests, new ShmInbound(this, block.requests), counters,
            config.livenessNanos, transport.pid, boxes, REQUESTS);
        this.replies = new PacketReceiver(block, block.replies, new ShmInbound(this, block.replies), counters,
            config.livenessNanos, transport.pid, boxes, REPLIES);
        this.boxes.sharedQueues(requests, replies);
        this.receiveQueues =
            new ShmReceiveQueues(replies, requests, boxes, deadPeers, this::keepRouteBoxes);
        transport.register(host.endpointId(), this);
    }

    @Override
    public String address()
    {
        return path;
    }

    @Override
    public void named(final EndpointName name)
    {
        final byte[] encoded = name.toBytes();
        if (encoded.length > QueueBlockDescriptor.NAME_CAPACITY)
        {
            throw new AmException(AmError.BAD_ARG, "endpoint name of " + encoded.length + " bytes does not fit the " +
                QueueBlockDescriptor.NAME_CAPACITY + " bytes of a queue block");
        }
        block.open(encoded);
    }

    @Override
    public Route connect(final EndpointName destination, final long tag)
    {
        if (!transport.canReach(destination))
        {
            return null;
        }
        final ShmRoute route = open(destination);
        synchronized (routes)
        {
            routes.add(route);
        }
        return route;
    }

    /**
     * Map a destination's queue block and claim a connection slot in it: the forward half of the mapping (the
     * destination maps ours when it first hears from us).
     */
    private ShmRoute open(final EndpointName destination)
    {
        final String address = destination.address(ShmTransport.NAME);
        final MappedRegion mapped;
        try
        {
            mapped = transport.mappedFiles.acquire(Path.of(address));
        }
        catch (final RuntimeException ex)
        {
            throw new AmException(AmError.BAD_ARG, "name: cannot map the queue block of " + destination + ": " +
                ex.getMessage(), ex);
        }
        try
        {
            final QueueBlock destinationBlock = QueueBlock.wrap(mapped.buffer, "queue block " + address);
            if (STATE_OPEN != destinationBlock.state() ||
                destinationBlock.buffer.getLong(QueueBlockDescriptor.OWNER_PROCESS_ID_OFFSET) != destination.processId())
            {
                throw new AmException(AmError.BAD_ARG, "name: queue block " + address + " is not open for " +
                    destination);
            }
            final int inverse = ConnectionTable.claim(destinationBlock, path, destination.toString());
            Doorbell doorbell = null;
            try
            {
                doorbell = transport.peerDoorbell(destinationBlock.doorbellPath());
            }
            catch (final RuntimeException ex)
            {
                // Without the doorbell the destination's waitSema() finds our messages within its sleep slice.
            }
            return new ShmRoute(transport, mapped, destinationBlock, destination, inverse, doorbell);
        }
        catch (final RuntimeException ex)
        {
            transport.mappedFiles.release(mapped);
            throw ex;
        }
    }

    /**
     * The inverse mapping of a received packet: the sender in {@code slot} (its pid and the route back into its queue
     * block), resolved the first time and then found by index. Looked up once per message, when the packet is
     * wrapped: the reply and any return go by what this gave.
     *
     * @return the sender, or {@link #unknownSender} (no pid, a dead route) when the mapping names no readable queue
     * block.
     */
    ShmPeer inversePeer(final int slot, final int generation)
    {
        final ShmPeer[] peers = this.peers;
        if (slot >= peers.length)
        {
            return unknownSender;
        }
        final ShmPeer peer = peers[slot];
        if (null != peer && peer.generation == generation &&
            (0 == peer.retryAtNanos || System.nanoTime() - peer.retryAtNanos < 0))
        {
            return peer;
        }
        return resolve(slot, generation);
    }

    private ShmPeer resolve(final int slot, final int generation)
    {
        final String senderPath = ConnectionTable.path(block, slot, generation);
        if (null == senderPath)
        {
            return unknownSender;
        }
        EndpointName name = null;
        long pid = ShmPeer.UNKNOWN_PID;
        Route route;
        try
        {
            final MappedRegion mapped = transport.mappedFiles.acquire(Path.of(senderPath));
            try
            {
                final QueueBlock senderBlock = QueueBlock.wrap(mapped.buffer, "queue block " + senderPath);
                // The pid of a block opened by a /proc/<pid>/fd/<fd> address is that process's (it held the file
                // as it was opened); the header's pid, which a faulty writer may have overwritten, only otherwise.
                final long addressPid = SealedMemory.pidOf(mapped.path);
                pid = (addressPid > 0 ? addressPid : senderBlock.ownerPid()) & 0xFFFF_FFFFL;
                final byte[] encoded = senderBlock.encodedName();
                name = null == encoded ? null : EndpointName.fromBytes(encoded);
            }
            finally
            {
                transport.mappedFiles.release(mapped);
            }
            route = null == name ? unknownSender.route : connect(name, 0);
        }
        catch (final RuntimeException ex)
        {
            route = new DeadRoute(name, ShmTransport.NAME);
        }
        if (null == route)
        {
            route = new DeadRoute(name, ShmTransport.NAME);
        }
        if (!(route instanceof ShmRoute))
        {
            pid = ShmPeer.UNKNOWN_PID;
        }
        // A dead route may be a passing state (the sender's header overwritten until its owner repairs it): it is
        // tried again after a while instead of returning every later reply to that sender for good.
        final long retryAt = route instanceof ShmRoute ? 0 : (System.nanoTime() + DEAD_ROUTE_RETRY_NANOS) | 1;
        final ShmPeer peer = new ShmPeer(generation, name, route, pid, retryAt);
        peers[slot] = peer;
        return peer;
    }

    /**
     * @return the reader of this endpoint's fast boxes (for tests of the sweeps that read them).
     */
    FastBoxReceiver boxReceiver()
    {
        return boxes;
    }

    /**
     * Now and then, from a poll: let each route look after the box it writes into ({@link ShmRoute#keepBox}).
     */
    private void keepRouteBoxes()
    {
        synchronized (routes)
        {
            for (int i = 0, n = routes.size(); i < n; i++)
            {
                routes.get(i).keepBox();
            }
        }
    }

    @Override
    public ReceiveQueues receiveQueues()
    {
        return receiveQueues;
    }

    @Override
    public int poll(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        // A PAR bundle's poll; a SEQ bundle calls the receive queues itself.
        return receiveQueues.idle(repliesOnly) ? 0 : receiveQueues.receive(sink, budget, repliesOnly);
    }

    @Override
    public boolean hasPending()
    {
        // The boxes' stamps are read after the sleeping flag's volatile store, as the tails are: a box sender
        // fences between its stamp and its read of the flag (ShmRoute.publishBoxed).
        return boxes.hasPending() || pending(block.replies) || pending(block.requests) || deadPeers.pending();
    }

    private static boolean pending(final PacketQueue queue)
    {
        // The tail is advanced by a sender's CAS before it reads our sleeping flag: reading it after publishing the
        // flag, either we see the new tail or the sender sees the flag.
        return queue.buffer.getLongVolatile(queue.tailOffset) != queue.buffer.getLongVolatile(queue.headOffset);
    }

    @Override
    public void sleeping(final boolean sleeping)
    {
        if (sleeping)
        {
            // Before each sleep slice: a header overwritten meanwhile would keep every sender refusing until a poll.
            block.checkHeader();
            // And a peer that died while we wait for its answers: found within the liveness timeout, asleep or not.
            deadPeers.watch();
            // Before the sleep, not after it: a peer kept waiting for our ring could be the one we wait for.
            transport.rings.flush();
        }
        block.sleeping(sleeping);
    }

    @Override
    public void tagChanged(final long tag)
    {
        block.tag(tag);
    }

    @Override
    public void segmentChanged(final AtomicBuffer segment)
    {
        if (null != segmentRegion && segment == segmentRegion.buffer)
        {
            block.segment(segmentRegion.path.toString(), segment.capacity());
        }
        else
        {
            block.segment(null, 0);
        }
    }

    /**
     * Allocate a segment in a shared-memory file, so senders on this node write long messages straight into it.
     */
    AtomicBuffer allocateSegment(final int length)
    {
        final Path file = transport.directory().resolve(
            transport.pid + "-" + transport.startMs + "-" + host.endpointId() + "-" + (segments++) + ".seg");
        final MappedRegion previous = segmentRegion;
        segmentRegion = MappedRegion.create(file, length, transport.config.sealed);
        if (null != previous)
        {
            block.segment(null, 0);
            previous.delete();
        }
        return segmentRegion.buffer;
    }

    /**
     * @return the segment senders deposit into, or null when it is not in shared memory.
     */
    AtomicBuffer sharedSegment()
    {
        return null == segmentRegion ? null : segmentRegion.buffer;
    }

    /**
     * @return how many packet states and tails of this endpoint's queues were repaired without a message lost.
     */
    long packetRepairs()
    {
        return requests.repairs() + replies.repairs();
    }

    EndpointHost host()
    {
        return host;
    }

    /**
     * A peer process was found dead: the next poll hands back what this endpoint's routes sent it. Any thread.
     */
    void peerDied()
    {
        deadPeers.peerDied();
    }

    /**
     * Close the queue block to senders, then hand over every message up to the last assignment any sender took before
     * it saw the block closed (docs/shm-protocol.md, "Closing an endpoint", has the argument). The block's file is
     * removed first: a sender believes a state that is not OPEN only once the kernel says the file is gone, so that
     * garbage a faulty writer puts in the state word refuses nothing. Then the queue block's volatile store of CLOSED
     * comes before the read of each queue's tail and of each box's writing words, and a sender reads the state again
     * after its tail CAS or its box reservation: so an assignment below the tail read here (a reservation seen here)
     * belongs to a sender that either saw the block open after it, and fills and publishes its packet, or saw it
     * closed and withdraws it (cancels it); an assignment at or above it belongs to a sender that saw it closed. The
     * drain waits for each packet below that tail to become ready or withdrawn, or to be abandoned by a sender whose
     * process is gone (the liveness check of an ordinary poll, so at most the liveness timeout per dead sender,
     * counted as a drop), up to a bound: {@link #DRAIN_TIMEOUTS} liveness timeouts from the first call. What is not
     * settled then is counted as unsettled.
     */
    @Override
    public int returnQueued(final MessageSink returns)
    {
        if (!closed)
        {
            closed = true;
            receiveQueues.close();
            region.delete();
            block.close();
            // The tails after the state store (which block.close() makes a full fence): every sender that takes an
            // assignment from here on sees CLOSED after its tail CAS.
            repliesEnd = block.replies.tail();
            requestsEnd = block.requests.tail();
            drainDeadline = System.nanoTime() + DRAIN_TIMEOUTS * transport.config.livenessNanos;
        }
        // Called again after a handler 0 run for a message handed over threw: goes on from where that stopped.
        // What our routes sent to processes already found dead comes back first, since they go with the endpoint.
        return deadPeers.settle(returns) + boxes.drain(returns, drainDeadline) +
            replies.drain(repliesEnd, returns, drainDeadline) + requests.drain(requestsEnd, returns, drainDeadline);
    }

    @Override
    public void close()
    {
        if (released)
        {
            return;
        }
        released = true;
        closed = true;
        // Owed rings go before the endpoint does: a peer that waits for them must not wait for its sleep slice.
        transport.rings.flush();
        receiveQueues.close();
        // The file before the state, as in returnQueued.
        region.delete();
        block.close();
        synchronized (routes)
        {
            for (final ShmRoute route : routes)
            {
                route.close();
            }
            routes.clear();
        }
        peers = new ShmPeer[0];
        transport.unregister(host.endpointId());
        if (null != segmentRegion)
        {
            segmentRegion.delete();
        }
    }

    @Override
    public String toString()
    {
        return "shm endpoint " + host.endpointId() + " at " + path;
    }
}
