package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.*;
import static org.am2j.shm.QueueBlockDescriptor.BULK_CLAIMED;
import static org.am2j.shm.QueueBlockDescriptor.BULK_FREE;
import static org.am2j.shm.QueueBlockDescriptor.BULK_READY;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OPEN;
import static org.am2j.shm.QueueBlockDescriptor.claim;
import static org.am2j.shm.QueueBlockDescriptor.claimsLap;
import static org.am2j.shm.QueueBlockDescriptor.state;
import static org.am2j.shm.QueueBlockDescriptor.type;

import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.am2j.spi.SegmentBounds;

/**
 * The path from this process into one queue block of another endpoint on the node: a translation table entry's
 * route, or the reply route of the inverse mapping. It sends with the paper's five steps:
 * <ol>
 *   <li>check the destination's tag in its queue block (a mismatch comes back without touching the queues);</li>
 *   <li>for a message with data, claim a bulk block (CAS of its flag from free to claimed);</li>
 *   <li>take a packet assignment by advancing the packet-queue tail with a CAS, after checking that the packet at
 *       the tail is free (otherwise the queue is full);</li>
 *   <li>claim the packet (CAS of its claim word, recording the lap and our pid: the claim words sit beside the
 *       packets on lines only senders write, so a claim does not pull the packet's line from the receiver that
 *       spins on it);</li>
 *   <li>fill it (handler, arguments, inverse mapping, bulk index), copy the data, and mark it ready.</li>
 * </ol>
 * A long message goes straight into the destination's segment when that segment is in shared memory (one copy).
 * Instances are shared by the threads of a PAR bundle: the fields they update are hints only.
 */
final class ShmRoute implements Route
{
    /** {@link #takePacket}: the packet at the tail is not free for its lap. */
    private static final int QUEUE_FULL = -1;
    /** {@link #takePacket}: the receiver skipped the assignment before the claim. */
    private static final int CLAIM_LOST = -2;

    private final ShmTransport transport;
    private final MappedRegion region;
    private final QueueBlock block;
    private final EndpointName peer;
    private final int inverse;
    private final Doorbell doorbell;
    private final long pid;
    private final long claimedBulkState;
    private final long readyBulkState;
    private final long readyPacketState;
    private final long ownerPid;
    private final long ownerStartMs;
    private final long livenessNanos;

    private MappedRegion segmentRegion;
    private int segmentGeneration = -1;
    private int bulkHint;
    private long fullSince;
    private boolean ownerDead;

    ShmRoute(
        final ShmTransport transport, final MappedRegion region, final QueueBlock block, final EndpointName peer,
        final int inverse, final Doorbell doorbell)
    {
        this.transport = transport;
        this.region = region;
        this.block = block;
        this.peer = peer;
        this.inverse = inverse;
        this.doorbell = doorbell;
        final long pid = ProcessIdentity.currentPid();
        this.pid = pid;
        this.claimedBulkState = state(BULK_CLAIMED, pid);
        this.readyBulkState = state(BULK_READY, pid);
        this.readyPacketState = state(READY, pid);
        this.ownerPid = block.ownerPid();
        this.ownerStartMs = block.ownerStartMs();
        this.livenessNanos = transport.config.livenessNanos;
    }

    @Override
    public int send(final OutboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        final boolean returned = 0 != message.returnStatus();
        final boolean request = opcode.isRequest() && !returned;
        final int refused = refusal(opcode.isRequest(), request, message.tag());
        if (0 != refused)
        {
            return refused;
        }
        final PacketQueue queue = request ? block.requests : block.replies;
        final int length = message.dataLength();
        // A message without data (a short one, the common case) needs neither a bulk block nor the segment; the
        // send is split so that this path is small enough for the compiler to inline into the core's send.
        return 0 == length ?
            enqueue(message, queue, MessageCategory.LONG == opcode.category() && !returned, 0, NO_BULK, null) :
            sendData(message, opcode, returned, queue, length);
    }

