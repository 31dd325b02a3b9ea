package org.am2j.net;

import org.agrona.DirectBuffer;

/**
 * Inline mode's short receive path: an endpoint whose host polls offers the NIC to take a message for it straight
 * from the datagram, and the host then runs it from the NIC's receive buffer, with no receive-queue record written
 * and read back. One per {@link NetQueues}; the host fills in the offer, the NIC (under its lock, on the host's
 * thread) accepts it or not, and the host runs what was accepted once it has given the NIC back.
 * <p>
 * The NIC accepts only when nothing can overtake or be overtaken: the message is whole in one datagram (alone, or an
 * entry of a batch), at most one per datagram (the later messages of a batch for its queue go into the queue, which
 * the host reads after it ran this one), its receive queue is empty (earlier messages of that queue are run first),
 * the host is not already running a message of that queue further up its stack (the queue's read is not re-entrant,
 * and neither is this path), and the receive buffer is not lent already. Accepted means taken, as a committed
 * receive-queue record is: acknowledged to the sender, never returned; the host runs it before its poll returns. Close
 * cannot come between: an endpoint is closed by its bundle's owner, the thread that polls, and the NIC refuses
 * messages for a closed endpoint under its lock.
 * <p>
 * While the host runs the message, the NIC receives into its spare buffer ({@link NicAgent}); the host gives the
 * buffer back ({@link NicAgent#returnReceiveBuffer()}) when the handler is done.
 */
final class DirectDelivery
{
    final NetQueues endpoint;
    /** The host's inbound flyweight for an accepted message. */
    final NetInbound inbound;
    private boolean requests;
    private boolean replies;
    /** Whether the NIC took the offer: the message lies in its receive buffer for the host to run. */
    boolean accepted;
    /** Whether the message taken is a reply (or returned message). */
    boolean acceptedReply;

    DirectDelivery(final NetQueues endpoint)
    {
        this.endpoint = endpoint;
        this.inbound = new NetInbound(endpoint);
    }

    /**
     * The host's offer for one receive.
     *
     * @param requests whether a request may be taken (its queue is not being read up the stack, the poll is not for
     *                 replies only).
     * @param replies  whether a reply or returned message may be taken.
     */
    void offer(final boolean requests, final boolean replies)
    {
        this.requests = requests;
        this.replies = replies;
        this.accepted = false;
    }

    /**
     * @param to         the message's destination.
     * @param replyQueue whether it goes to the reply receive queue.
     * @return whether the NIC may hand this message over directly (the caller still checks the queue is empty).
     */
    boolean accepts(final ServedQueues to, final boolean replyQueue)
    {
        return to == endpoint && !accepted && (replyQueue ? replies : requests);
    }

    /**
     * NIC: the message at {@code body} of its receive buffer is the host's to run.
     *
     * @param buffer     the receive buffer.
     * @param body       offset of the message body ({@link MessageDescriptor}).
     * @param bodyLength its length.
     * @param route      index of its inverse-mapping route in the endpoint's table.
     * @param deposited  whether its data was written into the segment.
     * @param replyQueue whether it belongs to the reply receive queue.
     */
    void accept(final DirectBuffer buffer, final int body, final int bodyLength, final int route,
        final boolean deposited, final boolean replyQueue)
    {
        // The flyweight takes the buffer's address: it stays on this memory when the NIC moves to its spare buffer.
        inbound.wrapBody(buffer, body, bodyLength, route, deposited);
        acceptedReply = replyQueue;
        accepted = true;
    }

    /**
     * The host has run the accepted message (or is about to give up on it after a handler's exception).
     */
    void done()
    {
        accepted = false;
    }
}
