package org.am2j.shm;

/**
 * Layout of one slot of a queue block's connection table: a sender that maps this endpoint claims a slot and
 * records where its own queue block is, so the owner can map it once and reply through shared memory. The slot index
 * and generation travel in every packet as the inverse mapping.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |   state: FREE, CLAIMED (being written) or USED, low 32 bits;  |  0
 *  |          the sender's pid in the high 32 bits                 |
 *  +---------------------------------------------------------------+
 *  |                generation (bumped on each claim)             |  8
 *  +---------------------------------------------------------------+
 *  |                  path length                                  | 12
 *  +---------------------------------------------------------------+
 *  |              sender's start time, epoch ms                    | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   sender's queue block file path (UTF-8, up to 232 bytes)    ...  24
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ConnectionSlotDescriptor
{
    /** Bytes of a slot. */
    public static final int LENGTH = 256;
    /** Offset of the state word (long). */
    public static final int STATE_OFFSET = 0;
    /** Offset of the generation (int). */
    public static final int GENERATION_OFFSET = 8;
    /** Offset of the path length (int). */
    public static final int PATH_LENGTH_OFFSET = 12;
    /** Offset of the sender's start time (long). */
    public static final int START_OFFSET = 16;
    /** Offset of the path bytes. */
    public static final int PATH_OFFSET = 24;
    /** Longest path a slot holds. */
    public static final int MAX_PATH_LENGTH = LENGTH - PATH_OFFSET;

    /** Slot type: free. */
    public static final int FREE = 0;
    /** Slot type: being written by the claiming sender. */
    public static final int CLAIMED = 1;
    /** Slot type: in use. */
    public static final int USED = 2;

    private ConnectionSlotDescriptor()
    {
    }
}
