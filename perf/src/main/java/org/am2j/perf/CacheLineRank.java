package org.am2j.perf;

import java.io.IOException;
import java.util.function.LongConsumer;

import org.HdrHistogram.Histogram;

/**
 * The rank program of the machine's limit in {@link PingPong}: the plain cache-line ping-pong of
 * {@link CacheLinePingPong} between two JVMs pinned like the AM ranks, with no AM layer (the job's rendezvous only
 * carries the commands between measurements). Rank 0 times {@code --warmup} then {@code --rounds} round trips inside
 * an {@link EpochGuard} and writes {@code limit_rtt_*}, the guard's results and {@code probe_fastest_p50_ns} to
 * {@code --out}; with {@code --size B} then the same for medium round trips of B bytes on the pair's data page
 * ({@link CacheLinePingPong#mediumRoundTrips}), {@code limit_medium_rtt_*}; rank 1 answers.
 */
public final class CacheLineRank
{
    private CacheLineRank()
    {
    }

    /**
     * @param args a {@link RankConfig} command line.
     * @throws IOException when the cache-line file cannot be mapped or the results cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        JobPhaseChannel.run(args, (config, job, line, channel) ->
        {
            JobPhaseChannel.split(config, job, () -> initiate(config, line, channel, AmPingPongRank::sleep),
                () -> channel.follow(line, PhaseChannel.RESPOND_MEDIUM,
                    count -> line.respondMedium(count, config.size())));
        });
    }

    /**
     * Rank 0: the limit measurement inside an {@link EpochGuard}, then the end command.
     *
     * @param config  of the run.
     * @param line    the pair's cache line.
     * @param channel to rank 1.
     * @param pause   sleeps the given milliseconds.
     * @return the results.
     */
    static Results initiate(
        final RankConfig config, final CacheLinePingPong line, final PhaseChannel channel, final LongConsumer pause)
    {
        final Results results = new Results();
        final EpochGuard guard = AmPingPongRank.guard(config, line, channel, pause);
        final Histogram histogram = LatencySummary.newHistogram();
        guard.roundTrips("limit_rtt", "limit_rtt", config, results, histogram, n ->
        {
            channel.command(PhaseChannel.RESPOND, n);
            line.roundTrips(n, histogram);
        });
        if (config.size() > 0)
        {
            guard.roundTrips("limit_medium_rtt", "limit_medium_rtt", config, results, histogram, n ->
            {
                channel.command(PhaseChannel.RESPOND_MEDIUM, n);
                line.mediumRoundTrips(n, config.size(), histogram);
            });
        }
        return AmPingPongRank.end(channel, guard, results);
    }
}
