package org.am2j.shm;

import static org.am2j.shm.FastBoxDescriptor.RETIRING;
import static org.am2j.shm.FastBoxDescriptor.ownerInverse;
import static org.am2j.shm.FastBoxDescriptor.ownerPid;
import static org.am2j.shm.FastBoxDescriptor.ready;

import org.am2j.spi.MessageSink;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.TransportCounters;

/**
 * The upkeep of the fast boxes bound to a {@link FastBoxReceiver}, apart from the delivery of their messages: letting
 * a box go (its sender closed its route, or its process is gone) with the handshake that loses nothing its sender
 * still writes; writing back the words only the receiver writes, which a faulty writer may have overwritten (owner
 * words, heads, counts); skipping and counting what a faulty writer spoiled in a ring, so that no ring stops for good;
 * and, when the endpoint is freed, handing over what is left. It learns what each ring's sender has written from the
 * sender's writing word ({@link FastBoxDescriptor}). What a faulty writer destroyed on the shared queues is counted
 * for every pair, with a box or not, by {@link PairCounts}.
 * <p>
 * Used by the receiver's thread, from polls that are not nested in another and from the endpoint's close.
 */
final class FastBoxKeeper
{
    private static final int RINGS = 2;

    private final FastBoxReceiver receiver;
    private final FastBoxTable table;
    private final int cap;
    private final TransportCounters counters;
    private final long livenessNanos;
    /** How long a live sender's reservation is waited for before its packet is taken for spoiled. */
    private final long liveReservationNanos;

    // The receiver's bindings (its arrays, shared).
    private final long[] owner;
    private final long[] readyState;
    private final long[] head;
    private final int[] ring;
    private final int[] headOffset;
    private final int[] consumedOffset;
    private final int[] active;
    private final PairCounts pairCounts;
    private final ShmInbound[] inbound;

    /** Per ring ({@code kind * cap + box}): its writing word. */
    private final int[] writingOffset;
    /**
     * Per ring: the sequence below which its sender has stamped every packet, by the highest writing word read that
     * made sense (a sender reserves a sequence only after stamping the one before). Kept here because a faulty writer
     * may zero the word after the sender stored it for the last time.
     */
    private final long[] stampedBelow;
    /** Per ring: the head found not ready while its sender had stamped or reserved it, and since when. */
    private final long[] stuckHead;
    private final long[] stuckSince;
    /** Per box: since when its sender's writing word has stood behind a head ({@link #senderBehindHead}), or 0. */
    private final long[] behindSince;
    /** Per box: being let go ({@link FastBoxDescriptor#RETIRING} stored), and since when. */
    private final boolean[] retiring;
    private final long[] retiringSince;
    private long lastLivenessCheck;

    FastBoxKeeper(
        final FastBoxReceiver receiver, final TransportCounters counters, final long livenessNanos,
        final long[] owner, final long[] readyState, final long[] head, final int[] ring, final int[] headOffset,
        final int[] consumedOffset, final int[] active, final PairCounts pairCounts,
        final ShmInbound[] inbound)
    {
        this.receiver = receiver;
        this.table = receiver.table;
        this.cap = table.boxes;
        this.counters = counters;
        this.livenessNanos = livenessNanos;
        this.liveReservationNanos = livenessNanos * PacketReceiver.LIVE_CLAIM_TIMEOUTS;
        this.owner = owner;
        this.readyState = readyState;
        this.head = head;
        this.ring = ring;
        this.headOffset = headOffset;
        this.consumedOffset = consumedOffset;
        this.active = active;
        this.pairCounts = pairCounts;
        this.inbound = inbound;
        this.writingOffset = new int[RINGS * cap];
        this.stampedBelow = new long[RINGS * cap];
        this.stuckHead = new long[RINGS * cap];
        this.stuckSince = new long[RINGS * cap];
        this.behindSince = new long[cap];
        this.retiring = new boolean[cap];
        this.retiringSince = new long[cap];
    }

