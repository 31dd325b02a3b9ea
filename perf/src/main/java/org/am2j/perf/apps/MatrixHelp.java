package org.am2j.perf.apps;

import java.io.PrintStream;
import java.util.List;

import org.am2j.spmd.RendezvousConfig;
import org.am2j.splitc.app.AppArgs;
import org.am2j.splitc.app.Apps;
import org.am2j.splitc.app.SplitCApp;

/**
 * The help of {@code bin/am2j apps-matrix}: every option with its default, and every configuration with the
 * {@code am2j run} options of its jobs.
 */
final class MatrixHelp
{
    private MatrixHelp()
    {
    }

    /**
     * @param out where the help goes.
     */
    static void print(final PrintStream out)
    {
        out.println(MatrixOptions.USAGE);
        out.println("  --preset NAME   the applications' preset (default " + AppArgs.DEFAULT_PRESET + "); with '" +
            MatrixConfig.PAPER_PRESET + "' and no --ranks, the default configurations are those at the paper's scale");
        out.println("  --out FILE      the Markdown results (default apps-matrix.md); the chart goes beside it as .png");
        out.println("  --ranks P, -n P ranks of the configurations that take them, shm-only, multi, net and clump " +
            "(default " + MatrixOptions.DEFAULT_RANKS + "); the others fix their own");
        out.println("  --repeat R      jobs of every cell; the tables give medians (default 1)");
        out.println("  --timed K       timed runs of every run in every job, after its warm-ups: a cell has R x K " +
            "samples (default " + MatrixOptions.DEFAULT_TIMED + ", " + MatrixOptions.PAPER_SCALE_TIMED + " with a " +
            "configuration at the paper's scale); each adds a run and a settle to the job's time, which --timeout " +
            "bounds");
        out.println("  --warmup W      untimed runs of each job's application before its timed runs, in the same JVMs:" +
            " a number, or auto[:MAX] for runs until the JIT is quiet (default " + MatrixOptions.DEFAULT_WARMUP + ", " +
            MatrixOptions.PAPER_SCALE_WARMUP + " with a configuration at the paper's scale)");
        out.println("  --poll S        poll scheduler of the ranks (default: theirs, " + MatrixOptions.DEFAULT_POLL +
            "); given again, each further one runs right after the first and is compared with it");
        out.println("  --apps A,B      applications (default " + String.join(",",
            Apps.all().stream().map(SplitCApp::name).toList()) + ")");
        out.println("  --configs C,D   configurations (default " + names(MatrixConfig.defaults("small", false)) +
            "; with --preset " + MatrixConfig.PAPER_PRESET + " and no --ranks " +
            names(MatrixConfig.defaults(MatrixConfig.PAPER_PRESET, false)) + "):");
        for (final MatrixConfig config : MatrixConfig.values())
        {
            out.println("      " + config.cliName() + ": " + config.description() + "; am2j run " +
                String.join(" ", config.runOptions(config.fixesRanks() ? 0 : MatrixOptions.DEFAULT_RANKS)) +
                (config.fixesRanks() ? "" : " (P = " + MatrixOptions.DEFAULT_RANKS + ")"));
        }
        out.println("  --chart FILE    the bar chart PNG (default: --out with .png)");
        out.println("  --timeout S     time limit of one job (default " + MatrixOptions.DEFAULT_TIMEOUT_S + ", " +
            MatrixOptions.PAPER_SCALE_TIMEOUT_S + " with a configuration at the paper's scale)");
        out.println("  --time-limit S  time limit of the whole matrix (default " + MatrixOptions.DEFAULT_TIME_LIMIT_S +
            " = " + MatrixOptions.DEFAULT_TIME_LIMIT_S / 3600 + " h): no job starts with less than " +
            AppsMatrix.MIN_JOB_SECONDS + " s left, a job's limit is cut to what is left, and the jobs not run count as failed");
        out.println("  --em3d-iterations N  EM3D's iterations instead of the preset's (the paper preset runs " +
            PaperTable4.EM3D_ITERATIONS + ", minutes at 32 ranks on 2 CPUs); Table 4 then scales the paper's " +
            "EM3D counts by N/" + PaperTable4.EM3D_ITERATIONS);
        out.println("  --pin           pin rank R to CPU R mod CPUs (taskset), as am2j run --pin");
        out.println("  --keep DIR      keep every job's log and JSON report in DIR (kept anyway, in a temporary " +
            "directory, when a job fails)");
        out.println("At the paper's scale the launcher waits up to " + AppsMatrix.PAPER_SCALE_JOIN_TIMEOUT_MS / 1000 + " s for " +
            "the ranks of a job to join unless -D" + RendezvousConfig.JOIN_TIMEOUT_PROP + " or " +
            RendezvousConfig.JOIN_TIMEOUT_VARIABLE + " says otherwise.");
    }

    private static String names(final List<MatrixConfig> configs)
    {
        return String.join(",", configs.stream().map(MatrixConfig::cliName).toList());
    }
}
