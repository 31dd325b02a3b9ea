package org.am2j.shm;

import static org.am2j.shm.FastBoxDescriptor.ready;
import static org.am2j.shm.PacketDescriptor.BULK_INDEX_OFFSET;
import static org.am2j.shm.PacketDescriptor.DATA_LENGTH_OFFSET;
import static org.am2j.shm.PacketDescriptor.OPCODE_OFFSET;
import static org.am2j.shm.PacketDescriptor.READY;
import static org.am2j.shm.PacketDescriptor.RETURN_STATUS_OFFSET;
import static org.am2j.shm.PacketDescriptor.SLOT_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.BULK_BLOCK_LENGTH;
import static org.am2j.shm.QueueBlockDescriptor.BULK_READY;
import static org.am2j.shm.QueueBlockDescriptor.claim;
import static org.am2j.shm.QueueBlockDescriptor.claimer;
import static org.am2j.shm.QueueBlockDescriptor.claimsLap;
import static org.am2j.shm.QueueBlockDescriptor.state;

import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.MessageSink;
import org.am2j.spi.Route;
import org.am2j.spi.TransportCounters;

/**
 * What one route sent into the queue block of a process that died and the process did not finish with, handed back
 * to the route's endpoint as returned messages, each once (docs/shm-protocol.md, "A dead receiving process"):
 * <ul>
 *   <li>a packet of the shared request or reply queue past the owner's published head: the owner frees a packet and
 *       publishes the head after the packet's handler returned, and takes the packets in order, one at a time per
 *       queue, so one past the head was never taken and never ran: {@link ReturnStatus#EUNREACHABLE}, with its
 *       data (its bulk block is still held for it);</li>
 *   <li>the packet at the published head: the owner may have been running it when it died:
 *       {@link ReturnStatus#EOUTCOMEUNKNOWN};</li>
 *   <li>a packet of the route's fast box at or past the box's head: the owner publishes that head once per poll, so
 *       it may have run any of them: {@link ReturnStatus#EOUTCOMEUNKNOWN}, at most a ring's worth.</li>
 * </ul>
 * A message that may have run comes back without its data: the owner frees a bulk block once the handler has read
 * it, and another message may have taken the block since. A returned message of this process's (one it sent back to
 * the dead process) is not returned again: counted as a drop.
 * <p>
 * The same hands back what a route sent into a block its owner freed and a faulty writer set OPEN again, once the
 * owner's close is over ({@link OwnerWatch#abandonUnderOpen}): no one reads it, so the owner is as good as dead for it.
 * <p>
 * The settling thread reads the owner dead ({@link PeerProcess#isDead()}, volatile; or the block abandoned) before it
 * reads each queue's tail here; a sender of this process reads it after its tail CAS and withdraws its packet when it sees it. So every
 * assignment this process takes in the dead block is either below the tail read here, and looked at, or withdrawn
 * and refused at the sender. A packet one of this process's threads claimed and is still filling is looked at again
 * by a later pass, and so is a box packet one of them reserved (its sender reads the owner dead after the fence that
 * follows its reservation, and cancels the reservation if it does). Positions only move forward, so nothing is handed
 * back twice.
 * <p>
 * Used by the thread that polls the route's endpoint, one at a time.
 */
final class DeadPeerReturns
{
    /** How long a claim of this process's in the dead block may stay unfilled before it is taken for abandoned. */
    private final long ownClaimNanos;

    private final Route route;
    private final QueueBlock block;
    private final PacketQueue[] queues;
    private final int inverse;
    private final long readyState;
    private final long bulkReadyState;
    private final long claimer;
    private final DeadPeerCounters counters;
    private final ReturnedPacket returned = new ReturnedPacket();
    /** Per queue kind ({@link FastBoxDescriptor#REQUESTS}, {@link FastBoxDescriptor#REPLIES}). */
    private final long[] head = new long[2];
    private final long[] next = new long[2];
    private final long[] end = new long[2];
    private final long[] boxStart = { -1, -1 };
    private final long[] boxNext = new long[2];
    private boolean started;
    /** A pass stopped at a packet one of this process's threads is filling; since when (0 for none). */
    private long waitingSince;