    /**
     * What the destination's queue block says before anything is taken: a closed endpoint, and step 1, the tag copy.
     *
     * @param requestOpcode the message has a request opcode (returned or not): a closed endpoint refuses it as such.
     * @param checkTag      the message is a request that is not a returned one, so its tag must match.
     * @param tag           the message's tag.
     * @return 0 when the destination takes the message, else the return status it comes back with.
     */
    private int refusal(final boolean requestOpcode, final boolean checkTag, final long tag)
    {
        if (STATE_OPEN != block.state())
        {
            return requestOpcode ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
        }
        // Step 1: the tag copy in the queue block.
        if (checkTag && !Tags.accepts(block.tag(), tag))
        {
            return ReturnStatus.EBADTAG.code();
        }
        return 0;
    }

    private int sendData(
        final OutboundMessage message, final Opcode opcode, final boolean returned, final PacketQueue queue,
        final int length)
    {
        final boolean deposit = MessageCategory.LONG == opcode.category() && !returned;
        UnsafeBuffer segment = null;
        if (deposit)
        {
            segment = peerSegment();
            final int bounds = null == segment ? 0 : SegmentBounds.check(segment, message.segmentOffset(), length);
            if (0 != bounds)
            {
                return bounds;
            }
        }

        // Step 2: a bulk block first, so no packet is held while waiting for one.
        int bulk = NO_BULK;
        if (null == segment)
        {
            bulk = claimBulk(queue);
            if (bulk < 0)
            {
                return full();
            }
        }
        return enqueue(message, queue, deposit, length, bulk, segment);
    }

    /**
     * Steps 3 to 5: take a packet assignment, claim the packet, fill it, copy the data, mark it ready, and wake the
     * destination if it sleeps.
     *
     * @param message the message.
     * @param queue   the destination's request or reply queue.
     * @param deposit true for a long message that is not a returned one: the packet carries its segment offset.
     * @param length  of the data, 0 for none.
     * @param bulk    the bulk block claimed for the data, or {@link PacketDescriptor#NO_BULK}.
     * @param segment the destination's shared segment the data goes into, or null.
     * @return {@link #SENT} or {@link #FULL} (the bulk block given back).
     */
    private int enqueue(
        final OutboundMessage message, final PacketQueue queue, final boolean deposit, final int length,
        final int bulk, final UnsafeBuffer segment)
    {
        final int packet = takePacket(queue);
        if (packet < 0)
        {
            releaseBulk(queue, bulk);
            return QUEUE_FULL == packet ? full() : FULL;
        }

        // Step 5: fill and mark ready.
        queue.putHeader(packet, message.opcode(), message.handler(), message.argCount(), message.returnStatus(),
            inverse, length, bulk, deposit ? (int)message.segmentOffset() : -1, message.tag());
        for (int i = 0, count = message.argCount(); i < count; i++)
        {
            queue.putArg(packet, i, message.arg(i));
        }
        if (0 != length)
        {
            copyData(message, queue, length, bulk, segment);
        }
        return publish(queue, packet);
    }

    /**
     * A short message (no data, return status 0) from its fields: the paper's steps 1, 3, 4 and 5 (no bulk block) with
     * nothing read back from a frame, every argument slot written (unused ones with what the caller passes, 0 from the
     * API's fixed-arity methods). Another opcode goes to the frame path.
     */
    @Override
    public int sendShort(
        final OutboundMessage scratch, final int opcode, final int handler, final long tag, final int source,
        final int argCount, final int a0, final int a1, final int a2, final int a3, final int a4, final int a5,
        final int a6, final int a7)
    {
        final boolean request = Opcode.REQUEST_SHORT.code() == opcode;
        if (!request && Opcode.REPLY_SHORT.code() != opcode)
        {
            return Route.super.sendShort(scratch, opcode, handler, tag, source, argCount, a0, a1, a2, a3, a4, a5,
                a6, a7);
        }
        final int refused = refusal(request, request, tag);
        if (0 != refused)
        {
            return refused;
        }
        final PacketQueue queue = request ? block.requests : block.replies;
        final int packet = takePacket(queue);
        if (packet < 0)
        {
            return QUEUE_FULL == packet ? full() : FULL;
        }
        // Step 5: fill and mark ready.
        queue.putHeader(packet, opcode, handler, argCount, 0, inverse, 0, NO_BULK, -1, tag);
        queue.putArgs(packet, a0, a1, a2, a3, a4, a5, a6, a7);
        return publish(queue, packet);
    }

