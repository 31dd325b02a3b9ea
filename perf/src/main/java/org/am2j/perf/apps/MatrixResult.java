package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.am2j.splitc.app.Warmup;

/**
 * Everything the tables and the chart of one matrix are made from: how it was run (command, preset, ranks, cores,
 * repeats, poll schedulers, configurations), the machine's load while it ran, and one {@link Cell} per poll
 * scheduler, configuration and run label.
 */
final class MatrixResult
{
    private final String command;
    private final String preset;
    private final int ranks;
    private final int cores;
    private final int repeat;
    private final Warmup warmup;
    private final int timed;
    private final List<String> polls;
    private final List<MatrixConfig> configs;
    private final List<String> labels;
    private final Map<String, Cell> cells = new LinkedHashMap<>();
    private final List<double[]> loads = new ArrayList<>();
    private String java = "";
    private String started = "";
    private double wallSeconds = Double.NaN;
    private int timeLimitSeconds;
    private int timeoutSeconds;
    private int em3dIterations;
    private int skippedForTime;

    /**
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
        this.warmup = warmup;
        this.timed = timed;
        this.command = command;
        this.preset = preset;
        this.ranks = ranks;
        this.cores = cores;
        this.repeat = repeat;
        this.polls = List.copyOf(polls);
        this.configs = List.copyOf(configs);
        this.labels = List.copyOf(labels);
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
     * @param load1  the 1-minute load average at one instant while the matrix ran.
     * @param load5  the 5-minute one.
     * @param load15 the 15-minute one.
     */
    void addLoad(final double load1, final double load5, final double load15)
    {
        loads.add(new double[] { load1, load5, load15 });
    }

    /**
     * @return the load averages (1, 5, 15 minutes) sampled while the matrix ran, in order (before the first job,
     * after each job).
     */
    List<double[]> loads()
    {
        return Collections.unmodifiableList(loads);
    }

    /**
     * @param java    the JVM the ranks ran on.
     * @param started when the matrix began (ISO 8601).
     * @param wall    how long it took, seconds.
     */
    void setRun(final String java, final String started, final double wall)
    {
        this.java = java;
        this.started = started;
        this.wallSeconds = wall;
    }

    /**
     * @param timeLimitSeconds the matrix's time limit, seconds (0: not stated).
     * @param timeoutSeconds   a job's time limit, seconds (0: not stated).
     * @param em3dIterations   EM3D's iterations when the matrix overrode the preset's, else 0.
     */
    void setLimits(final int timeLimitSeconds, final int timeoutSeconds, final int em3dIterations)
    {
        this.timeLimitSeconds = timeLimitSeconds;
        this.timeoutSeconds = timeoutSeconds;
        this.em3dIterations = em3dIterations;
    }

    /**
     * Count a job that did not start because the matrix's time limit was reached.
     */
    void skippedForTime()
    {
        skippedForTime++;
    }

    /**
     * @return jobs that did not start because the matrix's time limit was reached.
     */
    int skippedJobs()
    {
        return skippedForTime;
    }

    /**
     * @return the matrix's time limit, seconds; 0 when not stated.
     */
    int timeLimitSeconds()
    {
        return timeLimitSeconds;
    }

    /**
     * @return a job's time limit, seconds; 0 when not stated.
     */
    int timeoutSeconds()
    {
        return timeoutSeconds;
    }

    /**
     * @return EM3D's iterations when the matrix overrode the preset's ({@code --em3d-iterations}), else 0.
     */
    int em3dIterations()
    {
        return em3dIterations;
    }

    /**
     * @param config a configuration of the matrix.
     * @return the ranks of its jobs.
     */
    int ranks(final MatrixConfig config)
    {
        return config.ranks(ranks);
    }

    String command()
    {
        return command;
    }

    String preset()
    {
        return preset;
    }

    int ranks()
    {
        return ranks;
    }

    int cores()
    {
        return cores;
    }

    int repeat()
    {
        return repeat;
    }

    /**
     * @return timed runs of every run in every job.
     */
    int timed()
    {
        return timed;
    }

    /**
     * @return the samples of a cell whose jobs all succeeded: repeats times timed runs.
     */
    int samples()
    {
        return repeat * timed;
    }

    /**
     * @return warm-up runs of every job before its timed run.
     */
    Warmup warmup()
    {
        return warmup;
    }

    List<String> polls()
    {
        return polls;
    }

    List<MatrixConfig> configs()
    {
        return configs;
    }

    List<String> labels()
    {
        return labels;
    }

    String java()
    {
        return java;
    }

    String started()
    {
        return started;
    }

    double wallSeconds()
    {
        return wallSeconds;
    }

    /**
     * @return true when every hosted cell has verified numbers from every repeat.
     */
    boolean allVerified()
    {
        for (final Cell cell : cells.values())
        {
            if (null == cell.notHostedReason() && !cell.ok())
            {
                return false;
            }
        }
        return true;
    }
}
