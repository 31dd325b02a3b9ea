package org.am2j.shm;

/**
 * Layout of one packet of a packet queue: one 64-byte cache line, so a sender and the receiver exchange exactly one
 * line per short message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |       state: type (FREE, READY) in the low 32 bits; FREE's    |  0
 *  |       lap or READY's sender pid in the high 32 bits           |
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
 * The state goes FREE(lap) -> READY(pid), written by the sender holding the lap's claim (a claim word beside the
 * packets, {@link QueueBlockDescriptor}), then -> FREE(lap + 1) when the receiver is done with it or skips it. In a
 * queue block being closed, the holder of a claim writes WITHDRAWN(pid) instead of filling the packet when it finds
 * the block CLOSED after its assignment (docs/shm-protocol.md, "Closing an endpoint").
 * Nothing but the release store of READY touches the state word on the send path, so the receiver, spinning on
 * it, sees the line move once per message.
 * <p>
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

    /** Packet type: free for the sender that holds the claim of the lap the state records. */
    public static final int FREE = 0;
    /** Packet type: ready for the receiver; the state records the sender's pid. */
    public static final int READY = 2;
    /**
     * Packet type: the holder of the lap's claim found the queue block closed after taking its assignment and gave the
     * packet up unwritten (its message went back to its sender as refused); the closing owner skips it. The state
     * records the holder's pid. Never seen in an open queue block.
     */
    public static final int WITHDRAWN = 3;

    private PacketDescriptor()
    {
    }
}