    /**
     * Steps 3 and 4: take a packet assignment and claim the packet.
     *
     * @param queue the destination's request or reply queue.
     * @return the packet's offset, {@link #QUEUE_FULL} when the packet at the tail is not free for its lap, or
     * {@link #CLAIM_LOST} when the receiver skipped the assignment or a later lap's sender holds the packet (the send
     * is tried again).
     */
    private int takePacket(final PacketQueue queue)
    {
        // Step 3: the packet assignment.
        long tail;
        int packet;
        do
        {
            tail = queue.tail();
            packet = queue.packetOffset(tail);
            // Free for this lap, or the queue is full: a packet still free for the previous lap belongs to a
            // sender that has not made it ready yet, and taking it would overtake that sender's message.
            if (queue.freeStateFor(tail) != queue.state(packet))
            {
                return QUEUE_FULL;
            }
        }
        // CAS of the tail: each sequence number is assigned to exactly one sender. The packet was free for this
        // lap before the CAS and only the holder of its assignment claims it, so it is still free now unless the
        // receiver skipped it after the liveness timeout (then the claim below fails).
        while (!queue.casTail(tail));

        // Step 4: claim. The claim word must still carry the previous lap's stamp (a claim or skip of lap - 1; a
        // zeroed word is lap -1's). Anything else means we were too slow: the receiver skipped our assignment after
        // the liveness timeout (this lap's stamp), or the queue has gone round since and a later lap's sender holds
        // the packet (a later stamp). The packet is not ours any more, and the send is tried again.
        // CAS of the claim word to CLAIMED(lap, pid): of this sender and a receiver skipping the assignment, exactly
        // one wins the lap; the loser writes nothing into the packet.
        if (!claimPacket(queue, tail, pid))
        {
            return CLAIM_LOST;
        }
        if (0 != fullSince)
        {
            // A hint shared by the threads of a PAR bundle: stored only when it changes, not on every send.
            fullSince = 0;
        }
        return packet;
    }

    /**
     * Step 5's end: mark the packet the caller filled ready, and wake the destination if it sleeps.
     *
     * @return {@link #SENT}.
     */
    private int publish(final PacketQueue queue, final int packet)
    {
        // Release store READY: the receiver that sees it sees every field and byte the caller wrote into the packet.
        queue.stateRelease(packet, readyPacketState);

        // The tail and claim CASes (full fences) came before this read: either the receiver saw the tail move
        // before it slept (hasPending), or we see its sleeping flag here (SLEEPING: we ring; RUNG: another sender
        // rang after the flag was last published, and the sleeper looks at its queues when that ring wakes it).
        if (null != doorbell && block.takeRing())
        {
            doorbell.ring();
        }
        return SENT;
    }

    /**
     * Step 4 for the holder of one assignment: CAS of the packet's claim word from the previous lap's stamp to
     * CLAIMED(lap, pid).
     *
     * @param queue    the destination queue.
     * @param sequence the assignment (tail value) the sender's tail CAS took.
     * @param pid      the sender's pid.
     * @return true when the packet is the sender's to fill; false when the receiver skipped the assignment or a
     * later lap's sender holds the packet.
     */
    static boolean claimPacket(final PacketQueue queue, final long sequence, final long pid)
    {
        final long lap = queue.lap(sequence);
        final long claimWord = queue.claimWord(sequence);
        return claimsLap(claimWord, lap - 1) && queue.casClaimWord(sequence, claimWord, claim(lap, pid));
    }

    /**
     * Copy a message's data into its bulk block, or into the destination's segment; kept out of {@link #enqueue} so
     * that the path of a message without data stays small enough to inline.
     */
    private void copyData(
        final OutboundMessage message, final PacketQueue queue, final int length, final int bulk,
        final UnsafeBuffer segment)
    {
        if (NO_BULK != bulk)
        {
            final UnsafeBuffer buffer = queue.buffer;
            buffer.putBytes(queue.bulkBlockOffset(bulk), message.data(), message.dataOffset(), length);
            // Ordered store READY(pid): the block now belongs to the packet; only the receiver frees it, or, if we
            // die before the packet is ready, the receiver when it skips the packet.
            buffer.putLongRelease(queue.bulkFlagOffset(bulk), readyBulkState);
        }
        else if (null != segment)
        {
            segment.putBytes((int)message.segmentOffset(), message.data(), message.dataOffset(), length);
        }
    }

