package org.am2j.shm;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A route's fast box in its destination's queue block: which box it claimed, its two rings' senders, the one thread
 * that writes them, and the route's counts of messages it put on the destination's shared queues (the overflow rule's
 * counts, {@link FastBoxSender}).
 * <p>
 * The route's first send claims a box (CAS of its owner word from FREE) and goes through the shared queue itself
 * (first contact). A box found not the route's any more (its receiver lets it go, or a faulty writer changed its owner
 * word) is given up ({@link #lose}): the route sends through the shared queue, takes the box back if its owner word
 * becomes its own again ({@link #readopt}), and tries to claim one again after {@link #CLAIM_RETRY_SENDS} sends. A
 * second thread sending through the route (a PAR bundle) gives the box up for good ({@link #givenUp}).
 * <p>
 * The fields are written by the box's thread only, but for {@link #givenUp} and those {@link #claim} sets under this
 * object's monitor.
 */
final class RouteBox
{
    /** Sends without a box between two attempts to claim one (all were taken). */
    static final int CLAIM_RETRY_SENDS = 4096;

    private final FastBoxTable boxes;
    /** The owner word of a box this route claims: its pid and inverse mapping. */
    private final long ownerWord;

    /** The box this route claimed, -1 for none. */
    private int box = -1;
    private FastBoxSender requests;
    private FastBoxSender replies;
    /** The one thread that writes the box. */
    private Thread thread;
    /** Set (for good) when another thread sent through the route: the box is not written any more. */
    private volatile boolean givenUp;
    /** The box given up because its owner word was not ours ({@link #lose}), and our tails in it; -1 for none. */
    private int lostBox = -1;
    private long lostRequestTail;
    private long lostReplyTail;
    private int claimCountdown;
    /** Messages the route put on the destination's shared request / reply queue. */
    private long sharedRequests;
    private long sharedReplies;
    /** The destination's buffer, and the offsets of the route's request and reply counts in its connection slot. */
    private final UnsafeBuffer slotBuffer;
    private final int requestCountOffset;
    private final int replyCountOffset;

    /**
     * @param block   the destination's queue block.
     * @param pid     this process's pid.
     * @param inverse the route's connection slot in that block and its generation.
     */
    RouteBox(final QueueBlock block, final long pid, final int inverse)
    {
        this.boxes = block.boxes;
        this.ownerWord = FastBoxDescriptor.owner(pid, inverse);
        this.slotBuffer = block.buffer;
        final int slot = block.slotOffset(inverse & 0xFFFF);
        this.requestCountOffset = slot + ConnectionSlotDescriptor.sharedSentOffset(FastBoxDescriptor.REQUESTS);
        this.replyCountOffset = slot + ConnectionSlotDescriptor.sharedSentOffset(FastBoxDescriptor.REPLIES);
    }

    /**
     * @param request a message for the destination's request queue (else its reply queue).
     * @return the box ring of that kind when the calling thread may write it, else null (the shared queue). The first
     * send claims the box and goes through the shared queue itself (first contact).
     */
    FastBoxSender ring(final boolean request)
    {
        final FastBoxSender requests = this.requests;
        if (null == requests)
        {
            if (lostBox >= 0 && !givenUp && readopt())
            {
                return null;
            }
            if (0 != boxes.boxes && !givenUp && --claimCountdown <= 0)
            {
                claim();
            }
            return null;
        }
        if (Thread.currentThread() != thread)
        {
            if (!givenUp)
            {
                // Volatile store before this thread's first shared send: the box's thread reads it after the
                // consumed count, so it never takes a count that includes this thread's messages for its own.
                givenUp = true;
            }
            return null;
        }
        return request ? requests : replies;
    }

    /**
     * The ring's packet for the next message, or none.
     *
     * @return the packet {@link FastBoxSender#next} gave, or -1 when the message goes to the shared queue (the ring is
     * full, waits for the pair's shared messages, was given up by another thread, or was let go: then it is given up
     * here, and claimed again later).
     */
    int packet(final FastBoxSender ring, final boolean request)
    {
        final int packet = ring.next(request ? sharedRequests : sharedReplies);
        if (FastBoxSender.LOST == packet)
        {
            lose();
            return -1;
        }
        // The volatile read of givenUp after next()'s read of the consumed count: a count that includes another
        // thread's shared messages comes with givenUp set (docs/shm-protocol.md, "Fast boxes").
        return givenUp ? -1 : packet;
    }

    /**
     * Count a message the route put on the destination's shared queue of that kind (the overflow rule's count, which
     * only the box's thread reads), and publish the count in the route's connection slot, where the receiver
     * compares it with what it consumed to count what a faulty writer destroyed on the shared queue
     * ({@link PairCounts}).
     */
    void sharedSent(final boolean request)
    {
        final long shared = request ? ++sharedRequests : ++sharedReplies;
        // Release store, after the READY store of the message counted: a receiver that reads the count sees it.
        slotBuffer.putLongRelease(request ? requestCountOffset : replyCountOffset, shared);
    }

    /**
     * Publish the route's shared counts again where they differ (a faulty writer overwrote them).
     */
    private void republishSharedSent()
    {
        republish(requestCountOffset, sharedRequests);
        republish(replyCountOffset, sharedReplies);
    }

    private void republish(final int offset, final long count)
    {
        if (slotBuffer.getLongVolatile(offset) != count)
        {
            // Release store, as in sharedSent.
            slotBuffer.putLongRelease(offset, count);
        }
    }

    /**
     * The box's owner word is not ours any more: its receiver is letting it go (its released word set), or a faulty
     * writer changed it. Nothing of ours is being written, so the route stores its tails in the writing words (a
     * reservation is cancelled; words a faulty writer overwrote say again what we put into the box, which the
     * receiver counts what it finds spoiled against), drops the box and sends through the shared queue; it tries to
     * claim a box again after {@link #CLAIM_RETRY_SENDS} sends. Called by the box's thread.
     */
    void lose()
    {
        requests.cancel();
        replies.cancel();
        lostBox = box;
        lostRequestTail = requests.tail();
        lostReplyTail = replies.tail();
        requests = null;
        replies = null;
        box = -1;
        claimCountdown = CLAIM_RETRY_SENDS;
    }

    /**
     * The box given up is ours again when its owner word is: the receiver wrote back a word a faulty writer had
     * overwritten. The route goes on in it from its own tails (the shared messages sent meanwhile come first, by the
     * overflow rule).
     *
     * @return true when the box is ours again.
     */
    private boolean readopt()
    {
        final int lost = lostBox;
        if (boxes.owner(lost) != ownerWord)
        {
            return false;
        }
        lostBox = -1;
        take(lost, false);
        return true;
    }

    private synchronized void claim()
    {
        if (null != requests)
        {
            return;
        }
        for (int i = 0; i < boxes.boxes; i++)
        {
            // CAS FREE -> owner(pid, inverse): this route is the box's one writer until it lets go; the receiver,
            // which freed it, published the heads and zeroed counts before (release store of FREE).
            if (FastBoxDescriptor.FREE == boxes.owner(i) && boxes.casOwner(i, FastBoxDescriptor.FREE, ownerWord))
            {
                lostBox = -1;
                boxes.bumpGeneration();
                take(i, true);
                return;
            }
        }
        claimCountdown = CLAIM_RETRY_SENDS;
    }

    /**
     * @param claimed true for a box just claimed (its rings go on from their published heads), false for one taken
     *                back (from our own tails in it).
     */
    private void take(final int index, final boolean claimed)
    {
        final FastBoxSender replies = claimed ?
            new FastBoxSender(boxes, index, FastBoxDescriptor.REPLIES, ownerWord) :
            new FastBoxSender(boxes, index, FastBoxDescriptor.REPLIES, ownerWord, lostReplyTail);
        final FastBoxSender requests = claimed ?
            new FastBoxSender(boxes, index, FastBoxDescriptor.REQUESTS, ownerWord) :
            new FastBoxSender(boxes, index, FastBoxDescriptor.REQUESTS, ownerWord, lostRequestTail);
        this.replies = replies;
        thread = Thread.currentThread();
        box = index;
        // Last: a non-null request ring is what ring() takes for a box held, with the fields above.
        this.requests = requests;
    }

    /**
     * Between sends, now and then (from the sending endpoint's polls): the shared counts are stored again where a
     * faulty writer overwrote them; a box found not ours any more is given up, and its writing words are stored again
     * where a faulty writer overwrote them, so the receiver learns what we had put into it even when we send nothing
     * more (it counts what it finds spoiled below them). Only the box's thread does the box's part: another's store
     * could undo a reservation in progress.
     */
    void keep()
    {
        republishSharedSent();
        final FastBoxSender requests = this.requests;
        if (null == requests || Thread.currentThread() != thread || givenUp)
        {
            return;
        }
        if (requests.lost())
        {
            lose();
            return;
        }
        requests.republish();
        replies.republish();
    }

    /**
     * @return the index of the box held, -1 for none, read under the monitor {@link #claim} stores the box under, so a
     * box another thread of a PAR bundle claimed is seen.
     */
    synchronized int held()
    {
        return null == requests ? -1 : box;
    }

    /**
     * @return the index of the box held, -1 for none (the box's thread, diagnostics and tests).
     */
    int index()
    {
        return null == requests ? -1 : box;
    }

    /**
     * @return messages sent through the box.
     */
    long boxedSends()
    {
        final FastBoxSender requests = this.requests;
        return null == requests ? 0 : requests.sent() + replies.sent();
    }

    /**
     * @return messages sent through the destination's shared queues.
     */
    long sharedSends()
    {
        return sharedRequests + sharedReplies;
    }

    /**
     * The route closes: our tails in the writing words again (a faulty writer may have zeroed them), so the receiver
     * that lets the box go counts what it finds missing below them; then the released word.
     */
    void release()
    {
        if (box >= 0)
        {
            requests.cancel();
            replies.cancel();
            // Release store: the receiver that sees the box released sees every packet we published before, and lets
            // the box go once it has read them.
            boxes.releasedRelease(box, true);
        }
    }
}
