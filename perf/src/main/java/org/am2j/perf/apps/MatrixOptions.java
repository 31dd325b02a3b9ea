package org.am2j.perf.apps;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.am2j.splitc.app.AppArgs;
import org.am2j.splitc.app.Warmup;
import org.am2j.splitc.app.Apps;
import org.am2j.splitc.app.SplitCApp;

/**
 * The options of {@code bin/am2j apps-matrix} ({@link #USAGE}).
 */
final class MatrixOptions
{
    /** The usage line. */
    static final String USAGE = "usage: am2j apps-matrix [--preset NAME] [--out FILE] [--ranks P] [--repeat R]" +
        " [--warmup W] [--timed K] [--poll S]... [--apps A,B] [--configs C,D] [--chart FILE] [--timeout S]" +
        " [--time-limit S] [--em3d-iterations N] [--pin] [--keep DIR]";

    /** Ranks of every job unless {@code --ranks} says otherwise. */
    static final int DEFAULT_RANKS = 4;
    /**
     * Warm-up runs of every job before its timed run, unless {@code --warmup} says otherwise: until the JIT is quiet
     * ({@link Warmup}), at most {@value Warmup#DEFAULT_AUTO_MAX}, so that the timed run measures compiled code in every
     * configuration. A fixed count compared configurations at different stages of compilation: the multi-protocol
     * configurations load more code, and after one warm-up run their ranks still compiled for longer than the timed
     * run took, on the CPUs the ranks share.
     */
    static final Warmup DEFAULT_WARMUP = Warmup.untilQuiet(Warmup.DEFAULT_AUTO_MAX);
    /**
     * Timed runs of every run in every job, unless {@code --timed} says otherwise: the runs of the paper preset last
     * tens of milliseconds on this machine, where one disturbed run moves a median of a few jobs; timing each run
     * several times in its job adds samples at the cost of a few runs, not of a job's start and warm-ups.
     */
    static final int DEFAULT_TIMED = 3;
    /** Time limit of one job, seconds, unless {@code --timeout} says otherwise. */
    static final int DEFAULT_TIMEOUT_S = 300;
    /**
     * Time limit of one job, seconds, when a configuration at the paper's scale runs (32 rank JVMs share the CPUs;
     * EM3D's paper preset takes minutes there), unless {@code --timeout} says otherwise.
     */
    static final int PAPER_SCALE_TIMEOUT_S = 1200;
    /**
     * Time limit of the whole matrix, seconds, unless {@code --time-limit} says otherwise: no job starts after it,
     * and each job's own limit is cut to what is left of it.
     */
    static final int DEFAULT_TIME_LIMIT_S = 7200;
    /**
     * Warm-up runs of every job when a configuration at the paper's scale runs, unless {@code --warmup} says
     * otherwise: one, since each run of 32 ranks on a few CPUs lasts long enough to compile most of the code.
     */
    static final Warmup PAPER_SCALE_WARMUP = Warmup.fixed(1);
    /** Timed runs of every run when a configuration at the paper's scale runs, unless {@code --timed} says otherwise. */
    static final int PAPER_SCALE_TIMED = 1;
    /** The application whose iterations {@code --em3d-iterations} sets. */
    static final String EM3D = "em3d";
    /** The main poll scheduler's name when {@code --poll} is not given (the ranks' default). */
    static final String DEFAULT_POLL = "follow";

    final String preset;
    final Path out;
    final Path chart;
    final int ranks;
    final int repeat;
    final Warmup warmup;
    final int timed;
    final List<String> polls;
    final boolean pollGiven;
    final List<SplitCApp> apps;
    final List<MatrixConfig> configs;
    final int timeoutSeconds;
    final int timeLimitSeconds;
    final int em3dIterations;
    final boolean pin;
    final Path keep;
    final boolean help;

    private MatrixOptions(
        final String preset,
        final Path out,
        final Path chart,
        final int ranks,
        final int repeat,
        final Warmup warmup,
        final int timed,
        final List<String> polls,
        final boolean pollGiven,
        final List<SplitCApp> apps,
        final List<MatrixConfig> configs,
        final int timeoutSeconds,
        final int timeLimitSeconds,
        final int em3dIterations,
        final boolean pin,
        final Path keep,
        final boolean help)
    {
        this.preset = preset;
        this.out = out;
        this.chart = chart;
        this.ranks = ranks;
        this.repeat = repeat;
        this.warmup = warmup;
        this.timed = timed;
        this.polls = Collections.unmodifiableList(polls);
        this.pollGiven = pollGiven;
        this.apps = Collections.unmodifiableList(apps);
        this.configs = Collections.unmodifiableList(configs);
        this.timeoutSeconds = timeoutSeconds;
        this.timeLimitSeconds = timeLimitSeconds;
        this.em3dIterations = em3dIterations;
        this.pin = pin;
        this.keep = keep;
        this.help = help;
    }

