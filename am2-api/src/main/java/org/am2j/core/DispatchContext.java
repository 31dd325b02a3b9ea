package org.am2j.core;

import java.util.Arrays;

import org.am2j.spi.OutboundMessage;

/**
 * What one thread needs to send and dispatch without allocating: an outbound frame and a delivery flyweight per
 * handler nesting depth, and the depth itself.
 * <p>
 * Depth 0 is application code; a handler runs at depth 1; a reply waiting for queue space inside a request handler
 * polls reply queues, whose handlers run at depth 2. A frame is used only at its own depth, so a nested dispatch
 * never overwrites a frame being sent.
 * <p>
 * A message returned by the dispatcher is built in a frame of its own, taken from a stack of return frames: it is
 * returned at the depth of the poll that found it, which may be a poll made by a send waiting for queue space with
 * that depth's frame, and its own sending may wait and poll again, returning more. The stack grows only when returns
 * nest deeper than ever before on this thread (a queue being read further up the stack is not read again, so the
 * nesting is bounded by the queues of the bundle's endpoints).
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
    private OutboundMessage[] returnFrames = { new OutboundMessage(), new OutboundMessage() };
    private int returns;

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
     * Take a frame for a returned message; give it back with {@link #releaseReturnFrame()} once it is sent or dropped.
     *
     * @return a frame no send in progress on this thread uses.
     */
    OutboundMessage acquireReturnFrame()
    {
        if (returns == returnFrames.length)
        {
            returnFrames = Arrays.copyOf(returnFrames, 2 * returns);
        }
        OutboundMessage frame = returnFrames[returns];
        if (null == frame)
        {
            frame = new OutboundMessage();
            returnFrames[returns] = frame;
        }
        returns++;
        return frame;
    }

    /**
     * Give back the frame the last {@link #acquireReturnFrame()} took.
     */
    void releaseReturnFrame()
    {
        returns--;
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
