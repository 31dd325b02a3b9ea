package org.am2j.net;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Messages being put together from fragments, for one peer: a fixed number of entries, each a whole-body buffer
 * (allocated on first use) and the mask of the fragments received. A fragment for which no entry is free is
 * dropped; its sender retransmits the whole message later. Entries whose message is not completed within the
 * timeout are freed. Owned by the NIC agent's thread.
 */
final class Reassembly
{
    /** One message being reassembled. */
    static final class Entry
    {
        boolean used;
        boolean replyChannel;
        long sequence;
        int fragmentCount;
        long receivedMask;
        int receivedBytes;
        int bodyLength;
        long startedNanos;
        UnsafeBuffer body;
    }

    private final Entry[] entries;

    Reassembly(final int slots)
    {
        this.entries = new Entry[slots];
        for (int i = 0; i < slots; i++)
        {
            entries[i] = new Entry();
        }
    }

    /**
     * Add a fragment.
     *
     * @param replyChannel  channel of the message.
     * @param sequence      of the message.
     * @param fragmentIndex 0-based.
     * @param fragmentCount fragments of the message, 2 to 64.
     * @param bodyLength    length of the whole body.
     * @param from          buffer holding the fragment's bytes.
     * @param offset        of the bytes in {@code from}.
     * @param fragmentOffset where they go in the body.
     * @param length        number of bytes.
     * @param nowNanos      the time.
     * @return the entry when this fragment completed the message; null otherwise (also when there was no room or
     * the fragment contradicts earlier ones, which drops it).
     */
    Entry add(
        final boolean replyChannel, final long sequence, final int fragmentIndex, final int fragmentCount,
        final int bodyLength, final UnsafeBuffer from, final int offset, final int fragmentOffset, final int length,
        final long nowNanos)
    {
        Entry entry = null;
        Entry free = null;
        for (final Entry candidate : entries)
        {
            if (candidate.used)
            {
                if (candidate.sequence == sequence && candidate.replyChannel == replyChannel)
                {
                    entry = candidate;
                    break;
                }
            }
            else if (null == free)
            {
                free = candidate;
            }
        }
        if (null == entry)
        {
            if (null == free)
            {
                return null;
            }
            entry = free;
            entry.used = true;
            entry.replyChannel = replyChannel;
            entry.sequence = sequence;
            entry.fragmentCount = fragmentCount;
            entry.receivedMask = 0;
            entry.receivedBytes = 0;
            entry.bodyLength = bodyLength;
            entry.startedNanos = nowNanos;
            if (null == entry.body)
            {
                entry.body = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                    org.agrona.BitUtil.align(MessageDescriptor.MAX_BODY_LENGTH, 64), 64));
            }
        }
        else if (entry.fragmentCount != fragmentCount || entry.bodyLength != bodyLength)
        {
            return null;
        }
        if (0 != (entry.receivedMask & (1L << fragmentIndex)))
        {
            // A duplicated fragment: the bytes are there already.
            return null;
        }
        entry.body.putBytes(fragmentOffset, from, offset, length);
        entry.receivedMask |= 1L << fragmentIndex;
        entry.receivedBytes += length;
        final long complete = fragmentCount == Long.SIZE ? -1L : (1L << fragmentCount) - 1;
        if (entry.receivedMask != complete)
        {
            return null;
        }
        if (entry.receivedBytes != bodyLength)
        {
            // Every fragment came, but they do not cover the body (overlapping or short ones): garbage.
            entry.used = false;
            return null;
        }
        return entry;
    }

    /**
     * @param entry to free.
     */
    void release(final Entry entry)
    {
        entry.used = false;
    }

    /**
     * Free entries older than the timeout.
     *
     * @param nowNanos     the time.
     * @param timeoutNanos age limit.
     * @return number freed.
     */
    int expire(final long nowNanos, final long timeoutNanos)
    {
        int freed = 0;
        for (final Entry entry : entries)
        {
            if (entry.used && nowNanos - entry.startedNanos > timeoutNanos)
            {
                entry.used = false;
                freed++;
            }
        }
        return freed;
    }

    /**
     * Forget the fragments of a message (it was given up: none of it is ever delivered).
     *
     * @param replyChannel channel of the message.
     * @param sequence     of the message.
     */
    void discard(final boolean replyChannel, final long sequence)
    {
        for (final Entry entry : entries)
        {
            if (entry.used && entry.sequence == sequence && entry.replyChannel == replyChannel)
            {
                entry.used = false;
            }
        }
    }

    /**
     * Forget every message being put together (its peer died).
     */
    void clear()
    {
        for (final Entry entry : entries)
        {
            entry.used = false;
        }
    }

    boolean busy()
    {
        for (final Entry entry : entries)
        {
            if (entry.used)
            {
                return true;
            }
        }
        return false;
    }
}
