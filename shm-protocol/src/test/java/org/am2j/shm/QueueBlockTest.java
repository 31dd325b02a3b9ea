package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.BULK_DEPTH_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.ENDPOINT_ID_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.MAGIC;
import static org.am2j.shm.QueueBlockDescriptor.MAGIC_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.REPLY_DEPTH_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.REQUEST_DEPTH_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.SLEEPING_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.SLOTS_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.SLOTS_TABLE_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.STATE_CLOSED;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OPEN;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OPENING;
import static org.am2j.shm.QueueBlockDescriptor.TAG_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.VERSION;
import static org.am2j.shm.QueueBlockDescriptor.VERSION_OFFSET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The queue block flyweight: {@link QueueBlock#wrap} refuses every mapping inconsistent with its header (the message
 * path reads and writes it without bounds checks, relying on that), format then wrap sees the config's layout, the
 * unchecked header readers read what the owner wrote, and the {@link PacketQueue} constructor refuses a structure
 * that does not fit its buffer.
 */
@Timeout(60)
class QueueBlockTest
{
    /** Every size differs from the others, so a field read from the wrong offset shows. */
    private static final ShmConfig CONFIG = new ShmConfig(8, 4, 2, 3, 1000);
    private static final int LENGTH = QueueBlockDescriptor.length(
        CONFIG.slots, CONFIG.requestDepth, CONFIG.replyDepth, CONFIG.bulkDepth);
    private static final int PAGE = 4096;
    private static final long PID = 0x1234_5678L;
    private static final long START_MS = 1_700_000_000_123L;
    private static final long PROCESS_ID = 0x0BAD_CAFE_F00DL;
    private static final int ENDPOINT_ID = 42;
    private static final String DOORBELL = "/dev/shm/am2j-test/job/doorbell-42";
    private static final String WHAT = "queue block under test";
    /** The largest block a header-tampering case allocates to match the header it claims. */
    private static final int LARGEST_CONSISTENT_LENGTH = 32 << 20;

