package org.am2j.spi;

/**
 * The receive side of a local transport's part of an endpoint, as a SEQ bundle polls it: the paper's request and
 * reply queue structures (and whatever else the transport reads messages from), asked every turn of the bundle's poll
 * loop whether anything is there, and read only when something is.
 * <p>
 * An abstract class, not an interface: the bundle keeps the receive sides of all its endpoints in one array of this
 * type and calls {@link #idle} on each in a tight loop, a virtual call that the JIT binds to the one or two
 * subclasses a process loads (shared memory, in-process) and inlines, where an interface call would be looked up in
 * an interface table. A transport whose receive side is not one of these is polled through
 * {@link TransportQueues#poll} instead.
 * <p>
 * Both methods are called by one thread at a time (the bundle's owner) and may be re-entered from a handler that
 * {@link #receive} runs (a reply waiting for queue space polls reply queues only): a queue already being read
 * further up the stack is skipped, as in {@link TransportQueues#poll}.
 */
public abstract class ReceiveQueues
{
    /**
     * The idle test of one turn: whether there is nothing to hand over. Kept small enough to be inlined into the
     * bundle's loop (a read of each queue's head, a compare); reads no line a sender writes on every message unless
     * a message may be there; allocates nothing. It may answer false with nothing there (a periodic check the
     * transport wants made): {@link #receive} then hands over nothing.
     *
     * @param repliesOnly true when only reply queues are polled (a reply waiting for queue space).
     * @return true when the turn can skip these queues.
     */
    public abstract boolean idle(boolean repliesOnly);

    /**
     * Hand the waiting messages to the sink, oldest first per queue; called when {@link #idle} answered false.
     *
     * @param sink        the core's dispatcher.
     * @param budget      most messages to hand over per queue.
     * @param repliesOnly true when only reply queues are polled.
     * @return number of messages handed over.
     */
    public abstract int receive(MessageSink sink, int budget, boolean repliesOnly);

    /**
     * Whether these queues can hold a message yet. A transport whose queues stay empty until a first sender arrives
     * answers false until then, and calls {@link EndpointHost#receiveQueuesChanged()} when that changes, so a poll
     * loop does not look at them at all before.
     *
     * @return true when a poll must look at these queues; true by default.
     */
    public boolean inUse()
    {
        return true;
    }
}
