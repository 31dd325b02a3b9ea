package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.app.ReportJson;

/**
 * The JSON report of one job of {@code bin/am2j app} ({@code --json}, written by rank 0): the application, where it
 * ran (ranks, nodes, poll scheduler, transports opened), whether every run was verified, and each run's numbers.
 *
 * @param app        the application's name.
 * @param ranks      ranks of the job.
 * @param nodes      emulated nodes of the job.
 * @param poll       the poll scheduler, as the ranks describe it.
 * @param transports the transports the ranks opened.
 * @param verified   true when every run was verified.
 * @param runs       each run, in order.
 */
record AppReport(
    String app,
    int ranks,
    int nodes,
    String poll,
    List<String> transports,
    boolean verified,
    List<AppRun> runs)
{
    /**
     * @param app        the application.
     * @param ranks      ranks.
     * @param nodes      nodes.
     * @param poll       poll scheduler.
     * @param transports transports opened.
     * @param verified   every run verified.
     * @param runs       the runs.
     */
    AppReport
    {
        transports = Collections.unmodifiableList(new ArrayList<>(transports));
        runs = Collections.unmodifiableList(new ArrayList<>(runs));
    }

    /**
     * @param text the JSON report.
     * @return what it says.
     * @throws IllegalArgumentException when it is not such a report.
     */
    static AppReport parse(final String text)
    {
        final JsonNode json = ReportJson.read(text);
        final List<String> transports = new ArrayList<>();
        json.path("transports").forEach(transport -> transports.add(transport.asText()));
        final List<AppRun> runs = new ArrayList<>();
        for (final JsonNode run : AppRun.member(json, "runs", JsonNode::isArray, "list"))
        {
            if (!run.isObject())
            {
                throw new IllegalArgumentException("a run of the report is not an object");
            }
            runs.add(AppRun.fromJson(run));
        }
        return new AppReport(
            AppRun.member(json, "app", JsonNode::isTextual, "string").asText(),
            (int)AppRun.number(json.get("ranks"), "ranks"),
            (int)AppRun.number(json.get("nodes"), "nodes"),
            json.path("poll").asText(""),
            transports,
            AppRun.member(json, "verified", JsonNode::isBoolean, "true/false").asBoolean(),
            runs);
    }
}
