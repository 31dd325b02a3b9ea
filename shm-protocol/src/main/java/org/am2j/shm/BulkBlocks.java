package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.BULK_CLAIMED;
import static org.am2j.shm.QueueBlockDescriptor.BULK_FREE;
import static org.am2j.shm.QueueBlockDescriptor.BULK_READY;
import static org.am2j.shm.QueueBlockDescriptor.pid;
import static org.am2j.shm.QueueBlockDescriptor.state;
import static org.am2j.shm.QueueBlockDescriptor.type;

import org.am2j.spi.ProcessIdentity;

/**
 * Recovery of the bulk blocks of a bulk data queue that a dead sender held. A block is FREE, CLAIMED(pid) while its
 * sender fills it, and READY(pid) once it belongs to a packet: a READY block is freed only by the receiver, with its
 * packet.
 */
final class BulkBlocks
{
    private BulkBlocks()
    {
    }

    /**
     * Free the blocks claimed, and not yet handed to a packet, by processes that are gone, and those whose flag holds
     * garbage.
     *
     * @param queue   whose bulk queue to sweep.
     * @param selfPid this process's pid, never judged dead.
     */
    static void freeClaimedByDead(final PacketQueue queue, final long selfPid)
    {
        for (int i = 0; i < queue.bulkDepth; i++)
        {
            final int flag = queue.bulkFlagOffset(i);
            final long current = queue.buffer.getLongVolatile(flag);
            final int type = type(current);
            if (BULK_FREE != type && BULK_CLAIMED != type && BULK_READY != type)
            {
                // Garbage a faulty writer left: no sender can hold the block, which would be lost for good.
                queue.buffer.compareAndSetLong(flag, current, state(BULK_FREE, 0));
            }
            else if (BULK_CLAIMED == type && selfPid != pid(current) &&
                !ProcessIdentity.isAlive(pid(current), ProcessIdentity.UNKNOWN_START_TIME))
            {
                // CAS CLAIMED(dead) -> FREE: given back once, however many sweep at the same time.
                queue.buffer.compareAndSetLong(flag, current, state(BULK_FREE, 0));
            }
        }
    }

    /**
     * @param queue a bulk queue.
     * @return true when no block is free.
     */
    static boolean allTaken(final PacketQueue queue)
    {
        for (int i = 0; i < queue.bulkDepth; i++)
        {
            if (BULK_FREE == type(queue.buffer.getLongVolatile(queue.bulkFlagOffset(i))))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The receiver's sweep of READY blocks no packet names any more: a faulty writer that spoils a packet (its bulk
     * index, or its state so that the packet is skipped without its block) or a block's flag leaves a block no one
     * would free, and once every block is lost so, no sender can send data again. The flags are read first, then the
     * tail, then the bulk index of every packet from the head to that tail: a sender writes its packet's bulk index
     * before it marks the block READY (a release store), and takes its assignment before both, so a READY flag read
     * here belongs to a packet below the tail read after it, whose index is seen. The blocks that packets of the fast
     * boxes of the same kind name are kept too ({@link FastBoxReceiver#markReferencedBulk}). Only the receiver frees
     * a READY block, so one found unreferenced stays READY until this frees it. Called by the receiver only.
     *
     * @param queue      the receiver's queue.
     * @param head       the receiver's head.
     * @param referenced scratch bits, at least {@code bulkDepth} of them.
     * @param observed   scratch, at least {@code bulkDepth} flag values.
     * @param boxes      the endpoint's fast boxes.
     * @param kind       the queue's kind of box ring.
     * @return blocks freed.
     */
    static int freeUnreferenced(
        final PacketQueue queue, final long head, final long[] referenced, final long[] observed,
        final FastBoxReceiver boxes, final int kind)
    {
        final int bulkDepth = queue.bulkDepth;
        for (int i = 0; i < bulkDepth; i++)
        {
            observed[i] = queue.buffer.getLongVolatile(queue.bulkFlagOffset(i));
        }
        final long tail = Math.min(queue.buffer.getLongVolatile(queue.tailOffset), head + queue.depth);
        java.util.Arrays.fill(referenced, 0L);
        for (long sequence = head; sequence < tail; sequence++)
        {
            markReferenced(queue, queue.packetOffset(sequence), referenced);
        }
        boxes.markReferencedBulk(kind, queue, referenced);
        int freed = 0;
        for (int i = 0; i < bulkDepth; i++)
        {
            if (BULK_READY == type(observed[i]) && 0 == (referenced[i >>> 6] & (1L << i)) &&
                queue.buffer.compareAndSetLong(queue.bulkFlagOffset(i), observed[i], state(BULK_FREE, 0)))
            {
                // CAS READY -> FREE from the value read: a flag that changed since (a faulty writer again) is left.
                freed++;
            }
        }
        return freed;
    }

    /**
     * Mark the block a packet names, if it names one of the queue's.
     *
     * @param queue      whose bulk pool the packet's index is into.
     * @param packet     offset of a packet (of the queue, or of a fast box using its pool).
     * @param referenced bits of the blocks named, one per block.
     */
    static void markReferenced(final PacketQueue queue, final int packet, final long[] referenced)
    {
        final int index = queue.packetShort(packet, PacketDescriptor.BULK_INDEX_OFFSET);
        if (index < queue.bulkDepth)
        {
            referenced[index >>> 6] |= 1L << index;
        }
    }

    /**
     * Free the block a skipped packet of a dead sender names, if that sender still holds it.
     *
     * @param queue     of the packet.
     * @param index     the packet's bulk index.
     * @param senderPid the dead sender.
     */
    static void freeHeldBy(final PacketQueue queue, final int index, final long senderPid)
    {
        if (index < 0 || index >= queue.bulkDepth)
        {
            return;
        }
        final int flag = queue.bulkFlagOffset(index);
        final long current = queue.buffer.getLongVolatile(flag);
        final int type = type(current);
        if ((BULK_CLAIMED == type || BULK_READY == type) && senderPid == pid(current))
        {
            // CAS to FREE: only the dead sender's hold is undone, never a block another sender claimed since.
            queue.buffer.compareAndSetLong(flag, current, state(BULK_FREE, 0));
        }
    }
}
