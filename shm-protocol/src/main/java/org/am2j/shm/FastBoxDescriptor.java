package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.HOT_LINE;

/**
 * Layout of the <b>fast boxes</b> of a queue block: single-producer rings, one per sending endpoint that talks to
 * this one, up to a cap ({@code am2j.shm.boxes}). A box has a request ring and a reply ring of 64-byte packets
 * (the {@link PacketDescriptor} layout, whose state word holds a sequence stamp here). Only the box's sender writes
 * its packets; the receiver reads them and never writes a line the sender polls. The box table follows the reply
 * queue structure, aligned to 4096 bytes:
 * <pre>
 *  offset                                                                      written by
 *  +0        generation (long), bumped by each claim of a box           senders (atomic add, on claim only)
 *  +128      box 0
 *  +128+L    box 1 ... (L = {@link #boxLength(int)})
 *
 *  one box:
 *  +0        owner area, 128 bytes:                                     the claiming sender (CAS FREE -> owner),
 *              +0 owner word (long): 0 FREE, else pid &lt;&lt; 32 | inverse      the receiver (RETIRING, then FREE,
 *                 ({@link #RETIRING} while the receiver lets go)           when it lets go)
 *              +8 released (int): 1 once the sender's route is closed   the sender
 *              +16 request ring's writing word (long): 1 + the sequence  the sender (a plain store per message)
 *                 the sender may be writing (its reservation), its tail
 *                 when it writes none
 *              +24 reply ring's writing word (long)                     the sender
 *  +128      request ring's receiver area, 128 bytes:                   receiver only
 *              +0 head (long): next sequence the receiver will read,
 *                 published lazily (once per poll that read something)
 *              +8 shared consumed (long): 1 + messages of this pair the
 *                 receiver took from the shared request queue; 0 while
 *                 the receiver has not bound the box
 *  +256      reply ring's receiver area (the same for the reply queue)  receiver only
 *  +384      request ring: depth x 64-byte packets                      the sender only
 *  +384+64d  reply ring: depth x 64-byte packets                        the sender only
 * </pre>
 * <b>Sequence stamps.</b> Sequences of a ring count up for the life of the queue block (a new owner of a box goes
 * on from the head its previous owner left), and the packet of sequence {@code s} is at {@code s mod depth}. The
 * sender fills the packet with plain stores, then stores its state word {@link #ready(long)}, {@code s + 1}, with a
 * release store. The receiver, at head {@code h}, delivers the packet when its state word is {@code h + 1}: a stamp
 * of an earlier lap or a zeroed word never equals it, so the receiver never has to clear a packet. The sender keeps
 * its tail to itself and knows a packet is free when its cached copy of the receiver's head says so (re-read only
 * when the ring looks full).
 * <p>
 * <b>Reservation.</b> Before it writes the packet of sequence {@code s}, the sender stores {@code s + 1} in the ring's
 * writing word, fences, and only then reads the owner's state and the box's owner word: a sender that finds the block
 * closed, or the box no longer its own, stores {@code s} back and has sent nothing. So a message is refused before it
 * is written or not at all: a stamped packet is the receiver's to deliver, or to return when it closes, and no word
 * of the receiver's makes its sender take one back (docs/shm-protocol.md, "Fast boxes"). The writing word also
 * tells the receiver where its sender is: a head packet that is not ready while the word is past it was spoiled by a
 * faulty writer, and is skipped after a bounded time and counted.
 */
public final class FastBoxDescriptor
{
    /** Most boxes a queue block may have (the cap's upper bound). */
    public static final int MAX_BOXES = 64;

    /** Offset of the table generation within the box table (long). */
    public static final int GENERATION_OFFSET = 0;
    /** Offset of box 0 within the box table. */
    public static final int BOXES_OFFSET = HOT_LINE;

