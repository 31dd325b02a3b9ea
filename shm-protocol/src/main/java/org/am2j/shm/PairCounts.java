package org.am2j.shm;

import static org.am2j.shm.FastBoxDescriptor.REPLIES;
import static org.am2j.shm.FastBoxDescriptor.REQUESTS;

import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.spi.TransportCounters;

/**
 * The receiver's count, per sending pair, of the messages it took from its shared request and reply queues, beside
 * the count each sender publishes in its connection slot ({@link ConnectionSlotDescriptor#SHARED_SENT_OFFSET}): the
 * record of a message on a shared queue that survives the queue. A pair's difference that stays while the shared
 * queue of its kind is empty for the liveness timeout is messages a faulty writer destroyed there (a queue zeroed
 * with messages ready in it, whose tail was their only other record): counted as drops, and taken as consumed. For a
 * pair with a fast box the same count is the overflow rule's ({@link FastBoxSender}). A pair is known by its inverse
 * mapping (slot and generation): the first message of a new claimer of the slot starts the receiver's count
 * afresh, as the claim started the sender's.
 * <p>
 * Used by the endpoint's poller only.
 */
final class PairCounts
{
    /** Most messages a shared queue holds: a larger difference is a faulty writer's number, not messages. */
    private static final long MOST_IN_A_QUEUE = 65536;
    private static final int KINDS = 2;

    private final QueueBlock block;
    private final int slots;
    private final TransportCounters counters;
    private final long livenessNanos;
    /** Per slot: the inverse mapping the counts belong to (0: none yet). */
    private final int[] slotInverse;
    /** Per kind and slot: shared messages of the pair consumed. */
    private final long[][] consumed;
    /** Per kind and slot ({@code kind * slots + slot}): the difference seen, and since when (0: none). */
    private final long[] gap;
    private final long[] gapSince;
    /** The receivers of the shared request and reply queues, by kind. */
    private final PacketReceiver[] queues = new PacketReceiver[KINDS];

    PairCounts(final QueueBlock block, final TransportCounters counters, final long livenessNanos)
    {
        this.block = block;
        this.slots = block.slots;
        this.counters = counters;
        this.livenessNanos = livenessNanos;
        this.slotInverse = new int[slots];
        this.consumed = new long[KINDS][slots];
        this.gap = new long[KINDS * slots];
        this.gapSince = new long[KINDS * slots];
    }

    void sharedQueues(final PacketReceiver requests, final PacketReceiver replies)
    {
        queues[REQUESTS] = requests;
        queues[REPLIES] = replies;
    }

    /**
     * A message of the pair {@code inverse} was taken from the shared queue of {@code kind}.
     *
     * @return the pair's count of such messages consumed, -1 when the inverse names no slot.
     */
    long consumed(final int kind, final int inverse)
    {
        final int slot = inverse & 0xFFFF;
        if (slot >= slots)
        {
            return -1;
        }
        adopt(slot, inverse);
        return ++consumed[kind][slot];
    }

    /**
     * @return the pair's count of messages of {@code kind} consumed from the shared queue (0 for a pair not seen).
     */
    long consumedOf(final int kind, final int inverse)
    {
        final int slot = inverse & 0xFFFF;
        return slot < slots && slotInverse[slot] == inverse ? consumed[kind][slot] : 0;
    }

    /**
     * Now and then, from a poll that is not nested in another: count what a faulty writer destroyed on the shared
     * queues, pair by pair.
     *
     * @param boxes told of each pair whose count moved, so a bound box publishes it for the overflow rule.
     */
    void countLost(final long now, final FastBoxReceiver boxes)
    {
        final UnsafeBuffer buffer = block.buffer;
        for (int kind = 0; kind < KINDS; kind++)
        {
            final PacketReceiver queue = queues[kind];
            if (null == queue || !queue.isEmpty())
            {
                // Messages waiting: nothing of this kind is lost now, and no difference is read.
                Arrays.fill(gapSince, kind * slots, (kind + 1) * slots, 0);
                continue;
            }
            for (int slot = 0; slot < slots; slot++)
            {
                final int g = kind * slots + slot;
                final int countOffset = block.slotOffset(slot) + ConnectionSlotDescriptor.sharedSentOffset(kind);
                // Acquire: the count is published after the READY store of the message it counts.
                final long difference = buffer.getLongAcquire(countOffset) - consumed[kind][slot];
                if (difference <= 0 || difference > MOST_IN_A_QUEUE)
                {
                    gapSince[g] = 0;
                    continue;
                }
                if (0 == gapSince[g] || gap[g] != difference)
                {
                    gap[g] = difference;
                    gapSince[g] = now;
                    continue;
                }
                if (now - gapSince[g] < livenessNanos)
                {
                    continue;
                }
                gapSince[g] = 0;
                // The queue again, after the count: this thread is its only consumer, so a message the count includes
                // is now consumed, in the queue, or destroyed.
                if (!queue.isEmpty())
                {
                    continue;
                }
                for (long i = 0; i < difference; i++)
                {
                    counters.drop();
                }
                if (0 == slotInverse[slot])
                {
                    // No message of the pair was taken yet: its inverse is the slot holder's (a message's, when one
                    // comes, is believed over it).
                    slotInverse[slot] = currentInverse(slot);
                }
                consumed[kind][slot] += difference;
                boxes.countMoved(kind, slotInverse[slot], consumed[kind][slot]);
            }
        }
    }

    /**
     * @return the inverse mapping of whoever holds the slot now, from its generation word.
     */
    private int currentInverse(final int slot)
    {
        final int generation = block.buffer.getIntVolatile(block.slotOffset(slot) +
            ConnectionSlotDescriptor.GENERATION_OFFSET) & 0xFFFF;
        return slot | generation << 16;
    }

    private void adopt(final int slot, final int inverse)
    {
        if (slotInverse[slot] != inverse)
        {
            slotInverse[slot] = inverse;
            consumed[REQUESTS][slot] = 0;
            consumed[REPLIES][slot] = 0;
        }
    }
}
