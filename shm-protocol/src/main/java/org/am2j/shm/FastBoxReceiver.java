package org.am2j.shm;

import java.util.function.BooleanSupplier;

import static org.am2j.shm.FastBoxDescriptor.FREE;
import static org.am2j.shm.FastBoxDescriptor.REPLIES;
import static org.am2j.shm.FastBoxDescriptor.REQUESTS;
import static org.am2j.shm.FastBoxDescriptor.RETIRING;
import static org.am2j.shm.FastBoxDescriptor.ownerInverse;
import static org.am2j.shm.FastBoxDescriptor.ownerPid;
import static org.am2j.shm.FastBoxDescriptor.ready;
import static org.am2j.shm.PacketDescriptor.BULK_INDEX_OFFSET;
import static org.am2j.shm.PacketDescriptor.NO_BULK;

import org.am2j.spi.MessageSink;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.TransportCounters;

/**
 * The owner's receive side of its queue block's fast boxes ({@link FastBoxDescriptor}): which boxes are bound to
 * which sender (learnt from the table when a shared message comes from a pair it does not know yet), the head of
 * each ring (kept here, published lazily: once per poll that read something), and the pair's count of shared
 * messages consumed, which the senders' overflow rule waits on ({@link FastBoxSender}).
 * <p>
 * A box whose sender closed its route, or whose sender's process is gone, is let go once nothing ready is left in
 * it: its heads are published for the next owner and its owner word is freed ({@link FastBoxKeeper} decides when,
 * and looks after what a faulty writer does to the boxes). A dead or stalled sender holds up nothing but its own
 * box. Used by the thread that polls the endpoint, one at a time; {@link #reading} guards against a nested poll
 * reading a ring kind that is being read further up the stack.
 */
final class FastBoxReceiver
{
    private static final int RINGS = 2;

    final FastBoxTable table;
    private final int cap;
    private final PacketQueue[] queues;
    private final ShmInbound[] inbound;
    private final TransportCounters counters;
    private final long ownPid;
    private final int slots;

    /** Owner word of each bound box, {@link FastBoxDescriptor#FREE} for one not bound. */
    private final long[] owner;
    /**
     * The look at each bound box's sender process ({@link ProcessIdentity#watch}), made when the box is bound: the
     * sweep's periodic liveness check runs on the poll path, which must not allocate (a look by pid alone reads and
     * parses {@code /proc} into new objects every time). Null for a box not bound.
     */
    private final BooleanSupplier[] ownerAlive;
    /** READY(pid) of each bound box's sender: what a packet's state would be on the shared queue. */
    private final long[] readyState;
    /** Per ring kind and box ({@code kind * cap + box}): the head, the ring's packet 0, the published words. */
    private final long[] head;
    private final int[] ring;
    private final int[] headOffset;
    private final int[] consumedOffset;
    /** Bound boxes, in the order they are polled. */
    private final int[] active;
    /** How many of {@link #active} are bound. */
    int bound;
    /** Per connection slot: the box bound to it, plus 1 (0: none). */
    private final int[] slotBox;
    /** Per pair: shared messages consumed, beside what their senders counted. */
    private final PairCounts pairCounts;
    private final boolean[] reading = new boolean[RINGS];
    /** Per ring kind: the place in {@link #active} the next poll starts at. */
    private final int[] firstBox = new int[RINGS];
    private long generationSeen = -1;
    /** Letting boxes go, writing back overwritten words, skipping spoiled packets, the drain at close. */
    private final FastBoxKeeper keeper;

    FastBoxReceiver(
        final QueueBlock block, final ShmInbound requestInbound, final ShmInbound replyInbound,
        final TransportCounters counters, final long livenessNanos, final long ownPid)
    {
        this.counters = counters;
        this.table = block.boxes;
        this.cap = table.boxes;
        this.queues = new PacketQueue[] { block.requests, block.replies };
        this.inbound = new ShmInbound[] { requestInbound, replyInbound };
        this.ownPid = ownPid;
        this.slots = block.slots;
        this.owner = new long[cap];
        this.ownerAlive = new BooleanSupplier[cap];
        this.readyState = new long[cap];
        this.head = new long[RINGS * cap];
        this.ring = new int[RINGS * cap];
        this.headOffset = new int[RINGS * cap];
        this.consumedOffset = new int[RINGS * cap];
        this.active = new int[cap];
        this.slotBox = new int[0 == cap ? 0 : slots];
        this.pairCounts = new PairCounts(block, counters, livenessNanos);
        this.keeper = new FastBoxKeeper(this, counters, livenessNanos, owner, readyState, head, ring, headOffset,
            consumedOffset, active, pairCounts, inbound);
    }

