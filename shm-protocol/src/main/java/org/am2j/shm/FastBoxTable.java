package org.am2j.shm;

import static org.am2j.shm.FastBoxDescriptor.*;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Flyweight over the fast box table of a queue block ({@link FastBoxDescriptor}): offsets and the accessors of the
 * box path. Like {@link PacketQueue}'s, the accessors go to memory without a bounds check: every offset they take is
 * computed here from the table's own layout (a box index below {@link #boxes}, a sequence masked to a packet of a
 * ring), and {@link QueueBlock#wrap} has checked that layout against the mapping's length.
 */
final class FastBoxTable
{
    final UnsafeBuffer buffer;
    /** Boxes in the table (the cap), 0 for none. */
    final int boxes;
    /** Packets per ring. */
    final int depth;
    private final int mask;
    private final int base;
    private final int boxLength;
    private final byte[] array;
    private final long address;

    FastBoxTable(final UnsafeBuffer buffer, final int base, final int boxes, final int depth)
    {
        if (!ShmConfig.validBoxes(boxes) || !ShmConfig.validBoxDepth(depth) || base < 0 ||
            (long)base + tableLength(boxes, depth) > buffer.capacity())
        {
            throw new IllegalArgumentException("fast box table at " + base + " of " + boxes + " boxes of depth " +
                depth + " does not fit a buffer of " + buffer.capacity() + " bytes, or its sizes are not valid");
        }
        this.buffer = buffer;
        this.boxes = boxes;
        this.depth = depth;
        this.mask = depth - 1;
        this.base = base;
        this.boxLength = boxLength(depth);
        this.array = buffer.byteArray();
        this.address = buffer.addressOffset();
    }

    private int box(final int box)
    {
        return base + BOXES_OFFSET + box * boxLength;
    }

    /**
     * @param box  a box index.
     * @param ring {@link FastBoxDescriptor#REQUESTS} or {@link FastBoxDescriptor#REPLIES}.
     * @return offset of the ring's packet 0.
     */
    int ringOffset(final int box, final int ring)
    {
        return box(box) + FastBoxDescriptor.ringOffset(ring, depth);
    }

    /**
     * @param ring     offset of a ring ({@link #ringOffset}).
     * @param sequence a sequence number of the ring.
     * @return offset of its packet.
     */
    int packetOffset(final int ring, final long sequence)
    {
        return ring + ((int)sequence & mask) * PacketDescriptor.LENGTH;
    }

    /**
     * @return offset of a ring's writing word, in its box's owner area.
     */
    int writingOffset(final int box, final int ring)
    {
        return box(box) + FastBoxDescriptor.writingOffset(ring);
    }

    /**
     * @return offset of the head of a ring's receiver area.
     */
    int headOffset(final int box, final int ring)
    {
        return box(box) + receiverOffset(ring) + HEAD_OFFSET;
    }

    /**
     * @return offset of the shared-consumed count of a ring's receiver area.
     */
    int consumedOffset(final int box, final int ring)
    {
        return box(box) + receiverOffset(ring) + SHARED_CONSUMED_OFFSET;
    }

    long generation()
    {
        return UnsafeApi.getLongVolatile(array, address + base + GENERATION_OFFSET);
    }

    void bumpGeneration()
    {
        // Atomic add (on a box claim only, never per message): the receiver that sees the new generation looks for
        // the new owner word, which the claim's CAS stored before.
        UnsafeApi.getAndAddLong(array, address + base + GENERATION_OFFSET, 1);
    }

    long owner(final int box)
    {
        return UnsafeApi.getLongVolatile(array, address + box(box) + OWNER_OFFSET);
    }

    boolean casOwner(final int box, final long expected, final long owner)
    {
        return UnsafeApi.compareAndSetLong(array, address + box(box) + OWNER_OFFSET, expected, owner);
    }

    void ownerRelease(final int box, final long owner)
    {
        UnsafeApi.putLongRelease(array, address + box(box) + OWNER_OFFSET, owner);
    }

    /**
     * Volatile store of an owner word: a full fence after it, before the reads that follow.
     */
    void ownerVolatile(final int box, final long owner)
    {
        UnsafeApi.putLongVolatile(array, address + box(box) + OWNER_OFFSET, owner);
    }

    boolean released(final int box)
    {
        return 0 != UnsafeApi.getIntVolatile(array, address + box(box) + RELEASED_OFFSET);
    }

    void releasedRelease(final int box, final boolean released)
    {
        UnsafeApi.putIntRelease(array, address + box(box) + RELEASED_OFFSET, released ? 1 : 0);
    }

    /**
     * @param offset an offset from {@link #headOffset}, {@link #consumedOffset} or {@link #writingOffset}.
     * @return the word there, read with acquire semantics.
     */
    long getAcquire(final int offset)
    {
        return UnsafeApi.getLongVolatile(array, address + offset);
    }

    /**
     * @param offset an offset from {@link #headOffset}, {@link #consumedOffset} or {@link #writingOffset}.
     * @param value  stored with release semantics.
     */
    void putRelease(final int offset, final long value)
    {
        UnsafeApi.putLongRelease(array, address + offset, value);
    }

    /**
     * @param packet offset of a box packet.
     * @return its state word (stamp), read with acquire semantics.
     */
    long stamp(final int packet)
    {
        return UnsafeApi.getLongVolatile(array, address + packet + PacketDescriptor.STATE_OFFSET);
    }

    /**
     * @param packet offset of a box packet.
     * @param stamp  its new state word, stored with release semantics.
     */
    void stampRelease(final int packet, final long stamp)
    {
        UnsafeApi.putLongRelease(array, address + packet + PacketDescriptor.STATE_OFFSET, stamp);
    }

    /**
     * At a binding, before the sender may write: a stamp left in the ring that reads as ready for a sequence at or
     * past the head is a consumed message's (a head word a faulty writer moved back, to 0 say, after the box was let
     * go) or garbage. Each is made the stamp of the sequence before the head, which no sequence the ring reads from
     * now on has, so nothing in the ring is delivered before its new sender writes it (and nothing twice).
     *
     * @param ring offset of the ring.
     * @param from its head.
     */
    void consumedFrom(final int ring, final long from)
    {
        for (int i = 0; i < depth; i++)
        {
            final int packet = packetOffset(ring, from + i);
            if (stamp(packet) - FastBoxDescriptor.ready(from) >= 0)
            {
                // Release store, ordered before the binding's release store of the count that lets the sender write.
                stampRelease(packet, FastBoxDescriptor.ready(from - 1));
            }
        }
    }
}
