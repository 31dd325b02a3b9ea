package org.am2j.spi;

import org.am2j.api.EndpointName;

/**
 * A transport's part of one endpoint, what {@link Transport#attach} gives it: the paper's queue block of that protocol
 * (the shared memory queue block, the network queue block; the in-process transport's pair of queues), with the
 * endpoint's address in the transport and the routes it makes to destinations. The endpoint itself is the core's,
 * one per {@link org.am2j.api.Endpoint}; a transport's part is named for its queues, never another endpoint.
 */
public interface TransportQueues extends AutoCloseable
{
    /**
     * @return this endpoint's address in this transport, recorded in its {@link EndpointName}; null for none.
     */
    String address();

    /**
     * Called once, after every transport has attached, with the endpoint's complete name.
     *
     * @param name of the endpoint.
     */
    void named(EndpointName name);

    /**
     * Make a route for a translation table entry.
     *
     * @param destination name of the destination endpoint.
     * @param tag         the entry's tag (messages carry it; the destination checks it).
     * @return the route, or null when this transport cannot reach the destination.
     */
    Route connect(EndpointName destination, long tag);

    /**
     * The budget of a poll that its bundle makes every time: messages one poll accepts from one local queue. A
     * network transport is handed more when its scheduler polls it only now and then ({@code BASE_POLL_BUDGET} times
     * the polls since its last one): that budget asks it to drain what came meanwhile.
     */
    int BASE_POLL_BUDGET = 32;

    /**
     * Hand waiting messages to the sink, oldest first.
     *
     * @param sink        the core's dispatcher.
     * @param budget      most messages to hand over; more than {@link #BASE_POLL_BUDGET} asks a transport that reads
     *                    its messages from a device to read on until it has none.
     * @param repliesOnly when true poll only reply queues (a reply waiting for queue space does this).
     * @return number of messages handed over.
     */
    int poll(MessageSink sink, int budget, boolean repliesOnly);

    /**
     * The receive side a SEQ bundle polls in its flat loop instead of calling {@link #poll}: a local transport's
     * queues, typed so that the loop makes no interface call per turn (see {@link ReceiveQueues}). A PAR bundle, and a
     * SEQ bundle for a transport that answers null, call {@link #poll}, which must do the same as
     * {@code idle(repliesOnly) ? 0 : receive(sink, budget, repliesOnly)}.
     *
     * @return the receive queues, the same object on every call; null (the default) to be polled through
     * {@link #poll}.
     */
    default ReceiveQueues receiveQueues()
    {
        return null;
    }

    /**
     * @return true when a message is waiting (cheap; used before sleeping). It must observe a message whose sender
     * saw {@link #sleeping(boolean)} false, so that no wake-up is lost.
     */
    boolean hasPending();

    /**
     * Publish whether the endpoint's owner is about to sleep, so senders know to wake it through
     * {@link EndpointHost#signalArrival()} (or the transport's own mechanism).
     *
     * @param sleeping true before sleeping, false after waking.
     */
    void sleeping(boolean sleeping);

    /**
     * The endpoint's tag changed: transports that check tags at the sender or on the NIC copy it.
     *
     * @param tag the new tag.
     */
    void tagChanged(long tag);

    /**
     * The endpoint's segment changed (set by the user or allocated): transports that let senders deposit long
     * messages straight into the segment publish whether, and where, they can.
     *
     * @param segment the new segment, or null for none.
     */
    default void segmentChanged(final org.agrona.concurrent.AtomicBuffer segment)
    {
    }

    /**
     * The endpoint is being freed: refuse every message from now on, and hand every message already queued for it,
     * or being queued by a sender that got past the refusal check before it was made, to {@code returns}, which sends
     * each back (a request to its sender's handler 0 with EBADENDPOINT, a reply to its replier with EREPLYREJECTED)
     * or, for the endpoint's own returned messages, runs its handler 0. When this returns, no message can enter the
     * endpoint's queues any more: a sender that comes later is refused at the sender (the route answers EBADENDPOINT
     * or EREPLYREJECTED), so every message ever accepted was either delivered by a poll or handed over here, once.
     * <p>
     * Called once, by the thread freeing the endpoint, before {@link #close()}, with no other thread polling the
     * endpoint. A poll made while this runs (a returned message waiting for space in its sender's queue polls the
     * bundle) must hand nothing to its sink. A transport whose queues are fed by senders it cannot wait for (a
     * sender's process that dies holding a half-written message) waits for them at most its liveness timeout, then
     * counts what they held as a drop.
     * <p>
     * The default hands nothing over: what is queued is dropped by {@link #close()}, unless the transport returns it
     * by itself (the network transport's NIC does, reading a closed endpoint's receive queues). The in-process and
     * shared-memory transports implement it.
     *
     * @param returns the core's sink for messages that arrive too late to be delivered.
     * @return number of messages handed to {@code returns}.
     */
    default int returnQueued(final MessageSink returns)
    {
        return 0;
    }

    /**
     * Free the transport's resources for this endpoint. Messages still queued are dropped, or returned by the
     * transport itself: none are left when {@link #returnQueued(MessageSink)} ran first and the transport implements
     * it.
     */
    @Override
    void close();
}