    /**
     * @param kind {@link FastBoxDescriptor#REQUESTS} or {@link FastBoxDescriptor#REPLIES}.
     * @return true when no bound box has a ready packet of that kind at its head: one stamp read per bound box.
     */
    boolean idle(final int kind)
    {
        final int base = kind * cap;
        for (int i = 0, n = bound; i < n; i++)
        {
            final int r = base + active[i];
            final long h = head[r];
            if (ready(h) == table.stamp(table.packetOffset(ring[r], h)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Hand over the ready packets of one kind, box by box, up to the budget.
     *
     * @return messages handed over.
     */
    int poll(final int kind, final MessageSink sink, final int budget)
    {
        if (reading[kind])
        {
            return 0;
        }
        reading[kind] = true;
        try
        {
            // Round robin: each poll starts one box further on, so a box its sender keeps full cannot take every
            // poll's budget from the boxes after it.
            final int n = bound;
            int handled = 0;
            if (n > 0)
            {
                final int first = firstBox[kind] < n ? firstBox[kind] : 0;
                firstBox[kind] = first + 1;
                for (int i = 0; i < n && handled < budget; i++)
                {
                    final int at = first + i;
                    handled += deliver(kind, active[at < n ? at : at - n], sink, budget - handled);
                }
            }
            return handled;
        }
        finally
        {
            reading[kind] = false;
        }
    }

    private int deliver(final int kind, final int box, final MessageSink sink, final int budget)
    {
        final int r = kind * cap + box;
        final int ring = this.ring[r];
        final long start = head[r];
        long h = start;
        int handed = 0;
        try
        {
            while (h - start < budget)
            {
                final int packet = table.packetOffset(ring, h);
                if (ready(h) != table.stamp(packet))
                {
                    break;
                }
                final ShmInbound message = inbound[kind].wrap(packet, readyState[box]);
                try
                {
                    if (null != message)
                    {
                        handed++;
                        sink.onMessage(message);
                    }
                    else
                    {
                        // Its inverse mapping names another process than the box's sender: spoiled, never delivered
                        // (a reply would go to the wrong sender), counted; the block it names is left to the sweep
                        // (a spoiled packet's index may name a block its sender holds for another message).
                        counters.drop();
                    }
                }
                finally
                {
                    if (null != message)
                    {
                        freeBulk(kind, packet, box);
                    }
                    head[r] = ++h;
                }
            }
        }
        finally
        {
            if (h != start)
            {
                // Release store of the head, once per poll that read something (not per message): the sender that
                // reads it may reuse every packet below it, which we are done with.
                table.putRelease(headOffset[r], h);
            }
        }
        return handed;
    }

    void freeBulk(final int kind, final int packet, final int box)
    {
        final PacketQueue queue = queues[kind];
        final int bulk = queue.packetShort(packet, BULK_INDEX_OFFSET);
        if (NO_BULK != bulk)
        {
            // The block is the shared pool's, held READY by the box's sender for this packet; the packet itself is
            // not written (its line is the sender's), so the next message in it carries its own bulk index.
            BulkBlocks.freeHeldBy(queue, bulk, ownerPid(owner[box]));
        }
    }

    /**
     * For the sweep of bulk blocks no packet names ({@link BulkBlocks#freeUnreferenced}), called after it read the
     * blocks' flags: mark every block a packet of a bound box of one kind may still deliver. That is not only the
     * ready run at the head: a packet a faulty writer spoiled stops the run until it is skipped, and the ready
     * packets after it (or one stamped for a later lap, by a sender that took an overwritten head word for the
     * receiver's) are delivered then. So each packet of the ring whose stamp is not that of a sequence below the head
     * (consumed) is marked, and so is the packet the sender's writing word says is being written, and the first one
     * after the ready run (a sender writes the bulk index before it marks the block READY, and stamps the packet
     * after; its writing word was stored before both, so it is read here after the flags, and the run's end covers a
     * writing word a faulty writer overwrote).
     *
     * @param kind       {@link FastBoxDescriptor#REQUESTS} or {@link FastBoxDescriptor#REPLIES}.
     * @param queue      the shared queue of that kind, whose bulk pool the boxes use.
     * @param referenced bits of the blocks named, one per block.
     */
    void markReferencedBulk(final int kind, final PacketQueue queue, final long[] referenced)
    {
        final int depth = table.depth;
        for (int i = 0; i < bound; i++)
        {
            final int box = active[i];
            final int r = kind * cap + box;
            final long start = head[r];
            boolean run = true;
            for (long sequence = start; sequence - start < depth; sequence++)
            {
                final int packet = table.packetOffset(ring[r], sequence);
                final long stamped = table.stamp(packet) - FastBoxDescriptor.ready(0);
                final boolean ready = stamped == sequence;
                if ((run && !ready) || stamped - start >= 0)
                {
                    BulkBlocks.markReferenced(queue, packet, referenced);
                }
                run &= ready;
            }
            // Acquire: the writing word, read after the flags (see above).
            BulkBlocks.markReferenced(queue, table.packetOffset(ring[r], table.getAcquire(table.writingOffset(box, kind)) - 1),
                referenced);
        }
    }

    /**
     * A shared-queue packet of kind {@code kind} from the pair {@code inverse} is about to be handed over: first hand
     * over what is ready in that pair's box (the overflow rule's receiving half: the box's messages were sent
     * before it).
     *
     * @return messages handed over, or -1 when the pair's box has ready packets that cannot be read here (its kind
     * is being read further up the stack): the shared packet must wait.
     */
    int beforeShared(final int kind, final int inverse, final MessageSink sink)
    {
        if (0 == cap)
        {
            return 0;
        }
        int box = boundBox(inverse);
        if (box < 0)
        {
            if (table.generation() == generationSeen)
            {
                return 0;
            }
            rescan();
            box = boundBox(inverse);
            if (box < 0)
            {
                return 0;
            }
        }
        final int r = kind * cap + box;
        if (ready(head[r]) != table.stamp(table.packetOffset(ring[r], head[r])))
        {
            return 0;
        }
        if (reading[kind])
        {
            return -1;
        }
        reading[kind] = true;
        try
        {
            return deliver(kind, box, sink, Integer.MAX_VALUE);
        }
        finally
        {
            reading[kind] = false;
        }
    }

    /**
     * A shared-queue packet of kind {@code kind} from the pair {@code inverse} was handed over: count it, and publish
     * the count when the pair has a box.
     */
    void afterShared(final int kind, final int inverse)
    {
        countMoved(kind, inverse, pairCounts.consumed(kind, inverse));
    }

    /**
     * The count of a pair's shared messages consumed moved (a message handed over, or messages found destroyed):
     * publish it in the pair's box, if it has one bound, for the overflow rule.
     */
    void countMoved(final int kind, final int inverse, final long consumed)
    {
        final int box = boundBox(inverse);
        if (box >= 0)
        {
            // Release store of 1 + the count: the sender that sees the count equal to its shared sends may use the
            // box again; the messages counted were handed over before it.
            table.putRelease(consumedOffset[kind * cap + box], consumed + 1);
        }
    }

    private int boundBox(final int inverse)
    {
        final int slot = inverse & 0xFFFF;
        if (slot >= slotBox.length)
        {
            return -1;
        }
        final int box = slotBox[slot] - 1;
        return box >= 0 && ownerInverse(owner[box]) == inverse ? box : -1;
    }

    /**
     * @param requests the receiver of the shared request queue.
     * @param replies  the receiver of the shared reply queue.
     */
    void sharedQueues(final PacketReceiver requests, final PacketReceiver replies)
    {
        pairCounts.sharedQueues(requests, replies);
    }

    /**
     * Now and then, from a poll that is not nested in another: the upkeep of the bound boxes ({@link FastBoxKeeper})
     * and the count of what a faulty writer destroyed on the shared queues ({@link PairCounts}).
     */
    void sweep()
    {
        keeper.sweep();
        if (!reading())
        {
            pairCounts.countLost(System.nanoTime(), this);
        }
    }

    /**
     * After the queue block's state became CLOSED: hand what is in the boxes over ({@link FastBoxKeeper#drain}).
     *
     * @return messages handed over.
     */
    int drain(final MessageSink returns, final long deadline)
    {
        return keeper.drain(returns, deadline);
    }

    /**
     * @return true while a ring kind is being read further up the stack (its heads are not settled).
     */
    boolean reading()
    {
        return reading[REQUESTS] || reading[REPLIES];
    }

    /**
     * Bind the boxes claimed since the table generation was last read, if it moved.
     */
    void rescanIfClaimed()
    {
        if (table.generation() != generationSeen)
        {
            rescan();
        }
    }

    /**
     * Bind the boxes claimed since the table generation last read.
     */
    private void rescan()
    {
        // The generation first: a claim bumps it after its CAS of the owner word, so the owners read below include
        // every claim the generation counts.
        generationSeen = table.generation();
        for (int box = 0; box < cap; box++)
        {
            final long word = table.owner(box);
            if (FREE == word || RETIRING == word || word == owner[box])
            {
                continue;
            }
            if (FREE == owner[box])
            {
                bind(box, word);
            }
            else if (!keeper.retiring(box))
            {
                // Bound, and the word is not its sender's: a faulty writer's (a FREE it wrote may have been claimed
                // since, by a sender not bound yet, which finds the box not its own before it writes anything).
                keeper.restoreOwner(box);
            }
        }
    }

    private void bind(final int box, final long word)
    {
        final int inverse = ownerInverse(word);
        final int slot = inverse & 0xFFFF;
        owner[box] = word;
        ownerAlive[box] = ProcessIdentity.watch(ownerPid(word), ProcessIdentity.UNKNOWN_START_TIME);
        readyState[box] = QueueBlockDescriptor.state(PacketDescriptor.READY, ownerPid(word));
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            ring[r] = table.ringOffset(box, kind);
            headOffset[r] = table.headOffset(box, kind);
            consumedOffset[r] = table.consumedOffset(box, kind);
            // Our own last published head (where the previous owner left the ring, or 0), unless a faulty writer
            // changed the word since: the sender reads the same word when it claims the box, so both start from it.
            head[r] = table.getAcquire(headOffset[r]);
            // Before the count that lets the sender write (the release store of it below).
            table.consumedFrom(ring[r], head[r]);
            final long consumed = pairCounts.consumedOf(kind, inverse);
            // Release store of 1 + the pair's count so far (non-zero: the box is read from now on): the sender may use
            // the box once the count equals its shared sends.
            table.putRelease(consumedOffset[r], consumed + 1);
        }
        if (slot < slots)
        {
            slotBox[slot] = box + 1;
        }
        keeper.bound(box);
        active[bound++] = box;
    }

    /**
     * A sender killed between its claim of a box and the first contact that would have made us bind it leaves the
     * box claimed: free it when its process is gone. It holds no message (a sender writes into its box only once we
     * have counted its first contact, which binds the box).
     */
    void freeUnboundOfDead()
    {
        for (int box = 0; box < cap; box++)
        {
            final long word = table.owner(box);
            if (FREE != word && FREE == owner[box] &&
                !ProcessIdentity.isAlive(ownerPid(word), ProcessIdentity.UNKNOWN_START_TIME))
            {
                for (int kind = 0; kind < RINGS; kind++)
                {
                    // Release store of a zero word: not bound (the heads are still the ones we published last).
                    table.putRelease(table.consumedOffset(box, kind), 0);
                }
                // Release store: the next owner starts with the flag down (ordered before the CAS below).
                table.releasedRelease(box, false);
                // CAS to FREE: only the dead claimer's word is undone, never a claim made since we read it.
                table.casOwner(box, word, FREE);
            }
        }
    }

    /**
     * @return false once the bound box's sender process is gone (a look that allocates nothing).
     */
    boolean ownerAlive(final int box)
    {
        return ownerAlive[box].getAsBoolean();
    }

    /**
     * @return true when a ring of the bound box has a ready packet at its head.
     */
    boolean hasReady(final int box)
    {
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            if (ready(head[r]) == table.stamp(table.packetOffset(ring[r], head[r])))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Let a bound box go: its heads published for the next owner, its counts zeroed, its owner word FREE last.
     *
     * @param dead its sender's process is gone: free the bulk blocks it left.
     */
    void unbind(final int box, final boolean dead)
    {
        final long pid = ownerPid(owner[box]);
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            if (dead)
            {
                // A sender killed between making its bulk block READY and stamping the packet left the block named
                // in the packet at the head; one killed before that left it CLAIMED.
                BulkBlocks.freeHeldBy(queues[kind],
                    queues[kind].packetShort(table.packetOffset(ring[r], head[r]), BULK_INDEX_OFFSET), pid);
                BulkBlocks.freeClaimedByDead(queues[kind], ownPid);
            }
            // Release stores of the head and a zero word: the next owner starts from this head, and must not use the
            // box before we bind it to it.
            table.putRelease(headOffset[r], head[r]);
            table.putRelease(consumedOffset[r], 0);
        }
        final int slot = ownerInverse(owner[box]) & 0xFFFF;
        if (slot < slots && slotBox[slot] == box + 1)
        {
            slotBox[slot] = 0;
        }
        for (int i = 0; i < bound; i++)
        {
            if (active[i] == box)
            {
                System.arraycopy(active, i + 1, active, i, bound - i - 1);
                bound--;
                break;
            }
        }
        owner[box] = FREE;
        ownerAlive[box] = null;
        keeper.unbound(box);
        // Release store: the next owner starts with the flag down (ordered before the owner word's FREE below).
        table.releasedRelease(box, false);
        // Release store of FREE last: a sender whose claim CAS sees it sees the heads and counts above.
        table.ownerRelease(box, FREE);
    }

    /**
     * For waitSema's check after the sleeping flag is published.
     *
     * @return true when a bound box has a ready packet at a head, or a sender reserved the packet at a head (it has
     * fenced and may not have seen the flag: it is about to stamp, and may not ring).
     */
    boolean hasPending()
    {
        if (!idle(REPLIES) || !idle(REQUESTS))
        {
            return true;
        }
        for (int i = 0, n = bound; i < n; i++)
        {
            for (int kind = 0; kind < RINGS; kind++)
            {
                if (keeper.reserved(kind * cap + active[i]))
                {
                    return true;
                }
            }
        }
        return false;
    }


}
