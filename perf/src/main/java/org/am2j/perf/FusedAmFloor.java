package org.am2j.perf;

import org.am2j.perf.QueueFloor.Queue;

/**
 * The floor of the whole shared-memory message path: {@link QueueFloor}'s {@code claim-word} queues (the shm
 * protocol's send and receive steps) with a minimal AM-II layer fused into them, written as one small piece of code
 * the compiler inlines whole. What it keeps of AM-II, on both sides:
 * <ul>
 *   <li>a request carries the destination's tag, which the receiver compares with its own; a reply carries none;</li>
 *   <li>the receiver checks the argument count and looks the handler up in a 256-entry handler table; a message that
 *       fails a check is counted as a drop (instead of being returned), and its packet freed;</li>
 *   <li>the handler is called through an interface whose call site sees several handler classes, as an application's
 *       does, with one token flyweight (valid only during the call, replying at most once, only to a request);</li>
 *   <li>the reply is sent from inside the handler, through the token, into the requester's reply queue; the packet is
 *       freed after the handler returns.</li>
 * </ul>
 * Left out: returned messages, counters, bulk data, segments, the thread guard, the translation table, the poll
 * scheduler and every other transport. Set beside am2j's own round trip ({@code bin/am2j pingpong}) it says how much of
 * that round trip is the AM layer's structure rather than the protocol or the machine.
 * <p>
 * The same layer on one thread, two endpoints polled in turn, is the floor of {@code bin/am2j jmh}'s
 * {@code MessagingBenchmark} ({@code org.am2j.perf.jmh.FloorBenchmark}): no cache line moves between cores there.
 * <p>
 * Header word of a packet (at {@link Queue#HEADER_OFFSET}): opcode in bits 0-7, handler index in bits 8-15, argument
 * count in bits 16-23.
 */
public final class FusedAmFloor
{
    private static final int REQUEST = 1;
    private static final int REPLY = 2;
    private static final int ECHO = 1;
    private static final int ECHO_REPLY = 2;
    private static final int SINK = 3;
    private static final int SUM = 4;
    private static final long TAG = 0x5EED_0000_0001L;
    /** Round trips to two other handlers before the timed loop, so the dispatch site has seen four classes. */
    private static final int MEGAMORPHIC_WARM_UP = 20_000;

    private FusedAmFloor()
    {
    }

    /** A handler, called with the token that is also the message. */
    @FunctionalInterface
    public interface Handler
    {
        /**
         * @param token of the message, valid only during the call.
         */
        void onMessage(Token token);
    }

    /** The flyweight a handler gets: valid only during its call. */
    public static final class Token
    {
        private Endpoint endpoint;
        private Queue queue;
        private int packet;
        private int argCount;
        private boolean request;
        private boolean active;
        private boolean replied;

        /**
         * @param index of an argument.
         * @return its value.
         */
        public int arg(final int index)
        {
            if (!active || index < 0 || index >= argCount)
            {
                throw new IllegalStateException("argument " + index + " of " + argCount + ", token active " + active);
            }
            return queue.buffer.getInt(packet + Queue.ARGS_OFFSET + index * Integer.BYTES);
        }

        /**
         * Reply from the handler, once, to a request: a short message of one argument into the requester's reply
         * queue.
         *
         * @param handler index at the requester.
         * @param a0      the argument.
         */
        public void reply(final int handler, final int a0)
        {
            if (!active || !request || replied)
            {
                throw new IllegalStateException("a reply needs an active request token that has not replied");
            }
            endpoint.peer.replies.send(header(REPLY, handler, 1), 0, a0);
            replied = true;
        }
    }

    /** One side: its two queues, its handler table and tag, the peer it talks to. */
    public static final class Endpoint
    {
        final Queue requests;
        final Queue replies;
        final Handler[] handlers = new Handler[256];
        final Token token = new Token();
        Endpoint peer;
        long drops;
        /** Replies whose handler ran here: written by this endpoint's thread only. */
        long repliesRun;

        /**
         * @param queues the send steps of both queues, a {@link QueueFloor#VARIANTS} name: {@code plain} for one
         *               writer (no CAS, as the shm protocol's fast boxes), {@code claim-word} for several (as its
         *               packet queues).
         */
        public Endpoint(final String queues)
        {
            requests = new Queue(queues);
            replies = new Queue(queues);
        }

        /**
         * @param index   in the handler table.
         * @param handler to run for messages to that index.
         */
        public void handler(final int index, final Handler handler)
        {
            handlers[index] = handler;
        }

        /**
         * Make two endpoints each other's peer.
         *
         * @param other the other endpoint.
         */
        public void connect(final Endpoint other)
        {
            peer = other;
            other.peer = this;
        }

