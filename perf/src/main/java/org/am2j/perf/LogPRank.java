package org.am2j.perf;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.HdrHistogram.Histogram;

/**
 * The rank program of the AM-II measurements of {@link LogP}: an AM rank pair like {@link AmPingPongRank}'s (same
 * set-up, handlers, route check and responder), whose rank 0 measures, each inside an {@link EpochGuard}:
 * <ol>
 * <li>{@code rtt}: the short round trips of {@link ShortRoundTrips#measure} ({@code rtt_*});</li>
 * <li>{@code sig_d0} ... : the signature, one measurement per delay Delta = {@link #DELAY_FACTORS} times the median
 * round trip just measured (the computed delay): for every burst length M = 1, 2, 4, ... up to the largest, the
 * median over the repetitions of the time of one {@link AmMessaging#signatureBurst burst}; the bursts of all lengths
 * take turns within each repetition, so a drift of the machine touches them alike; and the cost of one delay in
 * the burst loop, timed alone ({@link #delayCostNs}); the burst loop and the delay are compiled first by untimed
 * bursts (a quarter of the warm-up round trips, at most {@value #MOST_WARMUP_BURSTS} of each kind);</li>
 * <li>{@code transfer}: the bandwidth curve: for every transfer size n = {@value #SMALLEST_TRANSFER}, 2 x ... up to
 * the largest, the median time of one {@link AmMessaging#transferNs transfer}; n x reps is about the largest
 * transfer times the fewest repetitions, within [fewest, {@value #MOST_REPS_FACTOR} x fewest] repetitions.</li>
 * </ol>
 * The {@link RankConfig} fields mean here: {@code rounds}, {@code warmup} as for the ping-pong; {@code os-bursts}
 * the timed repetitions of the signature and {@code os-warmup-bursts} the untimed ones before them;
 * {@code bw-messages} the longest burst; {@code size} the largest transfer; {@code bw-repeats} the fewest transfers
 * of one size.
 * <p>
 * Results besides {@code rtt_*} and the guard's: {@code signature} ({@link LogPParameters.Signature}, times to a
 * tenth of a nanosecond), {@code transfer} ({@link Transfer}) and {@code probe_fastest_p50_ns}.
 */
public final class LogPRank
{
    /**
     * A bandwidth curve as measured, as the results and {@code bin/am2j logp --json}'s {@code details} name it.
     *
     * @param bytes    transfer sizes, increasing.
     * @param medianNs median time of a transfer of each size, ns.
     * @param reps     transfers of each size timed.
     */
    record Transfer(int[] bytes, @JsonProperty("median_ns") double[] medianNs, int[] reps)
    {
    }

    /** Delays of the signature's rows, in median round trips: the first 0, the last long enough for o_r. */
    static final double[] DELAY_FACTORS = { 0, 0.5, 1, 2 };
    /** The smallest transfer of the bandwidth curve, bytes. */
    static final int SMALLEST_TRANSFER = 64;
    /** The most repetitions of a transfer size, in multiples of the fewest. */
    static final int MOST_REPS_FACTOR = 25;
    /** Clock reads timed to find what timing an empty interval costs. */
    static final int CLOCK_SAMPLES = 20_001;
    /** Timings of the delay loop alone, for the median of its cost. */
    static final int DELAY_SAMPLES = 2_001;
    /** Most warm-up bursts of each kind before the signature (fewer when the run has fewer warm-up round trips). */
    static final int MOST_WARMUP_BURSTS = 20_000;
    /** Delay of the warm-up bursts that compile the delay loop, ns. */
    static final long WARMUP_DELAY_NS = 100;

    private LogPRank()
    {
    }

