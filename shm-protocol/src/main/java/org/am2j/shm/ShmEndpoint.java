package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.BULK_INDEX_OFFSET;
import static org.am2j.shm.PacketDescriptor.NO_BULK;
import static org.am2j.shm.PacketDescriptor.READY;
import static org.am2j.shm.PacketDescriptor.STATE_OFFSET;
import static org.am2j.shm.PacketDescriptor.WITHDRAWN;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OPEN;
import static org.am2j.shm.QueueBlockDescriptor.claim;
import static org.am2j.shm.QueueBlockDescriptor.claimer;
import static org.am2j.shm.QueueBlockDescriptor.claimsLap;
import static org.am2j.shm.QueueBlockDescriptor.pid;
import static org.am2j.shm.QueueBlockDescriptor.type;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.am2j.spi.DeadRoute;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.MessageSink;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.am2j.spi.TransportCounters;
import org.am2j.spi.TransportEndpoint;

/**
 * An endpoint's shared-memory part: its queue block, which it owns and polls, the routes it made into other queue
 * blocks, and the inverse mappings of the senders it heard from.
 * <p>
 * Receiving: the packet at the head of each queue is looked at; a ready one is handed to the core, then its bulk
 * block and the packet are freed and the head advances. A packet that stays claimed longer than the liveness timeout
 * is skipped when its sender's process is gone, and so is an assignment taken and never claimed: nothing a dead
 * sender leaves holds up the live ones for longer than the timeout.
 */
final class ShmEndpoint implements TransportEndpoint
{
    private static final long LIVENESS_CHECK_INTERVAL_NANOS = 10_000_000L;

    /**
     * An empty queue's tail is compared with its head once in this many polls: the tail is the senders' line, and
     * reading it on every poll would pull it away from the next sender's CAS.
     */
    private static final int EMPTY_POLLS_PER_TAIL_CHECK = 1024;

    private final ShmTransport transport;
    private final EndpointHost host;
    private final MappedRegion region;
    private final QueueBlock block;
    private final String path;
    private final Receiving requests;
    private final Receiving replies;
    private final TransportCounters counters;
    private final List<ShmRoute> routes = new ArrayList<>();
    private final Route unknownSender = new DeadRoute(null, ShmTransport.NAME);
    private ShmPeer[] peers;
    private MappedRegion segmentRegion;
    private int segments;
    /** Set when the endpoint is being freed: polls hand nothing over from then on ({@link #returnQueued}). */
    private volatile boolean closed;
    private boolean released;

    /** The receive side of one queue structure. */
    private static final class Receiving
    {
        final PacketQueue queue;
        /**
         * The flyweight this queue's messages are handed over in: one per queue, so that a nested poll of the reply
         * queues (a reply waiting for space) does not move the flyweight of the request being handled.
         */
        final ShmInbound inbound;
        long head;
        /** Offset of the packet at {@link #head}, kept with it. */
        int headPacket;
        /** The state of the packet at {@link #head} while no sender has made it ready: FREE for the head's lap. */
        long headFree;
        boolean reading;
        long stuckHead = -1;
        long stuckSince;
        long lastLivenessCheck;
        int emptyPolls;

        Receiving(final PacketQueue queue, final ShmInbound inbound)
        {
            this.queue = queue;
            this.inbound = inbound;
            advance(0);
        }

        void advance(final long head)
        {
            this.head = head;
            this.headPacket = queue.packetOffset(head);
            this.headFree = queue.freeStateFor(head);
        }
    }

