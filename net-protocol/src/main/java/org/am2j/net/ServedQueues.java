package org.am2j.net;

import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import static org.am2j.net.EndpointBlockDescriptor.*;

/**
 * What a NIC sees of an endpoint it serves: the endpoint's network queue block (send queues it drains, receive queues
 * it fills), the tag it checks requests against, the inverse-mapping routes its records refer to, and how to wake
 * the host. An endpoint of this process ({@link NetQueues}, the in-process NIC) or one whose queue block lives in a
 * file mapped by a host process and by the NIC process that serves it ({@link MappedQueues}, a shared NIC).
 * The NIC's thread calls everything here unless a method says otherwise.
 */
abstract class ServedQueues
{
    private final ManyToOneRingBuffer requestSendQueue;
    private final ManyToOneRingBuffer replySendQueue;
    private final OneToOneRingBuffer requestReceiveQueue;
    private final OneToOneRingBuffer replyReceiveQueue;
    /** Whether the NIC's last drain left the oldest record of each send queue for later ({@link SendQueues}). */
    private boolean requestsHeldBack;
    private boolean repliesHeldBack;

    /**
     * @param block      the network queue block whose rings these are ({@link EndpointBlockDescriptor}), or null
     *                   for rings of their own in this process's memory.
     * @param queueBytes capacity of each ring.
     */
    ServedQueues(final AtomicBuffer block, final int queueBytes)
    {
        this.requestSendQueue = new ManyToOneRingBuffer(ring(block, REQUEST_SEND, queueBytes));
        this.replySendQueue = new ManyToOneRingBuffer(ring(block, REPLY_SEND, queueBytes));
        this.requestReceiveQueue = new OneToOneRingBuffer(ring(block, REQUEST_RECEIVE, queueBytes));
        this.replyReceiveQueue = new OneToOneRingBuffer(ring(block, REPLY_RECEIVE, queueBytes));
    }

    /**
     * @param block      a network queue block, or null.
     * @param ring       {@link EndpointBlockDescriptor#REQUEST_SEND} to {@link EndpointBlockDescriptor#REPLY_RECEIVE}.
     * @param queueBytes capacity of the ring.
     * @return that ring's buffer in the block, or a new one aligned to cache lines when there is no block.
     */
    static UnsafeBuffer ring(final AtomicBuffer block, final int ring, final int queueBytes)
    {
        final int length = queueBytes + RingBufferDescriptor.TRAILER_LENGTH;
        return null == block ? new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 64)) :
            new UnsafeBuffer(block, ringOffset(ring, queueBytes), length);
    }

    /**
     * @return the endpoint's id on the wire (the destination id senders put in their messages).
     */
    abstract int id();

    /**
     * @return the tag requests must carry.
     */
    abstract long tag();

    /**
     * @return true once the host closed the endpoint (the NIC then returns what is left in its receive queues).
     */
    abstract boolean isClosed();

    /**
     * @param replyChannel which channel.
     * @return the send queue of that channel (host to NIC).
     */
    final ManyToOneRingBuffer sendQueue(final boolean replyChannel)
    {
        return replyChannel ? replySendQueue : requestSendQueue;
    }

    /**
     * @param replyChannel which channel.
     * @return the receive queue of that channel (NIC to host).
     */
    final OneToOneRingBuffer receiveQueue(final boolean replyChannel)
    {
        return replyChannel ? replyReceiveQueue : requestReceiveQueue;
    }

    /**
     * @return true when the host takes a credit of the peer's channel before it queues a record; false when the NIC
     *         takes it as it drains the record (a host in another process cannot reach the NIC's credits), leaving
     *         the record queued while the window to that peer is full.
     */
    abstract boolean hostTakesCredits();

    /**
     * The inverse mapping for messages from an endpoint of a peer.
     *
     * @param peer             the peer NIC.
     * @param remoteEndpointId the sending endpoint there.
     * @return the index receive-queue records carry, or -1 when the table is full.
     */
    abstract int inverseRoute(Peer peer, int remoteEndpointId);

    /**
     * @param route an index from {@link #inverseRoute}.
     * @return the peer that route leads to.
     */
    abstract Peer routePeer(int route);

    /**
     * @param route an index from {@link #inverseRoute}.
     * @return true when the name of the remote endpoint is known (its announcement arrived).
     */
    abstract boolean routeNamed(int route);

    /**
     * @return the segment long messages are deposited into by the NIC, or null when the host copies them from the
     *         receive queue record itself (the NIC cannot reach the segment).
     */
    abstract AtomicBuffer depositSegment();

    /**
     * @param segmentOffset where a long message's data goes.
     * @param length        its bytes.
     * @return 0 when it fits the segment, else the refusal status.
     */
    abstract int checkSegment(long segmentOffset, int length);

    /**
     * @return true when the host sleeps waiting for arrivals.
     */
    abstract boolean isSleeping();

    /**
     * Wake the sleeping host: something is in a receive queue.
     */
    abstract void signalArrival();

    /**
     * Count a retransmission of one of the endpoint's messages.
     */
    abstract void countRetransmit();

    /**
     * @return true when a record is claimed or committed in a send queue and the NIC has not read it yet (any thread).
     */
    final boolean hasQueuedSends()
    {
        return pending(requestSendQueue) || pending(replySendQueue);
    }

    /**
     * @param replyChannel which channel's send queue.
     * @return true when a record is claimed or committed in it and the NIC has not read it yet.
     */
    final boolean hasQueuedSends(final boolean replyChannel)
    {
        return pending(sendQueue(replyChannel));
    }

    /**
     * Say whether the NIC's last drain of a send queue left its oldest record there (the peer's window or the
     * in-flight log full, the link busy, a same-NIC destination's queue full): until then, that queue's records are
     * no work for the NIC. NIC thread only.
     *
     * @param replyChannel which channel's send queue.
     * @param heldBack     whether its oldest record was left there.
     */
    final void heldBack(final boolean replyChannel, final boolean heldBack)
    {
        if (replyChannel)
        {
            repliesHeldBack = heldBack;
        }
        else
        {
            requestsHeldBack = heldBack;
        }
    }

    /**
     * @return true when a send queue holds a record the NIC could take now: one its last drain did not leave there
     *         ({@link #heldBack(boolean, boolean)}).
     */
    final boolean hasReadySends()
    {
        return (pending(replySendQueue) && !repliesHeldBack) || (pending(requestSendQueue) && !requestsHeldBack);
    }

    /**
     * @return true when the NIC has put messages into the receive queues that nobody has read yet.
     */
    final boolean hasUndelivered()
    {
        return pending(requestReceiveQueue) || pending(replyReceiveQueue);
    }

    private static boolean pending(final RingBuffer queue)
    {
        // The NIC commits a record (ordered store) before it reads the host's sleeping flag.
        return queue.producerPosition() != queue.consumerPosition();
    }

    /**
     * @return true when some of the endpoint's routes lead to endpoints of the same NIC: its send queues are then
     *         read by the drain that can leave a record queued (a full receive queue of the destination), as a
     *         shared NIC's hosts' always are.
     */
    boolean sendsSameNic()
    {
        return false;
    }

    /**
     * @return where the NIC keeps what it took from the send queues and has not resolved, for the host to read after
     *         the NIC died ({@link InFlightLog}); null when the NIC's windows die with the host anyway (the in-process
     *         NIC).
     */
    InFlightLog inFlightLog()
    {
        return null;
    }

    /**
     * The NIC no longer serves the endpoint (closed, queues empty): release what it holds.
     */
    void retired()
    {
    }
}
