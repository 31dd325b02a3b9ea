package org.am2j.shm;

import static org.am2j.shm.FastBoxDescriptor.REPLIES;
import static org.am2j.shm.FastBoxDescriptor.REQUESTS;

import org.am2j.spi.MessageSink;
import org.am2j.spi.ReceiveQueues;

/**
 * The owner's receive side of a queue block: its reply and request queue structures, each read by a
 * {@link PacketReceiver}, and its fast boxes' rings, read by a {@link FastBoxReceiver} (each kind's boxes before the
 * shared queue of that kind; a shared message of a pair with a box waits for what is ready in the box anyway). A SEQ
 * bundle's poll loop asks {@link #idle} every turn (one read of each queue's head packet state and a compare, inlined
 * into the loop) and calls {@link #receive} only when that answers false.
 * <p>
 * Everything the owner reads messages from belongs here, each with its part in both methods: the idle test says
 * whether anything is there, the receive hands it over. Replies are looked at first: they complete work the owner is
 * waiting for, and a reply waiting for queue space polls them alone.
 * <p>
 * Read by one thread at a time (the endpoint's poller); {@link #close()} may come from another.
 */
final class ShmReceiveQueues extends ReceiveQueues
{
    /** Receive calls between two looks for boxes to let go while messages keep coming. */
    private static final int SWEEP_RECEIVES = 4096;
    /**
     * Receive calls that handed nothing over (the periodic checks of idle queues) between two looks for boxes to let
     * go: with the receivers' tail check once in 1024 idle polls, about once in 4096 polls of an idle endpoint.
     */
    private static final int EMPTY_RECEIVES_PER_SWEEP = 4;

    private final PacketReceiver replies;
    private final PacketReceiver requests;
    private final FastBoxReceiver boxes;
    /** Receive calls until the next look for boxes to let go ({@link FastBoxReceiver#sweep}). */
    private int sweepCountdown = SWEEP_RECEIVES;
    private int emptyReceives;
    /** The endpoint's watch of dead peers: its settling runs here, and its watch on the periodic path. */
    private final DeadPeers deadPeers;
    /** The sending side's look at the boxes this endpoint writes into, made with the receiving side's sweep. */
    private final Runnable keepRouteBoxes;
    /** Set when the endpoint is being freed: nothing is handed over from then on (the drain does that). */
    private volatile boolean closed;

    ShmReceiveQueues(
        final PacketReceiver replies, final PacketReceiver requests, final FastBoxReceiver boxes,
        final DeadPeers deadPeers, final Runnable keepRouteBoxes)
    {
        this.deadPeers = deadPeers;
        this.keepRouteBoxes = keepRouteBoxes;
        this.replies = replies;
        this.requests = requests;
        this.boxes = boxes;
    }

    @Override
    public boolean idle(final boolean repliesOnly)
    {
        // The rings the process's sends owe sleepers are not rung here, once per endpoint, but once per poll of the
        // bundle before its endpoints' queues are looked at (ShmTransport.beforePoll).
        // Each receiver's idle() counts the empty poll and answers false now and then for its periodic tail check.
        // A box's idle test is one stamp read per bound box, nothing when none is bound.
        return boxes.idle(REPLIES) && replies.idle() && (repliesOnly || boxes.idle(REQUESTS) && requests.idle());
    }

    @Override
    public int receive(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        // Closed is read here, after the idle test (a closed endpoint's queues are read by its drain alone), and
        // again only after a step that ran handlers: one of them may have freed the endpoint.
        if (closed)
        {
            return 0;
        }
        // A kind's boxes are polled only when one has a ready packet at its head (their idle test reads just the
        // stamps, changes nothing, and costs what an empty poll of them would): in a ping-pong each endpoint finds
        // only one kind, and the other's poll would only set and clear its guards.
        int step = boxes.idle(REPLIES) ? 0 : boxes.poll(REPLIES, sink, budget);
        int handled = step;
        if (0 != step && closed)
        {
            return handled;
        }
        step = replies.poll(sink, budget);
        handled += step;
        if (0 != step && closed)
        {
            return handled;
        }
        if (!repliesOnly)
        {
            step = boxes.idle(REQUESTS) ? 0 : boxes.poll(REQUESTS, sink, budget);
            handled += step;
            if (0 != step && closed)
            {
                return handled;
            }
            step = requests.poll(sink, budget);
            handled += step;
            if (0 != step && closed)
            {
                return handled;
            }
        }
        // The rare upkeep reads closed again: a close by another thread may have begun meanwhile.
        if ((0 == --sweepCountdown || 0 == handled && 0 == ++emptyReceives % EMPTY_RECEIVES_PER_SWEEP) && !closed)
        {
            sweepCountdown = SWEEP_RECEIVES;
            boxes.sweep();
            keepRouteBoxes.run();
            deadPeers.watch();
        }
        else if (0 == handled && !closed)
        {
            // The periodic call of idle queues (about once in 1024 polls): the watch itself looks at the clock.
            deadPeers.watch();
        }
        // What was sent to a dead process comes back here, after the messages that were waiting.
        if (deadPeers.pending() && !closed)
        {
            handled += deadPeers.settle(sink);
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
