package org.am2j.perf.apps;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers of one run of an application in one job, as {@code bin/am2j app --json} reports them: whether it was
 * verified, its parameters, its total and per-phase times (seconds, the slowest rank's) and its messages per rank
 * (mean, minimum and maximum over the ranks) of each kind of {@link #COUNT_FIELDS}.
 *
 * @param label        the run's label, e.g. {@code CON/comm (small)}.
 * @param verified     true when the result matched the sequential reference.
 * @param parameters   the run's parameters as the report gives them (e.g. {@code iterations}), by name.
 * @param totalSeconds the timed phases together, seconds.
 * @param phases       seconds per phase, in the run's order.
 * @param meanCounts   messages (and bulk bytes) per rank, mean over the ranks, by {@link #COUNT_FIELDS} name.
 * @param minCounts    the same, the smallest rank's.
 * @param maxCounts    the same, the largest rank's.
 * @param percentLocal share of the messages sent to ranks on the same node, percent.
 */
record AppRun(
    String label,
    boolean verified,
    Map<String, String> parameters,
    double totalSeconds,
    Map<String, Double> phases,
    Map<String, Double> meanCounts,
    Map<String, Double> minCounts,
    Map<String, Double> maxCounts,
    double percentLocal)
{
    /** The count fields of the report read, in the order of the paper's Table 4. */
    static final List<String> COUNT_FIELDS = List.of(
        "network_short", "network_bulk", "network_bulk_bytes", "local_short", "local_bulk", "local_bulk_bytes");

    /**
     * @param label        the run's label.
     * @param verified     true when the result matched.
     * @param parameters   the run's parameters.
     * @param totalSeconds seconds.
     * @param phases       seconds per phase.
     * @param meanCounts   mean messages per rank.
     * @param minCounts    smallest rank's messages.
     * @param maxCounts    largest rank's messages.
     * @param percentLocal percent local.
     */
    AppRun
    {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
        meanCounts = Collections.unmodifiableMap(new LinkedHashMap<>(meanCounts));
        minCounts = Collections.unmodifiableMap(new LinkedHashMap<>(minCounts));
        maxCounts = Collections.unmodifiableMap(new LinkedHashMap<>(maxCounts));
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
        final Map<String, String> parameters = new LinkedHashMap<>();
        final Object given = run.get("parameters");
        if (given instanceof Map)
        {
            ((Map<?, ?>)given).forEach((name, value) -> parameters.put(String.valueOf(name), String.valueOf(value)));
        }
        final Map<String, Object> counts = object(run, "counts_per_rank");
        final Map<String, Double> means = new LinkedHashMap<>();
        final Map<String, Double> mins = new LinkedHashMap<>();
        final Map<String, Double> maxes = new LinkedHashMap<>();
        for (final String field : COUNT_FIELDS)
        {
            final Object stat = counts.get(field);
            if (stat instanceof Map)
            {
                final Map<?, ?> values = (Map<?, ?>)stat;
                final double mean = number(values.get("mean"), label + " " + field + ".mean");
                means.put(field, mean);
                // reports without a range give the mean for both ends
                mins.put(field, values.containsKey("min") ? number(values.get("min"), label + " " + field + ".min") :
                    mean);
                maxes.put(field, values.containsKey("max") ? number(values.get("max"), label + " " + field + ".max") :
                    mean);
            }
            else
            {
                means.put(field, 0.0);
                mins.put(field, 0.0);
                maxes.put(field, 0.0);
            }
        }
        return new AppRun(
            label,
            bool(run, "verified"),
            parameters,
            number(run.get("total_s"), label + " total_s"),
            phases,
            means,
            mins,
            maxes,
            number(counts.get("percent_local"), label + " percent_local"));
    }

    /**
     * @param field one of {@link #COUNT_FIELDS}.
     * @return the smallest rank's count, 0 when not reported.
     */
    double min(final String field)
    {
        return minCounts.getOrDefault(field, 0.0);
    }

    /**
     * @param field one of {@link #COUNT_FIELDS}.
     * @return the largest rank's count, 0 when not reported.
     */
    double max(final String field)
    {
        return maxCounts.getOrDefault(field, 0.0);
    }

    /**
     * @param name a parameter's name.
     * @return its value as a whole number, or {@code fallback} when the run has no such whole-number parameter.
     */
    long parameter(final String name, final long fallback)
    {
        try
        {
            final String value = parameters.get(name);
            return null == value ? fallback : Long.parseLong(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            return fallback;
        }
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
