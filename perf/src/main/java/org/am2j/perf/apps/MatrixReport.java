package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.Collections;
import java.util.DoubleSummaryStatistics;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.am2j.perf.Markdown;

import org.am2j.splitc.app.Warmup;

/**
 * The Markdown text of a matrix ({@link MatrixResult}): how it ran and the machine's load, the configurations, the
 * times per run and phase next to the paper's, the ratios between configurations next to the paper's, the issue's
 * target (multi-protocol within {@value MatrixRatios#TARGET_PERCENT} % of shared memory only inside one node, {@link
 * MatrixRatios}), the messages per
 * rank, each further poll scheduler against the first, failures, the chart and the paper's tables as printed.
 */
final class MatrixReport
{
    private MatrixReport()
    {
    }

    /**
     * @param result    the matrix.
     * @param chartFile the chart's file name relative to the Markdown file, or {@code null} for none.
     * @return the Markdown text.
     */
    static String markdown(final MatrixResult result, final String chartFile)
    {
        final StringBuilder md = new StringBuilder();
        header(md, result);
        configurations(md, result);
        times(md, result);
        MatrixRatios.markdown(md, result);
        if (null != chartFile)
        {
            md.append("![median total time of every run in every configuration](").append(chartFile).append(")\n\n");
        }
        counts(md, result);
        Table4Report.markdown(md, result);
        Table6Report.markdown(md, result);
        for (int p = 1; p < result.polls().size(); p++)
        {
            pollComparison(md, result, result.polls().get(p));
        }
        failures(md, result);
        paperTables(md);
        return md.toString();
    }

    private static void header(final StringBuilder md, final MatrixResult result)
    {
        md.append("# Split-C applications in the configurations of the paper's Tables 5 and 6\n\n");
        md.append("Produced by `").append(result.command()).append("`");
        if (!result.run().started.isEmpty())
        {
            md.append(", started ").append(result.run().started);
        }
        if (!Double.isNaN(result.run().wallSeconds))
        {
            md.append(String.format(Locale.ROOT, ", %.0f s wall (%.1f min)", result.run().wallSeconds,
                result.run().wallSeconds / 60));
        }
        md.append(".\n\n");
        md.append(String.format(Locale.ROOT, "- **%s on %d cores**: every job runs its configuration's rank JVMs, " +
            "which share this machine's %d CPUs.%n", rankCounts(result), result.cores(), result.cores()));
        md.append("- Preset `").append(result.preset()).append("` of every application (`bin/am2j app --help` lists " +
            "its parameters). ");
        if (result.samples() > 1)
        {
            md.append(String.format(Locale.ROOT, "Every cell ran in %d job(s), the cycle of all cells %d time(s) " +
                "over, and each job timed each run %d time(s) after its warm-ups: %d samples per cell. The tables " +
                "give medians over them (a phase: its own median; the counts: those of the run whose total is the " +
                "median) and the totals' range.%n", result.repeat(), result.repeat(), result.timed(),
                result.samples()));
        }
        else
        {
            md.append("Every cell ran once (`--repeat 1 --timed 1`).\n");
        }
        md.append("- Poll scheduler `").append(result.polls().get(0)).append("`");
        if (result.polls().size() > 1)
        {
            md.append("; also ");
            for (int p = 1; p < result.polls().size(); p++)
            {
                md.append(p > 1 ? ", " : "").append('`').append(result.polls().get(p)).append('`');
            }
            md.append(", each job right after the same job with `").append(result.polls().get(0))
                .append("` (compared below)");
        }
        md.append(".\n");
        if (!result.run().java.isEmpty())
        {
            md.append("- Java: ").append(result.run().java).append(".\n");
        }
        final List<double[]> loads = result.run().loads;
        if (!loads.isEmpty())
        {
            final DoubleSummaryStatistics oneMinute = loads.stream().mapToDouble(load -> load[0]).summaryStatistics();
            final double min = oneMinute.getMin();
            final double max = oneMinute.getMax();
            final double[] first = loads.get(0);
            final double[] last = loads.get(loads.size() - 1);
            md.append(String.format(Locale.ROOT, "- Load average (`/proc/loadavg`), 1 min, sampled before the " +
                "first job and after every job: %.2f to %.2f; 1/5/15 min at the start %.2f/%.2f/%.2f, at the end " +
                "%.2f/%.2f/%.2f. The ranks of a job account for up to about %d of it; more means other processes " +
                "shared the %d cores, and their times are slower and noisier.%n",
                min, max, first[0], first[1], first[2], last[0], last[1], last[2], maxRanks(result), result.cores()));
        }
        md.append("\n**The machines differ**: the paper ran Sun Enterprise 5000 SMPs and UltraSPARC workstations " +
            "on Myrinet, with its own inputs on 8 (Table 5) and 32 (Table 6) processors; here emulated nodes share " +
            "one machine, the network is UDP over loopback, the inputs are the preset's. Compare only the ratios " +
            "between configurations, never the seconds across the two.\n\n");
    }

