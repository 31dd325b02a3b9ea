package org.am2j.shm;

import static org.am2j.shm.ConnectionSlotDescriptor.*;
import static org.am2j.shm.QueueBlockDescriptor.pid;
import static org.am2j.shm.QueueBlockDescriptor.state;
import static org.am2j.shm.QueueBlockDescriptor.type;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ProcessIdentity;

/**
 * Operations on a queue block's connection table (see {@link ConnectionSlotDescriptor}): a sender claims a slot and
 * records its own queue block there; the owner reads a slot to build the inverse mapping of a message.
 */
final class ConnectionTable
{
    private ConnectionTable()
    {
    }

    /**
     * Claim a slot of {@code block} for a sender whose queue block is at {@code senderPath}.
     *
     * @return the slot index in the low 16 bits and its generation in the next 16 bits.
     * @throws AmException {@link AmError#RESOURCE} when every slot is held by a live sender.
     */
    static int claim(final QueueBlock block, final String senderPath, final String destination)
    {
        final byte[] path = senderPath.getBytes(StandardCharsets.UTF_8);
        if (path.length > MAX_PATH_LENGTH)
        {
            throw new AmException(AmError.BAD_ARG, "queue block path " + senderPath + " has " + path.length +
                " bytes, allowed [1, " + MAX_PATH_LENGTH + "]; shorten am2j.shm.dir or the job name");
        }
        final long pid = ProcessIdentity.currentPid();
        for (int attempt = 0; attempt < 2; attempt++)
        {
            for (int slot = 0; slot < block.slots; slot++)
            {
                final int offset = block.slotOffset(slot);
                final long current = block.buffer.getLongVolatile(offset + STATE_OFFSET);
                // CAS FREE -> CLAIMED: one sender owns the slot while it writes the path; the owner ignores a
                // slot that is not USED.
                if (FREE == type(current) &&
                    block.buffer.compareAndSetLong(offset + STATE_OFFSET, current, state(CLAIMED, pid)))
                {
                    final int generation = (block.buffer.getInt(offset + GENERATION_OFFSET) + 1) & 0xFFFF;
                    block.buffer.putInt(offset + GENERATION_OFFSET, generation);
                    block.buffer.putLong(offset + START_OFFSET, ProcessIdentity.currentStartTimeMs());
                    block.buffer.putLong(offset + sharedSentOffset(FastBoxDescriptor.REQUESTS), 0);
                    block.buffer.putLong(offset + sharedSentOffset(FastBoxDescriptor.REPLIES), 0);
                    block.buffer.putBytes(offset + PATH_OFFSET, path);
                    block.buffer.putInt(offset + PATH_LENGTH_OFFSET, path.length);
                    // Release store of USED: the owner that sees USED sees the generation, counts and path above.
                    block.buffer.putLongRelease(offset + STATE_OFFSET, state(USED, pid));
                    return slot | (generation << 16);
                }
            }
            sweepDead(block);
        }
        throw new AmException(AmError.RESOURCE, "connection table of " + destination + " is full: all " +
            block.slots + " slots are held by live senders (am2j.shm.slots)");
    }

    /**
     * Give a slot back, if it is still the one this process claimed.
     */
    static void release(final QueueBlock block, final int slot, final int generation)
    {
        final int offset = block.slotOffset(slot);
        final long current = block.buffer.getLongVolatile(offset + STATE_OFFSET);
        if (USED == type(current) && ProcessIdentity.currentPid() == pid(current) &&
            generation == block.buffer.getInt(offset + GENERATION_OFFSET))
        {
            // CAS USED -> FREE: only the claim this process made is given back, never a later claimer's.
            block.buffer.compareAndSetLong(offset + STATE_OFFSET, current, state(FREE, 0));
        }
    }

    /**
     * @return the path recorded in {@code slot} when it is in use with {@code generation}, else null.
     */
    static String path(final QueueBlock block, final int slot, final int generation)
    {
        if (slot < 0 || slot >= block.slots)
        {
            return null;
        }
        final UnsafeBuffer buffer = block.buffer;
        final int offset = block.slotOffset(slot);
        if (USED != type(buffer.getLongVolatile(offset + STATE_OFFSET)) ||
            generation != buffer.getInt(offset + GENERATION_OFFSET))
        {
            return null;
        }
        final int length = buffer.getInt(offset + PATH_LENGTH_OFFSET);
        if (length <= 0 || length > MAX_PATH_LENGTH)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset + PATH_OFFSET, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Free the slots held by processes that are gone.
     */
    static void sweepDead(final QueueBlock block)
    {
        for (int slot = 0; slot < block.slots; slot++)
        {
            final int offset = block.slotOffset(slot);
            final long current = block.buffer.getLongVolatile(offset + STATE_OFFSET);
            // A CLAIMED slot's start time may still be its previous holder's: judge it by pid alone.
            final long start = USED == type(current) ?
                block.buffer.getLong(offset + START_OFFSET) : ProcessIdentity.UNKNOWN_START_TIME;
            if (FREE != type(current) && !ProcessIdentity.isAlive(pid(current), start))
            {
                // CAS to FREE: a slot of a dead process is given back once, even with several sweepers.
                block.buffer.compareAndSetLong(offset + STATE_OFFSET, current, state(FREE, 0));
            }
        }
    }
}
