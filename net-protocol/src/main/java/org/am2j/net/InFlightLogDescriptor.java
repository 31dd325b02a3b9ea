package org.am2j.net;

/**
 * Layout of the in-flight log of an endpoint served by a shared NIC ({@link InFlightLog}): the area of the endpoint's
 * network queue block, after its four rings ({@link EndpointBlockDescriptor#inFlightOffset(int)}), where the NIC keeps
 * a copy of every message it took from the endpoint's send queues until the message is resolved (acknowledged, or
 * returned to the host), so that the host can return each one with EOUTCOMEUNKNOWN once the NIC process is dead.
 * Only the NIC writes it; the host reads it only after the NIC process is gone. Little-endian.
 * <pre>
 *  header (128 bytes)
 *  +---------------------------------------------------------------+
 *  |  head: position of the oldest record not reclaimed (NIC)      |   0
 *  +---------------------------------------------------------------+
 *  |  tail: position past the newest record (NIC, ordered)        |   8
 *  +---------------------------------------------------------------+
 *  |  request send queue taken through: every record of that       |  16
 *  |  queue at a position below it was taken into this log (NIC)   |
 *  +---------------------------------------------------------------+
 *  |  reply send queue taken through (NIC)                         |  24
 *  +---------------------------------------------------------------+
 *  records (capacity = the block's queue bytes, positions grow for ever, index = position mod capacity)
 *  +---------------+---------------+---------------+---------------+
 *  |        state (WRITING, TAKEN, RETURNING, RESOLVED, PADDING)   |   0
 *  +---------------------------------------------------------------+
 *  |        record length, header and body, 8-aligned              |   4
 *  +---------------------------------------------------------------+
 *  |        peer index (as in the send-queue record)               |   8
 *  +---------------------------------------------------------------+
 *  |        body length                                            |  12
 *  +---------------------------------------------------------------+
 *  |        position of the send-queue record it came from         |  16
 *  +---------------------------------------------------------------+
 *  |        RETURNING: position of its returned record in the      |  24
 *  |        reply receive queue                                    |
 *  +---------------------------------------------------------------+
 *  |        send queue: 1 reply, 0 request                         |  32
 *  +---------------------------------------------------------------+
 *  |        reserved                                               |  36
 *  +---------------------------------------------------------------+
 *  |        message body ({@link MessageDescriptor}) ...           |  40
 * </pre>
 * A record is WRITING while the NIC copies the message in, TAKEN once it is complete (the message may be on the wire),
 * RETURNING while the NIC puts it into the reply receive queue as a returned message, and RESOLVED once acknowledged
 * or returned; a PADDING record fills the end of the area when the next record does not fit there.
 */
final class InFlightLogDescriptor
{
    static final int HEAD_OFFSET = 0;
    static final int TAIL_OFFSET = 8;
    static final int REQUEST_TAKEN_OFFSET = 16;
    static final int REPLY_TAKEN_OFFSET = 24;
    static final int HEADER_LENGTH = 128;

    static final int STATE_OFFSET = 0;
    static final int LENGTH_OFFSET = 4;
    static final int PEER_OFFSET = 8;
    static final int BODY_LENGTH_OFFSET = 12;
    static final int SEND_POSITION_OFFSET = 16;
    static final int RETURN_POSITION_OFFSET = 24;
    static final int REPLY_QUEUE_OFFSET = 32;
    static final int BODY_OFFSET = 40;

    static final int WRITING = 1;
    static final int TAKEN = 2;
    static final int RETURNING = 3;
    static final int RESOLVED = 4;
    static final int PADDING = 5;

    static final int ALIGNMENT = 8;

    private InFlightLogDescriptor()
    {
    }

    /**
     * @param bodyLength bytes of a message body.
     * @return the length of its record.
     */
    static int recordLength(final int bodyLength)
    {
        return org.agrona.BitUtil.align(BODY_OFFSET + bodyLength, ALIGNMENT);
    }

    /**
     * @param replyQueue which send queue.
     * @return the offset of its taken-through word in the header.
     */
    static int takenOffset(final boolean replyQueue)
    {
        return replyQueue ? REPLY_TAKEN_OFFSET : REQUEST_TAKEN_OFFSET;
    }
}
