package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.am2j.splitc.app.Warmup;

/**
 * Everything the tables and the chart of one matrix are made from: how it was run (command, preset, ranks, cores,
 * repeats, poll schedulers, configurations), the machine's load while it ran, and one {@link Cell} per poll
 * scheduler, configuration and run label.
 *
 * @param command the command line that ran the matrix, as a user would type it.
 * @param preset  the applications' preset.
 * @param ranks   ranks of every job.
 * @param cores   CPUs the ranks share.
 * @param repeat  repeats of every cell (jobs).
 * @param warmup  warm-up runs of every job before its timed runs.
 * @param timed   timed runs of every run in every job.
 * @param polls   poll schedulers, the first the main one ("every" when the ranks' default).
 * @param configs configurations, in column order.
 * @param labels  the runs' labels, in row order.
 * @param cells   the cells by poll scheduler, configuration and label ({@link #cell(String, MatrixConfig, String)}).
 * @param run     what the matrix learns as it runs.
 */
record MatrixResult(String command, String preset, int ranks, int cores, int repeat, Warmup warmup, int timed,
    List<String> polls, List<MatrixConfig> configs, List<String> labels, Map<String, Cell> cells, Run run)
{
    /** What the matrix learns as it runs, and its limits: set by {@link AppsMatrix}, read by the reports. */
    static final class Run
    {
        /** The load averages (1, 5, 15 minutes) sampled while the matrix ran: before the first job, after each. */
        final List<double[]> loads = new ArrayList<>();
        /** The JVM that ran the matrix, empty when not known. */
        String java = "";
        /** When the first job started, ISO-8601, empty when not known. */
        String started = "";
        /** Wall time of all jobs, NaN when not known. */
        double wallSeconds = Double.NaN;
        /** The matrix's time limit ({@code --time-limit}), 0 when not known. */
        int timeLimitSeconds;
        /** The time limit of one job ({@code --timeout}), 0 when not known. */
        int timeoutSeconds;
        /** EM3D's iterations instead of the preset's ({@code --em3d-iterations}), 0 for the preset's. */
        int em3dIterations;
        /** Jobs that did not start because the matrix's time limit was reached. */
        int skippedJobs;
        /** The matrix's ranks per JVM ({@code --ranks-per-jvm}), 0 for each configuration's own. */
        int ranksPerJvm;
    }

    /**
     * A matrix of empty cells, nothing run yet.
     */
    MatrixResult(
        final String command,
        final String preset,
        final int ranks,
        final int cores,
        final int repeat,
        final Warmup warmup,
        final int timed,
        final List<String> polls,
        final List<MatrixConfig> configs,
        final List<String> labels)
    {
        this(command, preset, ranks, cores, repeat, warmup, timed, List.copyOf(polls), List.copyOf(configs),
            List.copyOf(labels), new LinkedHashMap<>(), new Run());
        for (final String poll : polls)
        {
            for (final MatrixConfig config : configs)
            {
                for (final String label : labels)
                {
                    cells.put(key(poll, config, label), new Cell());
                }
            }
        }
    }

    private static String key(final String poll, final MatrixConfig config, final String label)
    {
        return poll + '\u0000' + config.name() + '\u0000' + label;
    }

    /**
     * @param poll   a poll scheduler of the matrix.
     * @param config a configuration of the matrix.
     * @param label  a run label of the matrix.
     * @return its cell.
     * @throws IllegalArgumentException when the matrix has no such cell.
     */
    Cell cell(final String poll, final MatrixConfig config, final String label)
    {
        final Cell cell = cells.get(key(poll, config, label));
        if (null == cell)
        {
            throw new IllegalArgumentException("no cell " + poll + " " + config.cliName() + " " + label);
        }
        return cell;
    }

    /**
     * @param config a configuration.
     * @param label  a run label.
     * @return its cell under the main poll scheduler.
     */
    Cell cell(final MatrixConfig config, final String label)
    {
        return cell(polls.get(0), config, label);
    }

    /**
     * @param config a configuration of the matrix.
     * @return the ranks of its jobs.
     */
    int ranks(final MatrixConfig config)
    {
        return config.ranks(ranks);
    }

    /**
     * @return samples per cell: repeats x timed runs.
     */
    int samples()
    {
        return repeat * timed;
    }

    /**
     * @return true when every cell the machine hosts verified in every repeat.
     */
    boolean allVerified()
    {
        return cells.values().stream().allMatch(cell -> null != cell.notHostedReason() || cell.ok());
    }
}
