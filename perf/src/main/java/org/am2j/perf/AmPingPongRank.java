package org.am2j.perf;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.LongConsumer;

import org.HdrHistogram.Histogram;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;
import org.am2j.spi.Settings;
import org.am2j.spmd.Job;

/**
 * The rank program of the AM-II measurements of {@link PingPong}, one JVM per rank, started through the SPMD
 * launcher with a {@link RankConfig} command line. Written as an application would be, with the public API only:
 * {@code Spmd.init()}, a SEQ bundle with one endpoint and a fresh tag, an all-gather of (tag, endpoint name), a
 * translation to the other rank's endpoint at index = its rank, {@link AmMessaging}'s handlers, busy polling.
 * <p>
 * Before measuring, both ranks check that the translation to the peer uses the transport the protocol is about
 * ({@code --route}); a run over any other transport fails instead of reporting misleading numbers. Over the network,
 * the ranks also open the sockets of the plain UDP limit ({@link UdpRank#openToPeer}: the same address and socket
 * setup as the separate UDP pair's), so that am2j's short round trips can alternate with plain UDP round trips
 * between the same two JVMs.
 * <p>
 * Rank 0 drives (see {@link #initiate}); rank 1 follows its commands (see {@link #respond}). Rank 0 writes its
 * results to {@code --out}: {@code rtt_*} (over shared memory with {@code limit_interleaved_rtt_*} and
 * {@code ratio_p50_interleaved*}, over the network with {@code limit_interleaved_udp_rtt_*} and
 * {@code ratio_p50_interleaved_udp*}: {@link InterleavedRoundTrips}), {@code medium_rtt_*} (with {@code --size}),
 * {@code os_ns} (the mean),
 * {@code os_burst_p50_ns} (the median burst's time per request: a preempted burst moves the mean, not this),
 * {@code os_queue_full_backoffs}, {@code bw_8k_gbps}, {@code bw_8k_gbps_min}, {@code bw_8k_gbps_max},
 * {@code bw_8k_gbps_runs} (timed after the bandwidth has settled: {@code warmUntilSettled}),
 * {@code bw_8k_queue_full_backoffs} (back-offs of the sender on a full queue during the timed runs), the
 * {@link EpochGuard} results of each and {@code probe_fastest_p50_ns}.
 */
public final class AmPingPongRank
{
    /** A settling bandwidth run at most this much faster than the one before it ends the settling. */
    static final double BW_SETTLED_GAIN = 1.1;
    /** Settling bandwidth runs at most, after the warm-up run. */
    static final int MAX_BW_SETTLING_RUNS = 5;

    /** Probes run and thrown away before the first one that counts. */
    static final int WARM_PROBES = 3;

    private static final String UDP_SOCKET = "the plain UDP limit's socket (only its own ranks and the network " +
        "protocols' open one)";

    private AmPingPongRank()
    {
    }

    /**
     * What rank 0 of an AM rank pair measures; rank 1 answers with {@link #respond}.
     */
    @FunctionalInterface
    interface Initiator
    {
        /**
         * @param config    of the run.
         * @param messaging on rank 0's endpoint.
         * @param line      the pair's cache line, for the probes and, over shared memory, the interleaved blocks.
         * @param udp       over the network, rank 0's side of the plain UDP limit, its peer rank 1's; else null.
         * @param channel   to rank 1.
         * @param pause     sleeps the given milliseconds.
         * @return the results, with {@code probe_fastest_p50_ns}.
         */
        Results initiate(
            RankConfig config,
            AmMessaging messaging,
            CacheLinePingPong line,
            UdpPingPong udp,
            PhaseChannel channel,
            LongConsumer pause);
    }

