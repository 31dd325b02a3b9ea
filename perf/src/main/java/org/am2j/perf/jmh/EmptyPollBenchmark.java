package org.am2j.perf.jmh;


import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Tags;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a poll costs when there is nothing to receive: {@link Bundle#poll()} of a SEQ bundle with
 * {@link #endpoints} endpoints, under each set of transports. This is what a busy-polling receiver pays between
 * messages and what every round trip pays at least twice. The network is polled as the poll scheduler says
 * ({@code am2j.poll}, default every poll).
 */
public class EmptyPollBenchmark extends AmBenchmark
{
    /**
     * The transports open: {@code inproc}, {@code inproc+shm} or {@code inproc+shm+net} ({@code +}, not a comma: JMH
     * splits {@code -p} values at commas).
     */
    @Param({ "inproc", "inproc+shm", "inproc+shm+net" })
    public String transports;

    /** Endpoints in the bundle. */
    @Param({ "1" })
    public int endpoints;

    private Bundle bundle;

    /**
     * Start am2j with the transports and make the endpoints.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        JmhRuntime.start(transports.replace('+', ','), false);
        bundle = Am.allocateBundle(BundleKind.SEQ);
        for (int i = 0; i < endpoints; i++)
        {
            bundle.allocateEndpoint().tag(Tags.fresh());
        }
    }

    /**
     * Close the bundle.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        bundle.close();
    }

    /**
     * @return messages handled: 0.
     */
    @Benchmark
    public int poll()
    {
        return bundle.poll();
    }
}
