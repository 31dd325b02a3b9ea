package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.BULK_INDEX_OFFSET;
import static org.am2j.shm.PacketDescriptor.READY;
import static org.am2j.shm.PacketDescriptor.STATE_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.claim;
import static org.am2j.shm.QueueBlockDescriptor.claimsLap;
import static org.am2j.shm.QueueBlockDescriptor.pid;
import static org.am2j.shm.QueueBlockDescriptor.type;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.spi.TransportCounters;

/**
 * What a faulty writer did to one packet queue of the owner's queue block (and to the block's header), put right by
 * the owner's {@link PacketReceiver}: a tail behind the head or more than a lap past it, packets and claim words of
 * the lap below the head after the block was overwritten, a run of unclaimed assignments, bulk blocks no packet
 * names. Each repair that loses no message is counted in {@link #repairs}; each message lost is a drop. Called by the
 * thread that polls the endpoint, from the receiver's periodic tail check (every 1024 empty polls) only.
 */
final class PacketQueueRepair
{
    private final QueueBlock block;
    private final PacketQueue queue;
    private final TransportCounters counters;
    private final long livenessNanos;
    /** The endpoint's fast boxes and this queue's kind of ring: the bulk blocks their packets name are in use. */
    private final FastBoxReceiver boxes;
    private final int kind;
    /** Scratch of the sweep of bulk blocks no packet names ({@link BulkBlocks#freeUnreferenced}). */
    private final long[] referencedBulk;
    private final long[] observedBulk;
    /** Packet states and tails repaired without a message lost (a faulty writer's garbage). */
    private long repairs;
    /** The header repairs seen: a new one starts an audit ({@link #audit}). */
    private long headerRepairsSeen;
    /** Until when ({@link System#nanoTime()}) each tail check also audits the lap below the head; 0: no audit. */
    private long auditUntil;

    PacketQueueRepair(
        final QueueBlock block, final PacketQueue queue, final TransportCounters counters, final long livenessNanos,
        final FastBoxReceiver boxes, final int kind)
    {
        this.block = block;
        this.queue = queue;
        this.counters = counters;
        this.livenessNanos = livenessNanos;
        this.boxes = boxes;
        this.kind = kind;
        this.referencedBulk = new long[(queue.bulkDepth + 63) >>> 6];
        this.observedBulk = new long[queue.bulkDepth];
    }

    /**
     * The receiver's periodic look at an empty head: the shared words checked ({@link #checkShared}), the audit
     * continued, and the tail read and repaired when it is behind the head or more than a lap past it.
     *
     * @param head the receiver's head.
     * @return the tail, as repaired.
     */
    long tailCheck(final long head)
    {
        checkShared(head);
        if (0 != auditUntil)
        {
            audit(head);
        }
        final long tail = queue.buffer.getLongVolatile(queue.tailOffset);
        if (tail < head)
        {
            startAudit();
            audit(head);
            return repairTail(tail, head);
        }
        if (tail - head > queue.depth)
        {
            return clampTail(tail, head);
        }
        return tail;
    }

    /**
     * A packet state repaired (garbage in a packet no sender holds) without a message lost.
     */
    void repaired()
    {
        repairs++;
    }

    /**
     * @return how many times a packet state or the tail was repaired, or a bulk block no packet named was freed,
     * without a message lost with it (not counted as drops).
     */
    long repairs()
    {
        return repairs;
    }

    /**
     * After an unclaimed assignment was skipped for the liveness timeout, skip at once the assignments after it that
     * are unclaimed too, up to the tail: a tail moved up by a faulty writer would otherwise cost one timeout per
     * packet. A sender that took one of them and is about to claim it finds its claim failing and tries again, as
     * after any skip. Each skip is counted as a drop.
     *
     * @param from the first sequence after the skipped one.
     * @return the new head.
     */
    long skipUnclaimedRun(final long from)
    {
        final UnsafeBuffer buffer = queue.buffer;
        final long tail = Math.min(buffer.getLongVolatile(queue.tailOffset), from - 1 + queue.depth);
        long sequence = from;
        while (sequence < tail)
        {
            final int packet = queue.packetOffset(sequence);
            final long state = queue.state(packet);
            final long lap = queue.lap(sequence);
            final int claimOffset = queue.claimOffset(sequence);
            final long claimWord = buffer.getLongVolatile(claimOffset);
            if (state != queue.freeStateFor(sequence) || claimsLap(claimWord, lap))
            {
                // Ready, claimed or garbage: looked at by the ordinary poll.
                break;
            }
            // CAS the claim word to SKIPPED(lap) first, so a late claim fails; then FREE(next lap), as in abandoned().
            if (!buffer.compareAndSetLong(claimOffset, claimWord, claim(lap, 0)))
            {
                break;
            }
            buffer.compareAndSetLong(packet + STATE_OFFSET, state, queue.freeStateFor(sequence + queue.depth));
            counters.drop();
            sequence++;
        }
        return sequence;
    }

