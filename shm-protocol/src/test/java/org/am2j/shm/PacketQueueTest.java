package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.ARGS_OFFSET;
import static org.am2j.shm.PacketDescriptor.ARG_COUNT_OFFSET;
import static org.am2j.shm.PacketDescriptor.BULK_INDEX_OFFSET;
import static org.am2j.shm.PacketDescriptor.DATA_LENGTH_OFFSET;
import static org.am2j.shm.PacketDescriptor.GENERATION_OFFSET;
import static org.am2j.shm.PacketDescriptor.HANDLER_OFFSET;
import static org.am2j.shm.PacketDescriptor.OPCODE_OFFSET;
import static org.am2j.shm.PacketDescriptor.RETURN_STATUS_OFFSET;
import static org.am2j.shm.PacketDescriptor.SEGMENT_OFFSET_OFFSET;
import static org.am2j.shm.PacketDescriptor.SLOT_OFFSET;
import static org.am2j.shm.PacketDescriptor.STATE_OFFSET;
import static org.am2j.shm.PacketDescriptor.TAG_OFFSET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The unchecked accessors of a queue structure's message path: each reads and writes exactly the field the
 * descriptors name, at the structure's own offsets, in heap and direct memory alike, and nothing beside it.
 * Every field is read back both through the unchecked readers and through the buffer's bounds-checked getters.
 */
@Timeout(60)
class PacketQueueTest
{
    private static final int DEPTH = 8;
    private static final int BULK_DEPTH = 2;
    private static final int LENGTH = QueueBlockDescriptor.queueLength(DEPTH, BULK_DEPTH);
    /** Base of the structure in {@link #accessorsAddressTheStructureAtItsBaseAndNothingAroundIt}. */
    private static final int BASE = 4096;

    /** Extreme header values: every one-byte field a different value, the two-byte ones at their limits. */
    private static final int OPCODE = 0xAB;
    private static final int HANDLER = 0xFF;
    private static final int ARG_COUNT = 8;
    private static final int RETURN_STATUS = 0x7F;
    private static final int INVERSE = 0xFFFE_0001;
    private static final int DATA_LENGTH = 0xFFFF;
    private static final int BULK_INDEX = 0xFFFE;
    private static final int SEGMENT = -1;
    private static final long TAG = 0x8000_0000_0000_0001L;

