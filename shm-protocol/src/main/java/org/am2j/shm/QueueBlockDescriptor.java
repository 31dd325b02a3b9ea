package org.am2j.shm;

/**
 * Layout of a shared-memory <b>queue block</b>: the part of an endpoint other processes on its node can see, in a
 * memory-mapped file. Senders write straight into it (there are no send queues); the owner polls it.
 * <pre>
 *  offset                                                                     written by
 *  0      +-----------------------------------------------------------+
 *         | magic, version, request depth, reply depth, bulk depth,    |  owner, once
 *         | slots, owner pid, owner start ms, owner process id,        |
 *         | endpoint id, state (OPENING/OPEN/CLOSED), name length,     |
 *         | fast boxes, fast box depth                                 |
 *  128    +-----------------------------------------------------------+
 *         | tag (the copy every sender checks)                         |  owner
 *  256    +-----------------------------------------------------------+
 *         | sleeping flag: AWAKE, SLEEPING, RUNG                       |  owner, senders (CAS)
 *  512    +-----------------------------------------------------------+
 *         | segment generation, segment length, segment file path      |  owner
 *  1024   +-----------------------------------------------------------+
 *         | doorbell file path                                         |  owner, once
 *  4096   +-----------------------------------------------------------+
 *         | the endpoint's encoded EndpointName (4096 bytes)           |  owner, once
 *  8192   +-----------------------------------------------------------+
 *         | connection table: slots x 256-byte connection slots        |  senders (claim), owner (read)
 *         +-----------------------------------------------------------+
 *         | request queue structure (see below)                        |
 *         +-----------------------------------------------------------+
 *         | reply queue structure                                      |
 *         +-----------------------------------------------------------+
 *         | fast box table (see {@link FastBoxDescriptor}), if boxes   |
 *         +-----------------------------------------------------------+
 * </pre>
 * A <b>queue structure</b>, aligned to 4096 bytes:
 * <pre>
 *  +0        tail area, 128 bytes: packet tail (long)            senders only (CAS)
 *  +128      head area, 128 bytes: packet head (long)            receiver only
 *  +256      packet queue: depth x 64-byte packets               see {@link PacketDescriptor}
 *  +C        claim table: depth x 8-byte claim words, padded     senders (CAS), receiver (CAS, skips only)
 *            to 128 bytes
 *  +P        bulk flags: bulk depth x 64 bytes, one state each   senders claim, receiver frees
 *  +F        bulk data queue: bulk depth x 8192-byte blocks      the claiming sender, then the receiver
 * </pre>
 * Every area written by different parties sits on its own cache lines (128 bytes apart for the hot ones, against
 * adjacent-line prefetching).
 * <p>
 * A <b>claim word</b> (the paper's claim of a packet, kept off the packet's line) records who holds the packet of
 * one sequence number:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  claimer's pid, 0 when the receiver skipped the assignment    |  low 32 bits
 *  +---------------------------------------------------------------+
 *  |  lap + 1 of the sequence number claimed (0: never claimed)    |  high 32 bits
 *  +---------------------------------------------------------------+
 * </pre>
 * The sender of a lap CASes the word from the previous lap's stamp (its claim or skip; a zeroed word is lap -1's) to
 * CLAIMED(lap, pid); the receiver, skipping an assignment after the liveness timeout, CASes it to SKIPPED(lap), so a
 * late sender's claim fails, and keeps failing once later laps have stamped the word. The receiver
 * never writes it otherwise, so with one sender its line stays in that sender's cache: the claim costs no transfer,
 * where a CAS on the packet's own line (which the receiver spins on) cost about 80 ns a message
 * (docs/shm-protocol.md).
 */
public final class QueueBlockDescriptor
{
    /** Bytes in a cache line. */
    public static final int CACHE_LINE = 64;
    /** Padding between hot fields written by different parties. */
    public static final int HOT_LINE = 2 * CACHE_LINE;

    /** 'AMQB'. */
    public static final int MAGIC = 0x414D5142;
    /** Layout version. */
    public static final int VERSION = 4;

