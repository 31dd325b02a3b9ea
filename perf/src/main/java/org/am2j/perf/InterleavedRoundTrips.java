package org.am2j.perf;

import java.util.Arrays;

import org.HdrHistogram.Histogram;

/**
 * Round trips of two kinds taken in alternating blocks over the same pair of ranks: am2j's and the machine limit's
 * (the pair's cache line over shared memory; plain UDP between the same two JVMs over the network). This machine
 * changes state for seconds at a time; measured one after the other, minutes or seconds apart, the two can fall in
 * different states and their ratio then says more about the machine than about am2j. Alternated in blocks of a few tens of milliseconds, both see the same states, and each block gives a ratio
 * of its own: the median of those ratios is the run's ratio, their range how much the states moved it.
 * <p>
 * The blocks split the round trips as evenly as they divide ({@link #blockRounds}); each kind runs the same number
 * of round trips in each block, am2j's first, after {@value #BLOCK_WARMUP} untimed ones: a block starts with a command
 * to the other rank, which comes out of a blocking wait for it, and the first round trips would time its waking up.
 * A block whose limit median is 0 (a clock that did not move) has no ratio and is left out of the median and range.
 * The line's medians take few values (the clock's grid here is about 10 ns), so block ratios come in steps of a few
 * percent.
 */
final class InterleavedRoundTrips
{
    /** Blocks of a run (fewer when there are fewer round trips than this). */
    static final int BLOCKS = 10;
    /** Untimed round trips of each side at the start of each of its blocks. */
    static final int BLOCK_WARMUP = 100;
    /** Prefix of the limit's round trips when the limit is the pair's cache line (shared memory). */
    static final String LINE_LIMIT = "limit_interleaved_rtt";
    /** Key of the ratios when the limit is the pair's cache line. */
    static final String LINE_RATIO = "ratio_p50_interleaved";
    /** Prefix of the limit's round trips when the limit is plain UDP between the same two JVMs (network). */
    static final String UDP_LIMIT = "limit_interleaved_udp_rtt";
    /** Key of the ratios when the limit is plain UDP. */
    static final String UDP_RATIO = "ratio_p50_interleaved_udp";

    /** One kind of round trip. */
    @FunctionalInterface
    interface Side
    {
        /**
         * Run {@code untimed} round trips, then {@code timed} ones, each of these recorded into {@code histogram}
         * (which is not reset), in one command to the other rank.
         *
         * @param untimed   round trips not recorded, at least 0.
         * @param timed     round trips recorded, at least 1.
         * @param histogram receives each timed round trip's time in ns.
         */
        void roundTrips(int untimed, int timed, Histogram histogram);
    }

    private final Histogram am = LatencySummary.newHistogram();
    private final Histogram limit = LatencySummary.newHistogram();
    private final Histogram block = LatencySummary.newHistogram();
    private double[] ratios = new double[0];

    /**
     * @param rounds round trips of the run.
     * @param blocks blocks of the run, 1 to {@code rounds}.
     * @param index  of a block, 0 to {@code blocks - 1}.
     * @return the round trips of that block: {@code rounds / blocks}, one more for the first {@code rounds % blocks}.
     */
    static int blockRounds(final int rounds, final int blocks, final int index)
    {
        return rounds / blocks + (index < rounds % blocks ? 1 : 0);
    }

    /**
     * @param rounds round trips of a run, at least 1.
     * @return its blocks: {@value #BLOCKS}, or {@code rounds} when that is fewer.
     */
    static int blocks(final int rounds)
    {
        return Math.min(BLOCKS, rounds);
    }

    /**
     * Run {@code rounds} round trips of each side in alternating blocks, am2j's first; what an earlier run recorded is
     * forgotten.
     *
     * @param rounds    round trips of each side, at least 1.
     * @param amSide    am2j's round trips.
     * @param limitSide the limit's round trips.
     * @throws IllegalArgumentException when {@code rounds} is less than 1.
     */
    void run(final int rounds, final Side amSide, final Side limitSide)
    {
        if (rounds < 1)
        {
            throw new IllegalArgumentException("rounds = " + rounds + ": interleaved blocks need at least one");
        }
        am.reset();
        limit.reset();
        final int blocks = blocks(rounds);
        ratios = new double[blocks];
        for (int i = 0; i < blocks; i++)
        {
            final int n = blockRounds(rounds, blocks, i);
            final long amP50 = runBlock(amSide, n, am);
            final long limitP50 = runBlock(limitSide, n, limit);
            ratios[i] = PingPongReport.ratio(amP50, limitP50);
        }
    }

    private long runBlock(final Side side, final int n, final Histogram pooled)
    {
        block.reset();
        side.roundTrips(BLOCK_WARMUP, n, block);
        pooled.add(block);
        return block.getValueAtPercentile(50.0);
    }

    /**
     * @return am2j's round trips of every block.
     */
    Histogram am()
    {
        return am;
    }

    /**
     * Put the limit's round trips as {@code limit_interleaved_rtt_*} ({@link LatencySummary}) and the ratios as
     * {@code ratio_p50_interleaved} and its {@code _min}, {@code _max} and {@code _blocks}: the names of the pair's
     * cache line as the limit ({@link #putInto(Results, String, String)}).
     *
     * @param results where.
     * @throws IllegalStateException before a {@link #run}, or when no block has a ratio.
     */
    void putInto(final Results results)
    {
        putInto(results, LINE_LIMIT, LINE_RATIO);
    }

    /**
     * Put the limit's round trips as {@code LIMIT_*} ({@link LatencySummary}) and the ratios as {@code RATIO} (the
     * median of the blocks that have one), {@code RATIO_min}, {@code RATIO_max} and {@code RATIO_blocks} (an array of
     * every block's, in order, {@code NaN} for a block without one), all to three decimals. am2j's round trips are the
     * caller's to put: they are the run's {@code rtt}.
     *
     * @param results     where.
     * @param limitPrefix of the limit's keys: {@link #LINE_LIMIT} or {@link #UDP_LIMIT}.
     * @param ratioKey    of the ratios: {@link #LINE_RATIO} or {@link #UDP_RATIO}.
     * @throws IllegalStateException before a {@link #run}, or when no block has a ratio.
     */
    void putInto(final Results results, final String limitPrefix, final String ratioKey)
    {
        final double[] measured = Arrays.stream(ratios).filter(ratio -> !Double.isNaN(ratio)).toArray();
        if (0 == measured.length)
        {
            throw new IllegalStateException(0 == ratios.length ? "no interleaved blocks were run" :
                "no interleaved block has a ratio: the limit's median was 0 ns in every one");
        }
        LatencySummary.of(limit).putInto(results, limitPrefix);
        results.put(ratioKey, MachineReport.round(Medians.of(measured), 1000));
        results.put(ratioKey + "_min", MachineReport.round(Arrays.stream(measured).min().getAsDouble(), 1000));
        results.put(ratioKey + "_max", MachineReport.round(Arrays.stream(measured).max().getAsDouble(), 1000));
        results.put(ratioKey + "_blocks", Arrays.stream(ratios).map(ratio -> MachineReport.round(ratio, 1000)).toArray());
    }
}
