package org.am2j.perf;

import org.HdrHistogram.Histogram;

/**
 * Rank 0's short round trips of an AM rank pair ({@link AmPingPongRank}, {@link LogPRank}): the warm-up, then the
 * timed round trips, alone or alternating in blocks ({@link InterleavedRoundTrips}) with a limit measured between the
 * same two JVMs: the pair's cache line over shared memory, plain UDP over the network. Each block of a limit is a
 * command to rank 1 ({@link PhaseChannel#RESPOND}, {@link PhaseChannel#UDP_ECHO}), which
 * {@link AmPingPongRank#respond(AmMessaging, UdpPingPong, CacheLinePingPong, PhaseChannel)} answers.
 */
final class ShortRoundTrips
{
    private ShortRoundTrips()
    {
    }

    /**
     * The untimed short round trips before {@link #measure}, outside its {@link EpochGuard} (whose probe then
     * comes right before the timed round trips, and whose retries are not warmed up again): {@link WarmUp}, each
     * chunk a phase of its own, ended by {@link AmMessaging#finish()} as every timed phase and block is (the end's
     * request and reply run other handlers at the same call sites, and the compiler must have seen them before the
     * timing starts: the first end of a phase otherwise made it recompile the dispatch in a timed block). Puts
     * {@code rtt_warmup_rounds}. With the plain UDP limit, its round trips are warmed up the same way after am2j's,
     * and {@code limit_interleaved_udp_rtt_warmup_rounds} put.
     *
     * @param config    of the run.
     * @param messaging on rank 0's endpoint.
     * @param udp       rank 0's side of the plain UDP limit the timed round trips alternate with, or null.
     * @param channel   to rank 1.
     * @param histogram scratch histogram.
     * @param results   where.
     */
    static void warmUp(
        final RankConfig config,
        final AmMessaging messaging,
        final UdpPingPong udp,
        final PhaseChannel channel,
        final Histogram histogram,
        final Results results)
    {
        results.put("rtt_warmup_rounds", WarmUp.run(config.warmup(), n ->
        {
            channel.command(PhaseChannel.SERVE, 0);
            messaging.shortRoundTrips(n, histogram);
            messaging.finish();
        }));
        if (null != udp)
        {
            results.put(InterleavedRoundTrips.UDP_LIMIT + "_warmup_rounds", WarmUp.run(config.warmup(), n ->
            {
                channel.command(PhaseChannel.UDP_ECHO, n);
                udp.roundTrips(n, histogram);
            }));
        }
    }

    /**
     * The short round trips, after {@link #warmUp}: {@link RankConfig#rounds()} each timed; puts
     * {@code rtt_*}. With the pair's cache line, the timed round trips alternate in blocks with as many of the
     * line's ({@link InterleavedRoundTrips}), which puts {@code limit_interleaved_rtt_*} and
     * {@code ratio_p50_interleaved*} as well; with the plain UDP limit, with as many plain UDP round trips between the
     * same two JVMs, which puts {@code limit_interleaved_udp_rtt_*}, {@code limit_interleaved_udp_rtt_resends} and
     * {@code ratio_p50_interleaved_udp*}.
     *
     * @param config    of the run.
     * @param messaging on rank 0's endpoint.
     * @param line      the pair's cache line, or null.
     * @param udp       rank 0's side of the plain UDP limit, or null; at most one of {@code line} and {@code udp}.
     * @param channel   to rank 1.
     * @param histogram scratch histogram, also for the blocks' untimed round trips.
     * @param results   where.
     * @throws IllegalArgumentException when both a line and a UDP limit are given.
     */
    static void measure(
        final RankConfig config,
        final AmMessaging messaging,
        final CacheLinePingPong line,
        final UdpPingPong udp,
        final PhaseChannel channel,
        final Histogram histogram,
        final Results results)
    {
        if (null != line && null != udp)
        {
            throw new IllegalArgumentException("the short round trips alternate with one limit, not the cache line " +
                "and plain UDP both");
        }
        if (null == line && null == udp)
        {
            channel.command(PhaseChannel.SERVE, 0);
            histogram.reset();
            messaging.shortRoundTrips(config.rounds(), histogram);
            messaging.finish();
            LatencySummary.of(histogram).putInto(results, "rtt");
            return;
        }
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        final InterleavedRoundTrips.Side amSide = (untimed, timed, h) ->
        {
            channel.command(PhaseChannel.SERVE, 0);
            messaging.shortRoundTrips(untimed, histogram);
            messaging.shortRoundTrips(timed, h);
            messaging.finish();
        };
        if (null != line)
        {
            blocks.run(config.rounds(), amSide, blocks(PhaseChannel.RESPOND, channel, line::roundTrips, histogram));
            LatencySummary.of(blocks.am()).putInto(results, "rtt");
            blocks.putInto(results);
            return;
        }
        final long resends = udp.resends();
        blocks.run(config.rounds(), amSide, blocks(PhaseChannel.UDP_ECHO, channel, udp::roundTrips, histogram));
        LatencySummary.of(blocks.am()).putInto(results, "rtt");
        blocks.putInto(results, InterleavedRoundTrips.UDP_LIMIT, InterleavedRoundTrips.UDP_RATIO);
        results.put(InterleavedRoundTrips.UDP_LIMIT + "_resends", udp.resends() - resends);
    }

    /**
     * One round-trip loop of a ping-pong's initiator: {@link CacheLinePingPong#roundTrips},
     * {@link UdpPingPong#roundTrips}, {@link AeronPingPong#roundTrips}.
     */
    @FunctionalInterface
    interface RoundTrips
    {
        /**
         * @param n         round trips.
         * @param histogram receives each one's time in ns.
         */
        void roundTrips(int n, Histogram histogram);
    }

    /**
     * A limit's (or a peer's) side of {@link InterleavedRoundTrips}: each block a command to rank 1 to answer its
     * round trips, then the untimed and the timed ones.
     *
     * @param command    that makes rank 1 answer the given number of round trips.
     * @param channel    to rank 1.
     * @param roundTrips rank 0's round-trip loop.
     * @param scratch    receives the untimed round trips.
     * @return the side.
     */
    static InterleavedRoundTrips.Side blocks(
        final int command, final PhaseChannel channel, final RoundTrips roundTrips, final Histogram scratch)
    {
        return (untimed, timed, histogram) ->
        {
            channel.command(command, untimed + timed);
            roundTrips.roundTrips(untimed, scratch);
            roundTrips.roundTrips(timed, histogram);
        };
    }
}
