package org.am2j.shm;

/**
 * The sender's side of one ring (request or reply) of a fast box it owns: its tail, kept to itself, and its cached
 * copy of the receiver's head and shared-consumed count, re-read only when they say no. No CAS and no atomic add: the
 * box has one writer, and the receiver never writes a line the sender reads on the common path. The sender writes
 * its reservation in the box's owner area (the writing word, a line the receiver reads only before it sleeps, when
 * it lets a box go, and when it closes), and the route fences once after it, for the sleep, close and let-go
 * handshakes ({@code ShmRoute.reserveBoxed}).
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
    /** {@link #next}: the box is not this sender's any more (its receiver let it go, or its owner word changed). */
    static final int LOST = -2;

    private final FastBoxTable table;
    private final int box;
    private final long ownerWord;
    private final int ring;
    private final int depth;
    private final int headOffset;
    private final int consumedOffset;
    private final int writingOffset;
    /** The next sequence to write: this sender's alone. */
    private long tail;
    /** The first sequence this sender wrote (for {@link #sent}). */
    private final long first;
    /** The receiver's head as last read. */
    private long cachedHead;
    /** The receiver's shared-consumed word (1 + its count; 0 while it has not bound the box) as last read. */
    private long consumedSeen;

    /**
     * @param ownerWord the owner word this sender's claim stored in the box.
     */
    FastBoxSender(final FastBoxTable table, final int box, final int ring, final long ownerWord)
    {
        // A new owner goes on from the head the receiver published when it let the box go (or 0): every sequence
        // below it is consumed, and their stamps never equal the ready stamp of one at or above it.
        this(table, box, ring, ownerWord, table.getAcquire(table.headOffset(box, ring)));
    }

    /**
     * A sender that goes on in a box from its own tail: one that found its box's owner word overwritten, gave the box
     * up, and finds the word its own again (its receiver wrote it back). Its tail is the truth, whatever the receiver's
     * head word says: the receiver is at or below it, and skips and counts what a faulty writer spoiled below it.
     *
     * @param tail the next sequence to write.
     */
    FastBoxSender(final FastBoxTable table, final int box, final int ring, final long ownerWord, final long tail)
    {
        this.table = table;
        this.box = box;
        this.ownerWord = ownerWord;
        this.ring = table.ringOffset(box, ring);
        this.depth = table.depth;
        this.headOffset = table.headOffset(box, ring);
        this.consumedOffset = table.consumedOffset(box, ring);
        this.writingOffset = table.writingOffset(box, ring);
        this.tail = tail;
        this.first = tail;
        // As if the ring were full: the first send reads the receiver's head.
        this.cachedHead = tail - depth;
        this.consumedSeen = -1;
        // Release store: no reservation of ours yet (a previous owner's word would say one is being written).
        table.putRelease(writingOffset, tail);
    }

    /**
     * @param sharedSent messages this pair has put on the shared queue of this ring's kind.
     * @return offset of the packet to fill for the next message; -1 when the message must go to the shared queue
     * (the box is full, or the receiver has not consumed every shared message of the pair yet); {@link #LOST} when
     * the box is not this sender's any more.
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
            if (table.owner(box) != ownerWord)
            {
                // Let go, or overwritten: a count read now may be another owner's binding, and must not be taken
                // for ours.
                return LOST;
            }
            if (expected != consumedSeen)
            {
                return -1;
            }
        }
        final long tail = this.tail;
        if (tail - cachedHead >= depth || tail - cachedHead < 0)
        {
            // Acquire: the receiver publishes its head after it is done with the packets below it. A head that went
            // back, or past our tail, is not the receiver's (a faulty writer's): the box is full until it is.
            final long head = table.getAcquire(headOffset);
            if (head - cachedHead >= 0 && tail - head >= 0)
            {
                cachedHead = head;
            }
            if (tail - cachedHead >= depth || tail - cachedHead < 0)
            {
                return -1;
            }
        }
        return table.packetOffset(ring, tail);
    }

    /**
     * Reserve the packet {@link #next} gave: from this store on, the receiver knows a message may be written there.
     * The caller fences next, then reads the owner's state and {@link #lost()}, and either fills and
     * {@link #publish publishes} the packet or {@link #cancel cancels} the reservation.
     */
    void reserve()
    {
        // Release store of 1 + the sequence (the stamp we would give it): ordered after the stamp of the sequence
        // before it, so a receiver that reads the word past a sequence reads that sequence's stamp too.
        table.putRelease(writingOffset, tail + 1);
    }

    /**
     * Undo {@link #reserve}: nothing was written into the packet.
     */
    void cancel()
    {
        // Release store of our tail: no message is being written.
        table.putRelease(writingOffset, tail);
    }

    /**
     * Store the writing word again when it is not this sender's tail (a faulty writer overwrote it): the receiver
     * reads it to tell what is owed below it. Called between sends, by the box's thread.
     */
    void republish()
    {
        if (table.getAcquire(writingOffset) != tail)
        {
            cancel();
        }
    }

    /**
     * @return true when the box's owner word is not this sender's any more: the receiver is letting the box go (or
     * the word was overwritten), and a message must go to the shared queue.
     */
    boolean lost()
    {
        return table.owner(box) != ownerWord;
    }

    /**
     * Make the packet {@link #next} gave, reserved and filled, ready.
     *
     * @param packet the packet, filled.
     */
    void publish(final int packet)
    {
        // Release store of the ready stamp: the receiver that reads it sees every field and byte written before.
        table.stampRelease(packet, FastBoxDescriptor.ready(tail));
        tail++;
    }

    /**
     * @return the next sequence this sender writes.
     */
    long tail()
    {
        return tail;
    }

    /**
     * @return messages this sender put into the ring (diagnostics and tests).
     */
    long sent()
    {
        return tail - first;
    }
}
