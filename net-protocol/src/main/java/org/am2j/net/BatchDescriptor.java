package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Layout of a {@link WireDescriptor#TYPE_BATCH} datagram: several whole messages for one peer in one datagram, each
 * with its own channel and sequence number, so that the window, acknowledgements, retransmission, duplicate
 * suppression and returned messages stay per message. Little-endian:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |   datagram header ({@link WireDescriptor}), type BATCH,        |  0
 *  |   sequence 0, body length = number of entries (k >= 1),       |
 *  |   fragment 0 of 1, fragment offset 0                          |
 *  +---------------------------------------------------------------+
 *  |   entry 1: sequence number in its channel (64 bits)           | 96
 *  +-------------------------------+---------------+---------------+
 *  |   entry 1: body length        | entry flags   |  reserved (0) | 104
 *  +-------------------------------+---------------+---------------+
 *  |   entry 1: message body ({@link MessageDescriptor}) ...        | 112
 *  |   ... then zeros up to a multiple of 8 bytes                  |
 *  +---------------------------------------------------------------+
 *  |   entry 2 ... entry k, laid out the same way                  |
 *  +---------------------------------------------------------------+
 *  |   tag (128 bits, {@link WireSeal})                              | end - 16
 * </pre>
 * Entry flags: {@link WireDescriptor#FLAG_REPLY_CHANNEL} (the entry's message travels on the reply channel), 16 bits
 * with the reserved bytes, all else zero. The entries fill the datagram exactly: the tag follows the padding of
 * entry k. A batch carries whole messages only: a message that needs fragments goes in {@link WireDescriptor#TYPE_DATA}
 * datagrams of its own. The header's acknowledgement state, floors and BUSY flag are the datagram's, as for every
 * type; one tag covers the whole datagram, and a receiver checks the tag and then the whole layout
 * ({@link #count(DirectBuffer, int)}) before it takes any message of it.
 */
final class BatchDescriptor
{
    /** Offset of the first entry in the datagram. */
    static final int FIRST_ENTRY_OFFSET = WireDescriptor.HEADER_LENGTH;
    /** Header field holding the number of entries (the body length field of a DATA datagram). */
    static final int COUNT_OFFSET = WireDescriptor.BODY_LENGTH_OFFSET;

    static final int SEQUENCE_OFFSET = 0;
    static final int BODY_LENGTH_OFFSET = 8;
    /** Unsigned 16 bits, followed by 2 reserved bytes written as zero. */
    static final int FLAGS_OFFSET = 12;
    /** Length of an entry's header; the message body follows. */
    static final int ENTRY_HEADER_LENGTH = 16;
    /** Entries start at multiples of this in the datagram. */
    static final int ALIGNMENT = 8;

    private BatchDescriptor()
    {
    }

    /**
     * @param bodyLength bytes of a message body.
     * @return bytes its entry takes, padding included.
     */
    static int entryLength(final int bodyLength)
    {
        return (ENTRY_HEADER_LENGTH + bodyLength + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /**
     * Write one entry, the body copied from {@code source}, its padding zeroed.
     *
     * @param batch        the datagram being built.
     * @param offset       where the entry starts.
     * @param sequence     the message's sequence number in its channel.
     * @param replyChannel whether it travels on the reply channel.
     * @param source       holds the body.
     * @param body         offset of the body in {@code source}.
     * @param bodyLength   length of the body.
     * @return the offset after the entry (the next entry's, or the tag's after the last).
     */
    static int putEntry(final MutableDirectBuffer batch, final int offset, final long sequence,
        final boolean replyChannel, final DirectBuffer source, final int body, final int bodyLength)
    {
        batch.putLong(offset + SEQUENCE_OFFSET, sequence);
        batch.putInt(offset + BODY_LENGTH_OFFSET, bodyLength);
        // The flags with the reserved bytes after them, in one store.
        batch.putInt(offset + FLAGS_OFFSET, replyChannel ? WireDescriptor.FLAG_REPLY_CHANNEL : 0);
        batch.putBytes(offset + ENTRY_HEADER_LENGTH, source, body, bodyLength);
        final int end = offset + ENTRY_HEADER_LENGTH + bodyLength;
        final int next = offset + entryLength(bodyLength);
        if (next > end)
        {
            batch.setMemory(end, next - end, (byte)0);
        }
        return next;
    }

    /**
     * Check the layout of a whole batch before any of it is taken: the number of entries in the header, every
     * entry's header and body inside the datagram, every body at least a message header and at most the largest
     * body, only known entry flags, and the entries ending exactly where the tag starts.
     *
     * @param batch  the datagram.
     * @param length its length without the tag.
     * @return the number of entries, or -1 when the layout does not hold (truncated or malformed: drop it whole).
     */
    static int count(final DirectBuffer batch, final int length)
    {
        final int count = batch.getInt(COUNT_OFFSET);
        if (count < 1 || count > (length - FIRST_ENTRY_OFFSET) / entryLength(MessageDescriptor.HEADER_LENGTH))
        {
            return -1;
        }
        int offset = FIRST_ENTRY_OFFSET;
        for (int i = 0; i < count; i++)
        {
            if (length - offset < ENTRY_HEADER_LENGTH)
            {
                return -1;
            }
            final int bodyLength = batch.getInt(offset + BODY_LENGTH_OFFSET);
            final int flags = batch.getInt(offset + FLAGS_OFFSET);
            if (bodyLength < MessageDescriptor.HEADER_LENGTH || bodyLength > MessageDescriptor.MAX_BODY_LENGTH ||
                0 != (flags & ~WireDescriptor.FLAG_REPLY_CHANNEL) ||
                entryLength(bodyLength) > length - offset)
            {
                return -1;
            }
            offset += entryLength(bodyLength);
        }
        return offset == length ? count : -1;
    }
}