    /**
     * @param route         the route the messages were sent by.
     * @param block         the dead process's queue block.
     * @param inverse       the route's inverse mapping (slot, generation), which its packets carry.
     * @param pid           this process's pid.
     * @param counters      the transport's dead-peer counters.
     * @param livenessNanos the liveness timeout.
     */
    DeadPeerReturns(
        final Route route, final QueueBlock block, final int inverse, final long pid, final DeadPeerCounters counters,
        final long livenessNanos)
    {
        this.route = route;
        this.block = block;
        this.queues = new PacketQueue[]{ block.requests, block.replies };
        this.inverse = inverse;
        this.readyState = state(READY, pid);
        this.bulkReadyState = state(BULK_READY, pid);
        this.claimer = pid & 0xFFFF_FFFFL;
        this.counters = counters;
        this.ownClaimNanos = livenessNanos * PacketReceiver.LIVE_CLAIM_TIMEOUTS;
    }

    /**
     * Hand back what is left of the route's messages, from where the last pass stopped. Call only once the owner has
     * been read dead.
     *
     * @param sink  the endpoint's dispatcher, which runs handler 0 with each.
     * @param drops the endpoint's transport counters (a returned message found in the block is a drop).
     * @param box   the box the route holds in the block, -1 for none.
     * @return messages handed back.
     */
    int settle(final MessageSink sink, final TransportCounters drops, final int box)
    {
        if (!started)
        {
            started = true;
            for (int kind = 0; kind < 2; kind++)
            {
                final PacketQueue queue = queues[kind];
                // The head, then the tail, after the owner was read dead (see the class comment).
                final long published = queue.buffer.getLongVolatile(queue.headOffset);
                final long tail = queue.tail();
                head[kind] = published;
                end[kind] = tail;
                // A tail behind the head or more than a lap past it is a faulty writer's: only a lap's worth of
                // packets below the tail can hold messages.
                next[kind] = Math.min(tail, Math.max(published, tail - queue.depth));
            }
        }
        int handed = 0;
        boolean waiting = false;
        for (int kind = 0; kind < 2; kind++)
        {
            final int found = settleQueue(kind, sink, drops);
            if (found < 0)
            {
                waiting = true;
            }
            else
            {
                handed += found;
            }
        }
        if (box >= 0)
        {
            for (int kind = 0; kind < 2; kind++)
            {
                final int found = settleBox(kind, box, sink, drops);
                if (found < 0)
                {
                    waiting = true;
                }
                else
                {
                    handed += found;
                }
            }
        }
        if (!waiting)
        {
            waitingSince = 0;
        }
        else if (0 == waitingSince)
        {
            waitingSince = System.nanoTime() | 1;
        }
        return handed;
    }

    /**
     * @return true when the last pass found nothing of this process's still being written.
     */
    boolean done()
    {
        return started && 0 == waitingSince;
    }

    /**
     * @return messages handed back, or -1 when the pass stopped at a packet a thread of this process is filling
     * (what it found before that was handed back).
     */
    private int settleQueue(final int kind, final MessageSink sink, final TransportCounters drops)
    {
        final PacketQueue queue = queues[kind];
        int handed = 0;
        long sequence = next[kind];
        while (sequence < end[kind])
        {
            final int packet = queue.packetOffset(sequence);
            final long state = queue.state(packet);
            if (readyState == state)
            {
                next[kind] = sequence + 1;
                if (inverse == queue.packetInt(packet, SLOT_OFFSET))
                {
                    handed += handBack(queue, packet, sequence == head[kind] ?
                        ReturnStatus.EOUTCOMEUNKNOWN : ReturnStatus.EUNREACHABLE, sink, drops);
                }
                sequence++;
                continue;
            }
            if (queue.freeStateFor(sequence) == state)
            {
                final long lap = queue.lap(sequence);
                final long word = queue.claimWord(sequence);
                if (claimsLap(word, lap - 1))
                {
                    // Taken (the tail is past it) and not claimed: a sender between its tail CAS and its claim, or one
                    // that died there. Skipped for the dead owner, as its receiver would: CAS of the claim word to
                    // SKIPPED(lap), so a late claim fails and its sender sends again (refused, if it is one of ours,
                    // since it reads the owner dead). Looked at again either way.
                    queue.casClaimWord(sequence, word, claim(lap, 0));
                    continue;
                }
                if (claimsLap(word, lap) && claimer == claimer(word) &&
                    (0 == waitingSince || System.nanoTime() - waitingSince < ownClaimNanos))
                {
                    // A thread of this process holds the claim and is filling the packet: it makes it READY, or
                    // WITHDRAWN when it reads the owner dead after its claim. Looked at again by a later pass.
                    next[kind] = sequence;
                    return -1;
                }
            }
            // Another process's message, a withdrawn or skipped packet, or garbage: nothing of this route's.
            sequence++;
        }
        next[kind] = sequence;
        return handed;
    }