    enum Memory
    {
        HEAP
        {
            UnsafeBuffer allocate(final int capacity)
            {
                return new UnsafeBuffer(new byte[capacity]);
            }
        },
        DIRECT
        {
            UnsafeBuffer allocate(final int capacity)
            {
                return new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity, PAGE));
            }
        };

        abstract UnsafeBuffer allocate(int capacity);
    }

    /**
     * @param memory   the kind of memory.
     * @param capacity of the backing buffer, at least {@link #LENGTH}.
     * @return a buffer of {@code capacity} bytes whose first {@link #LENGTH} bytes hold a block formatted with
     * {@link #CONFIG}.
     */
    private static UnsafeBuffer formattedBacking(final Memory memory, final int capacity)
    {
        final UnsafeBuffer backing = memory.allocate(Math.max(capacity, LENGTH));
        QueueBlock.format(new UnsafeBuffer(backing, 0, LENGTH), CONFIG, PID, START_MS, PROCESS_ID, ENDPOINT_ID,
            DOORBELL);
        return backing;
    }

    private static void assertRefused(final UnsafeBuffer buffer)
    {
        final AmException ex = assertThrows(AmException.class, () -> QueueBlock.wrap(buffer, WHAT));
        assertEquals(AmError.BAD_ARG, ex.error());
        assertTrue(ex.getMessage().contains(WHAT), ex.getMessage());
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Accepted: format then wrap
    // ----------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void wrapOfAFormattedBlockHasTheConfigsDepthsBulkDepthAndSlots(final Memory memory)
    {
        final UnsafeBuffer buffer = memory.allocate(LENGTH);
        final QueueBlock formatted = QueueBlock.format(
            buffer, CONFIG, PID, START_MS, PROCESS_ID, ENDPOINT_ID, DOORBELL);
        final QueueBlock wrapped = QueueBlock.wrap(new UnsafeBuffer(buffer, 0, LENGTH), WHAT);

        for (final QueueBlock block : new QueueBlock[] { formatted, wrapped })
        {
            assertEquals(CONFIG.slots, block.slots);
            assertEquals(CONFIG.requestDepth, block.requests.depth);
            assertEquals(CONFIG.replyDepth, block.replies.depth);
            assertEquals(CONFIG.bulkDepth, block.requests.bulkDepth);
            assertEquals(CONFIG.bulkDepth, block.replies.bulkDepth);
            assertEquals(QueueBlockDescriptor.requestQueueOffset(CONFIG.slots), block.requests.base);
            assertEquals(QueueBlockDescriptor.replyQueueOffset(CONFIG.slots, CONFIG.requestDepth, CONFIG.bulkDepth),
                block.replies.base);
            assertEquals(LENGTH,
                block.replies.base + QueueBlockDescriptor.queueLength(CONFIG.replyDepth, CONFIG.bulkDepth));
            assertEquals(PID, block.ownerPid());
            assertEquals(START_MS, block.ownerStartMs());
            assertEquals(DOORBELL, block.doorbellPath());
            assertEquals(0, block.segmentLength());
            assertNull(block.encodedName());
        }
        assertEquals(MAGIC, buffer.getInt(MAGIC_OFFSET));
        assertEquals(VERSION, buffer.getInt(VERSION_OFFSET));
        assertEquals(ENDPOINT_ID, buffer.getInt(ENDPOINT_ID_OFFSET));
        assertEquals(PROCESS_ID, buffer.getLong(QueueBlockDescriptor.OWNER_PROCESS_ID_OFFSET));

        // format names no bulk block in any packet, read back through the wrapped block's unchecked reader
        for (final PacketQueue queue : new PacketQueue[] { wrapped.requests, wrapped.replies })
        {
            for (int i = 0; i < queue.depth; i++)
            {
                assertEquals(PacketDescriptor.NO_BULK,
                    queue.packetShort(queue.packetOffset(i), PacketDescriptor.BULK_INDEX_OFFSET));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void uncheckedHeaderReadersOfTheWrappedBlockSeeWhatFormatOpenTagAndSleepingWrote(final Memory memory)
    {
        final UnsafeBuffer buffer = memory.allocate(LENGTH);
        final QueueBlock owner = QueueBlock.format(buffer, CONFIG, PID, START_MS, PROCESS_ID, ENDPOINT_ID, DOORBELL);
        final QueueBlock sender = QueueBlock.wrap(new UnsafeBuffer(buffer, 0, LENGTH), WHAT);

        assertEquals(STATE_OPENING, sender.state());
        assertEquals(0L, sender.tag());
        assertFalse(sender.isSleeping());

        final long tag = 0x8000_0000_0000_0001L;
        owner.tag(tag);
        final byte[] name = "endpoint 42 of job".getBytes(StandardCharsets.UTF_8);
        owner.open(name);
        assertEquals(STATE_OPEN, sender.state());
        assertEquals(tag, sender.tag());
        assertArrayEquals(name, sender.encodedName());

        owner.sleeping(true);
        assertTrue(sender.isSleeping());
        owner.sleeping(false);
        assertFalse(sender.isSleeping());

        owner.tag(-1L);
        assertEquals(-1L, sender.tag());

        owner.close();
        assertEquals(STATE_CLOSED, sender.state());
        assertEquals(STATE_CLOSED, owner.state());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void uncheckedHeaderReadersReadTheWholeFieldAtTheDescriptorsOffset(final Memory memory)
    {
        final UnsafeBuffer buffer = memory.allocate(LENGTH);
        QueueBlock.format(buffer, CONFIG, PID, START_MS, PROCESS_ID, ENDPOINT_ID, DOORBELL);
        final QueueBlock block = QueueBlock.wrap(buffer, WHAT);

        // every byte of each field distinct, and the neighbouring bytes set, through the checked buffer
        buffer.putInt(STATE_OFFSET, 0x7A6B_5C4D);
        buffer.putByte(STATE_OFFSET - 1, (byte)0xEE);
        buffer.putByte(STATE_OFFSET + 4, (byte)0xEE);
        assertEquals(0x7A6B_5C4D, block.state());

        buffer.putLong(TAG_OFFSET, 0x0102_0304_0506_0708L);
        buffer.putByte(TAG_OFFSET - 1, (byte)0xEE);
        buffer.putByte(TAG_OFFSET + 8, (byte)0xEE);
        assertEquals(0x0102_0304_0506_0708L, block.tag());

        // a flag whose low byte is zero is still set; a zero flag between set bytes is clear
        buffer.putInt(SLEEPING_OFFSET, 0x0100_0000);
        assertTrue(block.isSleeping());
        buffer.putInt(SLEEPING_OFFSET, 0x0000_0100);
        assertTrue(block.isSleeping());
        buffer.putInt(SLEEPING_OFFSET, 0);
        buffer.putByte(SLEEPING_OFFSET - 1, (byte)0xFF);
        buffer.putByte(SLEEPING_OFFSET + 4, (byte)0xFF);
        assertFalse(block.isSleeping());
        assertFalse(block.takeRing());
        assertEquals((byte)0xFF, buffer.getByte(SLEEPING_OFFSET - 1), "the CAS stays inside the flag");
        buffer.putInt(SLEEPING_OFFSET, 0x0100_0000);
        assertTrue(block.takeRing(), "garbage counts as sleeping: it costs a ring, never a wake-up");
        assertFalse(block.takeRing());
        assertEquals((byte)0xFF, buffer.getByte(SLEEPING_OFFSET + 4), "the CAS stays inside the flag");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Memory.class)
    void oneSenderPerSleepSliceTakesTheRing(final Memory memory)
    {
        final UnsafeBuffer buffer = memory.allocate(LENGTH);
        final QueueBlock owner = QueueBlock.format(buffer, CONFIG, PID, START_MS, PROCESS_ID, ENDPOINT_ID, DOORBELL);
        final QueueBlock sender = QueueBlock.wrap(new UnsafeBuffer(buffer, 0, LENGTH), WHAT);

        assertFalse(sender.takeRing(), "awake: no ring");
        owner.sleeping(true);
        assertTrue(sender.takeRing(), "the first sender after the owner fell asleep rings");
        assertFalse(sender.takeRing(), "the next ones do not");
        assertFalse(sender.takeRing());
        assertTrue(sender.isSleeping(), "rung is still asleep");
        owner.sleeping(true);
        assertTrue(sender.takeRing(), "a new sleep slice: one ring again");
        owner.sleeping(false);
        assertFalse(sender.takeRing());
        assertFalse(sender.isSleeping());
    }

    @Test
    void concurrentSendersTakeOneRingPerSleep() throws Exception
    {
        final UnsafeBuffer buffer = Memory.HEAP.allocate(LENGTH);
        final QueueBlock owner = QueueBlock.format(buffer, CONFIG, PID, START_MS, PROCESS_ID, ENDPOINT_ID, DOORBELL);
        final int senders = 4;
        final int sleeps = 2000;
        final java.util.concurrent.atomic.AtomicInteger rings = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.CyclicBarrier round = new java.util.concurrent.CyclicBarrier(senders + 1);
        final Thread[] threads = new Thread[senders];
        for (int t = 0; t < senders; t++)
        {
            final QueueBlock sender = QueueBlock.wrap(new UnsafeBuffer(buffer, 0, LENGTH), WHAT);
            threads[t] = new Thread(() ->
            {
                try
                {
                    for (int s = 0; s < sleeps; s++)
                    {
                        round.await();
                        for (int i = 0; i < 8; i++)
                        {
                            if (sender.takeRing())
                            {
                                rings.incrementAndGet();
                            }
                        }
                        round.await();
                    }
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            });
            threads[t].start();
        }
        for (int s = 0; s < sleeps; s++)
        {
            owner.sleeping(true);
            round.await(10, java.util.concurrent.TimeUnit.SECONDS);
            round.await(10, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(s + 1, rings.get(), "exactly one ring for sleep " + s);
        }
        for (final Thread thread : threads)
        {
            thread.join(10_000);
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Refused: what the header says does not fit, or is not a queue block
    // ----------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = { 0, 4, 8, 24, PAGE, SLOTS_TABLE_OFFSET - 1 })
    void wrapRefusesABufferShorterThanTheHeaderEvenWithAValidMagicAndVersion(final int capacity)
    {
        final UnsafeBuffer valid = formattedBacking(Memory.HEAP, LENGTH);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[capacity]);
        buffer.putBytes(0, valid, 0, capacity);

        assertRefused(buffer);
    }

    @Test
    void wrapRefusesAZeroedBlockOfTheRightLength()
    {
        assertRefused(new UnsafeBuffer(new byte[LENGTH]));
    }

    @ParameterizedTest(name = "magic {0}")
    @ValueSource(ints = { 0, MAGIC + 1, MAGIC ^ 0x8000_0000, 0x42514D41 /* MAGIC in the other byte order */ })
    void wrapRefusesABadMagic(final int magic)
    {
        final UnsafeBuffer buffer = formattedBacking(Memory.HEAP, LENGTH);
        QueueBlock.wrap(buffer, WHAT);
        buffer.putInt(MAGIC_OFFSET, magic);

        assertRefused(buffer);
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = { 0, VERSION - 1, VERSION + 1, Integer.MIN_VALUE })
    void wrapRefusesAnotherVersion(final int version)
    {
        final UnsafeBuffer buffer = formattedBacking(Memory.HEAP, LENGTH);
        QueueBlock.wrap(buffer, WHAT);
        buffer.putInt(VERSION_OFFSET, version);

        assertRefused(buffer);
    }

    @ParameterizedTest(name = "{0} bytes off")
    @ValueSource(ints = { -PAGE, -1, 1, PAGE })
    void wrapRefusesAFormattedBlockWhoseBufferIsShorterOrLongerThanItsLayout(final int difference)
    {
        final UnsafeBuffer backing = formattedBacking(Memory.HEAP, LENGTH + PAGE);
        QueueBlock.wrap(new UnsafeBuffer(backing, 0, LENGTH), WHAT);

        assertRefused(new UnsafeBuffer(backing, 0, LENGTH + difference));
    }

    @ParameterizedTest(name = "{0} bytes off")
    @ValueSource(ints = { -PAGE, PAGE })
    void wrapRefusesAValidHeaderCopiedIntoABufferOfTheWrongSize(final int difference)
    {
        final UnsafeBuffer valid = formattedBacking(Memory.DIRECT, LENGTH);
        final UnsafeBuffer buffer = Memory.DIRECT.allocate(LENGTH + difference);
        buffer.putBytes(0, valid, 0, SLOTS_TABLE_OFFSET);

        assertRefused(buffer);
    }

    static Stream<Arguments> invalidSizes()
    {
        return Stream.of(
            Arguments.of("request depth 3 (not a power of two)", REQUEST_DEPTH_OFFSET, 3),
            Arguments.of("request depth 131072 (above 65536)", REQUEST_DEPTH_OFFSET, 131072),
            Arguments.of("request depth 1", REQUEST_DEPTH_OFFSET, 1),
            Arguments.of("request depth 0", REQUEST_DEPTH_OFFSET, 0),
            Arguments.of("request depth -8", REQUEST_DEPTH_OFFSET, -8),
            Arguments.of("reply depth 3 (not a power of two)", REPLY_DEPTH_OFFSET, 3),
            Arguments.of("reply depth 131072 (above 65536)", REPLY_DEPTH_OFFSET, 131072),
            Arguments.of("bulk depth 0", BULK_DEPTH_OFFSET, 0),
            Arguments.of("bulk depth -1", BULK_DEPTH_OFFSET, -1),
            Arguments.of("bulk depth 4097", BULK_DEPTH_OFFSET, 4097),
            Arguments.of("slots 0", SLOTS_OFFSET, 0),
            Arguments.of("slots -1", SLOTS_OFFSET, -1),
            Arguments.of("slots 4097", SLOTS_OFFSET, 4097));
    }

    /**
     * Each bad size is written into the header of a validly formatted block, which is then wrapped twice: at the
     * formatted length, and (when it can be allocated) at the length the tampered header itself implies, so the
     * size check alone does not refuse it: only the validity of the value does.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSizes")
    void wrapRefusesAHeaderWithAnInvalidSizeWhateverTheBufferLength(
        final String description, final int offset, final int value)
    {
        final int[] sizes = { CONFIG.slots, CONFIG.requestDepth, CONFIG.replyDepth, CONFIG.bulkDepth };
        switch (offset)
        {
            case SLOTS_OFFSET -> sizes[0] = value;
            case REQUEST_DEPTH_OFFSET -> sizes[1] = value;
            case REPLY_DEPTH_OFFSET -> sizes[2] = value;
            case BULK_DEPTH_OFFSET -> sizes[3] = value;
            default -> throw new IllegalArgumentException("offset " + offset);
        }
        final long implied = QueueBlockDescriptor.length(sizes[0], sizes[1], sizes[2], sizes[3]);
        final boolean allocatable = implied >= SLOTS_TABLE_OFFSET && implied <= LARGEST_CONSISTENT_LENGTH;
        final UnsafeBuffer backing = formattedBacking(Memory.HEAP, allocatable ? (int)implied : LENGTH);
        QueueBlock.wrap(new UnsafeBuffer(backing, 0, LENGTH), WHAT);
        backing.putInt(offset, value);

        assertRefused(new UnsafeBuffer(backing, 0, LENGTH));
        if (allocatable)
        {
            assertRefused(new UnsafeBuffer(backing, 0, (int)implied));
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // PacketQueue constructor
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void packetQueueAcceptsAStructureThatFitsItsBufferExactly()
    {
        final int length = QueueBlockDescriptor.queueLength(4, 1);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[PAGE + length]);

        final PacketQueue atZero = new PacketQueue(new UnsafeBuffer(buffer, 0, length), 0, 4, 1);
        final PacketQueue atPage = new PacketQueue(buffer, PAGE, 4, 1);

        assertEquals(4, atZero.depth);
        assertEquals(1, atZero.bulkDepth);
        assertEquals(0, atZero.tailOffset);
        assertEquals(PAGE, atPage.tailOffset);
        assertEquals(PAGE + QueueBlockDescriptor.HEAD_OFFSET, atPage.headOffset);
    }

    @ParameterizedTest(name = "base {0}")
    @ValueSource(ints = { 1, 64, PAGE, Integer.MAX_VALUE, -1, -PAGE, Integer.MIN_VALUE })
    void packetQueueRefusesABaseAtWhichTheStructureDoesNotFitItsBuffer(final int base)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[QueueBlockDescriptor.queueLength(4, 1)]);

        assertThrows(IllegalArgumentException.class, () -> new PacketQueue(buffer, base, 4, 1));
    }

    @Test
    void packetQueueRefusesABufferOneByteShorterThanTheStructure()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[QueueBlockDescriptor.queueLength(4, 1) - 1]);

        assertThrows(IllegalArgumentException.class, () -> new PacketQueue(buffer, 0, 4, 1));
    }

    @Test
    void packetQueueRefusesDepthZeroAndDepthThreeInABufferTheyWouldFit()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[QueueBlockDescriptor.queueLength(4, 1)]);

        assertThrows(IllegalArgumentException.class, () -> new PacketQueue(buffer, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PacketQueue(buffer, 0, 3, 1));
    }

    @ParameterizedTest(name = "depth {0}")
    @ValueSource(ints = { 1, -4, Integer.MIN_VALUE, 131072 })
    void packetQueueRefusesOtherInvalidDepthsInABufferTheyWouldFit(final int depth)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(
            new byte[QueueBlockDescriptor.queueLength(Math.max(depth, 4), 1)]);

        assertThrows(IllegalArgumentException.class, () -> new PacketQueue(buffer, 0, depth, 1));
    }

    @ParameterizedTest(name = "bulk depth {0}")
    @ValueSource(ints = { 0, -1, 4097 })
    void packetQueueRefusesInvalidBulkDepthsInABufferTheyWouldFit(final int bulkDepth)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(
            new byte[QueueBlockDescriptor.queueLength(4, Math.max(bulkDepth, 1))]);

        assertThrows(IllegalArgumentException.class, () -> new PacketQueue(buffer, 0, 4, bulkDepth));
    }
}
