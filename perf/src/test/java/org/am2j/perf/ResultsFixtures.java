package org.am2j.perf;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Made-up results of rank pairs, and a reader of the numbers in a JSON text, for the tests of the reports.
 */
final class ResultsFixtures
{
    private ResultsFixtures()
    {
    }

    /**
     * Put a latency summary around a median: p99 1 us above, p99.9 1.5 us above, mean 100.5 ns above, min 1 us below,
     * max 82 us above, 4,000 values.
     *
     * @param results where.
     * @param prefix  of the keys.
     * @param p50     the median, ns.
     */
    static void latency(final Results results, final String prefix, final long p50)
    {
        new LatencySummary(4_000, p50, p50 + 1_000, p50 + 1_500, p50 + 100.5, p50 - 1_000, p50 + 82_000)
            .putInto(results, prefix);
    }

    /**
     * Put the results of an {@link EpochGuard} measurement taken at once, with both probes at {@code probeNs}, and
     * the machine state load 1, 2, 3 at 2400 MHz.
     *
     * @param results where.
     * @param name    of the measurement.
     * @param probeNs both probes' medians.
     */
    static void machine(final Results results, final String name, final long probeNs)
    {
        final String prefix = "machine." + name + ".";
        results.put(prefix + "probe_p50_ns", probeNs).put(prefix + "probe_after_p50_ns", probeNs)
            .put(prefix + "attempts", 1L).put(prefix + "slow_epoch", false);
        new MachineState(1.0, 2.0, 3.0, 2400.0).putInto(results, prefix);
    }

    /**
     * @param json  a JSON text.
     * @param field name of a member.
     * @return the number of its first member of that name.
     */
    static double number(final String json, final String field)
    {
        final Matcher matcher = Pattern.compile("\"" + field + "\": (-?[0-9][0-9.eE+-]*)").matcher(json);
        assertTrue(matcher.find(), "no number " + field + " in " + json);
        return Double.parseDouble(matcher.group(1));
    }
}