    ShmEndpoint(final ShmTransport transport, final EndpointHost host)
    {
        this.transport = transport;
        this.host = host;
        final ShmConfig config = transport.config;
        final Path file = transport.directory().resolve(
            transport.pid + "-" + transport.startMs + "-" + host.endpointId() + ".qb");
        this.path = file.toString();
        this.region = MappedRegion.create(file,
            QueueBlockDescriptor.length(config.slots, config.requestDepth, config.replyDepth, config.bulkDepth));
        this.block = QueueBlock.format(region.buffer, config, transport.pid, transport.startMs, transport.processId,
            host.endpointId(), transport.doorbellPath());
        this.block.tag(host.tag());
        this.requests = new Receiving(block.requests, new ShmInbound(this, block.requests));
        this.replies = new Receiving(block.replies, new ShmInbound(this, block.replies));
        this.peers = new ShmPeer[config.slots];
        this.counters = host.counters(ShmTransport.NAME);
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
     * The inverse mapping of a received packet: the route back to the sender in {@code slot}, resolved the first time
     * and then found by index.
     */
    Route inverseRoute(final int slot, final int generation)
    {
        if (slot >= peers.length)
        {
            return unknownSender;
        }
        final ShmPeer peer = peers[slot];
        if (null != peer && peer.generation == generation)
        {
            return peer.route;
        }
        return resolve(slot, generation);
    }

    private Route resolve(final int slot, final int generation)
    {
        final String senderPath = ConnectionTable.path(block, slot, generation);
        if (null == senderPath)
        {
            return unknownSender;
        }
        EndpointName name = null;
        Route route;
        try
        {
            final MappedRegion mapped = transport.mappedFiles.acquire(Path.of(senderPath));
            try
            {
                final byte[] encoded = QueueBlock.wrap(mapped.buffer, "queue block " + senderPath).encodedName();
                name = null == encoded ? null : EndpointName.fromBytes(encoded);
            }
            finally
            {
                transport.mappedFiles.release(mapped);
            }
            route = null == name ? unknownSender : connect(name, 0);
        }
        catch (final RuntimeException ex)
        {
            route = new DeadRoute(name, ShmTransport.NAME);
        }
        if (null == route)
        {
            route = new DeadRoute(name, ShmTransport.NAME);
        }
        peers[slot] = new ShmPeer(generation, name, route);
        return route;
    }

    @Override
    public int poll(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        int handled = 0;
        if (!idle(replies))
        {
            handled = poll(replies, sink, budget);
        }
        if (!repliesOnly && !idle(requests))
        {
            handled += poll(requests, sink, budget);
        }
        return handled;
    }

    /**
     * The common case of a poll, kept small enough to be inlined into the caller's poll loop: the packet at the
     * head is free and nothing is pending in the liveness check, so there is nothing to do but count the empty poll.
     * Anything else (a ready packet, a packet not ready for a while, the periodic tail check) takes the full path.
     *
     * @return true when the queue can be skipped.
     */
    private static boolean idle(final Receiving receiving)
    {
        return countedEmpty(receiving, receiving.queue.state(receiving.headPacket));
    }

    /**
     * @param receiving the queue.
     * @param state     of the packet at its head.
     * @return true, having counted an empty poll, when the packet is free for the head's lap (one compare: any other
     * state, ready or garbage, takes the full path) and the liveness check has nothing to do; false when
     * {@link #abandoned} must look at it.
     */
    private static boolean countedEmpty(final Receiving receiving, final long state)
    {
        if (receiving.headFree != state || 0 != receiving.stuckSince)
        {
            return false;
        }
        final int emptyPolls = receiving.emptyPolls + 1;
        if (0 == (emptyPolls & (EMPTY_POLLS_PER_TAIL_CHECK - 1)))
        {
            // The poll that compares the tail with the head: abandoned() counts it and does the comparison.
            return false;
        }
        receiving.emptyPolls = emptyPolls;
        return true;
    }

    private int poll(final Receiving receiving, final MessageSink sink, final int budget)
    {
        // A queue already being read further up this thread's stack is skipped: its head is not advanced yet.
        if (receiving.reading || closed)
        {
            return 0;
        }
        receiving.reading = true;
        try
        {
            final PacketQueue queue = receiving.queue;
            int handled = 0;
            while (handled < budget)
            {
                final long head = receiving.head;
                final int packet = receiving.headPacket;
                final long state = queue.state(packet);
                if (READY == type(state))
                {
                    receiving.stuckSince = 0;
                    try
                    {
                        sink.onMessage(receiving.inbound.wrap(packet, state));
                    }
                    finally
                    {
                        free(receiving, head, packet, state);
                    }
                    handled++;
                }
                else if (countedEmpty(receiving, state) || !abandoned(receiving, head, packet, state))
                {
                    break;
                }
            }
            return handled;
        }
        finally
        {
            receiving.reading = false;
        }
    }

    private void free(final Receiving receiving, final long head, final int packet, final long state)
    {
        final PacketQueue queue = receiving.queue;
        final int bulk = queue.packetShort(packet, BULK_INDEX_OFFSET);
        if (NO_BULK != bulk)
        {
            BulkBlocks.freeHeldBy(queue, bulk, pid(state));
            queue.putBulkIndex(packet, NO_BULK);
        }
        // Release store FREE(next lap): the sender that holds the next lap's assignment of this packet sees it free
        // only after we are done reading it and its bulk block.
        queue.stateRelease(packet, queue.freeStateFor(head + queue.depth));
        receiving.advance(head + 1);
        // Release store of the head, for hasPending() from another thread and for diagnostics; senders never read it.
        queue.headRelease(head + 1);
    }

    /**
     * The head packet is not ready. It is abandoned when it has stayed so for the liveness timeout while its
     * assignment was taken (the tail is past it, or its state is garbage) and no live process holds the lap's claim:
     * the claimer's process is gone, or no one ever claimed it (a sender died between its tail CAS and its claim).
     * An abandoned packet is skipped and counted as a drop.
     *
     * @return true when the packet was skipped.
     */
    private boolean abandoned(final Receiving receiving, final long head, final int packet, final long state)
    {
        final PacketQueue queue = receiving.queue;
        final UnsafeBuffer buffer = queue.buffer;
        final boolean free = queue.freeStateFor(head) == state;
        if (free)
        {
            long tail = head;
            if (0 == (++receiving.emptyPolls & (EMPTY_POLLS_PER_TAIL_CHECK - 1)))
            {
                tail = buffer.getLongVolatile(queue.tailOffset);
                if (tail < head)
                {
                    tail = repairTail(queue, tail, head);
                }
            }
            if (tail <= head)
            {
                if (0 != receiving.stuckSince && receiving.stuckHead != head)
                {
                    receiving.stuckSince = 0;
                }
                return false;
            }
        }
        final long now = System.nanoTime();
        if (receiving.stuckHead != head || 0 == receiving.stuckSince)
        {
            receiving.stuckHead = head;
            receiving.stuckSince = now;
            return false;
        }
        if (now - receiving.stuckSince < transport.config.livenessNanos ||
            now - receiving.lastLivenessCheck < LIVENESS_CHECK_INTERVAL_NANOS)
        {
            return false;
        }
        receiving.lastLivenessCheck = now;
        if (!free && buffer.getLongVolatile(queue.tailOffset) <= head)
        {
            // Garbage in a packet no sender holds an assignment of: repaired (made free for this lap), not skipped,
            // which would put the head past the tail and leave the next sender's packet never free for its lap.
            // CAS, so a state that changed meanwhile is looked at again.
            if (buffer.compareAndSetLong(packet + STATE_OFFSET, state, queue.freeStateFor(head)))
            {
                counters.drop();
            }
            receiving.stuckSince = 0;
            return false;
        }
        final long lap = queue.lap(head);
        final int claimOffset = queue.claimOffset(head);
        final long claimWord = buffer.getLongVolatile(claimOffset);
        final long claimer = claimsLap(claimWord, lap) ? claimer(claimWord) : 0;
        if (0 != claimer && ProcessIdentity.isAlive(claimer, ProcessIdentity.UNKNOWN_START_TIME))
        {
            return false;
        }
        // CAS of the claim word to SKIPPED(lap), unless an earlier attempt of ours already wrote it: a sender still
        // holding the assignment then fails its claim and writes nothing into the packet. If a slow sender claimed
        // it since we read the word, the CAS fails and we wait for that sender.
        if (!(claimsLap(claimWord, lap) && 0 == claimer) &&
            !buffer.compareAndSetLong(claimOffset, claimWord, claim(lap, 0)))
        {
            return false;
        }
        // A dead claimer's or a garbage packet may name a bulk block: take it and clear the field before the packet
        // is published free, since the next lap's sender writes that field as soon as it sees the packet free. An
        // unclaimed packet's field was cleared when its previous lap was freed.
        final int bulk = free && 0 == claimer ? NO_BULK : buffer.getShort(packet + BULK_INDEX_OFFSET) & 0xFFFF;
        if (NO_BULK != bulk)
        {
            buffer.putShort(packet + BULK_INDEX_OFFSET, (short)NO_BULK);
        }
        // CAS to FREE(next lap): fails only if the claimer made the packet ready before it died; the next poll then
        // delivers it.
        if (!buffer.compareAndSetLong(packet + STATE_OFFSET, state, queue.freeStateFor(head + queue.depth)))
        {
            if (NO_BULK != bulk)
            {
                buffer.putShort(packet + BULK_INDEX_OFFSET, (short)bulk);
            }
            return false;
        }
        if (0 != claimer)
        {
            BulkBlocks.freeHeldBy(queue, bulk, claimer);
        }
        // The holder of a never-claimed assignment may have died holding a bulk block it claimed first.
        BulkBlocks.freeClaimedByDead(queue, transport.pid);
        receiving.advance(head + 1);
        buffer.putLongRelease(queue.headOffset, head + 1);
        receiving.stuckSince = 0;
        counters.drop();
        return true;
    }

    /**
     * The head is past the tail: a READY state appeared in a packet no sender had been assigned (garbage) and was
     * delivered, so no sender can take the packets in [tail, head) (they are free for their next lap, not this one)
     * and, left alone, the queue would stay full. Their claim words get this lap's skip stamp, which is what their
     * next lap's senders expect, then the tail moves up to the head (CAS: a sender cannot have moved it, since no
     * packet at the tail is free for its lap). Counted as a drop.
     *
     * @return the tail after the repair.
     */
    private long repairTail(final PacketQueue queue, final long tail, final long head)
    {
        final UnsafeBuffer buffer = queue.buffer;
        for (long sequence = Math.max(tail, head - queue.depth); sequence < head; sequence++)
        {
            // Release store SKIPPED(lap): no sender holds these sequences; stamped before the tail CAS publishes
            // them as taken, so a sender that sees the new tail sees the stamps of the laps before it.
            buffer.putLongRelease(queue.claimOffset(sequence), claim(queue.lap(sequence), 0));
        }
        if (buffer.compareAndSetLong(queue.tailOffset, tail, head))
        {
            counters.drop();
            return head;
        }
        return buffer.getLongVolatile(queue.tailOffset);
    }

    @Override
    public boolean hasPending()
    {
        return pending(block.replies) || pending(block.requests);
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
        segmentRegion = MappedRegion.create(file, length);
        if (null != previous)
        {
            block.segment(null, 0);
            MappedRegion.deleteQuietly(previous.path);
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

    EndpointHost host()
    {
        return host;
    }

    /**
     * Close the queue block to senders, then hand over every message up to the last assignment any sender took before
     * it saw the block closed (docs/shm-protocol.md, "Closing an endpoint", has the argument). The queue block's
     * volatile store of CLOSED comes before the read of each queue's tail, and a sender reads the state again after
     * its tail CAS: so an assignment below the tail read here belongs to a sender that either saw the block open
     * after its CAS, and fills and publishes its packet, or saw it closed and withdraws it; an assignment at or above
     * it belongs to a sender that saw it closed. The drain waits for each packet below that tail to become ready or
     * withdrawn, or to be abandoned by a sender whose process is gone (the liveness check of an ordinary poll, so at
     * most the liveness timeout per dead sender, counted as a drop); a live sender holding a claim is waited for.
     */
    @Override
    public int returnQueued(final MessageSink returns)
    {
        if (closed)
        {
            return 0;
        }
        closed = true;
        block.close();
        // The tails after the state store (which block.close() makes a full fence): every sender that takes an
        // assignment from here on sees CLOSED after its tail CAS.
        final long repliesEnd = block.replies.tail();
        final long requestsEnd = block.requests.tail();
        return drain(replies, repliesEnd, returns) + drain(requests, requestsEnd, returns);
    }

    private int drain(final Receiving receiving, final long end, final MessageSink returns)
    {
        final PacketQueue queue = receiving.queue;
        int handed = 0;
        int attempt = 0;
        while (receiving.head < end)
        {
            final long head = receiving.head;
            final int packet = receiving.headPacket;
            final long state = queue.state(packet);
            final int type = type(state);
            if (READY == type)
            {
                try
                {
                    returns.onMessage(receiving.inbound.wrap(packet, state));
                }
                finally
                {
                    free(receiving, head, packet, state);
                }
                handed++;
                attempt = 0;
            }
            else if (WITHDRAWN == type)
            {
                // Written by the holder of the lap's claim, which wrote nothing else and took its message back.
                free(receiving, head, packet, state);
                attempt = 0;
            }
            else
            {
                // The tail is past this packet, so a sender holds its assignment: let the liveness check look at the
                // tail on this call (an ordinary poll looks at it only now and then), and skip the packet if that
                // sender's process is gone.
                receiving.emptyPolls = EMPTY_POLLS_PER_TAIL_CHECK - 1;
                if (!abandoned(receiving, head, packet, state))
                {
                    attempt = idle(attempt);
                }
            }
        }
        return handed;
    }

    private static int idle(final int attempt)
    {
        if (attempt < 256)
        {
            Thread.onSpinWait();
        }
        else if (attempt < 512)
        {
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(100_000L);
        }
        return attempt + 1;
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
        MappedRegion.deleteQuietly(region.path);
        if (null != segmentRegion)
        {
            MappedRegion.deleteQuietly(segmentRegion.path);
        }
    }

    @Override
    public String toString()
    {
        return "shm endpoint " + host.endpointId() + " at " + path;
    }
}
