package org.am2j.perf;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The alternation of am2j's round trips with the limit's, from sides that record made-up times: the order and size
 * of the blocks, what each side's pooled histogram holds, and the ratios.
 */
@Timeout(30)
class InterleavedRoundTripsTest
{
    @Test
    void theBlocksSplitTheRoundTripsEvenlyWithTheRemainderFirst()
    {
        assertEquals(10, InterleavedRoundTrips.blocks(1_000_000));
        assertEquals(3, InterleavedRoundTrips.blocks(3));
        int total = 0;
        for (int i = 0; i < 10; i++)
        {
            final int n = InterleavedRoundTrips.blockRounds(1_003, 10, i);
            assertEquals(i < 3 ? 101 : 100, n);
            total += n;
        }
        assertEquals(1_003, total);
    }

    @Test
    void theSidesAlternateAmFirstWithTheSameRoundTripsInEachBlock()
    {
        final List<String> calls = new ArrayList<>();
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        blocks.run(25,
            (w, n, h) -> record(calls, "am", w, n, h, 300), (w, n, h) -> record(calls, "line", w, n, h, 100));
        final int w = InterleavedRoundTrips.BLOCK_WARMUP;
        assertEquals(List.of("am " + w + "+3", "line " + w + "+3", "am " + w + "+3", "line " + w + "+3",
            "am " + w + "+3", "line " + w + "+3", "am " + w + "+3", "line " + w + "+3", "am " + w + "+3",
            "line " + w + "+3", "am " + w + "+2", "line " + w + "+2", "am " + w + "+2", "line " + w + "+2",
            "am " + w + "+2", "line " + w + "+2", "am " + w + "+2", "line " + w + "+2", "am " + w + "+2",
            "line " + w + "+2"), calls);
        assertEquals(25, blocks.am().getTotalCount());
        final Results results = new Results();
        blocks.putInto(results);
        assertEquals(25, results.getLong("limit_interleaved_rtt_count"));
    }

    @Test
    void eachBlockHasTheRatioOfItsOwnMediansAndTheRunTheirMedian()
    {
        // The machine changes state between blocks: both sides are twice as slow in blocks 2 and 3. Measured one
        // after the other, a ratio would mix states; per block it stays near 2.5, except block 4, where am2j alone
        // was slow.
        final long[] line = { 100, 200, 200, 100, 100, 100, 100, 100, 100, 100 };
        final long[] am = { 250, 500, 500, 400, 240, 260, 250, 250, 250, 250 };
        final InterleavedRoundTrips blocks = blocksOf(10 * 1_000, am, line);
        final Results results = new Results();
        blocks.putInto(results);
        assertEquals(2.5, results.getDouble("ratio_p50_interleaved"), 0.02);
        assertEquals(2.4, results.getDouble("ratio_p50_interleaved_min"), 0.02);
        assertEquals(4.0, results.getDouble("ratio_p50_interleaved_max"), 0.02);
        assertArrayEquals(new double[]{ 2.5, 2.5, 2.5, 4.0, 2.4, 2.6, 2.5, 2.5, 2.5, 2.5 },
            results.getDoubles("ratio_p50_interleaved_blocks"));
        assertEquals(10_000, results.getLong("limit_interleaved_rtt_count"));
        assertEquals(100, results.getLong("limit_interleaved_rtt_min_ns"));
        assertEquals(200, results.getLong("limit_interleaved_rtt_max_ns"), 1);
        assertEquals(500, blocks.am().getMaxValue(), 1);
    }

