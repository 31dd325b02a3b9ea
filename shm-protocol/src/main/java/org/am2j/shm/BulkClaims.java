package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.NO_BULK;
import static org.am2j.shm.QueueBlockDescriptor.BULK_CLAIMED;
import static org.am2j.shm.QueueBlockDescriptor.BULK_FREE;
import static org.am2j.shm.QueueBlockDescriptor.BULK_READY;
import static org.am2j.shm.QueueBlockDescriptor.state;
import static org.am2j.shm.QueueBlockDescriptor.type;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.spi.OutboundMessage;

/**
 * A route's claims of bulk blocks in its destination's queues (the paper's step 2): a block is claimed before a packet
 * is taken, so no packet is held while waiting for one; it is filled, handed to the packet (READY with our pid), or
 * given back unpublished. Used by one route; the search hint is a hint only (threads of a PAR bundle may share it).
 */
final class BulkClaims
{
    private final long claimedState;
    private final long readyState;
    private int hint;

    BulkClaims(final long pid)
    {
        this.claimedState = state(BULK_CLAIMED, pid);
        this.readyState = state(BULK_READY, pid);
    }

    /**
     * @return the index of a block of {@code queue}'s pool now claimed by this process, or -1 when all are taken.
     */
    int claim(final PacketQueue queue)
    {
        final UnsafeBuffer buffer = queue.buffer;
        final int depth = queue.bulkDepth;
        int index = hint;
        for (int i = 0; i < depth; i++)
        {
            if (index >= depth)
            {
                index = 0;
            }
            final int flag = queue.bulkFlagOffset(index);
            final long current = buffer.getLongVolatile(flag);
            // CAS FREE -> CLAIMED(pid): one sender owns the block until it hands it to a ready packet.
            if (BULK_FREE == type(current) && buffer.compareAndSetLong(flag, current, claimedState))
            {
                hint = index + 1;
                return index;
            }
            index++;
        }
        return -1;
    }

    /**
     * Copy a message's data into the block claimed for it, which then belongs to the packet that names it.
     */
    void fill(final OutboundMessage message, final PacketQueue queue, final int bulk, final int length)
    {
        final UnsafeBuffer buffer = queue.buffer;
        buffer.putBytes(queue.bulkBlockOffset(bulk), message.data(), message.dataOffset(), length);
        // Ordered store READY(pid): the block now belongs to the packet; only the receiver frees it, or, if we die
        // before the packet is ready, the receiver when it skips the packet.
        buffer.putLongRelease(queue.bulkFlagOffset(bulk), readyState);
    }

    /**
     * Give back a block claimed and never published ({@link PacketDescriptor#NO_BULK}: nothing to give back).
     */
    static void release(final PacketQueue queue, final int bulk)
    {
        if (NO_BULK != bulk)
        {
            // Release store FREE: we claimed the block and never published it.
            queue.buffer.putLongRelease(queue.bulkFlagOffset(bulk), state(BULK_FREE, 0));
        }
    }
}