    enum Memory
    {
        HEAP
        {
            UnsafeBuffer allocate(final int capacity)
            {
                return new UnsafeBuffer(new byte[capacity]);
            }
        },
        HEAP_AT_ARRAY_OFFSET
        {
            UnsafeBuffer allocate(final int capacity)
            {
                return new UnsafeBuffer(new byte[capacity + 128], 64, capacity);
            }
        },
        DIRECT
        {
            UnsafeBuffer allocate(final int capacity)
            {
                return new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity, 4096));
            }
        },
        DIRECT_AT_ADDRESS_OFFSET
        {
            UnsafeBuffer allocate(final int capacity)
            {
                return new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity + 128, 4096), 64, capacity);
            }
        };

        abstract UnsafeBuffer allocate(int capacity);
    }

    private static PacketQueue queue(final Memory memory)
    {
        return new PacketQueue(memory.allocate(LENGTH), 0, DEPTH, BULK_DEPTH);
    }

    private static byte canary(final int index)
    {
        return (byte)(index * 31 + 0x5A);
    }

    private static void fillWithCanary(final UnsafeBuffer buffer)
    {
        for (int i = 0; i < buffer.capacity(); i++)
        {
            buffer.putByte(i, canary(i));
        }
    }

    /**
     * @return the packets at either end of the packet queue.
     */
    private static int[] firstAndLastPackets(final PacketQueue queue)
    {
        return new int[] { queue.packetOffset(0), queue.packetOffset(DEPTH - 1) };
    }

    private static void putExtremeHeader(final PacketQueue queue, final int packet)
    {
        queue.putHeader(packet, OPCODE, HANDLER, ARG_COUNT, RETURN_STATUS, INVERSE, DATA_LENGTH, BULK_INDEX, SEGMENT,
            TAG);
    }

    private static void assertExtremeHeader(final PacketQueue queue, final int packet)
    {
        final UnsafeBuffer buffer = queue.buffer;

        assertEquals(OPCODE, queue.packetByte(packet, OPCODE_OFFSET), "opcode");
        assertEquals(HANDLER, queue.packetByte(packet, HANDLER_OFFSET), "handler");
        assertEquals(ARG_COUNT, queue.packetByte(packet, ARG_COUNT_OFFSET), "arg count");
        assertEquals(RETURN_STATUS, queue.packetByte(packet, RETURN_STATUS_OFFSET), "return status");
        assertEquals(INVERSE, queue.packetInt(packet, SLOT_OFFSET), "inverse mapping");
        assertEquals(INVERSE & 0xFFFF, queue.packetShort(packet, SLOT_OFFSET), "inverse slot");
        assertEquals(INVERSE >>> 16, queue.packetShort(packet, GENERATION_OFFSET), "inverse generation");
        assertEquals(DATA_LENGTH, queue.packetShort(packet, DATA_LENGTH_OFFSET), "data length");
        assertEquals(BULK_INDEX, queue.packetShort(packet, BULK_INDEX_OFFSET), "bulk index");
        assertEquals(SEGMENT, queue.packetInt(packet, SEGMENT_OFFSET_OFFSET), "segment offset");
        assertEquals(TAG, queue.packetTag(packet), "tag");

        assertEquals(OPCODE, buffer.getByte(packet + OPCODE_OFFSET) & 0xFF, "checked opcode");
        assertEquals(HANDLER, buffer.getByte(packet + HANDLER_OFFSET) & 0xFF, "checked handler");
        assertEquals(ARG_COUNT, buffer.getByte(packet + ARG_COUNT_OFFSET) & 0xFF, "checked arg count");
        assertEquals(RETURN_STATUS, buffer.getByte(packet + RETURN_STATUS_OFFSET) & 0xFF, "checked return status");
        assertEquals(INVERSE, buffer.getInt(packet + SLOT_OFFSET), "checked inverse mapping");
        assertEquals(INVERSE & 0xFFFF, buffer.getShort(packet + SLOT_OFFSET) & 0xFFFF, "checked inverse slot");
        assertEquals(INVERSE >>> 16, buffer.getShort(packet + GENERATION_OFFSET) & 0xFFFF,
            "checked inverse generation");
        assertEquals(DATA_LENGTH, buffer.getShort(packet + DATA_LENGTH_OFFSET) & 0xFFFF, "checked data length");
        assertEquals(BULK_INDEX, buffer.getShort(packet + BULK_INDEX_OFFSET) & 0xFFFF, "checked bulk index");
        assertEquals(SEGMENT, buffer.getInt(packet + SEGMENT_OFFSET_OFFSET), "checked segment offset");
        assertEquals(TAG, buffer.getLong(packet + TAG_OFFSET), "checked tag");
    }

    private static int arg(final int packet, final int index)
    {
        return index == 7 ? -1 : 0x8000_0000 | packet << 8 | (index + 1) * 0x0101_0001;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Layout
    // ----------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void packetsAndClaimWordsSitWhereTheDescriptorPutsThem(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        assertEquals(QueueBlockDescriptor.TAIL_OFFSET, queue.tailOffset);
        assertEquals(QueueBlockDescriptor.HEAD_OFFSET, queue.headOffset);
        for (int i = 0; i < DEPTH; i++)
        {
            assertEquals(QueueBlockDescriptor.PACKETS_OFFSET + i * PacketDescriptor.LENGTH, queue.packetOffset(i));
            assertEquals(queue.packetOffset(i), queue.packetOffset(i + DEPTH), "sequence " + (i + DEPTH));
            assertEquals(QueueBlockDescriptor.claimsOffset(DEPTH) + i * QueueBlockDescriptor.CLAIM_LENGTH,
                queue.claimOffset(i));
            assertEquals(queue.claimOffset(i), queue.claimOffset(i + 5L * DEPTH));
        }
        assertEquals(QueueBlockDescriptor.claimsOffset(DEPTH), queue.packetOffset(DEPTH - 1) + PacketDescriptor.LENGTH);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Packet header and arguments
    // ----------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void putHeaderWithExtremeValuesReadsBackThroughUncheckedAndCheckedReaders(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        for (final int packet : firstAndLastPackets(queue))
        {
            putExtremeHeader(queue, packet);
            assertExtremeHeader(queue, packet);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void putHeaderWithSmallDistinctValuesPutsEachInItsOwnField(final Memory memory)
    {
        final PacketQueue queue = queue(memory);
        final int packet = queue.packetOffset(DEPTH - 1);

        queue.putHeader(packet, 1, 2, 3, 4, 6 << 16 | 5, 7, 8, 9, 10L);

        for (int field = OPCODE_OFFSET; field <= RETURN_STATUS_OFFSET; field++)
        {
            assertEquals(field - OPCODE_OFFSET + 1, queue.packetByte(packet, field), "byte at " + field);
            assertEquals(field - OPCODE_OFFSET + 1, queue.buffer.getByte(packet + field), "checked byte at " + field);
        }
        for (int field = SLOT_OFFSET; field <= BULK_INDEX_OFFSET; field += 2)
        {
            final int expected = (field - SLOT_OFFSET) / 2 + 5;
            assertEquals(expected, queue.packetShort(packet, field), "short at " + field);
            assertEquals(expected, queue.buffer.getShort(packet + field), "checked short at " + field);
        }
        assertEquals(9, queue.packetInt(packet, SEGMENT_OFFSET_OFFSET));
        assertEquals(9, queue.buffer.getInt(packet + SEGMENT_OFFSET_OFFSET));
        assertEquals(10L, queue.packetTag(packet));
        assertEquals(10L, queue.buffer.getLong(packet + TAG_OFFSET));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void putArgAndPacketArgRoundTripEveryArgumentAtItsOffset(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        for (final int packet : firstAndLastPackets(queue))
        {
            for (int i = 0; i < 8; i++)
            {
                queue.putArg(packet, i, arg(packet, i));
            }
        }
        for (final int packet : firstAndLastPackets(queue))
        {
            for (int i = 0; i < 8; i++)
            {
                assertEquals(arg(packet, i), queue.packetArg(packet, i), "argument " + i);
                assertEquals(arg(packet, i), queue.buffer.getInt(packet + ARGS_OFFSET + 4 * i),
                    "checked argument " + i);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void putBulkIndexRewritesOnlyTheBulkIndex(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        for (final int packet : firstAndLastPackets(queue))
        {
            putExtremeHeader(queue, packet);
            queue.putBulkIndex(packet, 0x1234);
            assertEquals(0x1234, queue.packetShort(packet, BULK_INDEX_OFFSET));
            assertEquals(0x1234, queue.buffer.getShort(packet + BULK_INDEX_OFFSET));
            assertEquals(DATA_LENGTH, queue.packetShort(packet, DATA_LENGTH_OFFSET));
            assertEquals(SEGMENT, queue.packetInt(packet, SEGMENT_OFFSET_OFFSET));

            queue.putBulkIndex(packet, PacketDescriptor.NO_BULK);
            assertEquals(PacketDescriptor.NO_BULK, queue.packetShort(packet, BULK_INDEX_OFFSET));
            assertEquals(PacketDescriptor.NO_BULK, queue.buffer.getShort(packet + BULK_INDEX_OFFSET) & 0xFFFF);
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // State word, claim words, tail and head
    // ----------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void stateReleaseAndStateRoundTripTheWholeStateWord(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        for (final int packet : firstAndLastPackets(queue))
        {
            assertEquals(0L, queue.state(packet));

            final long ready = QueueBlockDescriptor.state(PacketDescriptor.READY, 0xFFFF_FFFEL);
            queue.stateRelease(packet, ready);
            assertEquals(ready, queue.state(packet));
            assertEquals(ready, queue.buffer.getLong(packet + STATE_OFFSET));
            assertEquals(PacketDescriptor.READY, QueueBlockDescriptor.type(queue.state(packet)));
            assertEquals(0xFFFF_FFFEL, QueueBlockDescriptor.pid(queue.state(packet)));

            final long free = queue.freeStateFor(DEPTH * 3L + 1);
            queue.stateRelease(packet, free);
            assertEquals(PacketDescriptor.FREE, QueueBlockDescriptor.type(queue.state(packet)));
            assertEquals(3L, QueueBlockDescriptor.pid(queue.state(packet)));

            queue.buffer.putLong(packet + STATE_OFFSET, 0x0102_0304_0506_0708L);
            assertEquals(0x0102_0304_0506_0708L, queue.state(packet));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void casClaimWordSucceedsOnlyFromTheExpectedWord(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        for (final long sequence : new long[] { 0, DEPTH - 1 })
        {
            final long lap0 = QueueBlockDescriptor.claim(0, 0xFFFF_FFFFL);
            final long lap1 = QueueBlockDescriptor.claim(1, 1234);
            assertEquals(0L, queue.claimWord(sequence));

            assertFalse(queue.casClaimWord(sequence, 1L, lap0));
            assertEquals(0L, queue.claimWord(sequence));
            assertTrue(queue.casClaimWord(sequence, 0L, lap0));
            assertEquals(lap0, queue.claimWord(sequence));
            assertEquals(lap0, queue.buffer.getLong(queue.claimOffset(sequence)));
            assertFalse(queue.casClaimWord(sequence, 0L, lap1), "a second claim from the zeroed word");
            assertEquals(lap0, queue.claimWord(sequence));

            // the next lap's sequence number names the same word
            assertEquals(lap0, queue.claimWord(sequence + DEPTH));
            assertTrue(queue.casClaimWord(sequence + DEPTH, lap0, lap1));
            assertEquals(lap1, queue.buffer.getLong(queue.claimOffset(sequence)));

            queue.buffer.putLong(queue.claimOffset(sequence), 0x0102_0304_0506_0708L);
            assertEquals(0x0102_0304_0506_0708L, queue.claimWord(sequence));
        }
        // the two words claimed are distinct
        assertEquals(0x0102_0304_0506_0708L, queue.claimWord(0));
        assertEquals(0L, queue.claimWord(1));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void casTailMovesTheTailByOneOnlyFromTheValueRead(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        assertEquals(0L, queue.tail());
        assertFalse(queue.casTail(1L));
        assertEquals(0L, queue.tail());
        assertTrue(queue.casTail(queue.tail()));
        assertEquals(1L, queue.tail());
        assertEquals(1L, queue.buffer.getLong(queue.tailOffset));
        assertFalse(queue.casTail(0L), "a second sender that read 0");
        assertEquals(1L, queue.tail());

        queue.buffer.putLong(queue.tailOffset, 0x7FFF_FFFF_FFFF_FFFEL);
        assertEquals(0x7FFF_FFFF_FFFF_FFFEL, queue.tail());
        assertTrue(queue.casTail(0x7FFF_FFFF_FFFF_FFFEL));
        assertEquals(Long.MAX_VALUE, queue.buffer.getLong(queue.tailOffset));
        assertEquals(0L, queue.buffer.getLong(queue.headOffset), "the head");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void headReleaseWritesTheHeadAtTheHeadOffsetOnly(final Memory memory)
    {
        final PacketQueue queue = queue(memory);

        queue.headRelease(0x8000_0000_0000_0005L);

        assertEquals(0x8000_0000_0000_0005L, queue.buffer.getLong(queue.headOffset));
        assertEquals(0L, queue.tail());
        assertEquals(0L, queue.buffer.getLong(queue.headOffset - 8));
        assertEquals(0L, queue.buffer.getLong(queue.headOffset + 8));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Nothing outside the field written
    // ----------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void writingAPacketsFieldsTouchesNoByteOutsideThePacket(final Memory memory)
    {
        for (final int sequence : new int[] { DEPTH - 1, 0 })
        {
            final PacketQueue queue = queue(memory);
            final UnsafeBuffer buffer = queue.buffer;
            fillWithCanary(buffer);
            final int packet = queue.packetOffset(sequence);
            final long state = QueueBlockDescriptor.state(PacketDescriptor.READY, 0x7654_3210L);

            putExtremeHeader(queue, packet);
            for (int i = 0; i < 8; i++)
            {
                queue.putArg(packet, i, arg(packet, i));
            }
            queue.stateRelease(packet, state);

            for (int i = 0; i < LENGTH; i++)
            {
                if (i < packet || i >= packet + PacketDescriptor.LENGTH)
                {
                    assertEquals(canary(i), buffer.getByte(i), "byte " + i + " outside packet at " + packet);
                }
            }

            // the packet as the descriptor lays it out, in native byte order, built without the queue
            final ByteBuffer expected = ByteBuffer.allocate(PacketDescriptor.LENGTH).order(ByteOrder.nativeOrder());
            expected.putLong(STATE_OFFSET, state);
            expected.put(OPCODE_OFFSET, (byte)OPCODE);
            expected.put(HANDLER_OFFSET, (byte)HANDLER);
            expected.put(ARG_COUNT_OFFSET, (byte)ARG_COUNT);
            expected.put(RETURN_STATUS_OFFSET, (byte)RETURN_STATUS);
            expected.putShort(SLOT_OFFSET, (short)(INVERSE & 0xFFFF));
            expected.putShort(GENERATION_OFFSET, (short)(INVERSE >>> 16));
            expected.putShort(DATA_LENGTH_OFFSET, (short)DATA_LENGTH);
            expected.putShort(BULK_INDEX_OFFSET, (short)BULK_INDEX);
            expected.putInt(SEGMENT_OFFSET_OFFSET, SEGMENT);
            expected.putLong(TAG_OFFSET, TAG);
            for (int i = 0; i < 8; i++)
            {
                expected.putInt(ARGS_OFFSET + 4 * i, arg(packet, i));
            }
            final byte[] actual = new byte[PacketDescriptor.LENGTH];
            buffer.getBytes(packet, actual);
            assertArrayEquals(expected.array(), actual, "packet at " + packet);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void accessorsAddressTheStructureAtItsBaseAndNothingAroundIt(final Memory memory)
    {
        final UnsafeBuffer buffer = memory.allocate(BASE + LENGTH + 4096);
        fillWithCanary(buffer);
        final PacketQueue queue = new PacketQueue(buffer, BASE, DEPTH, BULK_DEPTH);
        final long tail = queue.tail();
        final long head = buffer.getLong(BASE + QueueBlockDescriptor.HEAD_OFFSET);
        final long claim = queue.claimWord(DEPTH - 1);

        assertEquals(buffer.getLong(BASE + QueueBlockDescriptor.TAIL_OFFSET), tail);
        assertTrue(queue.casTail(tail));
        queue.headRelease(head + 1);
        assertTrue(queue.casClaimWord(DEPTH - 1, claim, claim + 1));
        for (final int sequence : new int[] { 0, DEPTH - 1 })
        {
            final int packet = queue.packetOffset(sequence);
            assertEquals(BASE + QueueBlockDescriptor.PACKETS_OFFSET + sequence * PacketDescriptor.LENGTH, packet);
            putExtremeHeader(queue, packet);
            for (int i = 0; i < 8; i++)
            {
                queue.putArg(packet, i, arg(packet, i));
            }
            queue.stateRelease(packet, -1L);
            assertExtremeHeader(queue, packet);
        }

        assertEquals(tail + 1, buffer.getLong(BASE + QueueBlockDescriptor.TAIL_OFFSET));
        assertEquals(head + 1, buffer.getLong(BASE + QueueBlockDescriptor.HEAD_OFFSET));
        assertEquals(claim + 1,
            buffer.getLong(BASE + QueueBlockDescriptor.claimsOffset(DEPTH) + (DEPTH - 1) * 8));
        for (int i = 0; i < BASE; i++)
        {
            assertEquals(canary(i), buffer.getByte(i), "byte " + i + " below the structure");
        }
        for (int i = BASE + QueueBlockDescriptor.claimsOffset(DEPTH) + DEPTH * 8; i < buffer.capacity(); i++)
        {
            assertEquals(canary(i), buffer.getByte(i), "byte " + i + " after the claim words");
        }
    }
}
