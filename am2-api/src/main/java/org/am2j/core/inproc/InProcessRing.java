package org.am2j.core.inproc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.spi.MessageSink;

/**
 * Padding before the producer's fields, so they share no cache line with the object header or what precedes them.
 */
abstract class InProcessRingPadBeforeTail
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/**
 * The producers' fields: the tail they claim space at, and their cached view of the consumer's head.
 */
abstract class InProcessRingTail extends InProcessRingPadBeforeTail
{
    /** Position of the next claim; advanced by CAS. */
    volatile long tail;
    /** The head as a producer last read it: a claim reads {@link InProcessRingHead#head} only when this says full. */
    volatile long headCache;
}

/**
 * Padding between the producers' and the consumer's fields.
 */
abstract class InProcessRingPadBeforeHead extends InProcessRingTail
{
    byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015;
    byte q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031;
    byte q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047;
    byte q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063;
}

/**
 * The consumer's field.
 */
abstract class InProcessRingHead extends InProcessRingPadBeforeHead
{
    /** Position of the next record to read; written by the consumer only, with release. */
    volatile long head;
}

/**
 * Padding after the consumer's field.
 */
abstract class InProcessRingPadAfterHead extends InProcessRingHead
{
    byte r000, r001, r002, r003, r004, r005, r006, r007, r008, r009, r010, r011, r012, r013, r014, r015;
    byte r016, r017, r018, r019, r020, r021, r022, r023, r024, r025, r026, r027, r028, r029, r030, r031;
    byte r032, r033, r034, r035, r036, r037, r038, r039, r040, r041, r042, r043, r044, r045, r046, r047;
    byte r048, r049, r050, r051, r052, r053, r054, r055, r056, r057, r058, r059, r060, r061, r062, r063;
}

/**
 * A many-to-one ring of variable-length records in direct memory, for one in-process receive queue: any thread of
 * the process claims a record (a CAS of the tail), fills it and commits it (a release store of its length); the one
 * reader hands each committed record to the queue's owner in place. The algorithm is that of Agrona's
 * {@code ManyToOneRingBuffer}; this one keeps its head and tail in padded fields of the object instead of a trailer
 * in the buffer (in-process, nothing else maps it), reads and writes the records without bounds checks (every index
 * it computes lies in the buffer, and the record bodies are written through {@link #address()} by
 * {@link InProcessRoute}, which claimed them), and its reader hands the queue's own flyweight to the queue (a call site that
 * sees one class) rather than going through a handler lambda.
 * <p>
 * Record layout, 8-byte aligned:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |R|                  length (header included)                   |  0
 *  +---------------------------------------------------------------+
 *  |                            type                               |  4
 *  +---------------------------------------------------------------+
 *  |                       body (length - 8 bytes)                ...  8
 *  +---------------------------------------------------------------+
 * </pre>
 * The length is negative while the record is claimed and not yet committed (R, the sign bit), so the reader stops
 * there; a record of type {@link #PADDING} (the space left at the end of the buffer by a claim that wrapped, or an
 * aborted claim) is skipped. The reader zeroes what it consumed, so every 8-byte word a later claim can start at
 * reads 0 (not yet committed) until a producer writes it.
 */
final class InProcessRing extends InProcessRingPadAfterHead
{
    /** Type of a record the reader skips. */
    static final int PADDING = -1;
    /** Length of a record's header. */
    static final int HEADER_LENGTH = 8;
    /** Records are aligned to this. */
    static final int ALIGNMENT = 8;

    /**
     * Who the reader hands records to: the queues of an endpoint (one class in production, so the call is inlined).
     */
    interface RecordReader
    {
        /**
         * @param inbound the flyweight {@link #read} was given.
         * @param sink    the sink {@link #read} was given.
         * @param type    of the record.
         * @param index   of its body in {@link #buffer()}.
         * @param length  of its body.
         */
        void deliver(InProcessInbound inbound, MessageSink sink, int type, int index, int length);
    }