        /**
         * Send a short request of one argument into the peer's request queue.
         *
         * @param handler index at the peer.
         * @param a0      the argument.
         */
        public void request(final int handler, final int a0)
        {
            peer.requests.send(header(REQUEST, handler, 1), TAG, a0);
        }

        /**
         * @return messages dropped by the checks here.
         */
        public long drops()
        {
            return drops;
        }

        /**
         * @return messages handled: 0 or 1 from each queue, replies first.
         */
        public int poll()
        {
            return poll(replies) + poll(requests);
        }

        private int poll(final Queue queue)
        {
            final int packet = queue.readyPacket();
            if (packet < 0)
            {
                return 0;
            }
            final int header = queue.buffer.getInt(packet + Queue.HEADER_OFFSET);
            final boolean request = REQUEST == (header & 0xFF);
            final int argCount = header >>> 16 & 0xFF;
            final Handler handler;
            if ((request && TAG != queue.buffer.getLong(packet + Queue.TAG_OFFSET)) || argCount > 8 ||
                null == (handler = handlers[header >>> 8 & 0xFF]))
            {
                drops++;
            }
            else
            {
                final Token t = token;
                t.endpoint = this;
                t.queue = queue;
                t.packet = packet;
                t.argCount = argCount;
                t.request = request;
                t.replied = false;
                t.active = true;
                try
                {
                    handler.onMessage(t);
                }
                finally
                {
                    t.active = false;
                }
            }
            queue.free(packet);
            return 1;
        }
    }

    private static int header(final int opcode, final int handler, final int argCount)
    {
        return opcode | handler << 8 | argCount << 16;
    }

    /**
     * Short request/reply round trips between two threads, each its own endpoint, the initiator timing each.
     *
     * @param rounds round trips.
     * @param rtt    receives each round trip's time in ns.
     * @throws InterruptedException when interrupted.
     */
    static void roundTrips(final int rounds, final long[] rtt) throws InterruptedException
    {
        final Endpoint initiator = newEndpoint();
        // Made by another thread, in its own allocation buffer: no object the initiator writes shares a cache line
        // with one of the responder's.
        final Endpoint[] made = new Endpoint[1];
        final Thread maker = new Thread(() -> made[0] = newEndpoint());
        maker.start();
        maker.join();
        final Endpoint responder = made[0];
        initiator.connect(responder);

        final Thread thread = new Thread(() ->
        {
            int spins = 0;
            while (!Thread.currentThread().isInterrupted())
            {
                if (0 == responder.poll())
                {
                    QueueFloor.spin(++spins);
                }
            }
        }, "fused-am responder");
        thread.setDaemon(true);
        thread.start();
        try
        {
            for (int i = 0; i < MEGAMORPHIC_WARM_UP; i++)
            {
                roundTrip(initiator, responder, 0 == (i & 1) ? SINK : SUM, i, thread);
            }
            for (int i = 0; i < rounds; i++)
            {
                final long start = System.nanoTime();
                roundTrip(initiator, responder, ECHO, i, thread);
                rtt[i] = System.nanoTime() - start;
            }
        }
        finally
        {
            thread.interrupt();
            thread.join();
        }
        if (0 != initiator.drops || 0 != responder.drops)
        {
            throw new IllegalStateException("fused-am: " + (initiator.drops + responder.drops) + " messages dropped");
        }
    }

    private static Endpoint newEndpoint()
    {
        final Endpoint endpoint = new Endpoint("claim-word");
        endpoint.handler(ECHO, token -> token.reply(ECHO_REPLY, token.arg(0)));
        endpoint.handler(ECHO_REPLY, token -> token.endpoint.repliesRun++);
        endpoint.handler(SINK, token -> token.reply(ECHO_REPLY, 0));
        endpoint.handler(SUM, token -> token.reply(ECHO_REPLY, token.arg(0) + 1));
        return endpoint;
    }

    /**
     * Send a request to {@code handler} at the responder and poll the initiator until the reply has run.
     */
    private static void roundTrip(
        final Endpoint initiator, final Endpoint responder, final int handler, final int value, final Thread thread)
    {
        final long expected = initiator.repliesRun + 1;
        initiator.request(handler, value);
        int spins = 0;
        while (initiator.repliesRun != expected)
        {
            if (0 == initiator.poll())
            {
                QueueFloor.spin(++spins);
                if (0 == (++spins & 0xFFFF) && !thread.isAlive())
                {
                    throw new IllegalStateException("fused-am: the responder stopped");
                }
            }
        }
    }
}
