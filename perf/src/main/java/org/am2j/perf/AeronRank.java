package org.am2j.perf;

import java.io.IOException;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

import org.HdrHistogram.Histogram;

/**
 * The rank program of the Aeron peers of {@link LogP}: an {@link AeronPingPong} between two JVMs pinned like the AM
 * ranks, with no AM layer; {@code --route} is {@code ipc} or {@code udp}. The job's rendezvous carries the set-up
 * (the IPC driver's directory, the UDP subscriptions' addresses), the commands between measurements and the
 * cache-line file the probes of the {@link EpochGuard} run over. Rank 0 times {@code --warmup} then
 * {@code --rounds} round trips inside an {@link EpochGuard} and writes {@code aeron_rtt_*}, the guard's results
 * (measurement {@code aeron_ipc_rtt} or {@code aeron_udp_rtt}) and {@code probe_fastest_p50_ns} to {@code --out};
 * rank 1 answers. Over IPC the timed round trips alternate in blocks with the pair's cache line
 * ({@link InterleavedRoundTrips}: {@code limit_interleaved_rtt_*}, {@code ratio_p50_interleaved*}), as am2j's
 * shared-memory round trips do in {@link LogPRank}.
 */
public final class AeronRank
{
    private AeronRank()
    {
    }

    /**
     * @param args a {@link RankConfig} command line whose route is {@code ipc} or {@code udp}.
     * @throws IOException when the cache-line file cannot be mapped or the results cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        JobPhaseChannel.run(args, (config, job, line, channel) ->
        {
            final AeronPingPong.Kind kind = AeronPingPong.Kind.of(config.route());
            final AeronPingPong aeron = AeronPingPong.open(kind, job.rank(), job::allGather);
            try
            {
                JobPhaseChannel.split(config, job,
                    () -> initiate(config, kind, aeron, line, channel, AmPingPongRank::sleep),
                    () -> channel.follow(line, PhaseChannel.AERON_ECHO, aeron::respond));
            }
            catch (final IOException | RuntimeException | Error ex)
            {
                // failing: no barrier with a rank that may wait for this one's messages (the job fails whole)
                aeron.close();
                throw ex;
            }
            // over IPC rank 1's client uses rank 0's driver: it closes first
            if (job.rank() == 1)
            {
                aeron.close();
            }
            job.allGather(new byte[0]);
            if (job.rank() == 0)
            {
                aeron.close();
            }
        });
    }

    /**
     * Rank 0: the Aeron ping-pong inside an {@link EpochGuard}, then the end command.
     *
     * @param config  of the run.
     * @param kind    IPC or UDP, for the measurement's name.
     * @param aeron   rank 0's side, connected.
     * @param line    the pair's cache line, for the probes and the blocks it alternates with over IPC.
     * @param channel to rank 1.
     * @param pause   sleeps the given milliseconds.
     * @return the results.
     */
    static Results initiate(
        final RankConfig config,
        final AeronPingPong.Kind kind,
        final AeronPingPong aeron,
        final CacheLinePingPong line,
        final PhaseChannel channel,
        final LongConsumer pause)
    {
        final Results results = new Results();
        final EpochGuard guard = AmPingPongRank.guard(config, line, channel, pause);
        final Histogram histogram = LatencySummary.newHistogram();
        final IntConsumer roundTrips = n ->
        {
            channel.command(PhaseChannel.AERON_ECHO, n);
            aeron.roundTrips(n, histogram);
        };
        if (AeronPingPong.Kind.IPC != kind)
        {
            guard.roundTrips(measurement(kind), "aeron_rtt", config, results, histogram, roundTrips);
            return AmPingPongRank.end(channel, guard, results);
        }
        // IPC: the timed round trips alternate in blocks with the pair's cache line, as am2j's shared-memory round
        // trips do with theirs. The warm-up comes before the guard, as in EpochGuard#roundTrips.
        results.put("aeron_rtt_warmup_rounds", WarmUp.run(config.warmup(), roundTrips));
        guard.measure(measurement(kind), () ->
        {
            final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
            blocks.run(config.rounds(),
                ShortRoundTrips.blocks(PhaseChannel.AERON_ECHO, channel, aeron::roundTrips, histogram),
                ShortRoundTrips.blocks(PhaseChannel.RESPOND, channel, line::roundTrips, histogram));
            LatencySummary.of(blocks.am()).putInto(results, "aeron_rtt");
            blocks.putInto(results);
        }, results);
        return AmPingPongRank.end(channel, guard, results);
    }

    /**
     * @param kind IPC or UDP.
     * @return the name of its measurement in the machine-state results: {@code aeron_ipc_rtt} or
     * {@code aeron_udp_rtt}.
     */
    static String measurement(final AeronPingPong.Kind kind)
    {
        return "aeron_" + kind.name().toLowerCase(java.util.Locale.ROOT) + "_rtt";
    }
}
