package org.am2j.perf;

import java.io.IOException;
import java.util.function.IntConsumer;
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
            if (job.rank() == 0)
            {
                initiate(config, line, channel, AmPingPongRank::sleep).write(config.out());
            }
            else
            {
                channel.follow(line, PhaseChannel.RESPOND_MEDIUM, count -> line.respondMedium(count, config.size()));
            }
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
        measure("limit_rtt", config, guard, results, histogram, n ->
        {
            channel.command(PhaseChannel.RESPOND, n);
            line.roundTrips(n, histogram);
        });
        if (config.size() > 0)
        {
            measure("limit_medium_rtt", config, guard, results, histogram, n ->
            {
                channel.command(PhaseChannel.RESPOND_MEDIUM, n);
                line.mediumRoundTrips(n, config.size(), histogram);
            });
        }
        return AmPingPongRank.end(channel, guard, results);
    }

    /**
     * Warm up, then time {@code --rounds} round trips inside the guard into {@code NAME_*}.
     *
     * @param name       of the measurement.
     * @param config     of the run.
     * @param guard      of rank 0's measurements.
     * @param results    where.
     * @param histogram  that {@code roundTrips} records into.
     * @param roundTrips commands rank 1 and runs the given number of round trips.
     */
    private static void measure(
        final String name,
        final RankConfig config,
        final EpochGuard guard,
        final Results results,
        final Histogram histogram,
        final IntConsumer roundTrips)
    {
        // Before the guard: its probe then comes right before the timed round trips, and a retry is not warmed again.
        results.put(name + "_warmup_rounds", WarmUp.run(config.warmup(), roundTrips));
        guard.measure(name, () ->
        {
            histogram.reset();
            roundTrips.accept(config.rounds());
            LatencySummary.of(histogram).putInto(results, name);
        }, results);
    }
}