    /**
     * The tail is more than a queue's depth past the head, which no sender can make (a sender takes an assignment
     * only when its packet is free for its lap, so at most one lap ahead of the head): a faulty writer's. Moved down
     * to one lap past the head (CAS: a sender's CAS from the garbage value then fails and reads again); the
     * assignments in between are skipped by the liveness check as unclaimed.
     *
     * @return the tail after the repair.
     */
    private long clampTail(final long tail, final long head)
    {
        if (queue.buffer.compareAndSetLong(queue.tailOffset, tail, head + queue.depth))
        {
            repairs++;
            return head + queue.depth;
        }
        return queue.buffer.getLongVolatile(queue.tailOffset);
    }

    /**
     * The owner's periodic look at what it alone writes and other processes can overwrite: the queue block's header
     * (repaired from the owner's copy) and this queue's published head (published again: senders never read it, but
     * the owner's own {@code hasPending()} before a sleep does, and a garbage head would keep it awake or asleep).
     */
    void checkShared(final long head)
    {
        block.checkHeader();
        final long headerRepairs = block.headerRepairs();
        if (headerRepairs != headerRepairsSeen)
        {
            // The header was overwritten: the queues may have been too (a block zeroed whole).
            headerRepairsSeen = headerRepairs;
            startAudit();
        }
        if (queue.buffer.getLongVolatile(queue.headOffset) != head)
        {
            queue.headRelease(head);
        }
        if (BulkBlocks.allTaken(queue))
        {
            repairs += BulkBlocks.freeUnreferenced(queue, head, referencedBulk, observedBulk, boxes, kind);
        }
    }

    private void startAudit()
    {
        auditUntil = (System.nanoTime() + 2 * livenessNanos) | 1;
    }

    /**
     * After a sign that a faulty writer overwrote more than a word (the header, or a tail behind the head), look at
     * the lap below the head, which only the receiver's frees and the next lap's senders should have touched. A
     * tail moved back (the block zeroed) lets senders take sequences below the head, whose packets this receiver
     * would not read before the queue came round: such a READY packet is a message no one would deliver, counted as a
     * drop and freed with its bulk block; a packet free for a sequence below the head is made free for the next lap,
     * so no sender puts a message there; and a claim word of an earlier lap gets this lap's skip stamp, which the
     * next lap's sender expects. Each tail check until the audit's end does it again, as senders catch up.
     */
    private void audit(final long head)
    {
        if (System.nanoTime() - auditUntil > 0)
        {
            auditUntil = 0;
            return;
        }
        final UnsafeBuffer buffer = queue.buffer;
        for (long sequence = Math.max(0, head - queue.depth); sequence < head; sequence++)
        {
            final int packet = queue.packetOffset(sequence);
            final long lap = queue.lap(sequence);
            final int claimOffset = queue.claimOffset(sequence);
            // The claim word before the state: a READY under the next lap's claim is the message of the sequence one
            // lap on, which a sender took legitimately (its packet is this one), and is left alone.
            final long claimWord = buffer.getLongVolatile(claimOffset);
            final long state = queue.state(packet);
            final long next = queue.freeStateFor(sequence + queue.depth);
            if (READY == type(state) && !claimsLap(claimWord, lap + 1) || queue.freeStateFor(sequence) == state)
            {
                final int bulk = buffer.getShort(packet + BULK_INDEX_OFFSET) & 0xFFFF;
                // CAS to FREE(next lap): a state that changed meanwhile is looked at on the next audit.
                if (buffer.compareAndSetLong(packet + STATE_OFFSET, state, next))
                {
                    if (READY == type(state))
                    {
                        BulkBlocks.freeHeldBy(queue, bulk, pid(state));
                        counters.drop();
                    }
                    else
                    {
                        repairs++;
                    }
                }
            }
            if ((int)(claimWord >>> 32) - (int)(lap + 1) < 0)
            {
                // CAS to SKIPPED(lap): what the sender of the next lap expects; a claim made meanwhile is kept.
                buffer.compareAndSetLong(claimOffset, claimWord, claim(lap, 0));
            }
        }
    }

    /**
     * The head is past the tail: a READY state appeared in a packet no sender had been assigned (garbage) and was
     * delivered, so no sender can take the packets in [tail, head) (they are free for their next lap, not this one)
     * and, left alone, the queue would stay full. Their claim words get this lap's skip stamp, which is what their
     * next lap's senders expect, then the tail moves up to the head (CAS: a sender cannot have moved it, since no
     * packet at the tail is free for its lap). Not a drop: no message was lost.
     *
     * @return the tail after the repair.
     */
    private long repairTail(final long tail, final long head)
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
            // No sender held those sequences: nothing lost, not a drop (the READY packet that moved the head was
            // delivered or dropped on its own account).
            repairs++;
            return head;
        }
        return buffer.getLongVolatile(queue.tailOffset);
    }
}
