package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.*;
import static org.am2j.shm.QueueBlockDescriptor.BULK_CLAIMED;
import static org.am2j.shm.QueueBlockDescriptor.BULK_FREE;
import static org.am2j.shm.QueueBlockDescriptor.BULK_READY;
import static org.am2j.shm.QueueBlockDescriptor.STATE_CLOSED;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OPEN;
import static org.am2j.shm.QueueBlockDescriptor.claim;
import static org.am2j.shm.QueueBlockDescriptor.claimsLap;
import static org.am2j.shm.QueueBlockDescriptor.state;
import static org.am2j.shm.QueueBlockDescriptor.type;

import java.lang.invoke.VarHandle;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
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
    /** Sends without a box between two attempts to claim one (all were taken). */
    private static final int CLAIM_RETRY_SENDS = 4096;

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
    private final long withdrawnPacketState;
    /** The process that owns the destination's queue block, and whether it is dead. */
    private final PeerProcess owner;
    /** The destination endpoint's watch of dead peers: told when a box message was published to a dead owner. */
    private final DeadPeers deadPeers;
    private final long livenessNanos;
    private final FastBoxTable boxes;

    /** The box this route claimed in the destination's queue block, -1 for none. */
    private int box = -1;
    private FastBoxSender requestBox;
    private FastBoxSender replyBox;
    /** The one thread that writes the box. */
    private Thread boxThread;
    /** Set (for good) when another thread sent through the route: the box is not written any more. */
    private volatile boolean boxGivenUp;
    /** The box given up because its owner word was not ours ({@link #loseBox}), and our tails in it; -1 for none. */
    private int lostBox = -1;
    private long lostRequestTail;
    private long lostReplyTail;
    private int claimCountdown;
    /** Messages this route put on the destination's shared request / reply queue: the overflow rule's counts. */
    private long sharedRequests;
    private long sharedReplies;

    private final PeerSegment segment;
    private int bulkHint;
    private long fullSince;
    /** Set once the kernel said the destination's file is gone: its owner freed the endpoint (or died). */
    private boolean ownerClosed;
    /** What was sent into the block of a dead owner, handed back; null until the owner is found dead. */
    private DeadPeerReturns returns;
    /** The owner's heads as the last stall check summed them ({@link #stalled()}). */
    private long lastProgress = -1;

    ShmRoute(
        final ShmTransport transport, final MappedRegion region, final QueueBlock block, final EndpointName peer,
        final int inverse, final Doorbell doorbell, final DeadPeers deadPeers)
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
        this.withdrawnPacketState = state(WITHDRAWN, pid);
        this.owner = owner(transport, region, block);
        this.deadPeers = deadPeers;
        this.livenessNanos = transport.config.livenessNanos;
        this.boxes = block.boxes;
        this.segment = new PeerSegment(block, transport.mappedFiles);
    }

    @Override
    public int send(final OutboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        final boolean returned = 0 != message.returnStatus();
        final boolean request = opcode.isRequest() && !returned;
        final int refused = refusal(opcode.isRequest(), returned, message.tag());
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

    /**
     * The destination's owner process, as far as what a faulty writer cannot forge allows: the header's pid and start
     * time are words any process of the user may overwrite, and a forged pid names no process, so a live owner would
     * be taken for dead (its queued messages handed back while it delivers them). The pid comes from the address the
     * block was just opened by ({@code /proc/<pid>/fd/<fd>}: that process held the file then), and the header's start
     * time is kept only when the header's pid is that one (else the process is identified as it is now, which it is,
     * having just been opened); the header's words are believed whole only for a block opened by a path that names no
     * process (a file in a job directory). A writer that forges the start time alone, leaving the pid, still makes a
     * live owner look dead: that exception is in docs/shm-protocol.md.
     */
    private static PeerProcess owner(final ShmTransport transport, final MappedRegion region, final QueueBlock block)
    {
        final long addressPid = SealedMemory.pidOf(region.path);
        if (addressPid <= 0)
        {
            return transport.peers.acquire(block.ownerProcessId(), block.ownerPid(), block.ownerStartMs());
        }
        final long startMs = addressPid == block.ownerPid() ? block.ownerStartMs() : ProcessIdentity.UNKNOWN_START_TIME;
        return transport.peers.acquire(block.ownerProcessId(), addressPid, startMs);
    }

    /**
     * What the destination's queue block says before anything is taken: a closed endpoint, a dead owner, and step 1,
     * the tag copy.
     * A state that is not OPEN refuses the message only when the destination's file is gone too ({@link #ownerClosed}):
     * otherwise it is a faulty writer's garbage over a live endpoint's header, which its owner repairs, and the message
     * goes on (a reply reaches a live requester whatever its header says).
     *
     * @param requestOpcode the message has a request opcode (returned or not): a closed endpoint refuses it as such.
     * @param returned      the message is a returned one; a request that is not must carry a matching tag.
     * @param tag           the message's tag.
     * @return 0 when the destination takes the message, else the return status it comes back with.
     */
    private int refusal(final boolean requestOpcode, final boolean returned, final long tag)
    {
        if (STATE_OPEN != block.state() && ownerClosed())
        {
            return closedStatus(requestOpcode);
        }
        if (owner.isDead())
        {
            // Nothing is written into a dead process's block: the message comes back at once (a returned one is
            // dropped by the core, as every returned message that cannot go back is).
            return ReturnStatus.EUNREACHABLE.code();
        }
        // Step 1: the tag copy in the queue block.
        if (requestOpcode && !returned && !Tags.accepts(block.tag(), tag))
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
        final FastBoxSender fastBox = fastBox(queue);
        if (null != fastBox)
        {
            final int packet = boxPacket(fastBox, queue);
            if (packet >= 0)
            {
                final int reserved = reserveBoxed(fastBox, Opcode.fromCode(message.opcode()).isRequest());
                if (BOXED == reserved)
                {
                    queue.putHeader(packet, message.opcode(), message.handler(), message.argCount(),
                        message.returnStatus(), inverse, length, bulk, deposit ? (int)message.segmentOffset() : -1,
                        message.tag());
                    for (int i = 0, count = message.argCount(); i < count; i++)
                    {
                        queue.putArg(packet, i, message.arg(i));
                    }
                    if (0 != length)
                    {
                        copyData(message, queue, length, bulk, segment);
                    }
                    return publishBoxed(fastBox, packet);
                }
                if (BOX_LOST != reserved)
                {
                    releaseBulk(queue, bulk);
                    return reserved;
                }
            }
        }
        final int packet = takePacket(queue);
        if (packet < 0)
        {
            releaseBulk(queue, bulk);
            return notTaken(packet, Opcode.fromCode(message.opcode()).isRequest());
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
        final int refused = refusal(request, false, tag);
        if (0 != refused)
        {
            return refused;
        }
        final PacketQueue queue = request ? block.requests : block.replies;
        final FastBoxSender fastBox = fastBox(queue);
        if (null != fastBox)
        {
            final int boxed = boxPacket(fastBox, queue);
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
        if (!claimPacket(queue, tail, pid))
        {
            return CLAIM_LOST;
        }
        // The state again, after the tail CAS (a full fence): the Dekker pair with the owner's closing, which removes
        // its file, stores CLOSED and then reads the tail (ShmEndpoint.returnQueued). Either the owner's tail includes
        // this assignment and it waits for the packet, or we see CLOSED here and its file gone: the packet is
        // withdrawn unwritten (the mark, then a release store, so the owner that sees WITHDRAWN sees nothing else of
        // ours is coming) and the message is refused. A state that is not OPEN over a file still there is garbage
        // (the owner removes its file before it stores CLOSED, so its tail read comes after our CAS): we go on.
        if (STATE_OPEN != block.state() && ownerClosed())
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
        if (0 != fullSince)
        {
            // A hint shared by the threads of a PAR bundle: stored only when it changes, not on every send.
            fullSince = 0;
        }
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
            return full();
        }
        if (CLOSED == result)
        {
            return closedStatus(request);
        }
        if (OWNER_DEAD == result)
        {
            return ReturnStatus.EUNREACHABLE.code();
        }
        return FULL;
    }

    /**
     * The destination's state word says its queue block is not open. Believe it only when the kernel agrees: its
     * owner removes the block's file (closes the memory file's descriptor, deletes a named file) before it stores
     * CLOSED, and no write into the mapping can put the file back or take it away. A file still there means the state
     * is a faulty writer's garbage over a live endpoint's header (its owner repairs it), and the message goes on.
     * A system call, on this rare path only; once gone, gone for good.
     *
     * @return true when the destination endpoint has been freed (or its process is gone).
     */
    private boolean ownerClosed()
    {
        if (!ownerClosed && !region.stillNamesFile())
        {
            ownerClosed = true;
        }
        return ownerClosed;
    }

    /**
     * @param request the message has a request opcode.
     * @return the status a message refused by a destination whose file is gone comes back with: EBADENDPOINT
     * (EREPLYREJECTED for a reply) when its owner freed it (its state says CLOSED); EUNREACHABLE when the file went
     * with its process, which never said CLOSED.
     */
    private int closedStatus(final boolean request)
    {
        if (STATE_CLOSED != block.state())
        {
            // A look now (at most one per interval): the transport tells the endpoints once.
            if (owner.check(System.nanoTime()))
            {
                transport.peerDied(owner);
            }
            if (owner.isDead())
            {
                return ReturnStatus.EUNREACHABLE.code();
            }
        }
        return request ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
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
        // The overflow rule's count (FastBoxSender): only the box's thread reads it, and only while it owns the box,
        // and publishes it there (the receiver counts what a faulty writer destroyed on the shared queue by it).
        final boolean requests = queue == block.requests;
        final long shared = requests ? ++sharedRequests : ++sharedReplies;
        final FastBoxSender fastBox = requests ? requestBox : replyBox;
        if (null != fastBox && Thread.currentThread() == boxThread)
        {
            fastBox.sharedSent(shared);
        }

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
     * The box's packet for the next message, or none.
     *
     * @return the packet {@link FastBoxSender#next} gave, or -1 when the message goes to the shared queue (the box is
     * full, waits for the pair's shared messages, was given up by another thread, or was let go: then it is given up
     * here, and claimed again later).
     */
    private int boxPacket(final FastBoxSender fastBox, final PacketQueue queue)
    {
        final int packet = fastBox.next(sharedSent(queue));
        if (FastBoxSender.LOST == packet)
        {
            loseBox();
            return -1;
        }
        // The volatile read of boxGivenUp after next()'s read of the consumed count: a count that includes another
        // thread's shared messages comes with boxGivenUp set (docs/shm-protocol.md, "Fast boxes").
        return boxGivenUp ? -1 : packet;
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
            loseBox();
            return BOX_LOST;
        }
        if (STATE_OPEN != block.state() && ownerClosed())
        {
            fastBox.cancel();
            return closedStatus(request);
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
     * The box's owner word is not ours any more: its receiver is letting it go (its released word set), or a faulty
     * writer changed it. Nothing of ours is being written, so the route stores its tails in the writing words (a
     * reservation is cancelled; words a faulty writer overwrote say again what we put into the box, which the
     * receiver counts what it finds spoiled against), drops the box and sends through the shared queue; it tries to
     * claim a box again after {@link #CLAIM_RETRY_SENDS} sends. Called by the box's thread.
     */
    private void loseBox()
    {
        requestBox.cancel();
        replyBox.cancel();
        lostBox = box;
        lostRequestTail = requestBox.tail();
        lostReplyTail = replyBox.tail();
        requestBox = null;
        replyBox = null;
        box = -1;
        claimCountdown = CLAIM_RETRY_SENDS;
    }

    /**
     * The box given up is ours again when its owner word is: the receiver wrote back a word a faulty writer had
     * overwritten. The route goes on in it from its own tails (the shared messages sent meanwhile come first, by the
     * overflow rule).
     *
     * @return true when the box is ours again.
     */
    private boolean readopt()
    {
        final int lost = lostBox;
        final long word = FastBoxDescriptor.owner(pid, inverse);
        if (boxes.owner(lost) != word)
        {
            return false;
        }
        lostBox = -1;
        replyBox = new FastBoxSender(boxes, lost, FastBoxDescriptor.REPLIES, word, lostReplyTail);
        boxThread = Thread.currentThread();
        box = lost;
        requestBox = new FastBoxSender(boxes, lost, FastBoxDescriptor.REQUESTS, word, lostRequestTail);
        requestBox.sharedSent(sharedRequests);
        replyBox.sharedSent(sharedReplies);
        return true;
    }

    /**
     * @param queue the destination queue a message is for.
     * @return the box ring of the same kind when the calling thread may write it, else null (the shared queue). The
     * first send claims the box and goes through the shared queue itself (first contact).
     */
    private FastBoxSender fastBox(final PacketQueue queue)
    {
        final FastBoxSender requests = requestBox;
        if (null == requests)
        {
            if (lostBox >= 0 && !boxGivenUp && readopt())
            {
                return null;
            }
            if (0 != boxes.boxes && !boxGivenUp && --claimCountdown <= 0)
            {
                claimBox();
            }
            return null;
        }
        if (Thread.currentThread() != boxThread)
        {
            if (!boxGivenUp)
            {
                // Volatile store before this thread's first shared send: the box's thread reads it after the
                // consumed count, so it never takes a count that includes this thread's messages for its own.
                boxGivenUp = true;
            }
            return null;
        }
        return queue == block.requests ? requests : replyBox;
    }

    /**
     * Between sends, now and then (from the sending endpoint's polls): a box found not ours any more is given up, and
     * its writing words are stored again where a faulty writer overwrote them, so the receiver learns what we had put
     * into it even when we send nothing more (it counts what it finds spoiled below them). Only the box's thread does
     * this: another's store could undo a reservation in progress.
     */
    void keepBox()
    {
        final FastBoxSender requests = requestBox;
        if (null == requests || Thread.currentThread() != boxThread || boxGivenUp)
        {
            return;
        }
        if (requests.lost())
        {
            loseBox();
            return;
        }
        requests.republish();
        replyBox.republish();
        requests.republishSharedSent(sharedRequests);
        replyBox.republishSharedSent(sharedReplies);
    }

    /**
     * @return the index of the box this route claimed, -1 for none (diagnostics and tests).
     */
    int boxIndex()
    {
        return box;
    }

    /**
     * @return messages this route sent through its box (diagnostics and tests).
     */
    long boxedSends()
    {
        final FastBoxSender requests = requestBox;
        return null == requests ? 0 : requests.sent() + replyBox.sent();
    }

    /**
     * @return messages this route sent through the destination's shared queues (diagnostics and tests).
     */
    long sharedSends()
    {
        return sharedRequests + sharedReplies;
    }

    private long sharedSent(final PacketQueue queue)
    {
        return queue == block.requests ? sharedRequests : sharedReplies;
    }

    private synchronized void claimBox()
    {
        if (null != requestBox)
        {
            return;
        }
        final long word = FastBoxDescriptor.owner(pid, inverse);
        for (int i = 0; i < boxes.boxes; i++)
        {
            // CAS FREE -> owner(pid, inverse): this route is the box's one writer until it lets go; the receiver,
            // which freed it, published the heads and zeroed counts before (release store of FREE).
            if (FastBoxDescriptor.FREE == boxes.owner(i) && boxes.casOwner(i, FastBoxDescriptor.FREE, word))
            {
                lostBox = -1;
                boxes.bumpGeneration();
                replyBox = new FastBoxSender(boxes, i, FastBoxDescriptor.REPLIES, word);
                boxThread = Thread.currentThread();
                box = i;
                requestBox = new FastBoxSender(boxes, i, FastBoxDescriptor.REQUESTS, word);
                requestBox.sharedSent(sharedRequests);
                replyBox.sharedSent(sharedReplies);
                return;
            }
        }
        claimCountdown = CLAIM_RETRY_SENDS;
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
    /**
     * @return the destination process's doorbell, or null without futexes.
     */
    Doorbell doorbell()
    {
        return doorbell;
    }

    private int full()
    {
        // The sender backs off or gives up next: what it owes sleeping peers goes now (the owner of this queue may
        // be one of them).
        transport.rings.flush();
        if (!owner.isDead())
        {
            final long now = System.nanoTime();
            if (0 == fullSince)
            {
                fullSince = now;
                return FULL;
            }
            if (now - fullSince <= livenessNanos)
            {
                return FULL;
            }
            fullSince = now;
            // A queue full for the liveness timeout: look whether its owner is alive. A dead owner stays dead: every
            // later message comes back at once instead of costing one liveness timeout each, and what was sent into
            // its block is handed back (DeadPeerReturns).
            if (owner.check(now))
            {
                transport.peerDied(owner);
            }
            if (!owner.isDead())
            {
                reclaimBulkOfDeadSenders();
                return FULL;
            }
        }
        return ReturnStatus.EUNREACHABLE.code();
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
     * @return the process that owns the destination's queue block.
     */
    PeerProcess owner()
    {
        return owner;
    }

    /**
     * The owner is dead (read so by the caller): hand back to the sink, as returned messages, what this route sent into
     * its block and the owner did not finish with, from where the last call stopped ({@link DeadPeerReturns}).
     *
     * @param sink  the endpoint's dispatcher.
     * @param drops the endpoint's transport counters.
     * @return messages handed back.
     */
    int settle(final MessageSink sink, final TransportCounters drops)
    {
        final int ownBox;
        synchronized (this)
        {
            // Under the monitor claimBox() stores the box under: a box another thread of a PAR bundle claimed is seen.
            ownBox = null == requestBox ? -1 : box;
        }
        if (null == returns)
        {
            returns = new DeadPeerReturns(this, block, inverse, pid, transport.deadPeerCounters, livenessNanos);
        }
        return returns.settle(sink, drops, ownBox);
    }

    /**
     * @return true when {@link #settle} has run and found nothing of this process's still being written.
     */
    boolean settled()
    {
        return null != returns && returns.done();
    }

    /**
     * The stall check of the dead-peer watch: the owner's queues hold messages (anyone's in its shared queues, ours in
     * our box) and none of its published heads moved since the last call. Reads lines the senders and the owner
     * write, so it is called only now and then (about four times per liveness timeout).
     *
     * @return true when the owner's queues stalled since the last call.
     */
    boolean stalled()
    {
        final PacketQueue requests = block.requests;
        final PacketQueue replies = block.replies;
        final long requestsHead = requests.buffer.getLongVolatile(requests.headOffset);
        final long repliesHead = replies.buffer.getLongVolatile(replies.headOffset);
        long progress = requestsHead + repliesHead;
        boolean waiting = requests.tail() != requestsHead || replies.tail() != repliesHead;
        final int ownBox = null == requestBox ? -1 : box;
        if (ownBox >= 0)
        {
            for (int kind = 0; kind < 2; kind++)
            {
                final long head = boxes.getAcquire(boxes.headOffset(ownBox, kind));
                progress += head;
                waiting |= FastBoxDescriptor.ready(head) ==
                    boxes.stamp(boxes.packetOffset(boxes.ringOffset(ownBox, kind), head));
            }
        }
        final boolean stalled = waiting && progress == lastProgress;
        lastProgress = progress;
        return stalled;
    }

    /**
     * Give back the connection slot and the mappings this route holds.
     */
    void close()
    {
        if (box >= 0)
        {
            // Our tail in the writing words again (a faulty writer may have zeroed them): the receiver that lets the
            // box go counts what it finds missing below it.
            requestBox.cancel();
            replyBox.cancel();
            // Release store: the receiver that sees the box released sees every packet we published before, and lets
            // the box go once it has read them.
            boxes.releasedRelease(box, true);
        }
        ConnectionTable.release(block, inverse & 0xFFFF, inverse >>> 16);
        transport.peers.release(owner);
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