    private static final int TYPE_OFFSET = 4;
    /** Consumed runs up to this many bytes are zeroed word by word, longer ones by one {@code setMemory}. */
    private static final int ZERO_BY_WORD = 1024;
    private static final VarHandle TAIL;
    private static final VarHandle HEAD_CACHE;
    private static final VarHandle HEAD;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(InProcessRingTail.class, "tail", long.class);
            HEAD_CACHE = lookup.findVarHandle(InProcessRingTail.class, "headCache", long.class);
            HEAD = lookup.findVarHandle(InProcessRingHead.class, "head", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final UnsafeBuffer buffer;
    private final long address;
    private final int capacity;
    private final int mask;
    private final int maxRecordLength;

    /**
     * @param capacity bytes of records, a power of two.
     */
    InProcessRing(final int capacity)
    {
        if (!BitUtil.isPowerOfTwo(capacity))
        {
            throw new IllegalArgumentException("capacity = " + capacity + " is not a power of two");
        }
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity, 64));
        this.address = buffer.addressOffset();
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.maxRecordLength = capacity >> 3;
    }

    /**
     * @return the records' buffer, for reading a record's inline data as a {@link org.agrona.DirectBuffer}.
     */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the address of byte 0 of the buffer: a record's body at index {@code i} lies at {@code address() + i}.
     */
    long address()
    {
        return address;
    }

    /**
     * @return the longest body a record may have.
     */
    int maxLength()
    {
        return maxRecordLength - HEADER_LENGTH;
    }

    /**
     * Claim a record. The caller fills its body and then commits or aborts it; until then the reader stops at it.
     *
     * @param type   of the record, 1 or more.
     * @param length of its body.
     * @return index of the body in {@link #buffer()}, or -1 when there is no space.
     */
    int tryClaim(final int type, final int length)
    {
        if (length < 0 || length > maxLength())
        {
            throw new IllegalArgumentException("record length " + length + " is outside [0, " + maxLength() + "]");
        }
        final int recordLength = length + HEADER_LENGTH;
        final int required = BitUtil.align(recordLength, ALIGNMENT);
        final int capacity = this.capacity;
        long head = (long)HEAD_CACHE.getOpaque(this);
        long tail;
        int padding;
        int tailIndex;
        do
        {
            tail = (long)TAIL.getVolatile(this);
            if (required > capacity - (int)(tail - head))
            {
                head = (long)HEAD.getVolatile(this);
                if (required > capacity - (int)(tail - head))
                {
                    return -1;
                }
                HEAD_CACHE.setOpaque(this, head);
            }
            padding = 0;
            tailIndex = (int)tail & mask;
            final int toEnd = capacity - tailIndex;
            if (required > toEnd)
            {
                // The record does not fit before the end: pad to the end and start it at index 0, which needs the
                // reader to have left the first `required` bytes.
                int headIndex = (int)head & mask;
                if (required > headIndex)
                {
                    head = (long)HEAD.getVolatile(this);
                    headIndex = (int)head & mask;
                    if (required > headIndex)
                    {
                        return -1;
                    }
                    HEAD_CACHE.setOpaque(this, head);
                }
                padding = toEnd;
            }
        }
        // The CAS (a full fence) gives this producer [tail, tail + padding + required) alone.
        while (!TAIL.compareAndSet(this, tail, tail + padding + required));

        if (0 != padding)
        {
            UnsafeApi.putInt(null, address + tailIndex + TYPE_OFFSET, PADDING);
            // Release: the reader sees the type before the length that makes it skip the padding.
            UnsafeApi.putIntRelease(null, address + tailIndex, padding);
            tailIndex = 0;
        }
        UnsafeApi.putInt(null, address + tailIndex + TYPE_OFFSET, type);
        // Release store of the negative length: claimed, not committed; the reader stops here until commit.
        UnsafeApi.putIntRelease(null, address + tailIndex, -recordLength);
        return tailIndex + HEADER_LENGTH;
    }

    /**
     * Hand a claimed record to the reader.
     *
     * @param index of its body, as {@link #tryClaim} answered.
     */
    void commit(final int index)
    {
        final long lengthAddress = address + index - HEADER_LENGTH;
        // Release store of the length: the body written before it is visible to the reader that sees it.
        UnsafeApi.putIntRelease(null, lengthAddress, -UnsafeApi.getInt(null, lengthAddress));
    }

    /**
     * Give a claimed record back: the reader skips it as padding.
     *
     * @param index of its body, as {@link #tryClaim} answered.
     */
    void abort(final int index)
    {
        final long recordAddress = address + index - HEADER_LENGTH;
        UnsafeApi.putInt(null, recordAddress + TYPE_OFFSET, PADDING);
        // Release: the type is written before the length that lets the reader pass.
        UnsafeApi.putIntRelease(null, recordAddress, -UnsafeApi.getInt(null, recordAddress));
    }

    /**
     * Hand the committed records from the head on, up to the end of the buffer and at most {@code limit}, to the
     * queue's owner, then advance the head past them (also when a delivery throws: the records handed over so far are
     * consumed, as by Agrona's ring).
     *
     * @param queues  the owner, whose {@link RecordReader#deliver} gets each record.
     * @param inbound the flyweight the records are handed over in.
     * @param sink    the core's receiver of the records, passed on to {@code queues}.
     * @param limit   most records to hand over.
     * @return records handed over.
     */
    int read(final RecordReader queues, final InProcessInbound inbound, final MessageSink sink, final int limit)
    {
        final long head = (long)HEAD.getOpaque(this);
        final int headIndex = (int)head & mask;
        final int contiguous = capacity - headIndex;
        int bytesRead = 0;
        int count = 0;
        try
        {
            while (bytesRead < contiguous && count < limit)
            {
                final int recordIndex = headIndex + bytesRead;
                // Acquire: the body the producer wrote before committing is visible.
                final int recordLength = UnsafeApi.getIntAcquire(null, address + recordIndex);
                if (recordLength <= 0)
                {
                    break;
                }
                bytesRead += BitUtil.align(recordLength, ALIGNMENT);
                final int type = UnsafeApi.getInt(null, address + recordIndex + TYPE_OFFSET);
                if (PADDING == type)
                {
                    continue;
                }
                count++;
                queues.deliver(inbound, sink, type, recordIndex + HEADER_LENGTH, recordLength - HEADER_LENGTH);
            }
        }
        finally
        {
            if (0 != bytesRead)
            {
                consumed(head, headIndex, bytesRead);
            }
        }
        return count;
    }

    /**
     * Zero what a read consumed, then move the head past it. Out of {@link #read} to keep that small enough for the
     * compiler to inline into the queue's poll.
     */
    private void consumed(final long head, final int headIndex, final int bytesRead)
    {
        // Zeroed before the head moves past it: a producer can claim this space only after the release store below,
        // and then finds every word it could start a record at reading 0 (not committed). Word by word for short
        // runs: Unsafe.setMemory is a native call that costs more than the stores of a short record (bytesRead is a
        // multiple of the 8-byte alignment).
        final long start = address + headIndex;
        if (bytesRead > ZERO_BY_WORD)
        {
            UnsafeApi.setMemory(start, bytesRead, (byte)0);
        }
        else
        {
            for (long word = start, end = start + bytesRead; word < end; word += ALIGNMENT)
            {
                UnsafeApi.putLong(null, word, 0L);
            }
        }
        HEAD.setRelease(this, head + bytesRead);
    }

    /**
     * @return whether the record at the head is committed (or padding): a read would find something. One load of the
     * head and one of the line the next record is written into.
     */
    boolean hasCommitted()
    {
        return 0 < UnsafeApi.getIntAcquire(null, address + ((int)(long)HEAD.getOpaque(this) & mask));
    }

    /**
     * @return the position after the last claim (claimed records included).
     */
    long producerPosition()
    {
        return (long)TAIL.getVolatile(this);
    }

    /**
     * @return the position of the next record to read.
     */
    long consumerPosition()
    {
        return (long)HEAD.getVolatile(this);
    }
}