    private static void configurations(final StringBuilder md, final MatrixResult result)
    {
        md.append("## Configurations\n\n");
        md.append("| configuration | ranks | emulated nodes | ranks per node | transports (`-Dam2j.transports`) | " +
            "NICs | `am2j run` options | paper's counterpart |\n");
        md.append("|---|---:|---:|---|---|---|---|---|\n");
        for (final MatrixConfig config : result.configs())
        {
            final int ranks = result.ranks(config);
            final int nodes = config.nodes(ranks);
            final String perNode = ranks % nodes == 0 ? Integer.toString(ranks / nodes) :
                (ranks / nodes) + "-" + (ranks / nodes + 1);
            Markdown.row(md, config.cliName() + " (" + config.description() + ")", ranks, nodes, perNode,
                config.transports(), config.nics(), "`" +
                String.join(" ", config.runOptions(result.ranks(), result.run().ranksPerJvm)) + "`",
                counterpart(config));
        }
        md.append("\nEach job is the launcher job of `bin/am2j app APP --preset ").append(result.preset())
            .append(" --warmup ").append(result.warmup()).append(" --timed ").append(result.timed())
            .append(" -n P --nodes N [--nics-per-node K] --jvm-opt -Dam2j.transports=T [--poll S] --json FILE` with " +
            "the options of its configuration above");
        if (result.run().em3dIterations > 0)
        {
            md.append(", and for EM3D `--iterations ").append(result.run().em3dIterations)
                .append("` (`--em3d-iterations`" +
                " instead of the preset's)");
        }
        md.append("; it counts when it exits with 0 and its report says `\"verified\": true` for every run, with " +
            "those ranks, transports, nodes and poll scheduler.");
        if (result.run().timeoutSeconds > 0 && result.run().timeLimitSeconds > 0)
        {
            md.append(String.format(Locale.ROOT, " A job may take %d s (`--timeout`); no job starts after %d s of " +
                "the matrix (`--time-limit`), and a job's own limit is cut to what is left of the matrix's.",
                result.run().timeoutSeconds, result.run().timeLimitSeconds));
            if (result.run().skippedJobs > 0)
            {
                md.append(" **").append(result.run().skippedJobs).append(" job(s) did not start: the time limit was " +
                    "reached** (see Failures).");
            }
        }
        if (result.warmup().auto())
        {
            md.append(" Each job first runs every run of its application untimed in the same JVMs (verified too) " +
                "until the JIT compilers are quiet, at most ").append(result.warmup().runs()).append(" times: a run " +
                "is quiet when no rank spent more than ").append(Warmup.QUIET_PERCENT).append(" % of its time (or ")
                .append(Warmup.QUIET_FLOOR_MS).append(" ms) compiling. The timed runs then measure compiled code; " +
                "compilation during them is in the JSON reports (`activity.jit_ms_max`, `activity.jit_cpu_ms_max`).");
        }
        else if (result.warmup().runs() > 0)
        {
            md.append(" Each job first runs every run of its application ").append(result.warmup().runs())
                .append(" time(s) untimed in the same JVMs (verified too), so that the timed run measures compiled " +
                "code.");
        }
        md.append("\n\n");
    }

    /**
     * @param result the matrix.
     * @return its jobs' rank counts in words: {@code 32 ranks} when every configuration has the same, else
     * {@code 8 to 32 ranks (per configuration)}.
     */
    static String rankCounts(final MatrixResult result)
    {
        final IntSummaryStatistics ranks = result.configs().stream().mapToInt(result::ranks).summaryStatistics();
        return 0 == ranks.getCount() ? result.ranks() + " ranks" : ranks.getMin() == ranks.getMax() ?
            ranks.getMax() + " ranks" : ranks.getMin() + " to " + ranks.getMax() + " ranks (per configuration)";
    }

    private static int maxRanks(final MatrixResult result)
    {
        return result.configs().stream().mapToInt(result::ranks).max().orElse(0);
    }

