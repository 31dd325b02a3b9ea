package org.am2j.perf.jmh;

import java.util.List;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.perf.AmPingPongRank;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The send, poll and dispatch paths of one protocol, on one thread: a client and a server endpoint in one SEQ bundle
 * of this JVM, the client's translation 0 routed over {@link #route}, every message sent with the public API and
 * received by polling the bundle (which polls both endpoints).
 * <ul>
 *   <li>{@code inproc}: the in-process transport, the one two endpoints of a process normally use;</li>
 *   <li>{@code shm}: transports {@code inproc,shm} with {@code am2j.inproc.selfOnly}, so the translation goes through
 *       the server's queue block and the reply back through the inverse mapping, as between two processes of a node
 *       (the packet lines never leave this core: this is the software cost, without the cross-core transfers);</li>
 *   <li>{@code net}: transports {@code inproc,net}, likewise: the in-process NIC moves each message from the
 *       client's send queue into the server's receive queue and the reply back (same-NIC delivery, checked as from
 *       the wire): the host and NIC software of the network path, without a datagram or a system call.</li>
 * </ul>
 * Benchmarks, each per message or round trip:
 * <ul>
 *   <li>{@link #roundTrip()}: short request, poll until its handler has replied and the reply handler has run;</li>
 *   <li>{@link #oneWay()}: short request to a handler that does not reply, poll until it has run;</li>
 *   <li>{@link #burst()}: {@value #BURST} short requests back to back, then poll until every handler has run (the
 *       pipelined cost of a message: sending, receiving and dispatching, no waiting).</li>
 * </ul>
 * Nothing allocates in the measured loops (check with {@code -prof gc}).
 */
public class MessagingBenchmark extends AmBenchmark
{
    /** Requests of one {@link #burst()}: the poll budget of one queue, so one poll takes them all. */
    static final int BURST = 32;

    private static final int ECHO = 1;
    private static final int ECHO_REPLY = 2;
    private static final int SINK = 3;

    /** The protocol the client's translation uses: {@code inproc}, {@code shm} or {@code net}. */
    @Param({ "inproc", "shm", "net" })
    public String route;

    private Bundle bundle;
    /** Sends the requests; read by the tests. */
    Endpoint client;
    /** Handles them; read by the tests. */
    Endpoint server;
    private long replies;
    private long received;
    private long returned;

    /**
     * Start am2j with the route's transports, make the two endpoints and map the server.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        JmhRuntime.startRoute(route, List.of("inproc", "shm", "net"));
        bundle = Am.allocateBundle(BundleKind.SEQ);
        server = bundle.allocateEndpoint();
        client = bundle.allocateEndpoint();
        server.tag(Tags.fresh());
        client.tag(Tags.fresh());
        server.handler(ECHO, (token, msg) -> token.reply(ECHO_REPLY, msg.arg(0)));
        server.handler(SINK, (token, msg) -> received++);
        client.handler(ECHO_REPLY, (token, msg) -> replies++);
        client.handler(0, this::onReturned);
        server.handler(0, this::onReturned);
        client.map(0, server.name(), server.tag());
        AmPingPongRank.checkRoute(client, 0, route);
    }

    private void onReturned(final Token token, final Message msg)
    {
        returned++;
    }

    /**
     * Close the bundle; fail when any message came back.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        bundle.close();
        if (0 != returned)
        {
            throw new IllegalStateException(returned + " messages came back to handler 0");
        }
    }

    /**
     * @return replies so far.
     */
    @Benchmark
    public long roundTrip()
    {
        final long before = replies;
        client.request(0, ECHO, (int)before);
        while (replies == before)
        {
            bundle.poll();
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
        client.request(0, SINK);
        while (received == before)
        {
            bundle.poll();
        }
        return received;
    }

    /**
     * @return one-way requests received so far.
     */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public long burst()
    {
        final long target = received + BURST;
        for (int i = 0; i < BURST; i++)
        {
            client.request(0, SINK, i);
        }
        while (received != target)
        {
            bundle.poll();
        }
        return received;
    }
}