    /** Offset of the owner word within a box (long). */
    public static final int OWNER_OFFSET = 0;
    /** Offset of the released flag within a box (int). */
    public static final int RELEASED_OFFSET = 8;
    /** Offset of the request ring's writing word within a box (long); the reply ring's follows it. */
    public static final int WRITING_OFFSET = 16;
    /** Offset of the request ring's receiver area within a box. */
    public static final int REQUEST_RECEIVER_OFFSET = HOT_LINE;
    /** Offset of the reply ring's receiver area within a box. */
    public static final int REPLY_RECEIVER_OFFSET = 2 * HOT_LINE;
    /** Offset of the head within a ring's receiver area (long). */
    public static final int HEAD_OFFSET = 0;
    /** Offset of the shared-consumed count within a ring's receiver area (long). */
    public static final int SHARED_CONSUMED_OFFSET = 8;
    /** Offset of the request ring within a box. */
    public static final int RINGS_OFFSET = 3 * HOT_LINE;

    /** Owner word of a free box. */
    public static final long FREE = 0;
    /**
     * Owner word of a box its receiver is letting go of: no sender's (pid 0xFFFFFFFF is no process), so the sender that
     * reads it after its reservation stores its reservation back and uses the shared queue.
     */
    public static final long RETIRING = -1L;

    /** Ring index of the request ring. */
    public static final int REQUESTS = 0;
    /** Ring index of the reply ring. */
    public static final int REPLIES = 1;

    private FastBoxDescriptor()
    {
    }

    /**
     * @param boxes    boxes in the table.
     * @param boxDepth packets per ring.
     * @return bytes of the box table, a multiple of 4096 (0 without boxes).
     */
    public static int tableLength(final int boxes, final int boxDepth)
    {
        return 0 == boxes ? 0 : QueueBlockDescriptor.align(BOXES_OFFSET + boxes * boxLength(boxDepth), 4096);
    }

    /**
     * @param boxDepth packets per ring.
     * @return bytes of one box.
     */
    public static int boxLength(final int boxDepth)
    {
        return RINGS_OFFSET + 2 * boxDepth * PacketDescriptor.LENGTH;
    }

    /**
     * @param box      index of a box.
     * @param boxDepth packets per ring.
     * @return offset of the box within the table.
     */
    public static int boxOffset(final int box, final int boxDepth)
    {
        return BOXES_OFFSET + box * boxLength(boxDepth);
    }

    /**
     * @param ring     {@link #REQUESTS} or {@link #REPLIES}.
     * @param boxDepth packets per ring.
     * @return offset of that ring's first packet within a box.
     */
    public static int ringOffset(final int ring, final int boxDepth)
    {
        return RINGS_OFFSET + ring * boxDepth * PacketDescriptor.LENGTH;
    }

    /**
     * @param ring {@link #REQUESTS} or {@link #REPLIES}.
     * @return offset of that ring's writing word within a box.
     */
    public static int writingOffset(final int ring)
    {
        return WRITING_OFFSET + 8 * ring;
    }

    /**
     * @param ring {@link #REQUESTS} or {@link #REPLIES}.
     * @return offset of that ring's receiver area within a box.
     */
    public static int receiverOffset(final int ring)
    {
        return REQUEST_RECEIVER_OFFSET + ring * HOT_LINE;
    }

    /**
     * @param sequence a ring sequence number.
     * @return the state word of its packet once the sender has made it ready.
     */
    public static long ready(final long sequence)
    {
        return sequence + 1;
    }

    /**
     * @param pid     the sender's pid.
     * @param inverse the inverse mapping (slot, generation) of the sender's route.
     * @return the owner word of a box that sender claimed.
     */
    public static long owner(final long pid, final int inverse)
    {
        return pid << 32 | (inverse & 0xFFFF_FFFFL);
    }

    /**
     * @param owner an owner word.
     * @return the owner's pid.
     */
    public static long ownerPid(final long owner)
    {
        return owner >>> 32;
    }

    /**
     * @param owner an owner word.
     * @return the owner's inverse mapping.
     */
    public static int ownerInverse(final long owner)
    {
        return (int)owner;
    }
}