    /** Offset of the magic (int). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the layout version (int). */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the request packet depth (int). */
    public static final int REQUEST_DEPTH_OFFSET = 8;
    /** Offset of the reply packet depth (int). */
    public static final int REPLY_DEPTH_OFFSET = 12;
    /** Offset of the bulk depth of each queue (int). */
    public static final int BULK_DEPTH_OFFSET = 16;
    /** Offset of the number of connection slots (int). */
    public static final int SLOTS_OFFSET = 20;
    /** Offset of the owner's pid (long). */
    public static final int OWNER_PID_OFFSET = 24;
    /** Offset of the owner's start time in epoch ms (long). */
    public static final int OWNER_START_OFFSET = 32;
    /** Offset of the owner's process id, as endpoint names record it (long). */
    public static final int OWNER_PROCESS_ID_OFFSET = 40;
    /** Offset of the endpoint id (int). */
    public static final int ENDPOINT_ID_OFFSET = 48;
    /** Offset of the queue block state (int): {@link #STATE_OPENING}, {@link #STATE_OPEN}, {@link #STATE_CLOSED}. */
    public static final int STATE_OFFSET = 52;
    /** Offset of the length of the encoded endpoint name (int). */
    public static final int NAME_LENGTH_OFFSET = 56;
    /** Offset of the number of fast boxes (int), 0 for none. */
    public static final int BOXES_OFFSET = 60;
    /** Offset of the packets per fast box ring (int). */
    public static final int BOX_DEPTH_OFFSET = 64;

    /** Offset of the tag (long). */
    public static final int TAG_OFFSET = 128;
    /**
     * Offset of the sleeping flag (int): {@link #AWAKE}, or non-zero while the owner sleeps in waitSema:
     * {@link #SLEEPING} as the owner stores it before each sleep slice, {@link #RUNG} once a sender has rung.
     */
    public static final int SLEEPING_OFFSET = 256;
    /** Sleeping flag: the owner is not in waitSema. */
    public static final int AWAKE = 0;
    /** Sleeping flag: the owner sleeps and no sender has rung its doorbell since it said so. */
    public static final int SLEEPING = 1;
    /** Sleeping flag: the owner sleeps and a sender has rung (or is about to ring) its doorbell. */
    public static final int RUNG = 2;
    /** Offset of the segment generation (int), bumped whenever the segment changes. */
    public static final int SEGMENT_GENERATION_OFFSET = 512;
    /** Offset of the segment length (int): 0 when the segment is not in shared memory. */
    public static final int SEGMENT_LENGTH_OFFSET = 516;
    /** Offset of the segment file path (int length, then UTF-8 bytes). */
    public static final int SEGMENT_PATH_OFFSET = 520;
    /** Offset of the doorbell file path (int length, then UTF-8 bytes). */
    public static final int DOORBELL_PATH_OFFSET = 1024;
    /** Longest path stored in the header. */
    public static final int MAX_PATH_LENGTH = 500;
    /** Offset of the encoded endpoint name. */
    public static final int NAME_OFFSET = 4096;
    /** Room for the encoded endpoint name. */
    public static final int NAME_CAPACITY = 4096;
    /** Offset of the connection table. */
    public static final int SLOTS_TABLE_OFFSET = 8192;

    /** Queue block is being written by its owner. */
    public static final int STATE_OPENING = 0;
    /** Queue block is open for messages. */
    public static final int STATE_OPEN = 1;
    /** Owner has freed the endpoint. */
    public static final int STATE_CLOSED = 2;

    /** Offset of the packet tail within a queue structure (long). */
    public static final int TAIL_OFFSET = 0;
    /** Offset of the packet head within a queue structure (long). */
    public static final int HEAD_OFFSET = HOT_LINE;
    /** Offset of the packet queue within a queue structure. */
    public static final int PACKETS_OFFSET = 2 * HOT_LINE;
    /** Bytes of a claim word. */
    public static final int CLAIM_LENGTH = 8;
    /** Bytes of a bulk flag entry. */
    public static final int BULK_FLAG_LENGTH = CACHE_LINE;
    /** Bytes of a bulk data block: one maximal medium message. */
    public static final int BULK_BLOCK_LENGTH = 8192;

    /** Bulk flag state: the block is free. */
    public static final int BULK_FREE = 0;
    /** Bulk flag state: a sender claimed the block; the claimer's pid is in the upper 32 bits. */
    public static final int BULK_CLAIMED = 1;
    /** Bulk flag state: the block belongs to a ready packet and will be freed by the receiver. */
    public static final int BULK_READY = 2;

    private QueueBlockDescriptor()
    {
    }

    /**
     * @param depth     packets in the queue.
     * @param bulkDepth bulk blocks in the queue.
     * @return bytes of a queue structure with those depths, a multiple of 4096.
     */
    public static int queueLength(final int depth, final int bulkDepth)
    {
        return align(bulkFlagsOffset(depth) + bulkDepth * (BULK_FLAG_LENGTH + BULK_BLOCK_LENGTH), 4096);
    }

