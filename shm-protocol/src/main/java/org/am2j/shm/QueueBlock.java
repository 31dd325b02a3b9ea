package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.*;

import java.nio.charset.StandardCharsets;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Flyweight over a mapped queue block (see {@link QueueBlockDescriptor}): header fields, the connection table and
 * the two queue structures.
 */
final class QueueBlock
{
    final UnsafeBuffer buffer;
    final PacketQueue requests;
    final PacketQueue replies;
    final int slots;
    /** The fast boxes (an empty table when the block has none). */
    final FastBoxTable boxes;
    /** The heap array behind the buffer, or null for mapped memory (see {@link #state()}). */
    private final byte[] array;
    /** The buffer's address offset. */
    private final long address;
    /** The owner's copy of its header, to repair it; null in a sender's view of another's block. */
    private HeaderGuard guard;

    private QueueBlock(final UnsafeBuffer buffer, final int slots, final int requestDepth, final int replyDepth,
        final int bulkDepth, final int boxes, final int boxDepth)
    {
        this.buffer = buffer;
        this.array = buffer.byteArray();
        this.address = buffer.addressOffset();
        this.slots = slots;
        this.requests = new PacketQueue(buffer, requestQueueOffset(slots), requestDepth, bulkDepth);
        this.replies = new PacketQueue(buffer, replyQueueOffset(slots, requestDepth, bulkDepth), replyDepth, bulkDepth);
        this.boxes = new FastBoxTable(
            buffer, boxTableOffset(slots, requestDepth, replyDepth, bulkDepth), boxes, boxDepth);
    }

    /**
     * Lay out a new queue block in zeroed memory; its state stays {@link QueueBlockDescriptor#STATE_OPENING} until
     * {@link #open(byte[])}.
     */
    static QueueBlock format(
        final UnsafeBuffer buffer, final ShmConfig config, final long pid, final long startMs, final long processId,
        final int endpointId, final String doorbellPath)
    {
        buffer.putInt(VERSION_OFFSET, VERSION);
        buffer.putInt(REQUEST_DEPTH_OFFSET, config.requestDepth);
        buffer.putInt(REPLY_DEPTH_OFFSET, config.replyDepth);
        buffer.putInt(BULK_DEPTH_OFFSET, config.bulkDepth);
        buffer.putInt(SLOTS_OFFSET, config.slots);
        buffer.putInt(BOXES_OFFSET, config.boxes);
        buffer.putInt(BOX_DEPTH_OFFSET, config.boxDepth);
        buffer.putLong(OWNER_PID_OFFSET, pid);
        buffer.putLong(OWNER_START_OFFSET, startMs);
        buffer.putLong(OWNER_PROCESS_ID_OFFSET, processId);
        buffer.putInt(ENDPOINT_ID_OFFSET, endpointId);
        putPath(buffer, DOORBELL_PATH_OFFSET, doorbellPath);
        buffer.putInt(SEGMENT_LENGTH_OFFSET, 0);
        final QueueBlock block = new QueueBlock(
            buffer, config.slots, config.requestDepth, config.replyDepth, config.bulkDepth, config.boxes,
            config.boxDepth);
        // No packet names a bulk block before its first sender: a claimer that dies before writing the field must
        // not leave the zeroed file's 0, which names block 0.
        clearBulkIndices(block.requests);
        clearBulkIndices(block.replies);
        // Release store of the magic last: a reader that sees the magic sees every field above.
        buffer.putIntRelease(MAGIC_OFFSET, MAGIC);
        block.guard = new HeaderGuard(buffer, "queue block of endpoint " + endpointId);
        return block;
    }

    private static void clearBulkIndices(final PacketQueue queue)
    {
        for (int i = 0; i < queue.depth; i++)
        {
            queue.buffer.putShort(queue.packetOffset(i) + PacketDescriptor.BULK_INDEX_OFFSET,
                (short)PacketDescriptor.NO_BULK);
        }
    }

