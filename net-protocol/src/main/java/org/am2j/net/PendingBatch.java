package org.am2j.net;

/**
 * The messages a drain of the send queues assigned to one peer's windows and has not sent yet, in the order they were
 * drained ({@link BatchWriter}). At most both windows' worth: every one holds a window slot. NIC thread.
 */
final class PendingBatch
{
    final WindowSlot[] slots;
    final boolean[] replyChannel;
    int count;
    /** Bytes the entries take in a batch datagram ({@link BatchDescriptor#entryLength(int)} summed). */
    int entryBytes;
    /** The peer is in the writer's list of peers with pending messages. */
    boolean listed;

    PendingBatch(final int capacity)
    {
        this.slots = new WindowSlot[capacity];
        this.replyChannel = new boolean[capacity];
    }

    void add(final WindowSlot slot, final boolean reply, final int entryLength)
    {
        slots[count] = slot;
        replyChannel[count] = reply;
        count++;
        entryBytes += entryLength;
    }

    void clear()
    {
        java.util.Arrays.fill(slots, 0, count, null);
        count = 0;
        entryBytes = 0;
    }
}
