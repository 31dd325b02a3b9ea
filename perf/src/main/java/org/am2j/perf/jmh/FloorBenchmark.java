package org.am2j.perf.jmh;


import org.am2j.perf.FusedAmFloor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The floor of {@link MessagingBenchmark}: its three benchmarks, with the same settings, over the minimal AM-II layer
 * of {@link FusedAmFloor} (tag and argument-count checks, a handler table, a token, the reply sent from the
 * handler) on single-writer rings laid out like a queue block's packets ({@code plain} queues: no CAS, a release
 * store per message, as the shm protocol's fast boxes). A client and a server endpoint on one thread, polled in
 * turn as a bundle polls its endpoints. What {@link MessagingBenchmark} takes beyond these times is what am2j's core
 * and transports add to the AM-II path itself.
 */
public class FloorBenchmark extends AmBenchmark
{
    private static final int ECHO = 1;
    private static final int ECHO_REPLY = 2;
    private static final int SINK = 3;

    private FusedAmFloor.Endpoint client;
    private FusedAmFloor.Endpoint server;
    private long replies;
    private long received;

    /**
     * Make the two endpoints and their handlers, as {@link MessagingBenchmark#setUp()} does.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        server = new FusedAmFloor.Endpoint("plain");
        client = new FusedAmFloor.Endpoint("plain");
        server.handler(ECHO, token -> token.reply(ECHO_REPLY, token.arg(0)));
        server.handler(SINK, token -> received++);
        client.handler(ECHO_REPLY, token -> replies++);
        client.connect(server);
    }

    /**
     * Fail when a message was dropped.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        if (0 != client.drops() + server.drops())
        {
            throw new IllegalStateException((client.drops() + server.drops()) + " messages were dropped");
        }
    }

    private int poll()
    {
        return server.poll() + client.poll();
    }

    /**
     * @return replies so far.
     */
    @Benchmark
    public long roundTrip()
    {
        final long before = replies;
        client.request(ECHO, (int)before);
        while (replies == before)
        {
            poll();
        }
        return replies;
    }

    /**
     * @return one-way requests received so far.
     */
    @Benchmark
    public long oneWay()
    {
        final long before = received;
        client.request(SINK, 0);
        while (received == before)
        {
            poll();
        }
        return received;
    }

    /**
     * @return one-way requests received so far.
     */
    @Benchmark
    @OperationsPerInvocation(MessagingBenchmark.BURST)
    public long burst()
    {
        final long target = received + MessagingBenchmark.BURST;
        for (int i = 0; i < MessagingBenchmark.BURST; i++)
        {
            client.request(SINK, i);
        }
        while (received != target)
        {
            poll();
        }
        return received;
    }
}
