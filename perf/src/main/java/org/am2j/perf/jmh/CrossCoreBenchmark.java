package org.am2j.perf.jmh;

import java.util.List;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;
import org.am2j.perf.AmPingPongRank;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Control;

/**
 * The round trip between two cores: an initiator thread and a responder thread of this JVM, each with its own SEQ
 * bundle and endpoint, the initiator's translation 0 routed over {@link #route} to the responder. What
 * {@code bin/am2j pingpong} measures between two processes, here between two threads, so that a profiler attached
 * to one JVM sees both ends (for example {@code -prof perfasm:events=cpu-clock}: the samples gather where a core
 * waits for a line the other core holds).
 * <p>
 * Only {@link #initiator()}'s score is a round trip; {@link #responder()}'s is the time of one poll of the
 * responder's bundle. Run on a machine with two free CPUs: the two threads spin.
 */
@State(Scope.Group)
public class CrossCoreBenchmark extends AmBenchmark
{
    private static final int ECHO = 1;
    private static final int ECHO_REPLY = 2;

    /** The protocol between the two threads: {@code inproc} or {@code shm}. */
    @Param({ "shm", "inproc" })
    public String route;

    private Bundle initiatorBundle;
    private Bundle responderBundle;
    private Endpoint initiator;
    /** Written by the initiator's reply handler, on the initiator's thread only. */
    private long replies;
    /** Requests sent by the initiator's thread. */
    private long sent;
    private volatile long returned;

    /**
     * Start am2j, make the two bundles and endpoints and map the responder.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        JmhRuntime.startRoute(route, List.of("inproc", "shm"));
        initiatorBundle = Am.allocateBundle(BundleKind.SEQ);
        responderBundle = Am.allocateBundle(BundleKind.SEQ);
        final Endpoint responder = responderBundle.allocateEndpoint();
        initiator = initiatorBundle.allocateEndpoint();
        responder.tag(Tags.fresh());
        initiator.tag(Tags.fresh());
        responder.handler(ECHO, (token, msg) -> token.reply(ECHO_REPLY, msg.arg(0)));
        initiator.handler(ECHO_REPLY, (token, msg) -> replies++);
        responder.handler(0, (token, msg) -> returned++);
        initiator.handler(0, (token, msg) -> returned++);
        initiator.map(0, responder.name(), responder.tag());
        AmPingPongRank.checkRoute(initiator, 0, route);
    }

    /**
     * Close both bundles; fail when any message came back.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        initiatorBundle.close();
        responderBundle.close();
        if (0 != returned)
        {
            throw new IllegalStateException(returned + " messages came back to handler 0");
        }
    }

    /**
     * One short request and its reply, polled for by the initiator's thread.
     *
     * @param control JMH's, to give up a wait when the iteration ends (the responder may have stopped polling).
     * @return replies so far.
     */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long initiator(final Control control)
    {
        // At most one request in flight: a wait given up at the end of an iteration leaves its request to be
        // answered in the next one, rather than piling requests into a queue the responder may have stopped polling
        // (a full queue would block request() for good).
        if (replies == sent)
        {
            initiator.request(0, ECHO, (int)sent);
            sent++;
        }
        while (replies != sent && !control.stopMeasurement)
        {
            if (0 == initiatorBundle.poll())
            {
                Thread.onSpinWait();
            }
        }
        return replies;
    }

    /**
     * One poll of the responder's bundle, which runs the echo handler when a request is there.
     *
     * @return messages handled by the poll.
     */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public int responder()
    {
        final int handled = responderBundle.poll();
        if (0 == handled)
        {
            Thread.onSpinWait();
        }
        return handled;
    }
}
