package org.am2j.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Made-up results of rank pairs, and readers of the reports' JSON, for the tests of the reports.
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
        results.putAll(prefix, new EpochGuard.Probes(probeNs, probeNs, 1, false))
            .putAll(prefix, new MachineState(1.0, 2.0, 3.0, 2400.0));
    }

    /**
     * @param object a JSON object.
     * @param field  name of one of its members.
     * @return the member's number.
     */
    static double number(final JsonNode object, final String field)
    {
        final JsonNode value = object.get(field);
        assertTrue(null != value && value.isNumber(), "no number " + field + " in " + object);
        return value.asDouble();
    }

    /**
     * @param array a JSON array of numbers.
     * @return them, in order.
     */
    static List<Double> numbers(final JsonNode array)
    {
        assertTrue(null != array && array.isArray(), "no array: " + array);
        final List<Double> numbers = new ArrayList<>();
        array.forEach(number -> numbers.add(number.asDouble()));
        return numbers;
    }

    /**
     * @param json a JSON value.
     * @return the names of the members of every object in it, at any depth.
     */
    static Set<String> names(final JsonNode json)
    {
        final Set<String> names = new TreeSet<>();
        json.properties().forEach(member -> names.add(member.getKey()));
        json.forEach(child -> names.addAll(names(child)));
        return names;
    }
}
