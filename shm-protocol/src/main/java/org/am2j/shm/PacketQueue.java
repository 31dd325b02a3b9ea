package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.BULK_BLOCK_LENGTH;
import static org.am2j.shm.QueueBlockDescriptor.BULK_FLAG_LENGTH;
import static org.am2j.shm.QueueBlockDescriptor.HEAD_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.TAIL_OFFSET;

import java.nio.ByteOrder;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Flyweight over one queue structure of a queue block (request or reply): the sender-only tail, the receiver-only
 * head, the packet queue and the bulk data queue. Depths are powers of two.
 * <p>
 * <b>Unchecked access on the message path.</b> The accessors below (tail, head, packet fields, claim words) go to
 * memory without Agrona's per-access bounds check, which cost about a seventh of a one-thread round trip
 * ({@code MessagingBenchmark}, docs/shm-protocol.md). That is safe because every offset they are given is one this
 * flyweight computed from its own layout: a sequence number masked to a packet, a packet plus a field offset of
 * {@link PacketDescriptor}, the claim word of a sequence number; and that layout was checked against the mapping when
 * the queue block was formatted or wrapped ({@link QueueBlock#wrap}, which requires the mapping to be exactly the
 * layout's length). Offsets taken from what a packet says (a bulk index, a segment offset) never reach these
 * accessors unchecked: they go through the buffer, or are validated first.
 */
final class PacketQueue
{
    private static final boolean LITTLE_ENDIAN = ByteOrder.LITTLE_ENDIAN == ByteOrder.nativeOrder();

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
    /** The heap array behind the buffer, or null for mapped memory: the object the unchecked accessors address. */
    private final byte[] array;
    /** The buffer's address offset: absolute for mapped memory, relative to {@link #array} otherwise. */
    private final long address;

    PacketQueue(final UnsafeBuffer buffer, final int base, final int depth, final int bulkDepth)
    {
        // The layout check the unchecked accessors rely on: a valid depth (a power of two, so a masked sequence
        // number is a packet of the queue) and a structure that fits the buffer.
        if (!ShmConfig.validDepth(depth) || !ShmConfig.validBulkDepth(bulkDepth) || base < 0 ||
            (long)base + QueueBlockDescriptor.queueLength(depth, bulkDepth) > buffer.capacity())
        {
            throw new IllegalArgumentException("queue structure at " + base + " of depth " + depth + " and bulk depth " +
                bulkDepth + " does not fit a buffer of " + buffer.capacity() + " bytes, or its depths are not valid");
        }
        this.buffer = buffer;
        this.array = buffer.byteArray();
        this.address = buffer.addressOffset();
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

    // ----------------------------------------------------------------------------------------------------------------
    // Unchecked accessors of the message path (see the class comment for why each offset is in bounds)
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * @return the packet-queue tail, read with acquire semantics.
     */
    long tail()
    {
        return UnsafeApi.getLongVolatile(array, address + tailOffset);
    }

    /**
     * @param tail the tail a sender read.
     * @return true when this caller moved the tail from {@code tail} to {@code tail + 1}: the assignment is its.
     */
    boolean casTail(final long tail)
    {
        return UnsafeApi.compareAndSetLong(array, address + tailOffset, tail, tail + 1);
    }

    /**
     * @param head the receiver's new head, published with a release store.
     */
    void headRelease(final long head)
    {
        UnsafeApi.putLongRelease(array, address + headOffset, head);
    }

    /**
     * @param packet offset of a packet ({@link #packetOffset}).
     * @return its state word, read with acquire semantics.
     */
    long state(final int packet)
    {
        return UnsafeApi.getLongVolatile(array, address + packet + PacketDescriptor.STATE_OFFSET);
    }

    /**
     * @param packet offset of a packet.
     * @param state  its new state word, stored with release semantics.
     */
    void stateRelease(final int packet, final long state)
    {
        UnsafeApi.putLongRelease(array, address + packet + PacketDescriptor.STATE_OFFSET, state);
    }

    /**
     * @param sequence a packet sequence number.
     * @return the claim word of its packet, read with acquire semantics.
     */
    long claimWord(final long sequence)
    {
        return UnsafeApi.getLongVolatile(array, address + claimOffset(sequence));
    }

    /**
     * @param sequence a packet sequence number.
     * @param expected the claim word the caller read.
     * @param claim    the word to put in its place.
     * @return true when the word was {@code expected} and is now {@code claim}.
     */
    boolean casClaimWord(final long sequence, final long expected, final long claim)
    {
        return UnsafeApi.compareAndSetLong(array, address + claimOffset(sequence), expected, claim);
    }

    /**
     * Step 4 for the holder of one assignment: CAS of the packet's claim word from the previous lap's stamp to
     * CLAIMED(lap, pid).
     *
     * @param sequence the assignment (tail value) the sender's tail CAS took.
     * @param pid      the sender's pid.
     * @return true when the packet is the sender's to fill; false when the receiver skipped the assignment or a
     * later lap's sender holds the packet.
     */
    boolean claimPacket(final long sequence, final long pid)
    {
        final long lap = lap(sequence);
        final long claimWord = claimWord(sequence);
        // CAS to CLAIMED(lap, pid): of this sender and a receiver skipping the assignment, exactly one wins the lap.
        return QueueBlockDescriptor.claimsLap(claimWord, lap - 1) &&
            casClaimWord(sequence, claimWord, QueueBlockDescriptor.claim(lap, pid));
    }

    /**
     * Write every header field of a packet but its state, with plain stores (the release store of the state that
     * follows publishes them). The four one-byte fields and the two two-byte fields are written as one int each.
     *
     * @param packet        offset of the packet.
     * @param opcode        the opcode.
     * @param handler       the handler index.
     * @param argCount      the argument count.
     * @param returnStatus  the return status.
     * @param inverse       the inverse mapping (slot, generation).
     * @param length        the data length.
     * @param bulk          the bulk index.
     * @param segmentOffset the segment offset of a deposited long message, or -1.
     * @param tag           the tag.
     */
    void putHeader(
        final int packet, final int opcode, final int handler, final int argCount, final int returnStatus,
        final int inverse, final int length, final int bulk, final int segmentOffset, final long tag)
    {
        final long at = address + packet;
        UnsafeApi.putInt(array, at + PacketDescriptor.OPCODE_OFFSET,
            bytes(opcode, handler, argCount, returnStatus));
        UnsafeApi.putInt(array, at + PacketDescriptor.SLOT_OFFSET, inverse);
        UnsafeApi.putInt(array, at + PacketDescriptor.DATA_LENGTH_OFFSET, shorts(length, bulk));
        UnsafeApi.putInt(array, at + PacketDescriptor.SEGMENT_OFFSET_OFFSET, segmentOffset);
        UnsafeApi.putLong(array, at + PacketDescriptor.TAG_OFFSET, tag);
    }

    /**
     * @param packet offset of the packet.
     * @param index  0 to 7.
     * @param value  of the argument.
     */
    void putArg(final int packet, final int index, final int value)
    {
        assert index >= 0 && index < 8 : "argument index " + index;
        UnsafeApi.putInt(array, address + packet + PacketDescriptor.ARGS_OFFSET + ((index & 7) << 2), value);
    }

    /**
     * Write all eight argument slots of a packet (plain stores, published by the release store of its state).
     *
     * @param packet offset of the packet.
     * @param a0     argument 0, and so on to {@code a7}.
     * @param a1     argument 1.
     * @param a2     argument 2.
     * @param a3     argument 3.
     * @param a4     argument 4.
     * @param a5     argument 5.
     * @param a6     argument 6.
     * @param a7     argument 7.
     */
    void putArgs(
        final int packet, final int a0, final int a1, final int a2, final int a3, final int a4, final int a5,
        final int a6, final int a7)
    {
        final long at = address + packet + PacketDescriptor.ARGS_OFFSET;
        UnsafeApi.putLong(array, at, pair(a0, a1));
        UnsafeApi.putLong(array, at + 8, pair(a2, a3));
        UnsafeApi.putLong(array, at + 16, pair(a4, a5));
        UnsafeApi.putLong(array, at + 24, pair(a6, a7));
    }

    /** Two consecutive ints as the long at the first one's offset holds them in native byte order. */
    private static long pair(final int first, final int second)
    {
        return LITTLE_ENDIAN ?
            (first & 0xFFFF_FFFFL) | (long)second << 32 :
            (long)first << 32 | (second & 0xFFFF_FFFFL);
    }

    /**
     * @param packet offset of the packet.
     * @param field  offset of a one-byte field of {@link PacketDescriptor}.
     * @return the field, unsigned.
     */
    int packetByte(final int packet, final int field)
    {
        return UnsafeApi.getByte(array, address + packet + field) & 0xFF;
    }

    /**
     * @param packet offset of the packet.
     * @param field  offset of a two-byte field of {@link PacketDescriptor}.
     * @return the field, unsigned.
     */
    int packetShort(final int packet, final int field)
    {
        return UnsafeApi.getShort(array, address + packet + field) & 0xFFFF;
    }

    /**
     * @param packet offset of the packet.
     * @param field  offset of a four-byte field of {@link PacketDescriptor}.
     * @return the field.
     */
    int packetInt(final int packet, final int field)
    {
        return UnsafeApi.getInt(array, address + packet + field);
    }

    /**
     * @param packet offset of the packet.
     * @param index  0 to 7.
     * @return the argument.
     */
    int packetArg(final int packet, final int index)
    {
        assert index >= 0 && index < 8 : "argument index " + index;
        return UnsafeApi.getInt(array, address + packet + PacketDescriptor.ARGS_OFFSET + ((index & 7) << 2));
    }

    /**
     * @param packet offset of the packet.
     * @return its tag.
     */
    long packetTag(final int packet)
    {
        return UnsafeApi.getLong(array, address + packet + PacketDescriptor.TAG_OFFSET);
    }

    /**
     * @param packet offset of the packet.
     * @param value  for its bulk index field.
     */
    void putBulkIndex(final int packet, final int value)
    {
        UnsafeApi.putShort(array, address + packet + PacketDescriptor.BULK_INDEX_OFFSET, (short)value);
    }

    /** The four one-byte fields at offsets 8 to 11 as the int at offset 8 holds them in native byte order. */
    private static int bytes(final int b0, final int b1, final int b2, final int b3)
    {
        final int value = (b0 & 0xFF) | (b1 & 0xFF) << 8 | (b2 & 0xFF) << 16 | (b3 & 0xFF) << 24;
        return LITTLE_ENDIAN ? value : Integer.reverseBytes(value);
    }

    /** The two two-byte fields at offsets 16 and 18 as the int at offset 16 holds them in native byte order. */
    private static int shorts(final int s0, final int s1)
    {
        return LITTLE_ENDIAN ? (s0 & 0xFFFF) | (s1 & 0xFFFF) << 16 : (s0 & 0xFFFF) << 16 | (s1 & 0xFFFF);
    }
}
