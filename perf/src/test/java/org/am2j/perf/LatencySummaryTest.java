package org.am2j.perf;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(30)
class LatencySummaryTest
{
    @Test
    void summarisesPercentilesMeanMinAndMax()
    {
        final Histogram histogram = LatencySummary.newHistogram();
        for (long ns = 1; ns <= 1000; ns++)
        {
            LatencySummary.record(histogram, ns);
        }
        final LatencySummary summary = LatencySummary.of(histogram);
        assertEquals(1000, summary.count());
        assertEquals(500, summary.p50());
        assertEquals(990, summary.p99());
        assertEquals(999, summary.p999());
        assertEquals(500.5, summary.mean(), 1e-9);
        assertEquals(1, summary.min());
        assertEquals(1000, summary.max());
    }

    @Test
    void percentilesOfLargeValuesAreWithinTheHistogramsPrecision()
    {
        final Histogram histogram = LatencySummary.newHistogram();
        for (int i = 0; i < 990; i++)
        {
            LatencySummary.record(histogram, 150);
        }
        for (int i = 0; i < 10; i++)
        {
            LatencySummary.record(histogram, 1_234_567);
        }
        final LatencySummary summary = LatencySummary.of(histogram);
        assertEquals(150, summary.p50());
        assertEquals(150, summary.p99());
        assertEquals(1_234_567, summary.p999(), 1_234_567 * 0.001);
        assertEquals(1_234_567, summary.max(), 1_234_567 * 0.001);
        assertEquals((990 * 150 + 10 * 1_234_567) / 1000.0, summary.mean(), 12.0);
    }

    @Test
    void clampsWhatTheHistogramCannotHold()
    {
        final Histogram histogram = LatencySummary.newHistogram();
        LatencySummary.record(histogram, -5);
        LatencySummary.record(histogram, Long.MAX_VALUE);
        final LatencySummary summary = LatencySummary.of(histogram);
        assertEquals(0, summary.min());
        assertEquals(LatencySummary.MAX_TRACKED_NS, summary.max(), LatencySummary.MAX_TRACKED_NS * 0.001);
    }

    @Test
    void goesThroughResultsWithItsMeanToATenthOfANanosecond()
    {
        final LatencySummary summary = new LatencySummary(7, 140, 180, 250, 143.26, 100, 9000);
        final Results results = new Results();
        summary.putInto(results, "limit_rtt");
        assertEquals(140, results.getLong("limit_rtt_p50_ns"));
        assertEquals(143.3, results.getDouble("limit_rtt_mean_ns"));
        assertEquals(new LatencySummary(7, 140, 180, 250, 143.3, 100, 9000),
            LatencySummary.from(results, "limit_rtt"));
    }

    @Test
    void anEmptyHistogramHasNoSummary()
    {
        assertThrows(IllegalArgumentException.class, () -> LatencySummary.of(LatencySummary.newHistogram()));
    }
}
