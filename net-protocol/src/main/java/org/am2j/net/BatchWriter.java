package org.am2j.net;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Several messages for one peer in one datagram: while the NIC drains the send queues, each message drained is
 * assigned its window slot and sequence as before and then held here, per peer; at the end of the drain
 * ({@link #flush()}) every peer's held messages go out, as many to a datagram as fit its size limit
 * ({@link WireDescriptor#TYPE_BATCH}, {@link BatchDescriptor}). A peer with one message held gets it as the plain
 * {@link WireDescriptor#TYPE_DATA} datagram it would have had, straight from its slot: a lone message costs what it
 * did, and nothing waits for a timer, only for the end of the drain it came in. Messages that need fragments, and
 * retransmissions, go singly; a message that goes singly first sends what its peer has held, so a peer receives each
 * channel's messages in the order they were drained. Agent thread.
 */
final class BatchWriter
{
    private final FrameWriter writer;
    private final NicCounters counters;
    private final int limit;
    private final ByteBuffer batchBuffer;
    private final UnsafeBuffer batch;
    /** Peers with held messages, in the order they got their first. */
    private Peer[] listed = new Peer[16];
    private int listedCount;

    BatchWriter(final FrameWriter writer, final NicCounters counters)
    {
        this.writer = writer;
        this.counters = counters;
        this.limit = writer.datagramLimit();
        this.batchBuffer = FrameWriter.direct(limit);
        this.batch = new UnsafeBuffer(batchBuffer);
    }

    /**
     * Send a message just assigned to its slot with the others drained for its peer, at the latest at
     * {@link #flush()}.
     *
     * @param peer         its destination, not known dead.
     * @param replyChannel its channel.
     * @param slot         assigned, its body written and {@link FrameWriter#start} done.
     */
    void add(final Peer peer, final boolean replyChannel, final WindowSlot slot)
    {
        final PendingBatch pending = peer.pending;
        final int entryLength = BatchDescriptor.entryLength(slot.bodyLength);
        if (BatchDescriptor.FIRST_ENTRY_OFFSET + entryLength + WireDescriptor.TAG_LENGTH > limit)
        {
            // Too large for a batch (it goes in fragments, or alone): after what was drained before it.
            flush(peer);
            writer.transmit(peer, replyChannel, slot);
            return;
        }
        if (BatchDescriptor.FIRST_ENTRY_OFFSET + pending.entryBytes + entryLength + WireDescriptor.TAG_LENGTH > limit)
        {
            flush(peer);
        }
        pending.add(slot, replyChannel, entryLength);
        if (!pending.listed)
        {
            pending.listed = true;
            if (listedCount == listed.length)
            {
                // Grows once to the number of peers one drain reaches; steady state allocates nothing.
                listed = java.util.Arrays.copyOf(listed, 2 * listed.length);
            }
            listed[listedCount++] = peer;
        }
    }

    /**
     * Send every peer's held messages. Called at the end of each drain of the send queues.
     */
    void flush()
    {
        for (int i = 0; i < listedCount; i++)
        {
            final Peer peer = listed[i];
            listed[i] = null;
            peer.pending.listed = false;
            flush(peer);
        }
        listedCount = 0;
    }

    /**
     * Send what is held for one peer now: a lone message as a plain DATA datagram from its slot, several in one batch.
     *
     * @param peer whose held messages go out (it stays listed; {@link #flush()} finds nothing held then).
     */
    void flush(final Peer peer)
    {
        final PendingBatch pending = peer.pending;
        final int count = pending.count;
        if (0 == count)
        {
            return;
        }
        if (1 == count)
        {
            final WindowSlot slot = pending.slots[0];
            final boolean replyChannel = pending.replyChannel[0];
            pending.clear();
            writer.transmit(peer, replyChannel, slot);
            return;
        }
        if (null == peer.session)
        {
            // No session yet: the messages wait in their slots (their timers armed) for the handshake to complete.
            writer.handshake(peer);
            for (int i = 0; i < count; i++)
            {
                writer.sent(peer, pending.slots[i]);
            }
            pending.clear();
            return;
        }
        writer.writeHeader(batch, WireDescriptor.TYPE_BATCH, 0, peer, 0);
        batch.putInt(BatchDescriptor.COUNT_OFFSET, count);
        batch.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
        int offset = BatchDescriptor.FIRST_ENTRY_OFFSET;
        for (int i = 0; i < count; i++)
        {
            final WindowSlot slot = pending.slots[i];
            offset = BatchDescriptor.putEntry(batch, offset, slot.sequence, pending.replyChannel[i], slot.view,
                WireDescriptor.HEADER_LENGTH, slot.bodyLength);
        }
        writer.send(batchBuffer, batch, offset, peer, false);
        counters.increment(NicEvent.BATCHES_SENT);
        for (int i = 0; i < count; i++)
        {
            pending.slots[i].sentIn = peer.session;
            writer.sent(peer, pending.slots[i]);
            counters.increment(NicEvent.BATCHED_MESSAGES);
        }
        pending.clear();
    }
}
