package org.am2j.perf.apps;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers of one run of an application in one job, as {@code bin/am2j app --json} reports them: whether it was
 * verified, its total and per-phase times (seconds, the slowest rank's) and its messages per rank (mean over the
 * ranks) of each kind of {@link #COUNT_FIELDS}.
 *
 * @param label        the run's label, e.g. {@code CON/comm (small)}.
 * @param verified     true when the result matched the sequential reference.
 * @param totalSeconds the timed phases together, seconds.
 * @param phases       seconds per phase, in the run's order.
 * @param meanCounts   messages (and bulk bytes) per rank, mean over the ranks, by {@link #COUNT_FIELDS} name.
 * @param percentLocal share of the messages sent to ranks on the same node, percent.
 */
record AppRun(
    String label,
    boolean verified,
    double totalSeconds,
    Map<String, Double> phases,
    Map<String, Double> meanCounts,
    double percentLocal)
{
    /** The count fields of the report read, in the order of the paper's Table 4. */
    static final List<String> COUNT_FIELDS = List.of(
        "network_short", "network_bulk", "network_bulk_bytes", "local_short", "local_bulk", "local_bulk_bytes");

    /**
     * @param label        the run's label.
     * @param verified     true when the result matched.
     * @param totalSeconds seconds.
     * @param phases       seconds per phase.
     * @param meanCounts   mean messages per rank.
     * @param percentLocal percent local.
     */
    AppRun
    {
        phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
        meanCounts = Collections.unmodifiableMap(new LinkedHashMap<>(meanCounts));
    }

    /**
     * @param run one element of the report's {@code runs}.
     * @return its numbers.
     * @throws IllegalArgumentException naming what is missing or of the wrong type.
     */
    static AppRun fromJson(final Map<String, Object> run)
    {
        final String label = string(run, "label");
        final Map<String, Double> phases = new LinkedHashMap<>();
        object(run, "phases_s").forEach((name, value) -> phases.put(name, number(value, label + " phases_s." + name)));
        final Map<String, Object> counts = object(run, "counts_per_rank");
        final Map<String, Double> means = new LinkedHashMap<>();
        for (final String field : COUNT_FIELDS)
        {
            final Object stat = counts.get(field);
            means.put(field, stat instanceof Map ? number(((Map<?, ?>)stat).get("mean"), label + " " + field + ".mean")
                : 0.0);
        }
        return new AppRun(
            label,
            bool(run, "verified"),
            number(run.get("total_s"), label + " total_s"),
            phases,
            means,
            number(counts.get("percent_local"), label + " percent_local"));
    }

    /**
     * @param field one of {@link #COUNT_FIELDS}.
     * @return its mean per rank, 0 when not reported.
     */
    double mean(final String field)
    {
        return meanCounts.getOrDefault(field, 0.0);
    }

    /**
     * @param bulkField {@code network_bulk} or {@code local_bulk}.
     * @return the mean size of those bulk messages in bytes, 0 when there were none.
     */
    double meanBulkSize(final String bulkField)
    {
        final double messages = mean(bulkField);
        return messages > 0 ? mean(bulkField + "_bytes") / messages : 0;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(final Map<String, Object> json, final String key)
    {
        final Object value = json.get(key);
        if (!(value instanceof Map))
        {
            throw new IllegalArgumentException("the report has no object \"" + key + "\"");
        }
        return (Map<String, Object>)value;
    }

    static String string(final Map<String, Object> json, final String key)
    {
        final Object value = json.get(key);
        if (!(value instanceof String))
        {
            throw new IllegalArgumentException("the report has no string \"" + key + "\"");
        }
        return (String)value;
    }

    static boolean bool(final Map<String, Object> json, final String key)
    {
        final Object value = json.get(key);
        if (!(value instanceof Boolean))
        {
            throw new IllegalArgumentException("the report has no true/false \"" + key + "\"");
        }
        return (Boolean)value;
    }

    static double number(final Object value, final String what)
    {
        if (!(value instanceof Number))
        {
            throw new IllegalArgumentException("the report has no number " + what);
        }
        return ((Number)value).doubleValue();
    }
}
