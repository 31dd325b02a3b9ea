package org.am2j.splitc.app;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.am2j.splitc.CommSummary;

/**
 * What one run of an application reports: its parameters, the time of each phase and in total (the slowest rank's),
 * whether its result was verified against a sequential computation and how closely, and the communication counts of
 * its timed phases per rank (mean, minimum and maximum over the ranks: the model paper's Table 4 columns).
 */
public record RunReport(
    RunSpec spec,
    Map<String, Double> phases,
    double totalSeconds,
    boolean verified,
    Map<String, Object> verification,
    CommSummary counts,
    Map<String, Object> extra,
    Map<String, Object> activity)
{
    /**
     * @param spec         the run.
     * @param phases       seconds per phase, the largest over ranks, in order.
     * @param totalSeconds seconds of the timed phases together, the largest over ranks.
     * @param verified     true when the result matched the sequential reference within its bound.
     * @param verification how it was checked: errors, bounds, counts.
     * @param counts       messages of the timed phases, over the ranks.
     * @param extra        other facts of the run (iterations, components, load balance).
     * @param activity     what the ranks did besides the application during the run: JIT compilation, sleeps (empty
     *                     when not measured).
     */
    public RunReport
    {
        phases = new LinkedHashMap<>(phases);
        verification = new LinkedHashMap<>(verification);
        extra = new LinkedHashMap<>(extra);
        activity = new LinkedHashMap<>(activity);
    }

    /**
     * A report without {@link #activity()}.
     */
    public RunReport(
        final RunSpec spec,
        final Map<String, Double> phases,
        final double totalSeconds,
        final boolean verified,
        final Map<String, Object> verification,
        final CommSummary counts,
        final Map<String, Object> extra)
    {
        this(spec, phases, totalSeconds, verified, verification, counts, extra, Map.of());
    }

    /**
     * @param activity what the ranks did besides the application during the run: JIT compilation, sleeps.
     * @return this report with it.
     */
    public RunReport withActivity(final Map<String, Object> activity)
    {
        return new RunReport(spec, phases, totalSeconds, verified, verification, counts, extra, activity);
    }

    /**
     * @return the report as a JSON-ready map.
     */
    public Map<String, Object> toJson()
    {
        final Map<String, Object> json = new LinkedHashMap<>();
        json.put("label", spec.label());
        json.put("parameters", new LinkedHashMap<>(spec.parameters()));
        json.put("verified", verified);
        json.put("verification", verification);
        json.put("total_s", totalSeconds);
        json.put("phases_s", phases);
        final Map<String, Object> c = new LinkedHashMap<>();
        for (int i = 0; i < CommSummary.FIELDS.size(); i++)
        {
            final Map<String, Object> stat = new LinkedHashMap<>();
            stat.put("mean", counts.mean(i));
            stat.put("min", counts.min(i));
            stat.put("max", counts.max(i));
            stat.put("sum", counts.sum(i));
            c.put(CommSummary.FIELDS.get(i), stat);
        }
        c.put("percent_local", counts.percentLocal());
        json.put("counts_per_rank", c);
        json.put("extra", extra);
        json.put("activity", activity);
        return json;
    }

    /**
     * Print the report as text.
     *
     * @param out where to.
     */
    public void print(final PrintStream out)
    {
        out.printf(Locale.ROOT, "== %s %s: %s ==%n", spec.app(), spec.label(), verified ? "VERIFIED" : "NOT VERIFIED");
        out.println("parameters: " + spec.describeParameters());
        out.printf(Locale.ROOT, "total %.3f s (slowest rank, timed phases)%n", totalSeconds);
        out.println("phase                     s (slowest rank)");
        phases.forEach((name, s) -> out.printf(Locale.ROOT, "  %-22s %10.3f%n", name, s));
        out.println("verification: " + ReportWords.describe(verification));
        if (!extra.isEmpty())
        {
            out.println("run: " + ReportWords.describe(extra));
        }
        if (!activity.isEmpty())
        {
            out.println("besides the application (slowest rank): " + ReportWords.describe(activity));
        }
        final String cold = coldRun();
        if (null != cold)
        {
            out.println(cold);
        }
        out.printf(Locale.ROOT, "messages per rank (%d ranks)    mean        min        max%n", counts.ranks());
        row(out, "network short", CommSummary.NETWORK_SHORT, "");
        row(out, "network bulk", CommSummary.NETWORK_BULK, bulkSize(CommSummary.NETWORK_BULK));
        row(out, "local short", CommSummary.LOCAL_SHORT, "");
        row(out, "local bulk", CommSummary.LOCAL_BULK, bulkSize(CommSummary.LOCAL_BULK));
        out.printf(Locale.ROOT, "  %% local %20.1f%n", counts.percentLocal());
        out.flush();
    }

    private String bulkSize(final int field)
    {
        return counts.sum(field) == 0 ? "" : String.format(Locale.ROOT, "  x %.0f B", counts.meanBulkBytes(field));
    }

    private void row(final PrintStream out, final String name, final int field, final String suffix)
    {
        out.printf(Locale.ROOT, "  %-20s %10.1f %10d %10d%s%n", name, counts.mean(field), counts.min(field),
            counts.max(field), suffix);
    }

    /**
     * @return the warning that the run's times include compilation, when the JIT was not quiet during it (it
     * compiled for more than {@value Warmup#QUIET_PERCENT} % of the run, or its time is unknown), else {@code null}.
     */
    String coldRun()
    {
        if (!Boolean.FALSE.equals(activity.get("jit_quiet")))
        {
            return null;
        }
        final Object warmups = activity.get("warmup_runs");
        final Object jit = activity.get("jit_ms_max");
        final String compiled = jit instanceof Number && ((Number)jit).longValue() >= 0 ?
            "the JIT compiled for " + jit + " ms of the run's " + activity.get("run_ms_max") + " ms" :
            "the JIT's compile time is unknown here";
        final String start = warmups instanceof Number && ((Number)warmups).longValue() == 0 ?
            "COLD RUN: no warm-up run before it (--warmup 0, the default) and " : "JIT NOT QUIET: after " + warmups +
            " warm-up run(s) ";
        return start + compiled + ", so its times include compilation; --warmup auto warms up until the JIT is quiet";
    }
}