    /**
     * Wrap a queue block another process laid out, checking every size field against the mapping.
     *
     * @throws AmException {@link AmError#BAD_ARG} when it is not a valid open queue block.
     */
    static QueueBlock wrap(final UnsafeBuffer buffer, final String what)
    {
        if (buffer.capacity() < SLOTS_TABLE_OFFSET || MAGIC != buffer.getIntVolatile(MAGIC_OFFSET) ||
            VERSION != buffer.getInt(VERSION_OFFSET))
        {
            throw new AmException(AmError.BAD_ARG, what + " is not an am2j queue block of version " + VERSION);
        }
        final int requestDepth = buffer.getInt(REQUEST_DEPTH_OFFSET);
        final int replyDepth = buffer.getInt(REPLY_DEPTH_OFFSET);
        final int bulkDepth = buffer.getInt(BULK_DEPTH_OFFSET);
        final int slots = buffer.getInt(SLOTS_OFFSET);
        final int boxes = buffer.getInt(BOXES_OFFSET);
        final int boxDepth = buffer.getInt(BOX_DEPTH_OFFSET);
        if (!ShmConfig.validDepth(requestDepth) || !ShmConfig.validDepth(replyDepth) ||
            !ShmConfig.validBulkDepth(bulkDepth) || !ShmConfig.validSlots(slots) || !ShmConfig.validBoxes(boxes) ||
            !ShmConfig.validBoxDepth(boxDepth) ||
            (long)length(slots, requestDepth, replyDepth, bulkDepth, boxes, boxDepth) != buffer.capacity())
        {
            throw new AmException(AmError.BAD_ARG, what + " has inconsistent sizes: depths " + requestDepth + "/" +
                replyDepth + ", bulk " + bulkDepth + ", slots " + slots + ", fast boxes " + boxes + " of depth " +
                boxDepth + ", " + buffer.capacity() + " bytes");
        }
        return new QueueBlock(buffer, slots, requestDepth, replyDepth, bulkDepth, boxes, boxDepth);
    }

    void open(final byte[] encodedName)
    {
        synchronized (guard)
        {
            buffer.putBytes(NAME_OFFSET, encodedName);
            buffer.putInt(NAME_LENGTH_OFFSET, encodedName.length);
            // Release store: a sender that sees OPEN sees the name and the tag written before it.
            buffer.putIntRelease(STATE_OFFSET, STATE_OPEN);
            guard.record(NAME_OFFSET, encodedName.length);
            guard.record(NAME_LENGTH_OFFSET, 4);
            guard.record(STATE_OFFSET, 4);
        }
    }

    void close()
    {
        synchronized (guard)
        {
            // Volatile store (a full fence after it): senders that read CLOSED (and find the file gone, which the
            // owner removed before) refuse further messages (EBADENDPOINT / EREPLYREJECTED), and the owner's reads of
            // each queue's tail and each box's writing words that follow cannot pass it. That is the owner's half of
            // the Dekker pairs with a sender's tail CAS or box reservation then state read (ShmRoute.takePacket,
            // reserveBoxed): either the owner sees the sender's assignment, or the sender sees CLOSED and withdraws.
            buffer.putIntVolatile(STATE_OFFSET, STATE_CLOSED);
            guard.record(STATE_OFFSET, 4);
        }
    }

    /**
     * The owner's check of its header ({@link HeaderGuard}): what another process wrote over it is written back.
     *
     * @return true when the header had been overwritten.
     */
    boolean checkHeader()
    {
        return guard.check();
    }

    /**
     * @return how many of the owner's checks found its header overwritten.
     */
    long headerRepairs()
    {
        return guard.repairs();
    }

    /*
     * state(), tag() and takeRing() are read on every send: unchecked reads of header fields, which lie below
     * SLOTS_TABLE_OFFSET, the least capacity format() and wrap() accept.
     */

    int state()
    {
        return UnsafeApi.getIntVolatile(array, address + STATE_OFFSET);
    }

    long ownerPid()
    {
        return buffer.getLong(OWNER_PID_OFFSET);
    }

    long ownerStartMs()
    {
        return buffer.getLong(OWNER_START_OFFSET);
    }

    long ownerProcessId()
    {
        return buffer.getLong(OWNER_PROCESS_ID_OFFSET);
    }

    long tag()
    {
        return UnsafeApi.getLongVolatile(array, address + TAG_OFFSET);
    }

