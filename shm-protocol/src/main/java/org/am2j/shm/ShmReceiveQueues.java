package org.am2j.shm;

import org.am2j.spi.MessageSink;
import org.am2j.spi.ReceiveQueues;

/**
 * The owner's receive side of a queue block: its reply and request queue structures, each read by a
 * {@link PacketReceiver}. A SEQ bundle's poll loop asks {@link #idle} every turn (one read of each queue's head packet
 * state and a compare, inlined into the loop) and calls {@link #receive} only when that answers false.
 * <p>
 * Everything the owner reads messages from belongs here, each with its part in both methods: the idle test says
 * whether anything is there, the receive hands it over. Replies are looked at first: they complete work the owner is
 * waiting for, and a reply waiting for queue space polls them alone.
 * <p>
 * Read by one thread at a time (the endpoint's poller); {@link #close()} may come from another.
 */
final class ShmReceiveQueues extends ReceiveQueues
{
    private final PacketReceiver replies;
    private final PacketReceiver requests;
    /** Set when the endpoint is being freed: nothing is handed over from then on (the drain does that). */
    private volatile boolean closed;

    ShmReceiveQueues(final PacketReceiver replies, final PacketReceiver requests)
    {
        this.replies = replies;
        this.requests = requests;
    }

    @Override
    public boolean idle(final boolean repliesOnly)
    {
        // Each receiver's idle() counts the empty poll and answers false now and then for its periodic tail check.
        return replies.idle() && (repliesOnly || requests.idle());
    }

    @Override
    public int receive(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        // Closed is read only here, after the idle test: a closed endpoint's queues are read by its drain alone.
        if (closed)
        {
            return 0;
        }
        int handled = replies.poll(sink, budget);
        if (!repliesOnly && !closed)
        {
            handled += requests.poll(sink, budget);
        }
        return handled;
    }

    /**
     * Hand nothing over from now on.
     */
    void close()
    {
        closed = true;
    }
}