    /**
     * @param args a {@link RankConfig} command line.
     * @throws IOException when the cache-line file cannot be mapped or the results cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        run(args, true, AmPingPongRank::initiate);
    }

    /**
     * The body of an AM rank program: join the job, open the endpoint, map the peer over the configured transport,
     * then rank 0 measures with {@code initiator} and writes its results, and rank 1 answers.
     *
     * @param args      a {@link RankConfig} command line.
     * @param udpLimit  whether the ranks open the plain UDP limit's sockets when the route is the network's.
     * @param initiator rank 0's measurements; its UDP side is null unless {@code udpLimit} and the route is the
     *                  network's.
     * @throws IOException when the cache-line file, or the UDP limit's socket, cannot be opened, or the results
     *                     cannot be written.
     */
    static void run(final String[] args, final boolean udpLimit, final Initiator initiator) throws IOException
    {
        JobPhaseChannel.run(args, (config, job, line, channel) ->
        {
            try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                final Endpoint endpoint = bundle.allocateEndpoint();
                endpoint.tag(Tags.fresh());
                final int peer = 1 - job.rank();
                final AmMessaging messaging = new AmMessaging(bundle, endpoint, peer);
                mapPeer(job, endpoint, peer, config.route());
                // both ranks decide alike from the same --route, so both take part in the limit sockets'
                // all-gather or neither does
                try (UdpPingPong udp = udpLimit && config.routeIsNet() ? UdpRank.openToPeer(job) : null)
                {
                    JobPhaseChannel.split(config, job,
                        () -> initiator.initiate(config, messaging, line, udp, channel, AmPingPongRank::sleep),
                        () -> respond(messaging, udp, line, channel));
                }
            }
        });
    }

    /**
     * All-gather (tag, endpoint name), map the peer at index = its rank, and check the transport.
     *
     * @param job      of two ranks.
     * @param endpoint this rank's endpoint, its tag set.
     * @param peer     rank of the other rank.
     * @param route    the transport the translation must use.
     */
    static void mapPeer(final Job job, final Endpoint endpoint, final int peer, final String route)
    {
        final long[] tags = new long[job.size()];
        endpoint.map(peer, ScaleRank.exchangeNames(job, endpoint, tags)[peer], tags[peer]);
        checkRoute(endpoint, peer, route);
    }

    /**
     * The check of every rank pair and JMH benchmark that its messages take the route it measures.
     *
     * @param endpoint with the peer mapped.
     * @param peer     translation index of the peer.
     * @param route    the transport the translation must use.
     * @throws IllegalStateException when it uses another.
     */
    public static void checkRoute(final Endpoint endpoint, final int peer, final String route)
    {
        final String transport = endpoint.translationTransport(peer);
        if (!route.equals(transport))
        {
            throw new IllegalStateException("the translation to the peer uses transport '" + transport +
                "', not '" + route + "': the run would not measure " + route);
        }
    }

    /**
     * Rank 0: every AM measurement, each inside an {@link EpochGuard}, then the end command.
     *
     * @param config    of the run.
     * @param messaging on rank 0's endpoint.
     * @param line      the pair's cache line, for the probes and, over shared memory, the interleaved blocks.
     * @param udp       over the network, rank 0's side of the plain UDP limit, for the interleaved blocks; else null.
     * @param channel   to rank 1.
     * @param pause     sleeps the given milliseconds.
     * @return the results.
     */
    static Results initiate(
        final RankConfig config,
        final AmMessaging messaging,
        final CacheLinePingPong line,
        final UdpPingPong udp,
        final PhaseChannel channel,
        final LongConsumer pause)
    {
        final Results results = new Results();
        final EpochGuard guard = guard(config, line, channel, pause);
        final Histogram histogram = LatencySummary.newHistogram();

        // The limit the short round trips alternate with: shared memory's is the pair's cache line, the network's
        // plain UDP between the same two JVMs (the cache line is no limit of a path through the kernel).
        final CacheLinePingPong interleaved = config.routeIsShm() ? line : null;
        final UdpPingPong interleavedUdp = config.routeIsNet() ? udp : null;
        ShortRoundTrips.warmUp(config, messaging, interleavedUdp, channel, histogram, results);
        guard.measure("rtt", () ->
            ShortRoundTrips.measure(config, messaging, interleaved, interleavedUdp, channel, histogram, results),
            results);
        if (config.roundTripsOnly())
        {
            return end(channel, guard, results);
        }

        if (config.size() > 0)
        {
            guard.roundTrips("medium_rtt", "medium_rtt", config, results, histogram, n ->
            {
                channel.command(PhaseChannel.SERVE, 0);
                messaging.mediumRoundTrips(n, config.size(), histogram);
                messaging.finish();
            });
        }

        guard.measure("wake_rtt", () ->
        {
            channel.command(PhaseChannel.SERVE_ASLEEP, 0);
            histogram.reset();
            messaging.roundTripsToASleeper(config.wakeRounds() / 10, histogram);
            histogram.reset();
            messaging.roundTripsToASleeper(config.wakeRounds(), histogram);
            messaging.finish();
            LatencySummary.of(histogram).putInto(results, "wake_rtt");
        }, results);

        guard.measure("os", () ->
        {
            channel.command(PhaseChannel.SERVE, 0);
            histogram.reset();
            messaging.sendBursts(config.osWarmupBursts(), PingPongOptions.OS_BURST, histogram);
            histogram.reset();
            final long backoffs = messaging.queueFullBackoffs();
            final long totalNs = messaging.sendBursts(config.osBursts(), PingPongOptions.OS_BURST, histogram);
            final long backoffsDuring = messaging.queueFullBackoffs() - backoffs;
            messaging.finish();
            results.put("os_ns", MachineReport.round(
                (double)totalNs / ((long)config.osBursts() * PingPongOptions.OS_BURST), 100));
            results.put("os_burst_p50_ns",
                MachineReport.round((double)histogram.getValueAtPercentile(50.0) / PingPongOptions.OS_BURST, 100));
            results.put("os_queue_full_backoffs", backoffsDuring);
        }, results);

        guard.measure("bw_8k", () ->
        {
            channel.command(PhaseChannel.SERVE, 0);
            messaging.bandwidthGbps(bwWarmupMessages(config));
            warmUntilSettled(messaging, config);
            final long backoffs = messaging.queueFullBackoffs();
            final double[] runs = new double[config.bwRepeats()];
            for (int i = 0; i < runs.length; i++)
            {
                runs[i] = messaging.bandwidthGbps(config.bwMessages());
            }
            final long backoffsDuring = messaging.queueFullBackoffs() - backoffs;
            messaging.finish();
            putBandwidth(results, "bw_8k", runs);
            results.put("bw_8k_queue_full_backoffs", backoffsDuring);
        }, results);

        return end(channel, guard, results);
    }

    /**
     * Untimed bandwidth runs of a timed run's length after the warm-up run, until one is at most
     * {@value #BW_SETTLED_GAIN} times as fast as the one before (at most {@value #MAX_BW_SETTLING_RUNS}): paths that
     * only the bandwidth run takes (batches of medium messages, AES-GCM over them on the wire) may still be compiling
     * after the warm-up, and the first timed runs then measured the compiler, a third to a half of the later ones.
     */
    private static void warmUntilSettled(final AmMessaging messaging, final RankConfig config)
    {
        double last = messaging.bandwidthGbps(config.bwMessages());
        for (int i = 1; i < MAX_BW_SETTLING_RUNS; i++)
        {
            final double next = messaging.bandwidthGbps(config.bwMessages());
            if (next <= last * BW_SETTLED_GAIN)
            {
                return;
            }
            last = next;
        }
    }

    /**
     * @param config of the run.
     * @return messages of the untimed bandwidth run before the timed ones: as many as a timed run, or as many as
     * the warm-up round trips when that is more (up to {@value PingPongOptions#MAX_BW_MESSAGES}), so that a run
     * with few messages still starts compiled.
     */
    static int bwWarmupMessages(final RankConfig config)
    {
        return Math.max(config.bwMessages(), Math.min(config.warmup(), PingPongOptions.MAX_BW_MESSAGES));
    }

    /**
     * Put {@code PREFIX_gbps} (the median), {@code _min}, {@code _max} and {@code PREFIX_gbps_runs} (every run, in
     * order).
     *
     * @param results where.
     * @param prefix  of the keys.
     * @param runs    GB/s of each run, at least one.
     */
    static void putBandwidth(final Results results, final String prefix, final double[] runs)
    {
        results.put(prefix + "_gbps", MachineReport.round(Medians.of(runs), 1000));
        results.put(prefix + "_gbps_min", MachineReport.round(Arrays.stream(runs).min().getAsDouble(), 1000));
        results.put(prefix + "_gbps_max", MachineReport.round(Arrays.stream(runs).max().getAsDouble(), 1000));
        results.put(prefix + "_gbps_runs", Arrays.stream(runs).map(run -> MachineReport.round(run, 1000)).toArray());
    }

    /**
     * Rank 1: follow rank 0's commands until the end command: serve AM requests ({@link PhaseChannel#SERVE},
     * {@link PhaseChannel#SERVE_ASLEEP}), answer the cache line ({@link PhaseChannel#RESPOND}) and, with a UDP limit,
     * its pings and streams ({@link PhaseChannel#UDP_ECHO}, {@link PhaseChannel#UDP_SINK}). The rank programs of the
     * plain UDP limit ({@link UdpRank}) and of the AM-II pairs follow with it.
     *
     * @param messaging on rank 1's endpoint, or null in a rank without one.
     * @param udp       rank 1's side of the plain UDP limit, or null in a rank without one.
     * @param line      the pair's cache line.
     * @param channel   from rank 0.
     * @throws IllegalStateException at a command this rank has nothing to answer with.
     */
    static void respond(
        final AmMessaging messaging, final UdpPingPong udp, final CacheLinePingPong line, final PhaseChannel channel)
    {
        channel.follow(line, (type, count) ->
        {
            switch (type)
            {
                case PhaseChannel.SERVE -> needed(messaging, type, "an AM endpoint").serve();
                case PhaseChannel.SERVE_ASLEEP -> needed(messaging, type, "an AM endpoint").serveAsleep();
                case PhaseChannel.UDP_ECHO -> needed(udp, type, UDP_SOCKET).respond(count);
                case PhaseChannel.UDP_SINK -> channel.report(needed(udp, type, UDP_SOCKET).sink(count).toBytes());
                default ->
                {
                    return false;
                }
            }
            return true;
        });
    }

    private static <T> T needed(final T side, final int type, final String what)
    {
        if (null == side)
        {
            throw new IllegalStateException("command " + type + " needs " + what + ", and this rank has none");
        }
        return side;
    }

    /**
     * The guard of the measurements of rank 0 of a pair, its probes warmed up ({@value #WARM_PROBES} probes thrown away).
     *
     * @param config  of the run: the fastest probe so far.
     * @param line    the pair's cache line.
     * @param channel to rank 1.
     * @param pause   sleeps the given milliseconds.
     * @return the guard.
     */
    static EpochGuard guard(
        final RankConfig config, final CacheLinePingPong line, final PhaseChannel channel, final LongConsumer pause)
    {
        final Histogram probeHistogram = LatencySummary.newHistogram();
        final EpochGuard guard = new EpochGuard(
            () -> probe(line, channel, probeHistogram), config.fastestProbeNs(), pause,
            EpochGuard.maxRetries(Settings.system()));
        // probes whose values are thrown away, so that the first probe that counts runs compiled code: a fresh JVM's
        // first probe is slower than the machine and could pass for a slow epoch
        for (int i = 0; i < WARM_PROBES; i++)
        {
            probe(line, channel, probeHistogram);
        }
        return guard;
    }

    /**
     * Rank 0's end of a pair: the end command to rank 1, and the fastest probe into the results.
     *
     * @param channel to rank 1.
     * @param guard   of rank 0's measurements.
     * @param results of rank 0.
     * @return the results, with {@code probe_fastest_p50_ns}.
     */
    static Results end(final PhaseChannel channel, final EpochGuard guard, final Results results)
    {
        channel.command(PhaseChannel.EXIT, 0);
        return results.put("probe_fastest_p50_ns", guard.fastestNs());
    }

    /**
     * Rank 0's side of a probe: tell rank 1 to answer, then time {@link EpochGuard#PROBE_ROUND_TRIPS} round trips.
     *
     * @param line      the pair's cache line.
     * @param channel   to rank 1.
     * @param histogram scratch histogram.
     * @return the median round trip, ns.
     */
    static long probe(final CacheLinePingPong line, final PhaseChannel channel, final Histogram histogram)
    {
        channel.command(PhaseChannel.RESPOND, EpochGuard.PROBE_ROUND_TRIPS);
        histogram.reset();
        line.roundTrips(EpochGuard.PROBE_ROUND_TRIPS, histogram);
        return histogram.getValueAtPercentile(50.0);
    }

    /**
     * Sleep, as the pause of an {@link EpochGuard}.
     *
     * @param ms how long.
     */
    static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting out a slow epoch", ex);
        }
    }
}