    /**
     * @param slots connection slots.
     * @return offset of the request queue structure.
     */
    public static int requestQueueOffset(final int slots)
    {
        return align(SLOTS_TABLE_OFFSET + slots * ConnectionSlotDescriptor.LENGTH, 4096);
    }

    /**
     * @param slots        connection slots.
     * @param requestDepth packets of the request queue.
     * @param bulkDepth    bulk blocks per queue.
     * @return offset of the reply queue structure.
     */
    public static int replyQueueOffset(final int slots, final int requestDepth, final int bulkDepth)
    {
        return requestQueueOffset(slots) + queueLength(requestDepth, bulkDepth);
    }

    /**
     * @param slots        connection slots.
     * @param requestDepth packets of the request queue.
     * @param replyDepth   packets of the reply queue.
     * @param bulkDepth    bulk blocks per queue.
     * @return bytes of the whole queue block.
     */
    public static int length(final int slots, final int requestDepth, final int replyDepth, final int bulkDepth)
    {
        return boxTableOffset(slots, requestDepth, replyDepth, bulkDepth);
    }

    /**
     * @param slots        connection slots.
     * @param requestDepth packets of the request queue.
     * @param replyDepth   packets of the reply queue.
     * @param bulkDepth    bulk blocks per queue.
     * @param boxes        fast boxes.
     * @param boxDepth     packets per fast box ring.
     * @return bytes of the whole queue block with its fast box table.
     */
    public static int length(
        final int slots, final int requestDepth, final int replyDepth, final int bulkDepth, final int boxes,
        final int boxDepth)
    {
        return boxTableOffset(slots, requestDepth, replyDepth, bulkDepth) +
            FastBoxDescriptor.tableLength(boxes, boxDepth);
    }

    /**
     * @param slots        connection slots.
     * @param requestDepth packets of the request queue.
     * @param replyDepth   packets of the reply queue.
     * @param bulkDepth    bulk blocks per queue.
     * @return offset of the fast box table, right after the reply queue structure.
     */
    public static int boxTableOffset(final int slots, final int requestDepth, final int replyDepth, final int bulkDepth)
    {
        return replyQueueOffset(slots, requestDepth, bulkDepth) + queueLength(replyDepth, bulkDepth);
    }

    /**
     * @param depth packets in the queue.
     * @return offset of the claim table within a queue structure.
     */
    public static int claimsOffset(final int depth)
    {
        return PACKETS_OFFSET + depth * PacketDescriptor.LENGTH;
    }

    /**
     * @param depth packets in the queue.
     * @return offset of the bulk flags within a queue structure.
     */
    public static int bulkFlagsOffset(final int depth)
    {
        return claimsOffset(depth) + align(depth * CLAIM_LENGTH, HOT_LINE);
    }

    /**
     * @param lap the lap of a sequence number (sequence / depth).
     * @param pid the claimer's pid, or 0 for the receiver's skip.
     * @return the claim word.
     */
    public static long claim(final long lap, final long pid)
    {
        return ((lap + 1) << 32) | (pid & 0xFFFF_FFFFL);
    }

    /**
     * @param claim a claim word.
     * @param lap   a lap.
     * @return true when the word was written for that lap (by its sender's claim or the receiver's skip).
     */
    public static boolean claimsLap(final long claim, final long lap)
    {
        return (int)(claim >>> 32) == (int)(lap + 1);
    }

    /**
     * @param claim a claim word.
     * @return the claimer's pid, 0 for a skip.
     */
    public static long claimer(final long claim)
    {
        return claim & 0xFFFF_FFFFL;
    }

    /**
     * @param depth     packets in the queue.
     * @param bulkDepth bulk blocks in the queue.
     * @return offset of the bulk data blocks within a queue structure.
     */
    public static int bulkBlocksOffset(final int depth, final int bulkDepth)
    {
        return bulkFlagsOffset(depth) + bulkDepth * BULK_FLAG_LENGTH;
    }

    /**
     * @param type a state's type, in its low 32 bits.
     * @param pid  the pid recorded with it, in its high 32 bits.
     * @return the state word.
     */
    public static long state(final int type, final long pid)
    {
        return (pid << 32) | (type & 0xFFFF_FFFFL);
    }

    /**
     * @param state a state word.
     * @return its type.
     */
    public static int type(final long state)
    {
        return (int)state;
    }

    /**
     * @param state a state word.
     * @return the pid recorded in it.
     */
    public static long pid(final long state)
    {
        return state >>> 32;
    }

    static int align(final int value, final int alignment)
    {
        return (value + alignment - 1) & -alignment;
    }
}