    @Test
    void theUdpLimitsKeysAreNamedAfterIt()
    {
        final InterleavedRoundTrips blocks = blocksOf(4, new long[]{ 200, 300, 250, 300 },
            new long[]{ 100, 100, 100, 100 });
        final Results results = new Results();
        blocks.putInto(results, InterleavedRoundTrips.UDP_LIMIT, InterleavedRoundTrips.UDP_RATIO);
        assertEquals("limit_interleaved_udp_rtt", InterleavedRoundTrips.UDP_LIMIT);
        assertEquals("ratio_p50_interleaved_udp", InterleavedRoundTrips.UDP_RATIO);
        assertEquals(2.75, results.getDouble("ratio_p50_interleaved_udp"), 0.02);
        assertEquals(2.0, results.getDouble("ratio_p50_interleaved_udp_min"), 0.02);
        assertEquals(3.0, results.getDouble("ratio_p50_interleaved_udp_max"), 0.02);
        assertArrayEquals(new double[]{ 2.0, 3.0, 2.5, 3.0 }, results.getDoubles("ratio_p50_interleaved_udp_blocks"));
        assertEquals(4, results.getLong("limit_interleaved_udp_rtt_count"));
        assertEquals(100, results.getLong("limit_interleaved_udp_rtt_p50_ns"), 1);
        // nothing under the cache line's names
        assertFalse(results.has("ratio_p50_interleaved"));
        assertFalse(results.has("limit_interleaved_rtt_p50_ns"));
    }

    @Test
    void aSecondRunForgetsTheFirst()
    {
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        blocks.run(100, (w, n, h) -> recordAll(h, n, 900), (w, n, h) -> recordAll(h, n, 100));
        blocks.run(20, (w, n, h) -> recordAll(h, n, 300), (w, n, h) -> recordAll(h, n, 100));
        assertEquals(20, blocks.am().getTotalCount());
        assertEquals(300, blocks.am().getMaxValue(), 1);
        final Results results = new Results();
        blocks.putInto(results);
        assertEquals(20, results.getLong("limit_interleaved_rtt_count"));
        assertEquals(10, results.getDoubles("ratio_p50_interleaved_blocks").length);
        assertEquals(3.0, results.getDoubles("ratio_p50_interleaved_blocks")[9], 0.02);
    }

    @Test
    void badInputIsRefused()
    {
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        assertThrows(IllegalStateException.class, () -> blocks.putInto(new Results()));
        assertThrows(IllegalArgumentException.class,
            () -> blocks.run(0, (w, n, h) -> recordAll(h, n, 1), (w, n, h) -> recordAll(h, n, 1)));
    }

    @Test
    void aBlockWhoseLimitMedianIsZeroHasNoRatioAndStaysOutOfTheMedian()
    {
        final long[] line = { 100, 0, 100, 100 };
        final long[] am = { 200, 300, 250, 300 };
        final InterleavedRoundTrips blocks = blocksOf(4, am, line);
        final Results results = new Results();
        blocks.putInto(results);
        assertEquals(2.5, results.getDouble("ratio_p50_interleaved"), 0.02);
        assertEquals(2.0, results.getDouble("ratio_p50_interleaved_min"), 0.02);
        assertEquals(3.0, results.getDouble("ratio_p50_interleaved_max"), 0.02);
        assertArrayEquals(new double[]{ 2.0, Double.NaN, 2.5, 3.0 }, results.getDoubles("ratio_p50_interleaved_blocks"));

        final InterleavedRoundTrips none = new InterleavedRoundTrips();
        none.run(2, (w, n, h) -> recordAll(h, n, 200), (w, n, h) -> recordAll(h, n, 0));
        assertThrows(IllegalStateException.class, () -> none.putInto(new Results()));
    }

    /**
     * @return a run of {@code rounds} round trips in {@code am.length} blocks, every round trip of a side's block
     * taking that block's value.
     */
    private static InterleavedRoundTrips blocksOf(final int rounds, final long[] am, final long[] line)
    {
        final int[] block = { 0, 0 };
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        blocks.run(rounds,
            (w, n, h) -> recordAll(h, n, am[block[0]++]),
            (w, n, h) -> recordAll(h, n, line[block[1]++]));
        return blocks;
    }

    private static void record(
        final List<String> calls, final String side, final int untimed, final int n, final Histogram h, final long ns)
    {
        calls.add(side + " " + untimed + "+" + n);
        recordAll(h, n, ns);
    }

    private static void recordAll(final Histogram histogram, final int n, final long ns)
    {
        for (int i = 0; i < n; i++)
        {
            LatencySummary.record(histogram, ns);
        }
    }
}
