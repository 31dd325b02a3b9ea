package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.BULK_INDEX_OFFSET;
import static org.am2j.shm.PacketDescriptor.NO_BULK;
import static org.am2j.shm.PacketDescriptor.OPCODE_OFFSET;
import static org.am2j.shm.PacketDescriptor.READY;
import static org.am2j.shm.PacketDescriptor.SLOT_OFFSET;
import static org.am2j.shm.PacketDescriptor.STATE_OFFSET;
import static org.am2j.shm.PacketDescriptor.WITHDRAWN;
import static org.am2j.shm.QueueBlockDescriptor.claim;
import static org.am2j.shm.QueueBlockDescriptor.claimer;
import static org.am2j.shm.QueueBlockDescriptor.claimsLap;
import static org.am2j.shm.QueueBlockDescriptor.pid;
import static org.am2j.shm.QueueBlockDescriptor.type;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.spi.MessageSink;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.TransportCounters;

/**
 * The owner's receive side of one queue structure (request or reply) of its queue block: the packet at the head is
 * looked at; a ready one is handed to the core, then its bulk block and the packet are freed and the head advances.
 * A packet that stays claimed longer than the liveness timeout is skipped when its sender's process is gone, and so
 * is an assignment taken and never claimed: nothing a dead sender leaves holds up the live ones for longer than the
 * timeout. A claim a running process holds unfilled for {@link #LIVE_CLAIM_TIMEOUTS} timeouts is a faulty writer's
 * and is skipped too, so no claim word, however scribbled, holds the queue for good; a stopped claimer (SIGSTOP) is
 * waited for as long as it is stopped. When the endpoint is freed,
 * {@link #drain} hands over what is left (docs/shm-protocol.md, "Closing an endpoint").
 * <p>
 * Used by the thread that polls the endpoint, one at a time; {@link #reading} guards against a nested poll of the same
 * queue.
 */
final class PacketReceiver
{
    private static final long LIVENESS_CHECK_INTERVAL_NANOS = 10_000_000L;

    /**
     * Liveness timeouts a live process may hold the claim of a packet without making it ready before the claim is
     * taken for garbage. A sender fills its packet with a few plain stores between its claim and its READY store, so
     * only a faulty writer's claim word (a flipped lap bit over a live sender's stamp of the previous lap, or a pid
     * that happens to be a live process) holds one that long; waiting on it for good would wedge the queue.
     */
    static final int LIVE_CLAIM_TIMEOUTS = 10;

    /**
     * An empty queue's tail is compared with its head once in this many polls: the tail is the senders' line, and
     * reading it on every poll would pull it away from the next sender's CAS.
     */
    private static final int EMPTY_POLLS_PER_TAIL_CHECK = 1024;

    private final PacketQueue queue;
    /**
     * The flyweight this queue's messages are handed over in: one per queue, so that a nested poll of the reply
     * queues (a reply waiting for space) does not move the flyweight of the request being handled.
     */
    private final ShmInbound inbound;
    private final TransportCounters counters;
    private final long livenessNanos;
    /** How long a live claimer's unfilled packet is waited for: {@link #LIVE_CLAIM_TIMEOUTS} liveness timeouts. */
    private final long liveClaimNanos;
    /** This process's pid: a dead sender's leaked bulk blocks are swept on its behalf. */
    private final long ownPid;
    /** The endpoint's fast boxes: a pair's box is read before its shared messages (the overflow rule). */
    private final FastBoxReceiver boxes;
    /** {@link FastBoxDescriptor#REQUESTS} or {@link FastBoxDescriptor#REPLIES}: this queue's kind of box ring. */
    private final int kind;
    private long head;
    /** Offset of the packet at {@link #head}, kept with it. */
    private int headPacket;
    /** The state of the packet at {@link #head} while no sender has made it ready: FREE for the head's lap. */
    private long headFree;
    private boolean reading;
    private long stuckHead = -1;
    private long stuckSince;
    private long lastLivenessCheck;
    private int emptyPolls;
    /** What a faulty writer did to the queue and the block's header, put right. */
    private final PacketQueueRepair repair;
    /** Messages handed over since the last check of the header and the head: checked once in this many. */
    private int handledSinceCheck;
    /** While the endpoint is being freed: the tail read at close, below which every sequence was assigned. */
    private long drainEnd;

