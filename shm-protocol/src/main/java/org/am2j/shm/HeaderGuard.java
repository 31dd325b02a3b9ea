package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.DOORBELL_PATH_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.MAX_PATH_LENGTH;
import static org.am2j.shm.QueueBlockDescriptor.NAME_CAPACITY;
import static org.am2j.shm.QueueBlockDescriptor.NAME_LENGTH_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.NAME_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.SEGMENT_GENERATION_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.SEGMENT_PATH_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.SLOTS_TABLE_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OFFSET;
import static org.am2j.shm.QueueBlockDescriptor.TAG_OFFSET;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The owner's private copy of the header of its queue block: every field the owner writes (the sizes, its identity,
 * the state, the tag, the segment, the doorbell path and the endpoint name). Another process can write anything into
 * the shared header; senders would then refuse every message (a state that is not OPEN, a wrong tag) or fail to
 * connect, for as long as the garbage stays. The owner compares the shared header with its copy now and then (from its
 * polls: {@link PacketReceiver}) and writes back what differs, so peers recover within a poll or so of the owner's.
 * The sleeping flag is not covered: senders write it too, and any garbage there reads as asleep (a ring too many).
 * <p>
 * Thread-safe: the owner's own header writes ({@link QueueBlock#open}, {@code close}, {@code tag}, {@code segment})
 * and the checks are serialised on this object, so a check never takes a field the owner is changing for garbage.
 */
final class HeaderGuard
{
    private static final System.Logger LOGGER = System.getLogger("org.am2j.shm");

    /** The areas of the header the owner writes: fixed fields and state, tag, segment, doorbell path, name. */
    private static final int FIXED_LENGTH = 64;
    private static final int TAG_LENGTH = 8;
    /** Bytes of the segment area: generation, length, path. */
    static final int SEGMENT_AREA = SEGMENT_PATH_OFFSET - SEGMENT_GENERATION_OFFSET + 4 + MAX_PATH_LENGTH;
    private static final int DOORBELL_LENGTH = 4 + MAX_PATH_LENGTH;

    private final UnsafeBuffer shared;
    private final UnsafeBuffer truth = new UnsafeBuffer(new byte[SLOTS_TABLE_OFFSET]);
    private final String what;
    private long repairs;

    HeaderGuard(final UnsafeBuffer shared, final String what)
    {
        this.shared = shared;
        this.what = what;
        record(0, SLOTS_TABLE_OFFSET);
    }

    /**
     * Take an area of the shared header as the owner has just written it as the truth: called under this object's
     * lock after each of the owner's writes, for the area written only (garbage elsewhere must not become truth).
     *
     * @param offset of the area.
     * @param length of the area.
     */
    void record(final int offset, final int length)
    {
        truth.putBytes(offset, shared, offset, length);
    }

    /**
     * Compare the shared header with the owner's copy and write back every area that differs; the state last, with a
     * release store, so a sender that reads it OPEN again reads the repaired tag and name too.
     *
     * @return true when something was repaired.
     */
    synchronized boolean check()
    {
        boolean repaired = repair(0, FIXED_LENGTH);
        repaired |= repair(TAG_OFFSET, TAG_LENGTH);
        repaired |= repair(SEGMENT_GENERATION_OFFSET, SEGMENT_AREA);
        repaired |= repair(DOORBELL_PATH_OFFSET, DOORBELL_LENGTH);
        final int nameLength = truth.getInt(NAME_LENGTH_OFFSET);
        if (nameLength > 0 && nameLength <= NAME_CAPACITY)
        {
            repaired |= repair(NAME_OFFSET, nameLength);
        }
        if (repaired)
        {
            // Release store of the state after the areas above (and a full fence from the volatile store): a sender
            // that reads the state sees the repaired header.
            shared.putIntVolatile(STATE_OFFSET, truth.getInt(STATE_OFFSET));
            if (0 == repairs++)
            {
                LOGGER.log(System.Logger.Level.WARNING, "am2j shm: the header of " + what + " was overwritten by " +
                    "another process; repaired (a faulty or hostile process of this user writes into shared memory)");
            }
        }
        return repaired;
    }

    private boolean repair(final int offset, final int length)
    {
        final int end = offset + length;
        boolean differs = false;
        int i = offset;
        for (; i + 8 <= end; i += 8)
        {
            if (shared.getLong(i) != truth.getLong(i))
            {
                differs = true;
                break;
            }
        }
        for (; !differs && i < end; i++)
        {
            differs = shared.getByte(i) != truth.getByte(i);
        }
        if (differs)
        {
            shared.putBytes(offset, truth, offset, length);
        }
        return differs;
    }

    /**
     * @return how many checks found the header overwritten.
     */
    synchronized long repairs()
    {
        return repairs;
    }
}
