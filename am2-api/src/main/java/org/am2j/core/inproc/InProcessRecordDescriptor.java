package org.am2j.core.inproc;

/**
 * Layout of one message record in an in-process receive queue (an Agrona many-to-one ring buffer; the ring adds its
 * own 8-byte record header in front).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        opcode                                 |  0
 *  +---------------------------------------------------------------+
 *  |                     return status                             |  4
 *  +---------------------------------------------------------------+
 *  |                     handler index                             |  8
 *  +---------------------------------------------------------------+
 *  |                    argument count                             | 12
 *  +---------------------------------------------------------------+
 *  |                  source endpoint id                           | 16
 *  +---------------------------------------------------------------+
 *  |                      data length                              | 20
 *  +---------------------------------------------------------------+
 *  |                          tag                                  | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     segment offset                            | 32
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 arguments 0 .. 7 (8 x 32 bits)               ...  40
 *  +---------------------------------------------------------------+
 *  |          inline data (medium and returned messages)          ...  72
 *  +---------------------------------------------------------------+
 * </pre>
 * A long message's data is not in the record: the sender wrote it into the receiver's segment before committing
 * the record (one copy).
 */
public final class InProcessRecordDescriptor
{
    /** Offset of the opcode. */
    public static final int OPCODE_OFFSET = 0;
    /** Offset of the return status (0 for an ordinary message). */
    public static final int RETURN_STATUS_OFFSET = 4;
    /** Offset of the handler index. */
    public static final int HANDLER_OFFSET = 8;
    /** Offset of the argument count. */
    public static final int ARG_COUNT_OFFSET = 12;
    /** Offset of the sending endpoint's id. */
    public static final int SOURCE_OFFSET = 16;
    /** Offset of the data length. */
    public static final int DATA_LENGTH_OFFSET = 20;
    /** Offset of the tag. */
    public static final int TAG_OFFSET = 24;
    /** Offset of the segment offset of a long message. */
    public static final int SEGMENT_OFFSET_OFFSET = 32;
    /** Offset of argument 0; argument i is at {@code ARGS_OFFSET + 4 * i}. */
    public static final int ARGS_OFFSET = 40;
    /** Length of the fixed header; inline data follows. */
    public static final int HEADER_LENGTH = 72;
    /** Message type id of records in the ring. */
    public static final int MESSAGE_TYPE = 1;

    private InProcessRecordDescriptor()
    {
    }
}