    PacketReceiver(
        final QueueBlock block, final PacketQueue queue, final ShmInbound inbound, final TransportCounters counters,
        final long livenessNanos, final long ownPid, final FastBoxReceiver boxes, final int kind)
    {
        this.boxes = boxes;
        this.kind = kind;
        this.queue = queue;
        this.repair = new PacketQueueRepair(block, queue, counters, livenessNanos, boxes, kind);
        this.inbound = inbound;
        this.counters = counters;
        this.livenessNanos = livenessNanos;
        this.liveClaimNanos = livenessNanos * LIVE_CLAIM_TIMEOUTS;
        this.ownPid = ownPid;
        advance(0);
    }

    private void advance(final long head)
    {
        this.head = head;
        this.headPacket = queue.packetOffset(head);
        this.headFree = queue.freeStateFor(head);
    }

    /**
     * The common case of a poll, kept small enough to be inlined into the caller's poll loop: the packet at the
     * head is free and nothing is pending in the liveness check, so there is nothing to do but count the empty poll.
     * Anything else (a ready packet, a packet not ready for a while, the periodic tail check) takes the full path.
     *
     * @return true when the queue can be skipped.
     */
    boolean idle()
    {
        return countedEmpty(queue.state(headPacket));
    }

    /**
     * @param state of the packet at the head.
     * @return true, having counted an empty poll, when the packet is free for the head's lap (one compare: any other
     * state, ready or garbage, takes the full path) and the liveness check has nothing to do; false when
     * {@link #abandoned} must look at it.
     */
    private boolean countedEmpty(final long state)
    {
        if (headFree != state || 0 != stuckSince)
        {
            return false;
        }
        final int polls = emptyPolls + 1;
        if (0 == (polls & (EMPTY_POLLS_PER_TAIL_CHECK - 1)))
        {
            // The poll that compares the tail with the head: abandoned() counts it and does the comparison.
            return false;
        }
        emptyPolls = polls;
        return true;
    }

    /**
     * For the sweep of the fast boxes, now and then (a read of the senders' tail line).
     *
     * @return true when no sender holds an assignment past the head, and the packet at the head is free.
     */
    boolean isEmpty()
    {
        return queue.state(headPacket) == headFree && queue.buffer.getLongVolatile(queue.tailOffset) <= head;
    }

    /**
     * Hand the ready packets at the head to the sink, oldest first, freeing each; skip what dead senders left.
     *
     * @param sink   the core's dispatcher.
     * @param budget most messages to hand over.
     * @return messages handed over.
     */
    int poll(final MessageSink sink, final int budget)
    {
        // A queue already being read further up this thread's stack is skipped: its head is not advanced yet.
        if (reading)
        {
            return 0;
        }
        reading = true;
        try
        {
            int handled = 0;
            while (handled < budget)
            {
                final long head = this.head;
                final int packet = headPacket;
                final long state = queue.state(packet);
                if (READY == type(state))
                {
                    stuckSince = 0;
                    // The pair's box first: what is ready there was sent before this message (FastBoxSender).
                    final int pair = queue.packetInt(packet, SLOT_OFFSET);
                    final int boxed = boxes.beforeShared(kind, pair, sink);
                    if (boxed < 0)
                    {
                        break;
                    }
                    handled += boxed;
                    final ShmInbound message = inbound.wrap(packet, state);
                    if (null == message)
                    {
                        // The inverse mapping names another process than the one that made the packet ready: spoiled
                        // by a faulty writer. Neither delivered (a reply would go to the wrong sender) nor returned,
                        // nor counted as a message of the pair it names.
                        free(head, packet, state);
                        counters.drop();
                        continue;
                    }
                    try
                    {
                        sink.onMessage(message);
                    }
                    finally
                    {
                        free(head, packet, state);
                        boxes.afterShared(kind, pair);
                    }
                    handled++;
                }
                else if (countedEmpty(state))
                {
                    break;
                }
                else if (!abandoned(head, packet, state))
                {
                    break;
                }
            }
            if ((handledSinceCheck += handled) >= EMPTY_POLLS_PER_TAIL_CHECK)
            {
                // A queue that is never empty gets its checks too.
                handledSinceCheck = 0;
                repair.checkShared(head);
            }
            return handled;
        }
        finally
        {
            reading = false;
        }
    }

