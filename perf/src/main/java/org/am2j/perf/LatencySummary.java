package org.am2j.perf;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * The summary of a latency histogram that the benchmarks report: count, p50, p99, p99.9, mean, min and max, in
 * nanoseconds. Percentiles are HdrHistogram's (the highest value equivalent to the recorded ones at 3 significant
 * digits, so within 0.1% above the exact order statistic).
 *
 * @param count number of values.
 * @param p50   median, ns.
 * @param p99   99th percentile, ns.
 * @param p999  99.9th percentile, ns.
 * @param mean  mean, ns.
 * @param min   smallest value, ns.
 * @param max   largest value, ns.
 */
record LatencySummary(long count, long p50, long p99, long p999, double mean, long min, long max)
{
    /** Largest latency a histogram tracks; longer ones are recorded as this value. */
    static final long MAX_TRACKED_NS = TimeUnit.SECONDS.toNanos(60);
    /** Significant digits of the histograms. */
    static final int SIGNIFICANT_DIGITS = 3;

    /**
     * @return a histogram for latencies of 0 to {@link #MAX_TRACKED_NS} ns at {@value #SIGNIFICANT_DIGITS}
     * significant digits; recording into it allocates nothing.
     */
    static Histogram newHistogram()
    {
        return new Histogram(MAX_TRACKED_NS, SIGNIFICANT_DIGITS);
    }

    /**
     * Record a latency, clamped to [0, {@link #MAX_TRACKED_NS}] (a histogram throws on values beyond its range).
     *
     * @param histogram from {@link #newHistogram()}.
     * @param ns        the latency.
     */
    static void record(final Histogram histogram, final long ns)
    {
        histogram.recordValue(Math.max(0, Math.min(ns, MAX_TRACKED_NS)));
    }

    /**
     * @param histogram with at least one value.
     * @return its summary.
     * @throws IllegalArgumentException when it is empty.
     */
    static LatencySummary of(final Histogram histogram)
    {
        if (histogram.getTotalCount() == 0)
        {
            throw new IllegalArgumentException("an empty histogram has no latency summary");
        }
        return new LatencySummary(
            histogram.getTotalCount(),
            histogram.getValueAtPercentile(50.0),
            histogram.getValueAtPercentile(99.0),
            histogram.getValueAtPercentile(99.9),
            histogram.getMean(),
            histogram.getMinValue(),
            histogram.getMaxValue());
    }

    /**
     * Put the summary into results as {@code <prefix>_count}, {@code _p50_ns}, {@code _p99_ns}, {@code _p999_ns},
     * {@code _mean_ns}, {@code _min_ns}, {@code _max_ns}.
     *
     * @param results where.
     * @param prefix  of the keys, e.g. {@code rtt}.
     */
    void putInto(final Results results, final String prefix)
    {
        results.put(prefix + "_count", count);
        results.put(prefix + "_p50_ns", p50);
        results.put(prefix + "_p99_ns", p99);
        results.put(prefix + "_p999_ns", p999);
        results.put(prefix + "_mean_ns", mean);
        results.put(prefix + "_min_ns", min);
        results.put(prefix + "_max_ns", max);
    }

    /**
     * Read a summary {@link #putInto(Results, String)} wrote.
     *
     * @param results where it is.
     * @param prefix  of its keys.
     * @return the summary.
     * @throws IllegalArgumentException when a key is missing.
     */
    static LatencySummary from(final Results results, final String prefix)
    {
        return new LatencySummary(
            results.getLong(prefix + "_count"),
            results.getLong(prefix + "_p50_ns"),
            results.getLong(prefix + "_p99_ns"),
            results.getLong(prefix + "_p999_ns"),
            results.getDouble(prefix + "_mean_ns"),
            results.getLong(prefix + "_min_ns"),
            results.getLong(prefix + "_max_ns"));
    }
}
