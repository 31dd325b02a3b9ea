package org.am2j.core;

import org.am2j.spi.OutboundMessage;

/**
 * What one thread needs to send and dispatch without allocating: an outbound frame and a delivery flyweight per
 * handler nesting depth, and the depth itself.
 * <p>
 * Depth 0 is application code; a handler runs at depth 1; a reply waiting for queue space inside a request handler
 * polls reply queues, whose handlers run at depth 2; a message returned while dispatching at depth 2 is built at
 * depth 2. A frame is used only at its own depth, so a nested dispatch never overwrites a frame being sent.
 */
final class DispatchContext
{
    /** Deepest handler nesting: request handler, then a reply handler run while its reply waits. */
    static final int MAX_DEPTH = 3;

    private static final ThreadLocal<DispatchContext> CONTEXT = ThreadLocal.withInitial(DispatchContext::new);

    /** The thread this context belongs to. */
    final Thread thread = Thread.currentThread();

    private final OutboundMessage[] frames = new OutboundMessage[MAX_DEPTH + 1];
    private final Delivery[] deliveries = new Delivery[MAX_DEPTH + 1];

    /** Handler nesting depth of this thread: 0 outside handlers. */
    int depth;

    /** Network messages found by the network polls of the poll in progress. */
    int networkFound;

    private DispatchContext()
    {
        for (int i = 0; i <= MAX_DEPTH; i++)
        {
            frames[i] = new OutboundMessage();
            deliveries[i] = new Delivery(this, i);
        }
    }

    /**
     * @return the calling thread's context.
     */
    static DispatchContext current()
    {
        return CONTEXT.get();
    }

    /**
     * @return the frame of the current depth, free for a message sent at this depth.
     */
    OutboundMessage frame()
    {
        return frames[depth];
    }

    /**
     * @return the delivery a handler run one level deeper uses.
     */
    Delivery nextDelivery()
    {
        return deliveries[depth + 1];
    }

    /**
     * @return true when another handler may be nested below the current depth.
     */
    boolean canNest()
    {
        return depth < MAX_DEPTH;
    }
}
