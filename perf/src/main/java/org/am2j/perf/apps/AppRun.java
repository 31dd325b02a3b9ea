package org.am2j.perf.apps;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The numbers of one run of an application in one job, as {@code bin/am2j app --json} reports them (read by
 * {@link AppReport#parse} with Jackson): whether it was verified, its parameters, its total and per-phase times
 * (seconds, the slowest rank's) and its messages per rank (mean, minimum and maximum over the ranks) of each kind of
 * {@link #COUNT_FIELDS}.
 *
 * @param label        the run's label, e.g. {@code CON/comm (small)}.
 * @param verified     true when the result matched the sequential reference.
 * @param parameters   the run's parameters as the report gives them (e.g. {@code iterations}), by name.
 * @param totalSeconds the timed phases together, seconds ({@code total_s}).
 * @param phases       seconds per phase, in the run's order ({@code phases_s}).
 * @param counts       the report's {@code counts_per_rank}: per {@link #COUNT_FIELDS} name an object of
 *                     {@code mean}, {@code min} and {@code max} over the ranks, and {@code percent_local}.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record AppRun(
    @JsonProperty(required = true) String label,
    @JsonProperty(required = true) boolean verified,
    Map<String, String> parameters,
    @JsonProperty(value = "total_s", required = true) double totalSeconds,
    @JsonProperty(value = "phases_s", required = true) Map<String, Double> phases,
    @JsonProperty(value = "counts_per_rank", required = true) JsonNode counts)
{
    /** The count fields of the report read, in the order of the paper's Table 4. */
    static final List<String> COUNT_FIELDS = List.of(
        "network_short", "network_bulk", "network_bulk_bytes", "local_short", "local_bulk", "local_bulk_bytes");

    /**
     * @throws IllegalArgumentException when a phase's time or {@code percent_local} is not a number.
     */
    AppRun
    {
        parameters = null == parameters ? Map.of() : parameters;
        if (phases.containsValue(null) || !counts.path("percent_local").isNumber())
        {
            throw new IllegalArgumentException("the report of " + label + " has a phase without a number or no " +
                "number percent_local");
        }
    }

    /**
     * @return share of the messages sent to ranks on the same node, percent.
     */
    double percentLocal()
    {
        return counts.get("percent_local").asDouble();
    }

    /**
     * @param field one of {@link #COUNT_FIELDS}.
     * @return messages (or bytes) per rank, mean over the ranks; 0 when the report has none.
     */
    double mean(final String field)
    {
        return counts.path(field).path("mean").asDouble(0.0);
    }

    /**
     * @param field one of {@link #COUNT_FIELDS}.
     * @return the same, the smallest rank's (the mean when the report gives no minimum).
     */
    double min(final String field)
    {
        return counts.path(field).path("min").asDouble(mean(field));
    }

    /**
     * @param field one of {@link #COUNT_FIELDS}.
     * @return the same, the largest rank's (the mean when the report gives no maximum).
     */
    double max(final String field)
    {
        return counts.path(field).path("max").asDouble(mean(field));
    }

    /**
     * @param name     a parameter's name.
     * @param fallback what to return when the run has no such whole-number parameter.
     * @return its value.
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
     * @param bulkField {@code network_bulk} or {@code local_bulk}.
     * @return mean bytes per bulk message, 0 when none was sent.
     */
    double meanBulkSize(final String bulkField)
    {
        final double messages = mean(bulkField);
        return messages > 0 ? mean(bulkField + "_bytes") / messages : 0;
    }
}
