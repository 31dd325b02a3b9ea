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
 *  |   messages the sender put on the shared request queue         | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   messages the sender put on the shared reply queue           | 32
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   sender's queue block file path (UTF-8, up to 216 bytes)    ...  40
 *  +---------------------------------------------------------------+
 * </pre>
 * The two counts are the sender's, zeroed by its claim and stored (a release store) after each message it makes
 * ready on a shared queue: what the owner's {@link PairCounts} compares its own count with, so that messages a
 * faulty writer destroys on a shared queue are counted.
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
    /** Offset of the count of messages put on the shared request queue (long); the reply queue's follows it. */
    public static final int SHARED_SENT_OFFSET = 24;
    /** Offset of the path bytes. */
    public static final int PATH_OFFSET = 40;
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

    /**
     * @param kind {@link FastBoxDescriptor#REQUESTS} or {@link FastBoxDescriptor#REPLIES}.
     * @return offset within a slot of the sender's count for the shared queue of that kind.
     */
    static int sharedSentOffset(final int kind)
    {
        return SHARED_SENT_OFFSET + 8 * kind;
    }
}