    /**
     * The receiver bound a box and set its heads: its rings start afresh from them.
     */
    void bound(final int box)
    {
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            writingOffset[r] = table.writingOffset(box, kind);
            // Nothing stamped past the head the receiver starts from, whatever number that is (a faulty writer's
            // included): what is owed is always measured from the head, at most the ring's depth past it.
            stampedBelow[r] = head[r];
            stuckSince[r] = 0;
        }
        behindSince[box] = 0;
    }

    /**
     * The receiver let a box go.
     */
    void unbound(final int box)
    {
        retiring[box] = false;
    }

    /**
     * @return true while the box is being let go.
     */
    boolean retiring(final int box)
    {
        return retiring[box];
    }

    /**
     * @param r a ring of a bound box.
     * @return true when its sender has reserved the packet at the head (it has fenced, and is about to stamp it).
     */
    boolean reserved(final int r)
    {
        // Acquire: after the sleeping flag's volatile store, in hasPending.
        return table.getAcquire(writingOffset[r]) == head[r] + 1;
    }

    /**
     * Look after the bound boxes, now and then, from a poll that is not nested in another: let go of those whose
     * sender closed its route (released word set) or whose sender's process is gone; skip what a faulty writer
     * spoiled; write back the words only this receiver writes (owner words of bound boxes, heads, counts), which
     * senders read and a faulty writer may have overwritten.
     */
    void sweep()
    {
        if (0 == cap || receiver.reading())
        {
            return;
        }
        final long now = System.nanoTime();
        final boolean checkLiveness = now - lastLivenessCheck >= livenessNanos;
        if (checkLiveness)
        {
            lastLivenessCheck = now;
        }
        for (int i = receiver.bound - 1; i >= 0; i--)
        {
            final int box = active[i];
            if (!retiring[box])
            {
                if (table.owner(box) != owner[box])
                {
                    restoreOwner(box);
                }
                // Read before the rings' stamps (acquire): a closed route's last packets are visible below.
                if (table.released(box))
                {
                    retire(box, now);
                }
                else if (checkLiveness && !receiver.ownerAlive(box))
                {
                    if (!receiver.hasReady(box))
                    {
                        receiver.unbind(box, true);
                    }
                    continue;
                }
                else if (senderBehindHead(box, now))
                {
                    retire(box, now);
                }
                else
                {
                    republish(box);
                }
            }
            skipSpoiled(box, now);
            if (retiring[box] && settled(box, now))
            {
                skipOwed(box);
                receiver.unbind(box, false);
            }
        }
        if (checkLiveness)
        {
            receiver.freeUnboundOfDead();
        }
    }

    /**
     * A sender's writing word is never behind its receiver's head: the head passes a sequence only over a stamp its
     * sender wrote after reserving it. A word behind the head says that the sender writes where nothing looks: a
     * faulty writer moved the head word on between the sender's claim (its rings start from the word) and our
     * binding, and back before its first send (a sender reads the head before it writes). A word that stays behind
     * for the liveness timeout (a faulty writer's number over a live sender's word is written again at its next
     * reservation) has what the sender wrote there since it last read the head, at most a ring's depth, counted as
     * drops, and the box let go: the sender finds it gone and claims one again from the head we publish.
     *
     * @return true when the box is to be let go.
     */
    private boolean senderBehindHead(final int box, final long now)
    {
        int behind = 0;
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            // Acquire, and compared by difference as in writing(): any number may be there.
            if (table.getAcquire(writingOffset[r]) - head[r] < 0)
            {
                behind++;
            }
        }
        if (0 == behind)
        {
            behindSince[box] = 0;
            return false;
        }
        if (0 == behindSince[box])
        {
            behindSince[box] = now;
            return false;
        }
        if (now - behindSince[box] < livenessNanos)
        {
            return false;
        }
        for (int i = behind * table.depth; i > 0; i--)
        {
            counters.drop();
        }
        return true;
    }

    /**
     * A bound box's owner word was overwritten: write its sender's back. The sender may have found it not its own
     * meanwhile and given the box up (its messages go to the shared queue); its writing word, which it stores back
     * then, says what it had written into the box, and what a faulty writer spoiled there is skipped and counted
     * ({@link #skipSpoiled}). The binding is let go when its route closes or its process is gone.
     */
    void restoreOwner(final int box)
    {
        // Volatile store: a sender that reads its word again goes on; one that read the garbage has given up.
        table.ownerVolatile(box, owner[box]);
    }

    /**
     * Start letting go of a bound box: store {@link FastBoxDescriptor#RETIRING} over its owner word. A sender that
     * reserves a packet after this store reads it after its fence and cancels (its message goes to the shared queue);
     * one that reserved before is seen by {@link #settled} (its writing word), and what it writes is delivered by the
     * polls, which go on reading the box until it is let go.
     */
    private void retire(final int box, final long now)
    {
        // Volatile store (a full fence after it): the Dekker pair with a sender's reservation then owner-word read.
        table.ownerVolatile(box, RETIRING);
        retiring[box] = true;
        retiringSince[box] = now;
    }

    /**
     * @return true when a box being let go holds nothing more: no ready packet at a head, nothing stamped or reserved
     * at or past it by its sender's writing word (waited for, then skipped by {@link #skipSpoiled}), or the bound for
     * all that has passed.
     */
    private boolean settled(final int box, final long now)
    {
        if (now - retiringSince[box] > liveReservationNanos + livenessNanos)
        {
            return true;
        }
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            final long h = head[r];
            if (writing(r, h) != h || stampedBelow[r] - h > 0 || ready(h) == table.stamp(table.packetOffset(ring[r], h)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Before a box being let go is unbound: a ring still owed packets at its head (the let-go's time bound passed with
     * a reservation or a spoiled packet there) has its head moved past them, each counted as a drop, so the head the
     * unbinding publishes is past every sequence its sender wrote or reserved. The next owner starts there: a stamp
     * left below it never reads as ready for a sequence at or above it, so nothing of the old owner's is delivered
     * in the new owner's place, and nothing of the new owner's is skipped for an old stamp.
     */
    private void skipOwed(final int box)
    {
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            final long h = head[r];
            // The writing word first: reading it may raise what the ring's sender is known to have stamped.
            final long writing = writing(r, h);
            head[r] = skip(kind, box, h, Math.max(writing, stampedBelow[r]), false);
        }
    }

    /**
     * Read a ring's writing word, and learn from it what its sender has stamped ({@link #stampedBelow}).
     *
     * @param r a ring of a bound box.
     * @param h its head.
     * @return the word when it makes sense (past the head by at most the ring's depth), else the head (nothing owed).
     */
    private long writing(final int r, final long h)
    {
        final long writing = table.getAcquire(writingOffset[r]);
        // Sequences are compared by their difference only: any word may hold any number (a faulty writer's), and a
        // comparison of the numbers themselves would take one far past the head, across the sign, for a near one.
        final long ahead = writing - h;
        if (ahead <= 0 || ahead > table.depth)
        {
            return h;
        }
        if (writing - 1 - stampedBelow[r] > 0)
        {
            stampedBelow[r] = writing - 1;
        }
        return writing;
    }

    /**
     * A ring whose head packet is not ready although its sender has stamped it (its writing word went past it)
     * holds a packet a faulty writer spoiled (its stamp or the whole packet overwritten, the block zeroed); one
     * whose sender reserved the head packet and does not stamp it holds a reservation that is not finished. Left so,
     * the ring would never deliver again. After the liveness timeout (a reservation: after
     * {@link PacketReceiver#LIVE_CLAIM_TIMEOUTS} of them, and as long as its sender is stopped), every packet from the
     * head that is not ready, up to the first ready one or the end of what is owed, is skipped and counted as a drop.
     */
    private void skipSpoiled(final int box, final long now)
    {
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            long h = head[r];
            // The writing word first, then the stamp (acquire both): the sender stamps a sequence before it reserves
            // the next, so a word past h + 1 with the stamp of h not ready means the stamp was overwritten.
            final boolean reserved = writing(r, h) == h + 1;
            final long stamped = stampedBelow[r];
            if (stamped - h <= 0 && !reserved || ready(h) == table.stamp(table.packetOffset(ring[r], h)))
            {
                stuckSince[r] = 0;
                continue;
            }
            if (0 == stuckSince[r] || stuckHead[r] != h)
            {
                stuckHead[r] = h;
                stuckSince[r] = now;
                continue;
            }
            if (stamped - h <= 0)
            {
                // A reservation: its sender is between its fence and its stamp, a few stores; waited for longer,
                // and for as long as it is stopped (a dead sender's box is let go by the sweep's liveness check).
                if (now - stuckSince[r] < liveReservationNanos || ProcessIdentity.isStopped(ownerPid(owner[box])))
                {
                    continue;
                }
            }
            else if (now - stuckSince[r] < livenessNanos)
            {
                continue;
            }
            h = skip(kind, box, h, Math.max(stamped, h + 1), true);
            head[r] = h;
            stuckSince[r] = 0;
            // Release store of the head: the sender may reuse the packets skipped.
            table.putRelease(headOffset[r], h);
        }
    }

    /**
     * Skip a ring's packets from {@code from} up to {@code end}, each counted as a drop. A skipped packet gives back no
     * bulk block: its index is as little to be trusted as its stamp (a zeroed packet names block 0, which its sender
     * may hold for a live message), so a block a spoiled packet held stays READY until the sweep of blocks no packet
     * names ({@link BulkBlocks#freeUnreferenced}) frees it.
     *
     * @param stopAtReady stop at the first ready packet (it is delivered, not skipped).
     * @return the sequence after the last one skipped.
     */
    private long skip(final int kind, final int box, final long from, final long end, final boolean stopAtReady)
    {
        final int r = kind * cap + box;
        long h = from;
        while (end - h > 0 && !(stopAtReady && ready(h) == table.stamp(table.packetOffset(ring[r], h))))
        {
            counters.drop();
            h++;
        }
        return h;
    }

    /**
     * Publish again a bound box's heads and shared-consumed counts where they differ from this receiver's: a sender
     * that read an overwritten head takes the ring for full, and an overwritten count sends the pair to the shared
     * queue, until the words are right again.
     */
    private void republish(final int box)
    {
        final int inverse = ownerInverse(owner[box]);
        for (int kind = 0; kind < RINGS; kind++)
        {
            final int r = kind * cap + box;
            if (table.getAcquire(headOffset[r]) != head[r])
            {
                // Release store: every message below the head was handed over before it.
                table.putRelease(headOffset[r], head[r]);
            }
            final long consumed = 1 + pairCounts.consumedOf(kind, inverse);
            if (table.getAcquire(consumedOffset[r]) != consumed)
            {
                // Release store, as in afterShared.
                table.putRelease(consumedOffset[r], consumed);
            }
        }
    }

    /**
     * After the queue block's state became CLOSED: hand every ready packet of every box to {@code returns}. A packet a
     * sender reserved is waited for: the sender read the state OPEN after its reservation (the Dekker pair with the
     * CLOSED store) and stamps it, or read CLOSED and cancels the reservation. What is still owed at the deadline (a
     * sender stalled, stopped or dead inside its reservation, or writing words a faulty writer left) is counted as
     * unsettled; a packet spoiled below its sender's writing word as a drop.
     *
     * @param returns  the core's sink for messages that arrive too late to be delivered.
     * @param deadline {@link System#nanoTime()} after which nothing is waited for.
     * @return messages handed over.
     */
    int drain(final MessageSink returns, final long deadline)
    {
        if (0 == cap)
        {
            return 0;
        }
        receiver.rescanIfClaimed();
        int handed = 0;
        for (int i = 0; i < receiver.bound; i++)
        {
            final int box = active[i];
            for (int kind = 0; kind < RINGS; kind++)
            {
                final int r = kind * cap + box;
                try
                {
                    handed += drainRing(kind, box, returns, deadline);
                }
                finally
                {
                    // Release store of the head: what was handed over (or skipped) is settled, and a sender that
                    // later finds this process gone settles only what lies at or past it, once.
                    table.putRelease(headOffset[r], head[r]);
                }
            }
        }
        return handed;
    }

    private int drainRing(final int kind, final int box, final MessageSink returns, final long deadline)
    {
        final int r = kind * cap + box;
        int handed = 0;
        int attempt = 0;
        while (true)
        {
            final long h = head[r];
            // The writing word before the stamp, as in skipSpoiled.
            final boolean reserved = writing(r, h) == h + 1;
            final int packet = table.packetOffset(ring[r], h);
            if (ready(h) == table.stamp(packet))
            {
                final ShmInbound message = inbound[kind].wrap(packet, readyState[box]);
                try
                {
                    if (null != message)
                    {
                        returns.onMessage(message);
                        handed++;
                    }
                    else
                    {
                        // Spoiled, as in FastBoxReceiver.deliver: counted, its block left to the sweep.
                        counters.drop();
                    }
                }
                finally
                {
                    if (null != message)
                    {
                        receiver.freeBulk(kind, packet, box);
                    }
                    head[r] = h + 1;
                }
                continue;
            }
            if (stampedBelow[r] - h > 0)
            {
                // Stamped and then overwritten: spoiled.
                counters.drop();
                head[r] = h + 1;
                continue;
            }
            if (!reserved)
            {
                // Nothing reserved: a sender that reserves from now on reads CLOSED after its fence and cancels.
                return handed;
            }
            if (System.nanoTime() - deadline >= 0 || 0 == (attempt & 1023) && attempt > 0 &&
                !receiver.ownerAlive(box))
            {
                // A reservation never finished: its message, if it comes, comes into a block no one reads.
                counters.unsettled();
                head[r] = h + 1;
                return handed;
            }
            attempt = PacketReceiver.backOff(attempt);
        }
    }
}
