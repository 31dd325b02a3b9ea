package org.am2j.perf.apps;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

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
    static AppRun fromJson(final JsonNode run)
    {
        final String label = member(run, "label", JsonNode::isTextual, "string").asText();
        final Map<String, Double> phases = new LinkedHashMap<>();
        member(run, "phases_s", JsonNode::isObject, "object").properties().forEach(phase ->
            phases.put(phase.getKey(), number(phase.getValue(), label + " phases_s." + phase.getKey())));
        final Map<String, String> parameters = new LinkedHashMap<>();
        run.path("parameters").properties().forEach(given -> parameters.put(given.getKey(), given.getValue().asText()));
        final JsonNode counts = member(run, "counts_per_rank", JsonNode::isObject, "object");
        final Map<String, Double> means = new LinkedHashMap<>();
        final Map<String, Double> mins = new LinkedHashMap<>();
        final Map<String, Double> maxes = new LinkedHashMap<>();
        for (final String field : COUNT_FIELDS)
        {
            final JsonNode stat = counts.path(field);
            final double mean = stat.isObject() ? number(stat.get("mean"), label + " " + field + ".mean") : 0.0;
            means.put(field, mean);
            // reports without a range give the mean for both ends
            mins.put(field, stat.has("min") ? number(stat.get("min"), label + " " + field + ".min") : mean);
            maxes.put(field, stat.has("max") ? number(stat.get("max"), label + " " + field + ".max") : mean);
        }
        return new AppRun(
            label,
            member(run, "verified", JsonNode::isBoolean, "true/false").asBoolean(),
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

    /**
     * @param json an object of the report.
     * @param key  the name of one of its members.
     * @param kind what the member must be.
     * @param what that, in words.
     * @return the member.
     * @throws IllegalArgumentException when there is none of that kind.
     */
    static JsonNode member(final JsonNode json, final String key, final Predicate<JsonNode> kind, final String what)
    {
        final JsonNode value = json.get(key);
        if (null == value || !kind.test(value))
        {
            throw new IllegalArgumentException("the report has no " + what + " \"" + key + "\"");
        }
        return value;
    }

    static double number(final JsonNode value, final String what)
    {
        if (null == value || !value.isNumber())
        {
            throw new IllegalArgumentException("the report has no number " + what);
        }
        return value.asDouble();
    }
}
