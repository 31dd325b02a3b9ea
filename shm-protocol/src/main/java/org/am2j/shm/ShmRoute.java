package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.*;
import static org.am2j.shm.QueueBlockDescriptor.state;

import java.lang.invoke.VarHandle;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.MessageSink;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.am2j.spi.SegmentBounds;
import org.am2j.spi.TransportCounters;

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
 * <p>
 * <b>Fast box.</b> On its first send the route claims a fast box in the destination's queue block (if one of the
 * cap is free) and sends that first message through the shared queue; from then on a message goes into the box,
 * without a CAS (one store-load fence after its reservation, for the sleep, close and let-go handshakes), whenever
 * the box has room and the overflow rule allows it ({@link FastBoxSender});
 * otherwise through the shared queue as above. A medium message in the box names a block of the shared bulk pool of
 * its queue (claimed as above: one CAS per medium message). The box has one writer: the thread that claimed it. If
 * another thread of a PAR bundle sends through the route, the route gives the box up for good and sends
 * through the shared queue only (the receiver delivers what is left in the box first).
 * <p>
 * Instances are shared by the threads of a PAR bundle: the fields they update are hints only, but for the box's,
 * which only the box's thread writes.
 */
final class ShmRoute implements Route
{
    /** {@link #takePacket}: the packet at the tail is not free for its lap. */
    private static final int QUEUE_FULL = -1;
    /** {@link #takePacket}: the receiver skipped the assignment before the claim. */
    private static final int CLAIM_LOST = -2;
    /** {@link #takePacket}: the queue block was closed; the packet was withdrawn. */
    private static final int CLOSED = -3;
    /** {@link #takePacket}: the queue block's owner was found dead; the packet was withdrawn. */
    private static final int OWNER_DEAD = -4;
    /** {@link #reserveBoxed}: the packet is reserved, the message may be written into the box. */
    private static final int BOXED = 0;
    /** {@link #reserveBoxed}: the box is not this route's any more; the message goes to the shared queue. */
    private static final int BOX_LOST = -1;
    /** Opcode byte a withdrawn packet carries, which no message has: tells a withdrawal from a flipped READY. */
    static final int WITHDRAWN_OPCODE = 0xFF;

    private final ShmTransport transport;
    private final MappedRegion region;
    private final QueueBlock block;
    private final EndpointName peer;
    private final int inverse;
    private final Doorbell doorbell;
    private final long pid;
    private final long readyPacketState;
    private final long withdrawnPacketState;
    /** The process that owns the destination's queue block, and whether it is dead (read on every send). */
    private final PeerProcess owner;
    /** What a full queue, a stall or a dead owner asks of the route. */
    private final OwnerWatch watch;

    /** The fast box this route claimed in the destination's queue block, and its counts of shared sends. */
    private final RouteBox box;