    private void free(final long head, final int packet, final long state)
    {
        final int bulk = queue.packetShort(packet, BULK_INDEX_OFFSET);
        if (NO_BULK != bulk)
        {
            BulkBlocks.freeHeldBy(queue, bulk, pid(state));
            queue.putBulkIndex(packet, NO_BULK);
        }
        // Release store FREE(next lap): the sender that holds the next lap's assignment of this packet sees it free
        // only after we are done reading it and its bulk block.
        queue.stateRelease(packet, queue.freeStateFor(head + queue.depth));
        advance(head + 1);
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
    private boolean abandoned(final long head, final int packet, final long state)
    {
        final UnsafeBuffer buffer = queue.buffer;
        final boolean free = queue.freeStateFor(head) == state;
        if (free)
        {
            final long tail = 0 == (++emptyPolls & (EMPTY_POLLS_PER_TAIL_CHECK - 1)) ? repair.tailCheck(head) : head;
            if (tail <= head && head >= drainEnd)
            {
                if (0 != stuckSince && stuckHead != head)
                {
                    stuckSince = 0;
                }
                return false;
            }
        }
        final long now = System.nanoTime();
        if (stuckHead != head || 0 == stuckSince)
        {
            stuckHead = head;
            stuckSince = now;
            return false;
        }
        if (now - stuckSince < livenessNanos ||
            now - lastLivenessCheck < LIVENESS_CHECK_INTERVAL_NANOS)
        {
            return false;
        }
        lastLivenessCheck = now;
        if (!free && buffer.getLongVolatile(queue.tailOffset) <= head && head >= drainEnd)
        {
            // Garbage in a packet no sender holds an assignment of: repaired (made free for this lap), not skipped,
            // which would put the head past the tail and leave the next sender's packet never free for its lap.
            // CAS, so a state that changed meanwhile is looked at again.
            // No message is lost (no sender holds the packet): not a drop.
            if (buffer.compareAndSetLong(packet + STATE_OFFSET, state, queue.freeStateFor(head)))
            {
                repair.repaired();
            }
            stuckSince = 0;
            return false;
        }
        return skip(head, packet, state, free, now);
    }

    /**
     * The head packet has not been ready for the liveness timeout with its assignment taken: skip it (counted as a
     * drop) unless a live process holds the lap's claim and has held it for less than {@link #LIVE_CLAIM_TIMEOUTS}
     * timeouts, or is stopped.
     *
     * @param free the packet's state is FREE for the head's lap (no sender made it ready; else its state is garbage).
     * @return true when the packet was skipped.
     */
    private boolean skip(final long head, final int packet, final long state, final boolean free, final long now)
    {
        final UnsafeBuffer buffer = queue.buffer;
        final long lap = queue.lap(head);
        final int claimOffset = queue.claimOffset(head);
        final long claimWord = buffer.getLongVolatile(claimOffset);
        final long claimer = claimsLap(claimWord, lap) ? claimer(claimWord) : 0;
        final boolean liveClaimer =
            free && 0 != claimer && ProcessIdentity.isAlive(claimer, ProcessIdentity.UNKNOWN_START_TIME);
        if (liveClaimer && now - stuckSince < liveClaimNanos)
        {
            // A live claimer is filling the packet: waited for, up to LIVE_CLAIM_TIMEOUTS liveness timeouts.
            return false;
        }
        if (liveClaimer && ProcessIdentity.isStopped(claimer))
        {
            // A stopped claimer (SIGSTOP, a terminal's Ctrl-Z, a debugger) resumes where it stopped, between its
            // claim and its READY store: waited for however long it stays stopped, and given the whole bound again
            // once it runs, so a stop never turns its message into a skip it would then write over.
            stuckSince = now;
            return false;
        }
        // Else the claimer is gone, no one claimed the assignment, the state is garbage although the claim is this
        // lap's (a live claimer's READY was overwritten), or a live process has held the claim unfilled for
        // LIVE_CLAIM_TIMEOUTS timeouts: a claim word a faulty writer forged, since no sender holds a claim that long
        // (the holder of the assignment found the forged word in place of the previous lap's stamp, lost its claim
        // and sent again). Either way the packet holds no message that will come: skipped and counted. (A sender that
        // did stall that long between its claim and its READY store, a fault on top of a fault, publishes a message
        // the next lap's poll hands over late.)
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
        // unclaimed packet's field was cleared when its previous lap was freed. A free packet under a live process's
        // claim names no block of its message (the field is the previous lap's, cleared, or garbage); the blocks that
        // process holds stay its own.
        final int bulk = free && (0 == claimer || liveClaimer) ?
            NO_BULK : buffer.getShort(packet + BULK_INDEX_OFFSET) & 0xFFFF;
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
        BulkBlocks.freeClaimedByDead(queue, ownPid);
        long next = head + 1;
        counters.drop();
        if (free && 0 == claimer)
        {
            next = repair.skipUnclaimedRun(next);
        }
        advance(next);
        buffer.putLongRelease(queue.headOffset, next);
        stuckSince = 0;
        return true;
    }

    /**
     * @param head   the head sequence.
     * @param packet the packet at the head.
     * @param state  its state.
     * @return true when the packet is WITHDRAWN by the process that holds this lap's claim of it, with the withdrawal's
     * mark (a forged WITHDRAWN over someone's message, or a READY with a flipped bit, is not, and is treated as
     * garbage).
     */
    private boolean withdrawnByItsClaimer(final long head, final int packet, final long state)
    {
        return WITHDRAWN == type(state) && ShmRoute.WITHDRAWN_OPCODE == queue.packetByte(packet, OPCODE_OFFSET) &&
            queue.buffer.getLongVolatile(queue.claimOffset(head)) == claim(queue.lap(head), pid(state));
    }

    /**
     * @return how many times this receiver repaired a packet state or the tail, or freed a bulk block no packet named,
     * without a message lost with it (not counted as drops).
     */
    long repairs()
    {
        return repair.repairs();
    }

    /**
     * Hand over every packet below {@code end}, the tail the owner read after closing the queue block: ready ones go
     * to {@code returns}, withdrawn ones are freed, and one held by a sender is waited for (a dead sender's is skipped
     * after the liveness timeout, as in a poll), until the deadline. What is left then (a live claimer that does not
     * fill its packet, a stopped one, a tail or packets a faulty writer overwrote) is counted as unsettled.
     *
     * @param end      the tail read after the queue block's state became CLOSED.
     * @param returns  the core's sink for messages that arrive too late to be delivered.
     * @param deadline {@link System#nanoTime()} after which nothing is waited for.
     * @return messages handed over.
     */
    int drain(final long end, final MessageSink returns, final long deadline)
    {
        // No sender takes more than a lap past the head: a larger tail is a faulty writer's.
        final long last = Math.min(end, head + queue.depth);
        // Every sequence below the end was assigned, whatever the tail reads now: the liveness check waits for them.
        drainEnd = last;
        int handed = 0;
        int attempt = 0;
        while (head < last)
        {
            final long head = this.head;
            final int packet = headPacket;
            final long state = queue.state(packet);
            final int type = type(state);
            if (READY == type)
            {
                final ShmInbound message = inbound.wrap(packet, state);
                if (null == message)
                {
                    // Spoiled (see poll): returning it could send it to another process than its sender.
                    free(head, packet, state);
                    counters.drop();
                    attempt = 0;
                    continue;
                }
                try
                {
                    returns.onMessage(message);
                }
                finally
                {
                    free(head, packet, state);
                }
                handed++;
                attempt = 0;
            }
            else if (withdrawnByItsClaimer(head, packet, state))
            {
                // Written by the holder of the lap's claim, which wrote nothing else and took its message back.
                free(head, packet, state);
                attempt = 0;
            }
            else if (System.nanoTime() - deadline >= 0)
            {
                // Given up: counted, and the block is left as it is (no one reads it again).
                counters.unsettled();
                advance(head + 1);
            }
            else
            {
                // The tail is past this packet, so a sender holds its assignment: let the liveness check look at the
                // tail on this call (an ordinary poll looks at it only now and then), and skip the packet if that
                // sender's process is gone.
                emptyPolls = EMPTY_POLLS_PER_TAIL_CHECK - 1;
                if (!abandoned(head, packet, state))
                {
                    attempt = backOff(attempt);
                }
            }
        }
        return handed;
    }

    static int backOff(final int attempt)
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
}
