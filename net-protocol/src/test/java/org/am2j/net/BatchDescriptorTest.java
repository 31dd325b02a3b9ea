package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The layout of a batch datagram ({@link BatchDescriptor}): entries written by {@code putEntry} are found again by
 * {@code count}, and every way a batch can disagree with its length is refused whole.
 */
class BatchDescriptorTest
{
    private final UnsafeBuffer batch = new UnsafeBuffer(new byte[NetConfig.MAX_DATAGRAM]);

    @Test
    void aBatchOfOneIsItsHeaderAndOneEntry()
    {
        final int end = build(new int[] {0}, 41);
        assertEquals(WireDescriptor.HEADER_LENGTH + BatchDescriptor.ENTRY_HEADER_LENGTH +
            MessageDescriptor.HEADER_LENGTH, end, "a message header needs no padding");
        assertEquals(1, BatchDescriptor.count(batch, end));
        assertEntry(BatchDescriptor.FIRST_ENTRY_OFFSET, 41, false, 0);
    }

    @Test
    void aBatchOfManyMixedShortAndMediumMessagesKeepsEachInPlace()
    {
        final int[] dataLengths = {0, 1, 7, 8, 0, 500, 3, 1400, 0, 9};
        final int end = build(dataLengths, 100);
        assertEquals(dataLengths.length, BatchDescriptor.count(batch, end));
        int entry = BatchDescriptor.FIRST_ENTRY_OFFSET;
        for (int i = 0; i < dataLengths.length; i++)
        {
            assertEquals(0, entry % BatchDescriptor.ALIGNMENT, "entry " + i + " is aligned");
            assertEntry(entry, 100 + i, 1 == (i & 1), dataLengths[i]);
            entry += BatchDescriptor.entryLength(MessageDescriptor.HEADER_LENGTH + dataLengths[i]);
        }
        assertEquals(end, entry);
    }

    @Test
    void paddingIsZeroedWhateverTheBufferHeldBefore()
    {
        batch.setMemory(0, batch.capacity(), (byte)0x5A);
        final int end = build(new int[] {3}, 7);
        for (int i = WireDescriptor.HEADER_LENGTH + BatchDescriptor.ENTRY_HEADER_LENGTH +
            MessageDescriptor.HEADER_LENGTH + 3; i < end; i++)
        {
            assertEquals(0, batch.getByte(i), "padding byte at " + i);
        }
        assertEquals(0, batch.getShort(BatchDescriptor.FIRST_ENTRY_OFFSET + BatchDescriptor.FLAGS_OFFSET + 2),
            "reserved bytes");
    }

    @Test
    void aBatchWhoseEntriesDoNotFillItExactlyIsRefusedWhole()
    {
        final int[] dataLengths = {0, 5, 200};
        final int end = build(dataLengths, 1);
        assertEquals(3, BatchDescriptor.count(batch, end));
        // Cut anywhere: inside the last body, inside its padding, inside an entry header, at an entry boundary.
        for (int cut = 1; cut < end - BatchDescriptor.FIRST_ENTRY_OFFSET; cut++)
        {
            assertEquals(-1, BatchDescriptor.count(batch, end - cut), "cut by " + cut);
        }
        // Bytes after the last entry.
        assertEquals(-1, BatchDescriptor.count(batch, end + BatchDescriptor.ALIGNMENT));
        // A count that claims more or fewer entries, or none.
        for (final int count : new int[] {0, 2, 4, -1, Integer.MAX_VALUE})
        {
            batch.putInt(BatchDescriptor.COUNT_OFFSET, count);
            assertEquals(-1, BatchDescriptor.count(batch, end), "count " + count);
        }
        batch.putInt(BatchDescriptor.COUNT_OFFSET, 3);
        assertEquals(3, BatchDescriptor.count(batch, end));
    }

    @Test
    void entryFieldsOutOfRangeAreRefused()
    {
        final int end = build(new int[] {0, 0}, 1);
        final int second =
            BatchDescriptor.FIRST_ENTRY_OFFSET + BatchDescriptor.entryLength(MessageDescriptor.HEADER_LENGTH);
        final int lengthAt = second + BatchDescriptor.BODY_LENGTH_OFFSET;
        for (final int bodyLength : new int[] {MessageDescriptor.HEADER_LENGTH - 8, -8, -1,
            MessageDescriptor.MAX_BODY_LENGTH + 8, Integer.MAX_VALUE, Integer.MIN_VALUE})
        {
            batch.putInt(lengthAt, bodyLength);
            assertEquals(-1, BatchDescriptor.count(batch, end), "body length " + bodyLength);
        }
        batch.putInt(lengthAt, MessageDescriptor.HEADER_LENGTH);
        batch.putInt(second + BatchDescriptor.FLAGS_OFFSET, WireDescriptor.FLAG_BUSY);
        assertEquals(-1, BatchDescriptor.count(batch, end), "unknown entry flag");
        batch.putInt(second + BatchDescriptor.FLAGS_OFFSET, 1 << 16);
        assertEquals(-1, BatchDescriptor.count(batch, end), "reserved bytes set");
        batch.putInt(second + BatchDescriptor.FLAGS_OFFSET, WireDescriptor.FLAG_REPLY_CHANNEL);
        assertEquals(2, BatchDescriptor.count(batch, end));
    }

    /**
     * Entries of message bodies with these data lengths, the sequences from {@code firstSequence}, odd entries on the
     * reply channel, each body's bytes a function of its entry.
     *
     * @return the length of the batch without its tag.
     */
    private int build(final int[] dataLengths, final long firstSequence)
    {
        batch.putInt(BatchDescriptor.COUNT_OFFSET, dataLengths.length);
        final UnsafeBuffer body = new UnsafeBuffer(new byte[MessageDescriptor.MAX_BODY_LENGTH]);
        int offset = BatchDescriptor.FIRST_ENTRY_OFFSET;
        for (int i = 0; i < dataLengths.length; i++)
        {
            final int bodyLength = MessageDescriptor.HEADER_LENGTH + dataLengths[i];
            for (int b = 0; b < bodyLength; b++)
            {
                body.putByte(b, (byte)(i * 31 + b));
            }
            offset = BatchDescriptor.putEntry(batch, offset, firstSequence + i, 1 == (i & 1), body, 0, bodyLength);
        }
        return offset;
    }

    private void assertEntry(final int entry, final long sequence, final boolean replyChannel, final int dataLength)
    {
        final int i = (int)(sequence - batch.getLong(BatchDescriptor.FIRST_ENTRY_OFFSET));
        assertEquals(sequence, batch.getLong(entry + BatchDescriptor.SEQUENCE_OFFSET));
        final int bodyLength = MessageDescriptor.HEADER_LENGTH + dataLength;
        assertEquals(bodyLength, batch.getInt(entry + BatchDescriptor.BODY_LENGTH_OFFSET));
        assertEquals(replyChannel ? WireDescriptor.FLAG_REPLY_CHANNEL : 0,
            batch.getInt(entry + BatchDescriptor.FLAGS_OFFSET));
        for (int b = 0; b < bodyLength; b++)
        {
            assertEquals((byte)(i * 31 + b), batch.getByte(entry + BatchDescriptor.ENTRY_HEADER_LENGTH + b),
                "body byte " + b + " of entry " + i);
        }
    }
}
