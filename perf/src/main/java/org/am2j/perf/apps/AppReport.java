package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

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
        final Map<String, Object> json = JsonReader.readObject(text);
        final List<String> transports = new ArrayList<>();
        final Object opened = json.get("transports");
        if (opened instanceof List)
        {
            for (final Object transport : (List<?>)opened)
            {
                transports.add(String.valueOf(transport));
            }
        }
        final Object runs = json.get("runs");
        if (!(runs instanceof List))
        {
            throw new IllegalArgumentException("the report has no list \"runs\"");
        }
        final List<AppRun> parsed = new ArrayList<>();
        for (final Object run : (List<?>)runs)
        {
            if (!(run instanceof Map))
            {
                throw new IllegalArgumentException("a run of the report is not an object");
            }
            @SuppressWarnings("unchecked")
            final Map<String, Object> map = (Map<String, Object>)run;
            parsed.add(AppRun.fromJson(map));
        }
        final Object poll = json.get("poll");
        return new AppReport(
            AppRun.string(json, "app"),
            (int)AppRun.number(json.get("ranks"), "ranks"),
            (int)AppRun.number(json.get("nodes"), "nodes"),
            null == poll ? "" : poll.toString(),
            transports,
            AppRun.bool(json, "verified"),
            parsed);
    }
}
