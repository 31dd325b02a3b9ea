package org.am2j.shm;

/**
 * Layout of one packet of a packet queue: one 64-byte cache line, so a sender and the receiver exchange exactly one
 * line per short message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |       state: type (FREE, CLAIMED, READY) in the low 32 bits,  |  0
 *  |              the claiming sender's pid in the high 32 bits    |
 *  +---------------+---------------+---------------+---------------+
 *  |    opcode     | handler index | argument count| return status |  8
 *  +---------------+---------------+---------------+---------------+
 *  |  inverse mapping: slot        |  inverse mapping: generation  | 12
 *  +-------------------------------+-------------------------------+
 *  |  data length                  |  bulk index (0xFFFF: none)    | 16
 *  +-------------------------------+-------------------------------+
 *  |  segment offset of a long message deposited directly (-1)    | 20
 *  +---------------------------------------------------------------+
 *  |                           tag                                 | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 arguments 0 .. 7 (8 x 32 bits)               ...  32
 *  +---------------------------------------------------------------+
 * </pre>
 * The inverse mapping names the sender's slot in this queue block's connection table: the receiver replies through
 * it with no look-up. Every field is checked by the receiver before use; a faulty writer can cause a returned
 * message or a counted drop, nothing else.
 */
public final class PacketDescriptor
{
    /** Bytes of a packet. */
    public static final int LENGTH = 64;

    /** Offset of the state word (long). */
    public static final int STATE_OFFSET = 0;
    /** Offset of the opcode (byte). */
    public static final int OPCODE_OFFSET = 8;
    /** Offset of the handler index (byte). */
    public static final int HANDLER_OFFSET = 9;
    /** Offset of the argument count (byte). */
    public static final int ARG_COUNT_OFFSET = 10;
    /** Offset of the return status (byte). */
    public static final int RETURN_STATUS_OFFSET = 11;
    /** Offset of the inverse mapping's slot (unsigned short). */
    public static final int SLOT_OFFSET = 12;
    /** Offset of the inverse mapping's slot generation (unsigned short). */
    public static final int GENERATION_OFFSET = 14;
    /** Offset of the data length (unsigned short). */
    public static final int DATA_LENGTH_OFFSET = 16;
    /** Offset of the bulk index (unsigned short). */
    public static final int BULK_INDEX_OFFSET = 18;
    /** Offset of the segment offset of a directly deposited long message (int). */
    public static final int SEGMENT_OFFSET_OFFSET = 20;
    /** Offset of the tag (long). */
    public static final int TAG_OFFSET = 24;
    /** Offset of argument 0; argument i is at {@code ARGS_OFFSET + 4 * i}. */
    public static final int ARGS_OFFSET = 32;

    /** Bulk index meaning "no bulk block". */
    public static final int NO_BULK = 0xFFFF;

    /** Packet type: free for the sender that owns its index. */
    public static final int FREE = 0;
    /** Packet type: claimed and being filled by the sender whose pid the state records. */
    public static final int CLAIMED = 1;
    /** Packet type: ready for the receiver. */
    public static final int READY = 2;

    private PacketDescriptor()
    {
    }
}
