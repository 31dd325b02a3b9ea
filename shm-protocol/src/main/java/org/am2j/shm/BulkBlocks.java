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
