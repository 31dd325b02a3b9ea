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
    private final int claimsOffset;
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
        this.claimsOffset = base + QueueBlockDescriptor.claimsOffset(depth);
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
     * The state in which a packet is free for the holder of one sequence number: FREE, stamped with that sequence
     * number's lap. The receiver frees a packet for the next lap ({@code sequence + depth}); a sender takes an
     * assignment only of a packet free for its own lap. So a packet whose previous-lap holder has not made it ready
     * (a slow or dead sender) is not free for the next lap, which keeps the FIFO order; a holder whose assignment the
     * receiver skipped finds the lap's claim word taken and takes a new assignment.
     *
     * @param sequence a packet sequence number.
     * @return the state of the packet when it is free for that sequence number.
     */
    long freeStateFor(final long sequence)
    {
        return QueueBlockDescriptor.state(PacketDescriptor.FREE, sequence >>> shift);
    }

    /**
     * @param sequence a packet sequence number.
     * @return offset of the claim word of its packet.
     */
    int claimOffset(final long sequence)
    {
        return claimsOffset + ((int)sequence & mask) * QueueBlockDescriptor.CLAIM_LENGTH;
    }

    /**
     * @param sequence a packet sequence number.
     * @return its lap: how many times the queue went round before it.
     */
    long lap(final long sequence)
    {
        return sequence >>> shift;
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
