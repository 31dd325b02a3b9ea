package org.am2j.perf.apps;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The JSON report of one job of {@code bin/am2j app} ({@code --json}, written by rank 0): the application, where it
 * ran (ranks, nodes, poll scheduler, transports opened), whether every run was verified, and each run's numbers.
 *
 * @param app        the application's name.
 * @param ranks      ranks of the job.
 * @param nodes      emulated nodes of the job.
 * @param ranksPerJvm the most ranks one JVM of the job held (1, a JVM per rank, in a report that does not say).
 * @param poll       the poll scheduler, as the ranks describe it.
 * @param transports the transports the ranks opened.
 * @param verified   true when every run was verified.
 * @param runs       each run, in order.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record AppReport(
    @JsonProperty(required = true) String app,
    @JsonProperty(required = true) int ranks,
    @JsonProperty(required = true) int nodes,
    @JsonProperty("ranks_per_jvm") Integer ranksPerJvm,
    String poll,
    List<String> transports,
    @JsonProperty(required = true) boolean verified,
    @JsonProperty(required = true) List<AppRun> runs)
{
    /** Reads a report: a number this reads may not be null (NaN, as the report writes it). */
    private static final ObjectMapper JSON = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .build();

    /**
     * @param app        the application.
     * @param ranks      ranks.
     * @param nodes      nodes.
     * @param ranksPerJvm ranks per JVM, 1 when not given.
     * @param poll       poll scheduler, empty when the report does not say.
     * @param transports transports opened.
     * @param verified   every run verified.
     * @param runs       the runs.
     */
    AppReport
    {
        ranksPerJvm = null == ranksPerJvm ? 1 : ranksPerJvm;
        poll = null == poll ? "" : poll;
        transports = null == transports ? List.of() : List.copyOf(transports);
        runs = List.copyOf(runs);
    }

    /**
     * @param text the JSON report.
     * @return its numbers.
     * @throws IllegalArgumentException when it is not JSON or lacks a member or number this reads.
     */
    static AppReport parse(final String text)
    {
        try
        {
            return JSON.readValue(text, AppReport.class);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("not a report of bin/am2j app: " + ex.getOriginalMessage(), ex);
        }
    }
}