    private final PeerSegment segment;
    private final BulkClaims bulkClaims;

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
        this.bulkClaims = new BulkClaims(pid);
        this.readyPacketState = state(READY, pid);
        this.withdrawnPacketState = state(WITHDRAWN, pid);
        this.watch = new OwnerWatch(transport, this, region, block, inverse, pid);
        this.owner = watch.owner;
        this.box = new RouteBox(block, pid, inverse);
        this.segment = new PeerSegment(block, transport.mappedFiles);
    }

    @Override
    public int send(final OutboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        final boolean returned = 0 != message.returnStatus();
        final boolean request = opcode.isRequest() && !returned;
        final int refused = watch.refusal(opcode.isRequest(), returned, message.tag());
        if (0 != refused)
        {
            return countDeadOwner(refused);
        }
        final PacketQueue queue = request ? block.requests : block.replies;
        final int length = message.dataLength();
        // A message without data (a short one, the common case) needs neither a bulk block nor the segment; the
        // send is split so that this path is small enough for the compiler to inline into the core's send.
        return countDeadOwner(0 == length ?
            enqueue(message, queue, MessageCategory.LONG == opcode.category() && !returned, 0, NO_BULK, null) :
            sendData(message, opcode, returned, queue, length));
    }

    /**
     * Count a send refused because the owner is dead. Here, on the frame path, only: every message a short send did
     * not send comes here next ({@link #sendShort}), so each refusal is counted once.
     *
     * @param result what the send answers.
     * @return {@code result}.
     */
    private int countDeadOwner(final int result)
    {
        // EUNREACHABLE is this route's answer for a dead owner alone.
        if (ReturnStatus.EUNREACHABLE.code() == result)
        {
            transport.deadPeerCounters.refused.increment();
        }
        return result;
    }

    private int sendData(
        final OutboundMessage message, final Opcode opcode, final boolean returned, final PacketQueue queue,
        final int length)
    {
        final boolean deposit = MessageCategory.LONG == opcode.category() && !returned;
        UnsafeBuffer segment = null;
        if (deposit)
        {
            segment = this.segment.buffer();
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
            bulk = bulkClaims.claim(queue);
            if (bulk < 0)
            {
                return watch.full();
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
        final FastBoxSender fastBox = box.ring(queue == block.requests);
        if (null != fastBox)
        {
            final int packet = box.packet(fastBox, queue == block.requests);
            if (packet >= 0)
            {
                final int reserved = reserveBoxed(fastBox, Opcode.fromCode(message.opcode()).isRequest());
                if (BOXED == reserved)
                {
                    fill(message, queue, packet, deposit, length, bulk, segment);
                    return publishBoxed(fastBox, packet);
                }
                if (BOX_LOST != reserved)
                {
                    BulkClaims.release(queue, bulk);
                    return reserved;
                }
            }
        }
        final int packet = takePacket(queue);
        if (packet < 0)
        {
            BulkClaims.release(queue, bulk);
            return notTaken(packet, Opcode.fromCode(message.opcode()).isRequest());
        }

        // Step 5: fill and mark ready.
        fill(message, queue, packet, deposit, length, bulk, segment);
        return publish(queue, packet);
    }

    /**
     * Step 5's fill: every header field but the state, the arguments, and the data (into its bulk block, or into the
     * destination's segment).
     */
    private void fill(
        final OutboundMessage message, final PacketQueue queue, final int packet, final boolean deposit,
        final int length, final int bulk, final UnsafeBuffer segment)
    {
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
        final int refused = watch.refusal(request, false, tag);
        if (0 != refused)
        {
            return refused;
        }
        final PacketQueue queue = request ? block.requests : block.replies;
        final FastBoxSender fastBox = box.ring(queue == block.requests);
        if (null != fastBox)
        {
            final int boxed = box.packet(fastBox, request);
            if (boxed >= 0)
            {
                final int reserved = reserveBoxed(fastBox, request);
                if (BOXED == reserved)
                {
                    queue.putHeader(boxed, opcode, handler, argCount, 0, inverse, 0, NO_BULK, -1, tag);
                    queue.putArgs(boxed, a0, a1, a2, a3, a4, a5, a6, a7);
                    return publishBoxed(fastBox, boxed);
                }
                if (BOX_LOST != reserved)
                {
                    return reserved;
                }
            }
        }
        final int packet = takePacket(queue);
        if (packet < 0)
        {
            return notTaken(packet, request);
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
        if (!queue.claimPacket(tail, pid))
        {
            return CLAIM_LOST;
        }
        // The state again, after the tail CAS (a full fence): the Dekker pair with the owner's closing, which removes
        // its file, stores CLOSED and then reads the tail (ShmQueues.returnQueued). Either the owner's tail includes
        // this assignment and it waits for the packet, or we see CLOSED here and its file gone: the packet is
        // withdrawn unwritten (the mark, then a release store, so the owner that sees WITHDRAWN sees nothing else of
        // ours is coming) and the message is refused. A state that is not OPEN over a file still there is garbage
        // (the owner removes its file before it stores CLOSED, so its tail read comes after our CAS): we go on.
        if (watch.closed())
        {
            queue.buffer.putByte(packet + OPCODE_OFFSET, (byte)WITHDRAWN_OPCODE);
            queue.stateRelease(packet, withdrawnPacketState);
            return CLOSED;
        }
        // The owner's death, read after the tail CAS: the Dekker pair with a settling thread, which reads the owner
        // dead and then the tail (DeadPeerReturns). Either that tail includes this assignment and the settling
        // waits for the packet, or we see the death here: withdrawn unwritten (it never ran) and refused.
        if (owner.isDead())
        {
            queue.stateRelease(packet, withdrawnPacketState);
            return OWNER_DEAD;
        }
        watch.progressed();
        return packet;
    }

    /**
     * @param result  what {@link #takePacket} answered, below 0.
     * @param request the message has a request opcode.
     * @return what the send answers: a full queue's answer, {@link #FULL} to try again after a lost claim, or the
     * refusal of a closed endpoint.
     */
    private int notTaken(final int result, final boolean request)
    {
        if (QUEUE_FULL == result)
        {
            return watch.full();
        }
        if (CLOSED == result)
        {
            return watch.closedStatus(request);
        }
        if (OWNER_DEAD == result)
        {
            return ReturnStatus.EUNREACHABLE.code();
        }
        return FULL;
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
        // The overflow rule's count (FastBoxSender).
        box.sharedSent(queue == block.requests);

        // The tail and claim CASes (full fences) came before this read: either the receiver saw the tail move
        // before it slept (hasPending), or we see its sleeping flag here (SLEEPING: we ring; RUNG: another sender
        // rang after the flag was last published, and the sleeper looks at its queues when that ring wakes it).
        if (null != doorbell && block.takeRing())
        {
            transport.rings.ring(doorbell);
        }
        return SENT;
    }

    /**
     * Reserve the box packet for a message, then read what may refuse it: the box's owner word and the destination's
     * state. Nothing is written into the packet before this answers {@link #BOXED}, so any other answer leaves
     * nothing sent (the core may send the message again).
     *
     * @param request the message has a request opcode (for the refusal of a freed endpoint).
     * @return {@link #BOXED}; {@link #BOX_LOST} when the box is not ours any more (the message goes to the shared
     * queue); or the refusal of a freed endpoint or a dead owner.
     */
    private int reserveBoxed(final FastBoxSender fastBox, final boolean request)
    {
        fastBox.reserve();
        // The one fence of the box path (no line of another process is locked): a store-load barrier between the
        // reservation and the reads of the box's owner word, the owner's state and, after the stamp, its sleeping
        // flag. Our half of four Dekker pairs, each with a store of the owner's then a read of our reservation:
        // its RETIRING store when it lets the box go (it waits for what we reserved, or we see RETIRING and use the
        // shared queue); its CLOSED store when it frees the endpoint (its drain waits for the packet, or we see
        // CLOSED and refuse); its sleeping-flag store before it sleeps (it sees the reservation and stays awake, or
        // we see the flag and ring); and the death a watch stores before a settling thread reads the box (below).
        VarHandle.fullFence();
        if (fastBox.lost())
        {
            box.lose();
            return BOX_LOST;
        }
        if (watch.closed())
        {
            fastBox.cancel();
            return watch.closedStatus(request);
        }
        if (owner.isDead())
        {
            // The owner's death, read after the fence: the Dekker pair with a settling thread, which reads the owner
            // dead and then the box's writing word and stamps (DeadPeerReturns). Either it sees our reservation and
            // waits for the packet, or we see the death here: nothing written, the message never ran.
            fastBox.cancel();
            return ReturnStatus.EUNREACHABLE.code();
        }
        return BOXED;
    }

    /**
     * Make a reserved and filled box packet ready, and wake the owner if it sleeps.
     *
     * @return {@link #SENT}: the message is the owner's, to deliver or, when it frees the endpoint, to return.
     */
    private int publishBoxed(final FastBoxSender fastBox, final int packet)
    {
        fastBox.publish(packet);
        // After the fence of the reservation: either the owner saw the reservation before it slept (hasPending) and
        // looks again, or we see its sleeping flag here.
        if (null != doorbell && block.takeRing())
        {
            transport.rings.ring(doorbell);
        }
        return SENT;
    }

    /**
     * Between sends, now and then: see {@link RouteBox#keep}.
     */
    void keepBox()
    {
        box.keep();
    }

    /**
     * @return the index of the box this route claimed, -1 for none (diagnostics and tests).
     */
    int boxIndex()
    {
        return box.index();
    }

    /**
     * @return messages this route sent through its box (diagnostics and tests).
     */
    long boxedSends()
    {
        return box.boxedSends();
    }

    /**
     * @return messages this route sent through the destination's shared queues (diagnostics and tests).
     */
    long sharedSends()
    {
        return box.sharedSends();
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
            bulkClaims.fill(message, queue, bulk, length);
        }
        else if (null != segment)
        {
            segment.putBytes((int)message.segmentOffset(), message.data(), message.dataOffset(), length);
        }
    }

    /**
     * @return the destination process's doorbell, or null without futexes.
     */
    Doorbell doorbell()
    {
        return doorbell;
    }

    /**
     * @return the process that owns the destination's queue block.
     */
    PeerProcess owner()
    {
        return owner;
    }

    /**
     * The owner is dead: see {@link OwnerWatch#settle}.
     */
    int settle(final MessageSink sink, final TransportCounters drops)
    {
        return watch.settle(sink, drops, box.held());
    }

    /**
     * @return true once the destination was found freed under a forged OPEN ({@link OwnerWatch#abandonUnderOpen}):
     * what was sent there is settled as for a dead owner.
     */
    boolean abandoned()
    {
        return watch.abandoned();
    }

    /**
     * The dead-peer watch's look at a stalled route whose owner lives ({@link OwnerWatch#abandonUnderOpen}).
     *
     * @return true when this call took the destination for abandoned.
     */
    boolean abandonUnderOpen(final long now)
    {
        return watch.abandonUnderOpen(now);
    }

    /**
     * @return true when {@link #settle} has run and found nothing of this process's still being written.
     */
    boolean settled()
    {
        return watch.settled();
    }

    /**
     * @return true when the owner's queues stalled since the last call ({@link OwnerWatch#stalled}).
     */
    boolean stalled()
    {
        return watch.stalled(box.index());
    }

    /**
     * Give back the connection slot and the mappings this route holds.
     */
    void close()
    {
        box.release();
        ConnectionTable.release(block, inverse & 0xFFFF, inverse >>> 16);
        watch.release();
        segment.close();
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