    void tag(final long tag)
    {
        synchronized (guard)
        {
            // Release store: senders check the copy before they touch the queues.
            buffer.putLongRelease(TAG_OFFSET, tag);
            guard.record(TAG_OFFSET, 8);
        }
    }

    boolean isSleeping()
    {
        return AWAKE != UnsafeApi.getIntVolatile(array, address + SLEEPING_OFFSET);
    }

    /**
     * A sender that has queued a message asks whether it must ring the owner's doorbell: yes when the owner sleeps
     * and no sender has rung since it last said so. The first sender to see the flag turns it to RUNG; the ones
     * after it see RUNG and do not ring, so a sleep costs one ring (a futex wake, plus a datagram when the owner
     * sleeps in its network transport) rather than one per message sent while the sleeper wakes up.
     *
     * @return true when the caller took the ring and must ring.
     */
    boolean takeRing()
    {
        final long offset = address + SLEEPING_OFFSET;
        final int flag = UnsafeApi.getIntVolatile(array, offset);
        // CAS to RUNG: exactly one sender per sleep takes the ring. Any other non-zero value (garbage included)
        // counts as sleeping, so a faulty flag costs rings, never a wake-up. A sender that dies between this CAS and
        // its ring delays the sleeper by one sleep slice, after which it publishes SLEEPING again and looks at its
        // queues.
        return AWAKE != flag && RUNG != flag && UnsafeApi.compareAndSetInt(array, offset, flag, RUNG);
    }

    void sleeping(final boolean sleeping)
    {
        // Volatile store, then the owner's volatile reads of the queues' tails and heads (hasPending): the Dekker pair
        // with a sender's tail CAS then sleeping-flag read. One of the two sees the other, so no wake-up is lost.
        // Stored again before every sleep slice, so a RUNG left by the previous slice's ring is replaced.
        buffer.putIntVolatile(SLEEPING_OFFSET, sleeping ? SLEEPING : AWAKE);
    }

    int segmentGeneration()
    {
        return buffer.getIntVolatile(SEGMENT_GENERATION_OFFSET);
    }

    int segmentLength()
    {
        return buffer.getInt(SEGMENT_LENGTH_OFFSET);
    }

    String segmentPath()
    {
        return getPath(buffer, SEGMENT_PATH_OFFSET);
    }

    void segment(final String path, final int length)
    {
        synchronized (guard)
        {
            // The guard's check first: a generation overwritten with garbage is not counted on from.
            guard.check();
            putPath(buffer, SEGMENT_PATH_OFFSET, null == path ? "" : path);
            buffer.putInt(SEGMENT_LENGTH_OFFSET, length);
            // Release store of the new generation: a sender that sees it sees the path and length above.
            buffer.putIntRelease(SEGMENT_GENERATION_OFFSET, buffer.getInt(SEGMENT_GENERATION_OFFSET) + 1);
            guard.record(SEGMENT_GENERATION_OFFSET, HeaderGuard.SEGMENT_AREA);
        }
    }

    String doorbellPath()
    {
        return getPath(buffer, DOORBELL_PATH_OFFSET);
    }

    byte[] encodedName()
    {
        final int length = buffer.getInt(NAME_LENGTH_OFFSET);
        if (length <= 0 || length > NAME_CAPACITY)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(NAME_OFFSET, bytes);
        return bytes;
    }

    int slotOffset(final int slot)
    {
        return SLOTS_TABLE_OFFSET + slot * ConnectionSlotDescriptor.LENGTH;
    }

    static void putPath(final UnsafeBuffer buffer, final int offset, final String path)
    {
        final byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_PATH_LENGTH)
        {
            throw new AmException(AmError.BAD_ARG, "path " + path + " has " + bytes.length + " bytes, allowed [0, " +
                MAX_PATH_LENGTH + "]");
        }
        buffer.putBytes(offset + 4, bytes);
        buffer.putInt(offset, bytes.length);
    }

    static String getPath(final UnsafeBuffer buffer, final int offset)
    {
        final int length = buffer.getInt(offset);
        if (length <= 0 || length > MAX_PATH_LENGTH)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset + 4, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
