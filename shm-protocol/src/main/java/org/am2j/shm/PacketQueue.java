package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.BULK_BLOCK_LENGTH;
import static org.am2j.shm.QueueBlockDescriptor.BULK_FLAG_LENGTH;
import static org.am2j.shm.QueueBlockDescriptor.HEAD_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.TAIL_OFFSET;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Flyweight over one queue structure of a queue block (request or reply): the sender-only tail, the receiver-only
 * head, the packet queue and the bulk data queue. Depths are powers of two.
 */
final class PacketQueue
{
    final UnsafeBuffer buffer;
    final int base;
    final int depth;
    final int bulkDepth;
    final int tailOffset;
    final int headOffset;
    private final int mask;
    private final int shift;
    private final int packetsOffset;
    private final int bulkFlagsOffset;
    private final int bulkBlocksOffset;

    PacketQueue(final UnsafeBuffer buffer, final int base, final int depth, final int bulkDepth)
    {
        this.buffer = buffer;
        this.base = base;
        this.depth = depth;
        this.bulkDepth = bulkDepth;
        this.mask = depth - 1;
        this.shift = Integer.numberOfTrailingZeros(depth);
        this.tailOffset = base + TAIL_OFFSET;
        this.headOffset = base + HEAD_OFFSET;
        this.packetsOffset = base + QueueBlockDescriptor.PACKETS_OFFSET;
        this.bulkFlagsOffset = base + QueueBlockDescriptor.bulkFlagsOffset(depth);
        this.bulkBlocksOffset = base + QueueBlockDescriptor.bulkBlocksOffset(depth, bulkDepth);
    }

    /**
     * @param sequence a packet sequence number (tail or head value).
     * @return offset of its packet in the buffer.
     */
    int packetOffset(final long sequence)
    {
        return packetsOffset + ((int)sequence & mask) * PacketDescriptor.LENGTH;
    }

    /**
     * The state a packet is freed with: FREE, stamped with the lap of the sequence number that may claim it next. A
     * sender that took an assignment and was too slow to claim it (the receiver skipped the packet after the
     * liveness timeout) expects the previous lap's stamp, so its claim fails and it takes a new assignment.
     *
     * @param sequence of the packet being freed.
     * @return the free state for {@code sequence + depth}.
     */
    long freeState(final long sequence)
    {
        return QueueBlockDescriptor.state(PacketDescriptor.FREE, (sequence >>> shift) + 1);
    }

    int bulkFlagOffset(final int index)
    {
        return bulkFlagsOffset + index * BULK_FLAG_LENGTH;
    }

    int bulkBlockOffset(final int index)
    {
        return bulkBlocksOffset + index * BULK_BLOCK_LENGTH;
    }
}