    private int claimBulk(final PacketQueue queue)
    {
        final UnsafeBuffer buffer = queue.buffer;
        final int depth = queue.bulkDepth;
        int index = bulkHint;
        for (int i = 0; i < depth; i++)
        {
            if (index >= depth)
            {
                index = 0;
            }
            final int flag = queue.bulkFlagOffset(index);
            final long current = buffer.getLongVolatile(flag);
            // CAS FREE -> CLAIMED(pid): one sender owns the block until it hands it to a ready packet.
            if (BULK_FREE == type(current) && buffer.compareAndSetLong(flag, current, claimedBulkState))
            {
                bulkHint = index + 1;
                return index;
            }
            index++;
        }
        return -1;
    }

    private void releaseBulk(final PacketQueue queue, final int bulk)
    {
        if (NO_BULK != bulk)
        {
            // Release store FREE: we claimed the block and never published it.
            queue.buffer.putLongRelease(queue.bulkFlagOffset(bulk), state(BULK_FREE, 0));
        }
    }

    /**
     * The destination queue is full. After the liveness timeout, ask whether its owner is alive: a dead owner's
     * queue never drains, and its messages come back with EUNREACHABLE.
     */
    private int full()
    {
        if (ownerDead)
        {
            return ReturnStatus.EUNREACHABLE.code();
        }
        final long now = System.nanoTime();
        if (0 == fullSince)
        {
            fullSince = now;
        }
        else if (now - fullSince > livenessNanos)
        {
            fullSince = now;
            if (!ProcessIdentity.isAlive(ownerPid, ownerStartMs))
            {
                // A dead owner stays dead: every later message that finds its queue full comes back at once,
                // instead of costing one liveness timeout each.
                ownerDead = true;
                return ReturnStatus.EUNREACHABLE.code();
            }
            reclaimBulkOfDeadSenders();
        }
        return FULL;
    }

    /**
     * Free the bulk blocks claimed by senders that died before they claimed a packet: no packet names them, so no
     * one else would.
     */
    private void reclaimBulkOfDeadSenders()
    {
        BulkBlocks.freeClaimedByDead(block.requests, pid);
        BulkBlocks.freeClaimedByDead(block.replies, pid);
    }

    /**
     * @return the destination's segment when it lives in shared memory, mapped once per process; else null.
     */
    private UnsafeBuffer peerSegment()
    {
        final int generation = block.segmentGeneration();
        if (generation != segmentGeneration)
        {
            remapSegment(generation);
        }
        return null == segmentRegion ? null : segmentRegion.buffer;
    }

    private synchronized void remapSegment(final int generation)
    {
        if (generation == segmentGeneration)
        {
            return;
        }
        transport.mappedFiles.release(segmentRegion);
        segmentRegion = null;
        final String path = block.segmentPath();
        final int length = block.segmentLength();
        if (null != path && length > 0)
        {
            try
            {
                final MappedRegion mapped = transport.mappedFiles.acquire(Path.of(path));
                if (mapped.buffer.capacity() >= length)
                {
                    segmentRegion = mapped;
                }
                else
                {
                    transport.mappedFiles.release(mapped);
                }
            }
            catch (final RuntimeException ex)
            {
                // The segment went away: long messages travel through the bulk queue and the receiver checks them.
                segmentRegion = null;
            }
        }
        segmentGeneration = generation;
    }

    /**
     * Give back the connection slot and the mappings this route holds.
     */
    void close()
    {
        ConnectionTable.release(block, inverse & 0xFFFF, inverse >>> 16);
        transport.mappedFiles.release(segmentRegion);
        if (null != doorbell)
        {
            transport.mappedFiles.release(doorbell.region());
        }
        transport.mappedFiles.release(region);
    }

    @Override
    public EndpointName peer()
    {
        return peer;
    }

    @Override
    public String transport()
    {
        return ShmTransport.NAME;
    }

    @Override
    public String toString()
    {
        return "shm route to " + peer;
    }
}
