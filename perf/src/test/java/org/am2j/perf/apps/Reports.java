package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.am2j.splitc.app.ReportJson;

/**
 * Test reports shaped like those {@code bin/am2j app --json} writes ({@code AppMain}, {@code RunReport.toJson}).
 */
final class Reports
{
    private Reports()
    {
    }

    /**
     * @param label    the run's label.
     * @param verified whether it was verified.
     * @param total    total seconds.
     * @param phases   phase name, seconds, phase name, seconds, ...
     * @return one element of a report's {@code runs}.
     */
    static Map<String, Object> run(final String label, final boolean verified, final double total,
        final Object... phases)
    {
        final Map<String, Object> run = new LinkedHashMap<>();
        run.put("label", label);
        run.put("parameters", Map.of("seed", "1"));
        run.put("verified", verified);
        run.put("verification", Map.of("bitwise_mismatches", 0));
        run.put("total_s", total);
        final Map<String, Object> p = new LinkedHashMap<>();
        for (int i = 0; i < phases.length; i += 2)
        {
            p.put((String)phases[i], phases[i + 1]);
        }
        run.put("phases_s", p);
        final Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("network_short", stat(7.0));
        counts.put("network_bulk", stat(256.0));
        counts.put("network_bulk_bytes", stat(256.0 * 4096));
        counts.put("local_short", stat(3.5));
        counts.put("local_bulk", stat(0.0));
        counts.put("local_bulk_bytes", stat(0.0));
        counts.put("percent_local", 33.33333);
        run.put("counts_per_rank", counts);
        run.put("extra", Map.of());
        return run;
    }

    /**
     * @param label        the run's label.
     * @param parameters   the run's parameters, name, value, name, value, ...
     * @param total        total seconds.
     * @param counts       per count field ({@link AppRun#COUNT_FIELDS}): mean, min, max; a field left out is 0.
     * @param percentLocal the run's % local.
     * @return one element of a report's {@code runs}, verified, with those counts.
     */
    static Map<String, Object> countedRun(final String label, final List<String> parameters, final double total,
        final Map<String, double[]> counts, final double percentLocal)
    {
        final Map<String, Object> run = run(label, true, total, "all", total);
        final Map<String, Object> p = new LinkedHashMap<>();
        for (int i = 0; i < parameters.size(); i += 2)
        {
            p.put(parameters.get(i), parameters.get(i + 1));
        }
        run.put("parameters", p);
        final Map<String, Object> c = new LinkedHashMap<>();
        for (final String field : AppRun.COUNT_FIELDS)
        {
            final double[] stat = counts.getOrDefault(field, new double[3]);
            final Map<String, Object> json = new LinkedHashMap<>();
            json.put("mean", stat[0]);
            json.put("min", (long)stat[1]);
            json.put("max", (long)stat[2]);
            json.put("sum", (long)(stat[0] * 32));
            c.put(field, json);
        }
        c.put("percent_local", percentLocal);
        run.put("counts_per_rank", c);
        return run;
    }

    private static Map<String, Object> stat(final double mean)
    {
        final Map<String, Object> stat = new LinkedHashMap<>();
        stat.put("mean", mean);
        stat.put("min", (long)Math.floor(mean));
        stat.put("max", (long)Math.ceil(mean));
        stat.put("sum", (long)(mean * 4));
        return stat;
    }

    /**
     * @param app        the application.
     * @param nodes      emulated nodes.
     * @param transports transports opened.
     * @param runs       the runs ({@link #run}).
     * @return the report's JSON text.
     */
    @SafeVarargs
    static String report(final String app, final int nodes, final List<String> transports,
        final Map<String, Object>... runs)
    {
        final Map<String, Object> json = new LinkedHashMap<>();
        json.put("app", app);
        json.put("preset", "small");
        json.put("arguments", List.of(app, "--preset", "small"));
        json.put("ranks", 4);
        json.put("nodes", nodes);
        json.put("poll", "every");
        json.put("transports", transports);
        json.put("java", "OpenJDK 64-Bit Server VM 17");
        json.put("cpus", 2);
        json.put("started", "2026-11-22T10:24:50Z");
        boolean verified = true;
        double total = 0;
        final List<Object> list = new ArrayList<>();
        for (final Map<String, Object> run : runs)
        {
            verified &= (Boolean)run.get("verified");
            total += (Double)run.getOrDefault("total_s", 0.0);
            list.add(run);
        }
        json.put("verified", verified);
        json.put("total_s", total);
        json.put("runs", list);
        return ReportJson.write(json);
    }

    /**
     * @param label a run's label.
     * @param total its total seconds.
     * @return the run as parsed from a report.
     */
    static AppRun parsed(final String label, final double total)
    {
        return AppReport.parse(report("x", 1, List.of("inproc", "shm"),
            run(label, true, total, "compute", total * 0.25, "communicate", total * 0.75))).runs().get(0);
    }
}
