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
public final class RunReport
{
    private final RunSpec spec;
    private final Map<String, Double> phases;
    private final double totalSeconds;
    private final boolean verified;
    private final Map<String, Object> verification;
    private final CommSummary counts;
    private final Map<String, Object> extra;
    private final Map<String, Object> activity;

    /**
     * @param spec         the run.
     * @param phases       seconds per phase, the largest over ranks, in order.
     * @param totalSeconds seconds of the timed phases together, the largest over ranks.
     * @param verified     true when the result matched the sequential reference within its bound.
     * @param verification how it was checked: errors, bounds, counts.
     * @param counts       messages of the timed phases, over the ranks.
     * @param extra        other facts of the run (iterations, components, load balance).
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
        this.spec = spec;
        this.phases = new LinkedHashMap<>(phases);
        this.totalSeconds = totalSeconds;
        this.verified = verified;
        this.verification = new LinkedHashMap<>(verification);
        this.counts = counts;
        this.extra = new LinkedHashMap<>(extra);
        this.activity = new LinkedHashMap<>();
    }

    private RunReport(final RunReport report, final Map<String, Object> activity)
    {
        this.spec = report.spec;
        this.phases = report.phases;
        this.totalSeconds = report.totalSeconds;
        this.verified = report.verified;
        this.verification = report.verification;
        this.counts = report.counts;
        this.extra = report.extra;
        this.activity = new LinkedHashMap<>(activity);
    }

    /**
     * @param activity what the ranks did besides the application during the run: JIT compilation, sleeps.
     * @return this report with it.
     */
    public RunReport withActivity(final Map<String, Object> activity)
    {
        return new RunReport(this, activity);
    }

    /**
     * @return what the ranks did besides the application during the run (empty when not measured).
     */
    public Map<String, Object> activity()
    {
        return activity;
    }

    /**
     * @return the run.
     */
    public RunSpec spec()
    {
        return spec;
    }

    /**
     * @return seconds per phase, the largest over ranks.
     */
    public Map<String, Double> phases()
    {
        return phases;
    }

    /**
     * @return seconds of the timed phases together, the largest over ranks.
     */
    public double totalSeconds()
    {
        return totalSeconds;
    }

    /**
     * @return true when the result matched the sequential reference within its bound.
     */
    public boolean verified()
    {
        return verified;
    }

    /**
     * @return how the result was checked.
     */
    public Map<String, Object> verification()
    {
        return verification;
    }

    /**
     * @return messages of the timed phases, over the ranks.
     */
    public CommSummary counts()
    {
        return counts;
    }

    /**
     * @return other facts of the run.
     */
    public Map<String, Object> extra()
    {
        return extra;
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
        final StringBuilder parameters = new StringBuilder();
        spec.parameters().forEach((k, v) -> parameters.append(' ').append(k).append('=').append(v));
        out.println("parameters:" + parameters);
        out.printf(Locale.ROOT, "total %.3f s (slowest rank, timed phases)%n", totalSeconds);
        out.println("phase                     s (slowest rank)");
        phases.forEach((name, s) -> out.printf(Locale.ROOT, "  %-22s %10.3f%n", name, s));
        out.println("verification: " + format(verification));
        if (!extra.isEmpty())
        {
            out.println("run: " + format(extra));
        }
        if (!activity.isEmpty())
        {
            out.println("ranks: " + format(activity));
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

    private static String format(final Map<String, Object> values)
    {
        final StringBuilder text = new StringBuilder();
        values.forEach((k, v) -> text.append(text.length() == 0 ? "" : ", ").append(k).append('=').append(
            v instanceof Double ? formatDouble((Double)v) : String.valueOf(v)));
        return text.toString();
    }

    private static String formatDouble(final double d)
    {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.format(Locale.ROOT, "%.0f", d) :
            Math.abs(d) >= 1e-3 && Math.abs(d) < 1e6 ? String.format(Locale.ROOT, "%.4f", d) :
            String.format(Locale.ROOT, "%.3e", d);
    }
}