    private static String counterpart(final MatrixConfig config)
    {
        return switch (config)
        {
            case SHM_ONLY, SMP_SHM -> PaperFigures.Column.SMP_SHM.heading();
            case MULTI, SMP_MULTI -> PaperFigures.Column.SMP_MULTI.heading();
            case NET -> PaperFigures.Column.NOW8_MYRINET.heading() + " (single protocol; also " +
                PaperFigures.Column.NOW8_MULTI.heading() + ")";
            case CLUMP -> PaperFigures.Column.CLUMP32.heading() + " (against " + PaperFigures.Column.NOW32.heading() +
                ")";
            case CLUMP32 -> PaperFigures.Column.CLUMP32.heading() +
                ", but one NIC per process (the paper's: 3 per SMP)";
            case CLUMP32_3NIC -> PaperFigures.Column.CLUMP32.heading() + ", 3 NICs per SMP";
            case CLUMP_THREADS -> PaperFigures.Column.CLUMP32.heading() + " (against " +
                PaperFigures.Column.NOW32.heading() + "), a node's ranks as threads of one JVM";
            case CLUMP32_THREADS -> PaperFigures.Column.CLUMP32.heading() + ", an SMP's ranks as threads of one JVM " +
                "with one NIC";
            case NOW32 -> PaperFigures.Column.NOW32.heading();
        };
    }

    private static void times(final StringBuilder md, final MatrixResult result)
    {
        md.append("## Times (seconds, slowest rank)\n\n");
        md.append("Ours: median of ").append(result.samples()).append(result.samples() == 1 ? " run" : " runs")
            .append(", poll `").append(result.polls().get(0)).append("`. The paper's: its Tables 5 and 6 as " +
            "printed (totals only; Table 5 has one EM3D row, shown on both layouts).\n\n");
        final List<Object> head = new ArrayList<>(List.of("run / phase"));
        result.configs().forEach(config -> head.add(config.cliName()));
        Stream.of(PaperFigures.Column.values()).forEach(column -> head.add("paper: " + column.heading()));
        Markdown.head(md, head);
        for (final String label : result.labels())
        {
            final List<Object> total = new ArrayList<>(List.of("**" + label + "**: total"));
            result.configs().forEach(config -> total.add(totalCell(result.cell(config, label), result.samples())));
            final Map<PaperFigures.Column, String> paper = PaperFigures.figures(label);
            Stream.of(PaperFigures.Column.values()).forEach(column -> total.add(paper.getOrDefault(column, "")));
            Markdown.row(md, total.toArray());
            for (final String phase : phases(result, label))
            {
                final List<Object> row = new ArrayList<>(List.of(label + ": " + phase));
                for (final MatrixConfig config : result.configs())
                {
                    final Cell cell = result.cell(config, label);
                    final Double s = cell.medianPhases().get(phase);
                    row.add(cell.runs().isEmpty() ? status(cell) : null == s ? "" : seconds(s));
                }
                row.addAll(Collections.nCopies(PaperFigures.Column.values().length, ""));
                Markdown.row(md, row.toArray());
            }
        }
        md.append('\n');
    }

    private static List<String> phases(final MatrixResult result, final String label)
    {
        return result.polls().stream().flatMap(poll -> result.configs().stream()
            .flatMap(config -> result.cell(poll, config, label).medianPhases().keySet().stream())).distinct().toList();
    }

    private static String totalCell(final Cell cell, final int samples)
    {
        if (cell.runs().isEmpty())
        {
            return status(cell);
        }
        final StringBuilder text = new StringBuilder(seconds(cell.medianTotal()));
        if (samples > 1)
        {
            text.append(" (").append(seconds(cell.minTotal())).append("-").append(seconds(cell.maxTotal()))
                .append(')');
        }
        if (!cell.failures().isEmpty())
        {
            text.append(" (").append(cell.failures().size()).append(" failed)");
        }
        return text.toString();
    }

    private static String status(final Cell cell)
    {
        if (null != cell.notHostedReason())
        {
            return "n/a";
        }
        return cell.failures().isEmpty() ? "-" : "FAILED";
    }

