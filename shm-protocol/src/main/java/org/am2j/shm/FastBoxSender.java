package org.am2j.shm;

/**
 * The sender's side of one ring (request or reply) of a fast box it owns: its tail, kept to itself, and its cached
 * copy of the receiver's head and shared-consumed count, re-read only when they say no. No CAS and no atomic add: the
 * box has one writer, and the receiver never writes a line the sender reads on the common path. (The route adds one
 * store-load fence after the ready stamp, for the sleep and close handshakes: {@code ShmRoute.publishBoxed}.)
 * <p>
 * <b>Order across the box and the shared queue ("the overflow rule").</b> A message goes into the box only when every
 * message this pair put on the shared queue has been consumed: the route counts its shared sends, the receiver
 * publishes how many of the pair's shared messages it consumed, and the box is used only while the two are equal.
 * So once a message overflowed (the box was full), the pair stays on the shared queue until the receiver catches
 * up; and the receiver, before it delivers a shared message of a pair with a box, delivers what is ready in that
 * box. Together: the pair's messages arrive in the order they were sent.
 */
final class FastBoxSender
{
    private final FastBoxTable table;
    private final int ring;
    private final int depth;
    private final int headOffset;
    private final int consumedOffset;
    /** The next sequence to write: this sender's alone. */
    private long tail;
    /** The first sequence this sender wrote (for {@link #sent}). */
    private final long first;
    /** The receiver's head as last read. */
    private long cachedHead;
    /** The receiver's shared-consumed word (1 + its count; 0 while it has not bound the box) as last read. */
    private long consumedSeen;

    FastBoxSender(final FastBoxTable table, final int box, final int ring)
    {
        this.table = table;
        this.ring = table.ringOffset(box, ring);
        this.depth = table.depth;
        this.headOffset = table.headOffset(box, ring);
        this.consumedOffset = table.consumedOffset(box, ring);
        // A new owner goes on from the head the receiver published when it let the box go (or 0): every sequence
        // below it is consumed, and their stamps never equal the ready stamp of one at or above it.
        final long head = table.getAcquire(headOffset);
        this.tail = head;
        this.first = head;
        this.cachedHead = head;
        this.consumedSeen = -1;
    }

    /**
     * @param sharedSent messages this pair has put on the shared queue of this ring's kind.
     * @return offset of the packet to fill for the next message, or -1 when the message must go to the shared queue
     * (the box is full, or the receiver has not consumed every shared message of the pair yet).
     */
    int next(final long sharedSent)
    {
        // The receiver publishes 1 + its count once it has bound the box (0 before): a box it does not read yet is
        // never written, whatever happened to the first contact.
        final long expected = sharedSent + 1;
        if (expected != consumedSeen)
        {
            // Acquire: the count the receiver published after handing the pair's shared messages over.
            consumedSeen = table.getAcquire(consumedOffset);
            if (expected != consumedSeen)
            {
                return -1;
            }
        }
        final long tail = this.tail;
        if (tail - cachedHead >= depth || tail < cachedHead)
        {
            // Acquire: the receiver publishes its head after it is done with the packets below it.
            cachedHead = table.getAcquire(headOffset);
            if (tail - cachedHead >= depth || tail < cachedHead)
            {
                return -1;
            }
        }
        return table.packetOffset(ring, tail);
    }

    /**
     * Make the packet {@link #next} gave ready.
     *
     * @param packet the packet, filled.
     * @return its sequence number.
     */
    long publish(final int packet)
    {
        final long sequence = tail;
        // Release store of the ready stamp: the receiver that reads it sees every field and byte written before.
        table.stampRelease(packet, FastBoxDescriptor.ready(sequence));
        tail = sequence + 1;
        return sequence;
    }

    /**
     * @return messages this sender put into the ring (diagnostics and tests).
     */
    long sent()
    {
        return tail - first;
    }

    /**
     * The queue block was found closed after {@code sequence} was published: take the packet back unless the owner
     * has it (docs/shm-protocol.md, "Fast boxes").
     *
     * @return true when the message was withdrawn (the sender gets it back); false when the owner consumed it or
     * took it to return it.
     */
    boolean withdraw(final int packet, final long sequence)
    {
        // The owner published its head before it stored CLOSED, and we read CLOSED: a head past the sequence means
        // a poll delivered the message.
        if (table.getAcquire(headOffset) > sequence)
        {
            return false;
        }
        // CAS of the ready stamp to taken(sequence), against the closing owner's CAS of the same stamp: one of the two
        // wins.
        return table.casStamp(packet, FastBoxDescriptor.ready(sequence), FastBoxDescriptor.taken(sequence));
    }
}