    /**
     * @param args the command line after {@code apps-matrix}.
     * @return the options.
     * @throws IllegalArgumentException naming what is wrong.
     */
    static MatrixOptions parse(final String[] args)
    {
        String preset = AppArgs.DEFAULT_PRESET;
        Path out = Path.of("apps-matrix.md");
        Path chart = null;
        int ranks = DEFAULT_RANKS;
        boolean ranksGiven = false;
        int repeat = 1;
        Warmup warmup = null;
        int timed = 0;
        final List<String> polls = new ArrayList<>();
        List<SplitCApp> apps = Apps.all();
        List<MatrixConfig> configs = null;
        int timeout = 0;
        int timeLimit = DEFAULT_TIME_LIMIT_S;
        int em3dIterations = 0;
        boolean pin = false;
        Path keep = null;
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            switch (arg)
            {
                case "-h":
                case "--help":
                    return new MatrixOptions(preset, out, out, ranks, repeat, DEFAULT_WARMUP, DEFAULT_TIMED,
                        List.of(DEFAULT_POLL), false, apps, MatrixConfig.defaults(preset, ranksGiven),
                        DEFAULT_TIMEOUT_S, timeLimit, em3dIterations, pin, keep, true);
                case "--pin":
                    pin = true;
                    continue;
                default:
                    break;
            }
            if (i + 1 >= args.length)
            {
                throw new IllegalArgumentException(arg.startsWith("-") ? arg + " needs a value" :
                    "unexpected argument '" + arg + "'");
            }
            final String value = args[++i];
            switch (arg)
            {
                case "--preset":
                    preset = value;
                    break;
                case "--out":
                    out = Path.of(value);
                    break;
                case "--chart":
                    chart = Path.of(value);
                    break;
                case "-n":
                case "--ranks":
                    ranks = positive(arg, value);
                    ranksGiven = true;
                    break;
                case "--repeat":
                    repeat = positive(arg, value);
                    break;
                case "--warmup":
                    warmup = Warmup.parse(value);
                    break;
                case "--timed":
                    timed = AppArgs.parseTimed(value);
                    break;
                case "--poll":
                    if (value.isEmpty() || polls.contains(value))
                    {
                        throw new IllegalArgumentException("--poll '" + value + "' is empty or given twice");
                    }
                    polls.add(value);
                    break;
                case "--apps":
                    apps = new ArrayList<>();
                    for (final String name : list(arg, value))
                    {
                        apps.add(Apps.byName(name));
                    }
                    break;
                case "--configs":
                    configs = new ArrayList<>();
                    for (final String name : list(arg, value))
                    {
                        configs.add(MatrixConfig.byName(name));
                    }
                    break;
                case "--timeout":
                    timeout = positive(arg, value);
                    break;
                case "--time-limit":
                    timeLimit = positive(arg, value);
                    break;
                case "--em3d-iterations":
                    em3dIterations = positive(arg, value);
                    break;
                case "--keep":
                    keep = Path.of(value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        if (null == configs)
        {
            configs = MatrixConfig.defaults(preset, ranksGiven);
        }
        final boolean paperScale = configs.stream().anyMatch(MatrixConfig::fixesRanks);
        if (null == warmup)
        {
            warmup = paperScale ? PAPER_SCALE_WARMUP : DEFAULT_WARMUP;
        }
        if (0 == timed)
        {
            timed = paperScale ? PAPER_SCALE_TIMED : DEFAULT_TIMED;
        }
        if (0 == timeout)
        {
            timeout = paperScale ? PAPER_SCALE_TIMEOUT_S : DEFAULT_TIMEOUT_S;
        }
        if (em3dIterations > 0 && apps.stream().noneMatch(app -> EM3D.equals(app.name())))
        {
            throw new IllegalArgumentException("--em3d-iterations: the matrix runs no " + EM3D);
        }
        for (final SplitCApp app : apps)
        {
            if (app.preset(preset).isEmpty())
            {
                throw new IllegalArgumentException(app.name() + " has no preset '" + preset + "'; presets: " +
                    String.join(", ", app.presets()));
            }
        }
        if (null == chart)
        {
            final String name = out.getFileName().toString();
            final int dot = name.lastIndexOf('.');
            chart = out.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".png");
        }
        final boolean pollGiven = !polls.isEmpty();
        if (!pollGiven)
        {
            polls.add(DEFAULT_POLL);
        }
        return new MatrixOptions(preset, out, chart, ranks, repeat, warmup, timed, polls, pollGiven, apps, configs,
            timeout, timeLimit, em3dIterations, pin, keep, false);
    }

    /**
     * @param app an application of the matrix.
     * @return the parameters its jobs override beyond the preset: {@code --iterations N} for EM3D when
     * {@code --em3d-iterations} was given, else none.
     */
    List<String> appOverrides(final SplitCApp app)
    {
        return em3dIterations > 0 && EM3D.equals(app.name()) ? List.of("--iterations",
            Integer.toString(em3dIterations)) : List.of();
    }

    private static List<String> list(final String option, final String value)
    {
        final List<String> names = new ArrayList<>();
        for (final String name : value.split(","))
        {
            if (name.isBlank() || names.contains(name.trim()))
            {
                throw new IllegalArgumentException(option + " " + value + ": an empty or repeated name");
            }
            names.add(name.trim());
        }
        return names;
    }

    private static int positive(final String option, final String value)
    {
        try
        {
            final int n = Integer.parseInt(value);
            if (n >= 1)
            {
                return n;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException(option + " " + value + " must be a positive integer");
    }
}
