package org.am2j.net;

import org.am2j.api.Am;

/**
 * Layout of a message body, the unit the NIC sequences, acknowledges and retransmits, little-endian. The same bytes
 * travel in datagram fragments ({@link WireDescriptor}), wait in send queues and receive queues
 * ({@link QueueRecordDescriptor}) and stay in the retransmission window until acknowledged:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+---------------+---------------+
 *  |    opcode     | return status |    handler    |  argument cnt |  0
 *  +---------------+---------------+---------------+---------------+
 *  |           source endpoint id (in the sending process)         |  4
 *  +---------------------------------------------------------------+
 *  |        destination endpoint id (in the receiving process)     |  8
 *  +---------------------------------------------------------------+
 *  |                         data length                           | 12
 *  +---------------------------------------------------------------+
 *  |                          tag (64 bits)                        | 16
 *  +---------------------------------------------------------------+
 *  |       segment offset of a long message, else -1 (64 bits)     | 24
 *  +---------------------------------------------------------------+
 *  |                    arguments 0..7 (8 x 32 bits)               | 32
 *  +---------------------------------------------------------------+
 *  |                         data ...                              | 64
 * </pre>
 * The opcode is an {@code org.am2j.api.Opcode} code, or {@link #OPCODE_NAME} for the NIC's own announcement of an
 * endpoint's name (its encoded {@code EndpointName} is the data, and its tag the tag of the request it goes before:
 * the receiving NIC keeps the name only when the destination accepts it). A long message's data travels inline and the
 * receiving NIC writes it into the destination's segment.
 */
final class MessageDescriptor
{
    /** Opcode of a name announcement: data = the source endpoint's encoded name, tag = its first request's. */
    static final int OPCODE_NAME = 0x7F;

    static final int OPCODE_OFFSET = 0;
    static final int RETURN_STATUS_OFFSET = 1;
    static final int HANDLER_OFFSET = 2;
    static final int ARG_COUNT_OFFSET = 3;
    static final int SOURCE_ENDPOINT_OFFSET = 4;
    static final int DESTINATION_ENDPOINT_OFFSET = 8;
    static final int DATA_LENGTH_OFFSET = 12;
    static final int TAG_OFFSET = 16;
    static final int SEGMENT_OFFSET_OFFSET = 24;
    static final int ARGS_OFFSET = 32;

    /** Length of the fixed part; the data follows. */
    static final int HEADER_LENGTH = 64;

    /** Largest data of any message: medium, long, or an encoded endpoint name. */
    static final int MAX_DATA_LENGTH = Math.max(Math.max(Am.MAX_MEDIUM, Am.MAX_LONG),
        org.am2j.api.EndpointName.MAX_ENCODED_LENGTH);

    /** Largest body. */
    static final int MAX_BODY_LENGTH = HEADER_LENGTH + MAX_DATA_LENGTH;

    private MessageDescriptor()
    {
    }

    /**
     * @param index argument index 0 to 7.
     * @return offset of the argument in the body.
     */
    static int argOffset(final int index)
    {
        return ARGS_OFFSET + index * Integer.BYTES;
    }
}