    /**
     * @param args a {@link RankConfig} command line (its fields as the class comment says).
     * @throws IOException when the cache-line file cannot be mapped or the results cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        AmPingPongRank.run(args, false, LogPRank::initiate);
    }

    /**
     * Rank 0: every measurement of the class comment, each inside an {@link EpochGuard}, then the end command.
     *
     * @param config    of the run.
     * @param messaging on rank 0's endpoint.
     * @param line      the pair's cache line, for the probes and, over shared memory, the interleaved blocks.
     * @param udp       unused: null (LogP opens no plain UDP limit).
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
        final EpochGuard guard = AmPingPongRank.guard(config, line, channel, pause);
        final Histogram histogram = LatencySummary.newHistogram();

        // Shared memory: in blocks alternating with the pair's cache line, as the Aeron IPC pair does with its own,
        // so the two can be compared each against the line of its own machine state (LogPReport).
        final CacheLinePingPong interleaved = config.routeIsShm() ? line : null;
        // Over the network the short round trips run alone, as LogPReport reads them: no plain UDP limit here.
        ShortRoundTrips.warmUp(config, messaging, null, channel, histogram, results);
        guard.measure("rtt", () ->
            ShortRoundTrips.measure(config, messaging, interleaved, null, channel, histogram, results), results);

        final long rttNs = results.getLong("rtt_p50_ns");
        final int[] bursts = powersOfTwo(1, config.bwMessages());
        // untimed: compile the burst loop and the delay before the first short burst is timed
        channel.command(PhaseChannel.SERVE, 0);
        final int warmupBursts = Math.min(MOST_WARMUP_BURSTS, config.warmup() / 4);
        for (int i = 0; i < warmupBursts; i++)
        {
            messaging.signatureBurst(1 + (i & 3), 0);
            messaging.signatureBurst(1, WARMUP_DELAY_NS);
        }
        delayCostNs(WARMUP_DELAY_NS);
        messaging.finish();
        final double clockNs = clockNs();
        final long[] delaysNs = new long[DELAY_FACTORS.length];
        final double[] delayCostNs = new double[DELAY_FACTORS.length];
        final double[][] burstNs = new double[DELAY_FACTORS.length][];
        for (int k = 0; k < DELAY_FACTORS.length; k++)
        {
            final int row = k;
            delaysNs[row] = Math.round(DELAY_FACTORS[row] * rttNs);
            guard.measure("sig_d" + row, () ->
            {
                channel.command(PhaseChannel.SERVE, 0);
                burstNs[row] = tenths(signatureRow(messaging, bursts, delaysNs[row], config.osWarmupBursts(),
                    config.osBursts()));
                messaging.finish();
                delayCostNs[row] = delaysNs[row] > 0 ? MachineReport.round(delayCostNs(delaysNs[row]), 10) : 0;
            }, results);
        }
        results.put("signature", new LogPParameters.Signature(bursts, delaysNs, delayCostNs, burstNs, clockNs));

        final int[] sizes = powersOfTwo(SMALLEST_TRANSFER, config.size());
        guard.measure("transfer", () ->
        {
            channel.command(PhaseChannel.SERVE, 0);
            final int[] reps = new int[sizes.length];
            final double[] medians = new double[sizes.length];
            for (int i = 0; i < sizes.length; i++)
            {
                reps[i] = transferReps(sizes[i], config.size(), config.bwRepeats());
                transfers(messaging, sizes[i], Math.max(1, reps[i] / 4));
            }
            for (int i = 0; i < sizes.length; i++)
            {
                medians[i] = Medians.of(transfers(messaging, sizes[i], reps[i]));
            }
            messaging.finish();
            results.put("transfer", new Transfer(sizes, tenths(medians), reps));
        }, results);

        return AmPingPongRank.end(channel, guard, results);
    }

    /**
     * One row of the signature.
     *
     * @param messaging on rank 0's endpoint, rank 1 serving.
     * @param bursts    the burst lengths.
     * @param delayNs   the row's delay.
     * @param warmReps  untimed repetitions.
     * @param reps      timed repetitions, at least 1.
     * @return the median burst time of each length, ns.
     */
    static double[] signatureRow(
        final AmMessaging messaging, final int[] bursts, final long delayNs, final int warmReps, final int reps)
    {
        for (int r = 0; r < warmReps; r++)
        {
            for (final int burst : bursts)
            {
                messaging.signatureBurst(burst, delayNs);
            }
        }
        final long[][] times = new long[bursts.length][reps];
        for (int r = 0; r < reps; r++)
        {
            for (int i = 0; i < bursts.length; i++)
            {
                times[i][r] = messaging.signatureBurst(bursts[i], delayNs);
            }
        }
        return Arrays.stream(times).mapToDouble(Medians::of).toArray();
    }

    private static long[] transfers(final AmMessaging messaging, final int bytes, final int reps)
    {
        final long[] times = new long[reps];
        for (int r = 0; r < reps; r++)
        {
            times[r] = messaging.transferNs(bytes);
        }
        return times;
    }

    /**
     * @param bytes   a transfer size.
     * @param largest the largest transfer size.
     * @param fewest  the fewest repetitions of a size.
     * @return repetitions of this size: about {@code largest * fewest / bytes}, within [fewest,
     * {@value #MOST_REPS_FACTOR} x fewest].
     */
    static int transferReps(final int bytes, final int largest, final int fewest)
    {
        final long even = (long)largest * fewest / bytes;
        return (int)Math.max(fewest, Math.min((long)MOST_REPS_FACTOR * fewest, even));
    }

    /**
     * @param from  the first power of two.
     * @param upTo  the last is at most this.
     * @return from, 2 from, 4 from, ... up to upTo (at least two values: 2 from when upTo is smaller).
     */
    static int[] powersOfTwo(final int from, final int upTo)
    {
        // from << k <= upTo exactly when 2^k <= upTo / from (rounded down)
        final int n = Math.max(2, upTo < from ? 1 : 32 - Integer.numberOfLeadingZeros(upTo / from));
        return IntStream.range(0, n).map(i -> from << i).toArray();
    }

    /**
     * @return the median cost of timing an empty interval (two clock reads), ns.
     */
    static double clockNs()
    {
        final long[] samples = new long[CLOCK_SAMPLES];
        for (int i = 0; i < samples.length; i++)
        {
            final long start = System.nanoTime();
            samples[i] = System.nanoTime() - start;
        }
        return Medians.of(samples);
    }

    /**
     * @param delayNs a delay of the signature, above 0.
     * @return the median time of one {@link AmMessaging#spin(long)} of that delay timed alone, over
     * {@value #DELAY_SAMPLES} timings, each from a clock read just before the call to the spin's own last read: what
     * a delay adds to a burst (the delay and the spin's overshoot and clock reads). A median, since a timing the
     * machine preempted must not count.
     */
    static double delayCostNs(final long delayNs)
    {
        final long[] samples = new long[DELAY_SAMPLES];
        for (int i = 0; i < samples.length; i++)
        {
            final long start = System.nanoTime();
            samples[i] = AmMessaging.spin(delayNs) - start;
        }
        return Medians.of(samples);
    }

    private static double[] tenths(final double[] ns)
    {
        return Arrays.stream(ns).map(value -> MachineReport.round(value, 10)).toArray();
    }
}