    private int settleBox(final int kind, final int box, final MessageSink sink, final TransportCounters drops)
    {
        final FastBoxTable table = block.boxes;
        if (boxStart[kind] < 0)
        {
            // The owner's published head: every sequence below it was handed over and its handler returned.
            boxStart[kind] = table.getAcquire(table.headOffset(box, kind));
            boxNext[kind] = boxStart[kind];
        }
        final int ring = table.ringOffset(box, kind);
        final int writing = table.writingOffset(box, kind);
        int handed = 0;
        long sequence = boxNext[kind];
        // The sender never publishes more than a ring ahead of the head it read, which is at most the published one.
        while (sequence - boxStart[kind] < table.depth)
        {
            // The writing word before the stamp (acquire both): a sender stamps a sequence before it reserves the next.
            final boolean reserved = table.getAcquire(writing) == sequence + 1;
            final int packet = table.packetOffset(ring, sequence);
            if (ready(sequence) == table.stamp(packet))
            {
                boxNext[kind] = sequence + 1;
                handed += handBack(queues[kind], packet, ReturnStatus.EOUTCOMEUNKNOWN, sink, drops);
                sequence++;
                continue;
            }
            if (reserved && (0 == waitingSince || System.nanoTime() - waitingSince < ownClaimNanos))
            {
                // A thread of this process reserved the packet before it read the owner dead (the fence after its
                // reservation, then the read): it stamps it, and a later pass hands it back. One that reads the owner
                // dead after its reservation cancels it and refuses the message (it never ran).
                boxNext[kind] = sequence;
                return -1;
            }
            // Not written: a sender that reserves it from now on reads the owner dead after its fence and refuses.
            break;
        }
        boxNext[kind] = sequence;
        return handed;
    }

    private int handBack(
        final PacketQueue queue, final int packet, final ReturnStatus status, final MessageSink sink,
        final TransportCounters drops)
    {
        if (0 != queue.packetByte(packet, RETURN_STATUS_OFFSET))
        {
            // One of the dead process's messages that this process sent back to it: a returned message is never
            // returned again, and there is no one left to give it to.
            counters.dropped.increment();
            drops.drop();
            return 0;
        }
        int dataOffset = -1;
        int length = 0;
        final Opcode opcode = Opcode.fromCode(queue.packetByte(packet, OPCODE_OFFSET));
        if (ReturnStatus.EUNREACHABLE == status && null != opcode && MessageCategory.MEDIUM == opcode.category())
        {
            // Never taken, so its bulk block is still held READY for it by this process: the data is intact.
            final int bulk = queue.packetShort(packet, BULK_INDEX_OFFSET);
            length = queue.packetShort(packet, DATA_LENGTH_OFFSET);
            if (bulk < queue.bulkDepth && length <= BULK_BLOCK_LENGTH &&
                bulkReadyState == queue.buffer.getLongVolatile(queue.bulkFlagOffset(bulk)))
            {
                dataOffset = queue.bulkBlockOffset(bulk);
            }
            else
            {
                length = 0;
            }
        }
        (ReturnStatus.EUNREACHABLE == status ? counters.unreachable : counters.outcomeUnknown).increment();
        sink.onMessage(returned.wrap(queue, packet, status.code(), dataOffset, length, route));
        return 1;
    }
}