    private static void counts(final StringBuilder md, final MatrixResult result)
    {
        md.append("## Messages per rank (mean over the ranks, timed phases)\n\n");
        md.append("Of the run with the median total, poll `").append(result.polls().get(0)).append("`. Short and " +
            "bulk (data-carrying) messages, to ranks on other nodes (network) and on the same node (local), requests " +
            "and replies: the paper's Table 4 columns.\n\n");
        md.append("| run | configuration | network short | network bulk | local short | local bulk | % local |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (final String label : result.labels())
        {
            for (final MatrixConfig config : result.configs())
            {
                final Cell cell = result.cell(config, label);
                final AppRun run = cell.medianRun();
                if (null == run)
                {
                    Markdown.row(md, label, config.cliName(), status(cell), "", "", "", "");
                    continue;
                }
                Markdown.row(md, label, config.cliName(), Table4Report.count(run.mean("network_short")),
                    bulk(run, "network_bulk"), Table4Report.count(run.mean("local_short")), bulk(run, "local_bulk"),
                    String.format(Locale.ROOT, "%.1f", run.percentLocal()));
            }
        }
        md.append('\n');
    }

    private static String bulk(final AppRun run, final String field)
    {
        return Table4Report.bulk(run.mean(field), run.meanBulkSize(field));
    }

    private static void pollComparison(final StringBuilder md, final MatrixResult result, final String poll)
    {
        final String main = result.polls().get(0);
        md.append("## Poll scheduler `").append(poll).append("` against `").append(main).append("`\n\n");
        md.append("Median totals, seconds; each `").append(poll).append("` job ran right after the same job with `")
            .append(main).append("`.\n\n");
        md.append("| run | configuration | ").append(main).append(" | ").append(poll).append(" | ").append(poll)
            .append(" / ").append(main).append(" |\n");
        md.append("|---|---|---:|---:|---:|\n");
        for (final String label : result.labels())
        {
            for (final MatrixConfig config : result.configs())
            {
                final Cell a = result.cell(main, config, label);
                final Cell b = result.cell(poll, config, label);
                Markdown.row(md, label, config.cliName(), totalCell(a, result.samples()),
                    totalCell(b, result.samples()),
                    ratio(Stats.ratio(b.medianTotal(), a.medianTotal())));
            }
        }
        md.append('\n');
        final List<MatrixConfig> pair = MatrixRatios.onePair(result);
        if (!pair.isEmpty())
        {
            md.append("Multi / shm-only per run with `").append(poll).append("`: ");
            final List<String> parts = new ArrayList<>();
            for (final String label : result.labels())
            {
                final double r = Stats.ratio(result.cell(poll, pair.get(0), label).medianTotal(),
                    result.cell(poll, pair.get(1), label).medianTotal());
                parts.add(label + " " + (Double.isNaN(r) ? "n/a" : ratio(r)));
            }
            md.append(String.join(", ", parts)).append("; per application: ");
            parts.clear();
            MatrixRatios.perApplication(result, poll).forEach((app, r) -> parts.add(app + " " + ratio(r)));
            md.append(String.join(", ", parts)).append(".\n\n");
        }
    }

    private static void failures(final StringBuilder md, final MatrixResult result)
    {
        final List<String> lines = new ArrayList<>();
        for (final String poll : result.polls())
        {
            for (final MatrixConfig config : result.configs())
            {
                for (final String label : result.labels())
                {
                    final Cell cell = result.cell(poll, config, label);
                    final String where = label + ", " + config.cliName() + ", poll " + poll + ": ";
                    if (null != cell.notHostedReason())
                    {
                        lines.add("- " + where + "not run: " + cell.notHostedReason());
                    }
                    for (final String failure : cell.failures())
                    {
                        lines.add("- " + where + failure);
                    }
                }
            }
        }
        md.append("## Failures\n\n");
        if (lines.isEmpty())
        {
            md.append("None: every run of every cell was verified (the application's JSON report said " +
                "`\"verified\": true`, with the transports and nodes asked for).\n\n");
            return;
        }
        lines.forEach(line -> md.append(line).append('\n'));
        md.append('\n');
    }

    private static void paperTables(final StringBuilder md)
    {
        md.append("## The paper's Tables 5 and 6, as printed (seconds)\n\n");
        md.append("Table 5: one 8-way SMP and a NOW of 8 processors.\n\n");
        md.append("| Run | 8-way SMP: Shared Memory | 8-way SMP: Multi-Protocol | NOW (8 processors): Multi-Protocol | " +
            "NOW (8 processors): Myrinet |\n|---|---|---|---|---|\n");
        PaperFigures.TABLE_5.forEach(row -> Markdown.row(md, row.toArray()));
        md.append("\nTable 6: the Clump and a NOW of 32 processors (the \"bal.\" rows: range over the processors of " +
            "the time in EM3D's communication phase).\n\n");
        md.append("| Run | Clump (4 8-way SMP's) | NOW (32 processors) |\n|---|---|---|\n");
        PaperFigures.TABLE_6.forEach(row -> Markdown.row(md, row.toArray()));
    }

    /**
     * @param s seconds.
     * @return them with 3 decimals.
     */
    static String seconds(final double s)
    {
        return Markdown.number("%.3f", s, "");
    }

    /**
     * @param r a ratio.
     * @return it with 3 decimals, empty when NaN.
     */
    static String ratio(final double r)
    {
        return Markdown.number("%.3f", r, "");
    }
}
