package org.am2j.perf.apps;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.am2j.spmd.RendezvousConfig;
import org.am2j.perf.BenchCommand;
import org.am2j.splitc.app.AppArgs;
import org.am2j.splitc.app.Apps;
import org.am2j.launch.JvmPlacement;
import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import org.am2j.splitc.app.SplitCApp;
import org.am2j.splitc.app.Warmup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * The options of {@code bin/am2j apps-matrix} ({@link #USAGE}); {@link #help()} gives every option with its default,
 * and every configuration with the {@code am2j run} options of its jobs.
 */
@Command(name = "am2j apps-matrix")
final class MatrixOptions
{
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
    static final int PAPER_SCALE_WARMUP_RUNS = 1;
    /** {@link #PAPER_SCALE_WARMUP_RUNS} as a warm-up. */
    static final Warmup PAPER_SCALE_WARMUP = Warmup.fixed(PAPER_SCALE_WARMUP_RUNS);
    /** Timed runs of every run when a configuration at the paper's scale runs, unless {@code --timed} says otherwise. */
    static final int PAPER_SCALE_TIMED = 1;
    /** The application whose iterations {@code --em3d-iterations} sets. */
    static final String EM3D = "em3d";
    /** The main poll scheduler's name when {@code --poll} is not given (the ranks' default). */
    static final String DEFAULT_POLL = "follow";

    /** The usage line, printed after an error. */
    static final String USAGE = CommandLines.usage(new MatrixOptions());

    @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
    boolean help;
    @Option(names = "--preset", paramLabel = "NAME", description = "the applications' preset (default " +
        AppArgs.DEFAULT_PRESET + "); with '" + MatrixConfig.PAPER_PRESET + "' and no --ranks, the default " +
        "configurations are those at the paper's scale")
    String preset = AppArgs.DEFAULT_PRESET;
    @Option(names = "--out", paramLabel = "FILE", description = "the Markdown results (default ${DEFAULT-VALUE}); the " +
        "chart goes beside it as .png")
    Path out = Path.of("apps-matrix.md");
    @Option(names = { "--ranks", "-n" }, paramLabel = "P", description = "ranks of the configurations that take " +
        "them, shm-only, multi, net and clump (default ${DEFAULT-VALUE}); the others fix their own")
    @Range(min = 1)
    int ranks = DEFAULT_RANKS;
    @Option(names = "--repeat", paramLabel = "R", description = "jobs of every cell; the tables give medians " +
        "(default ${DEFAULT-VALUE})")
    @Range(min = 1)
    int repeat = 1;
    @Option(names = "--timed", paramLabel = "K", description = "timed runs of every run in every job, after its " +
        "warm-ups: a cell has R x K samples (default " + DEFAULT_TIMED + ", " + PAPER_SCALE_TIMED + " with a " +
        "configuration at the paper's scale); each adds a run and a settle to the job's time, which --timeout bounds")
    @Range(min = 1, max = AppArgs.MAX_TIMED, meaning = "timed runs")
    int timed;
    @Option(names = "--warmup", paramLabel = "W", description = "untimed runs of each job's application before its " +
        "timed runs, in the same JVMs: a number, or auto[:MAX] for runs until the JIT is quiet (default auto:" +
        Warmup.DEFAULT_AUTO_MAX + ", " + PAPER_SCALE_WARMUP_RUNS + " with a configuration at the paper's scale)")
    Warmup warmup;
    @Option(names = "--poll", paramLabel = "S", description = "poll scheduler of the ranks (default: theirs, " +
        DEFAULT_POLL + "); given again, each further one runs right after the first and is compared with it")
    List<String> polls = new ArrayList<>();
    boolean pollGiven;
    @Option(names = "--apps", paramLabel = "A,B", split = ",", hideParamSyntax = true, completionCandidates =
        AppNames.class, description = "applications (default ${COMPLETION-CANDIDATES})")
    List<SplitCApp> apps = Apps.all();
    @Option(names = "--configs", paramLabel = "C,D", split = ",", hideParamSyntax = true, description =
        "configurations, of those below")
    List<MatrixConfig> configs;
    @Option(names = "--chart", paramLabel = "FILE", description = "the bar chart PNG (default: --out with .png)")
    Path chart;
    @Option(names = "--timeout", paramLabel = "S", description = "time limit of one job (default " + DEFAULT_TIMEOUT_S +
        ", " + PAPER_SCALE_TIMEOUT_S + " with a configuration at the paper's scale)")
    @Range(min = 1)
    int timeoutSeconds;
    @Option(names = "--time-limit", paramLabel = "S", description = "time limit of the whole matrix (default " +
        DEFAULT_TIME_LIMIT_S + " = " + DEFAULT_TIME_LIMIT_S / 3600 + " h): no job starts with less than " +
        AppsMatrix.MIN_JOB_SECONDS + " s left, a job's limit is cut to what is left, and the jobs not run count as " +
        "failed")
    @Range(min = 1)
    int timeLimitSeconds = DEFAULT_TIME_LIMIT_S;
    @Option(names = "--em3d-iterations", paramLabel = "N", description = "EM3D's iterations instead of the preset's " +
        "(the paper preset runs " + PaperTable4.EM3D_ITERATIONS + ", minutes at 32 ranks on 2 CPUs); Table 4 then " +
        "scales the paper's EM3D counts by N/" + PaperTable4.EM3D_ITERATIONS)
    @Range(min = 1)
    int em3dIterations;
    @Option(names = "--pin", description = "pin rank R to CPU R mod CPUs (taskset), as am2j run --pin")
    boolean pin;
    @Option(names = "--ranks-per-jvm", paramLabel = "K", description = "K ranks of a node in each JVM, as threads, " +
        "in every job, as am2j run --ranks-per-jvm (default " + JvmPlacement.RANKS_PER_JVM_VARIABLE + ", else each " +
        "configuration's own: a node's ranks for clump-threads and clump32-threads, 1 for the others); K must divide " +
        "the ranks of every node of every configuration")
    @Range(min = 1)
    int ranksPerJvm;
    @Option(names = "--keep", paramLabel = "DIR", description = "keep every job's log and JSON report in DIR (kept " +
        "anyway, in a temporary directory, when a job fails)")
    Path keep;

    private MatrixOptions()
    {
    }

    /**
     * @param args the command line after {@code apps-matrix}.
     * @return the options.
     * @throws IllegalArgumentException naming what is wrong.
     */
    static MatrixOptions parse(final String[] args)
    {
        final MatrixOptions options = new MatrixOptions();
        final ParseResult parsed = CommandLines.parse(CommandLines.of(options)
            .registerConverter(Warmup.class, Warmup::parse)
            .registerConverter(SplitCApp.class, Apps::byName)
            .registerConverter(MatrixConfig.class, MatrixConfig::byName), args);
        once("--poll", options.polls);
        once("--apps", options.apps);
        if (null == options.configs)
        {
            options.configs = MatrixConfig.defaults(options.preset, parsed.hasMatchedOption("--ranks"));
        }
        once("--configs", options.configs);
        options.ranksPerJvm = ranksPerJvm(options.ranksPerJvm, System.getenv(), options.configs, options.ranks);
        final boolean paperScale = options.configs.stream().anyMatch(MatrixConfig::fixesRanks);
        if (null == options.warmup)
        {
            options.warmup = paperScale ? PAPER_SCALE_WARMUP : DEFAULT_WARMUP;
        }
        if (0 == options.timed)
        {
            options.timed = paperScale ? PAPER_SCALE_TIMED : DEFAULT_TIMED;
        }
        if (0 == options.timeoutSeconds)
        {
            options.timeoutSeconds = paperScale ? PAPER_SCALE_TIMEOUT_S : DEFAULT_TIMEOUT_S;
        }
        if (options.em3dIterations > 0 && options.apps.stream().noneMatch(app -> EM3D.equals(app.name())))
        {
            throw new IllegalArgumentException("--em3d-iterations: the matrix runs no " + EM3D);
        }
        for (final SplitCApp app : options.apps)
        {
            if (app.preset(options.preset).isEmpty())
            {
                throw new IllegalArgumentException(app.name() + " has no preset '" + options.preset + "'; presets: " +
                    String.join(", ", app.presets()));
            }
        }
        if (null == options.chart)
        {
            final String name = options.out.getFileName().toString();
            final int dot = name.lastIndexOf('.');
            options.chart = options.out.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".png");
        }
        options.pollGiven = !options.polls.isEmpty();
        if (!options.pollGiven)
        {
            options.polls.add(DEFAULT_POLL);
        }
        return options;
    }

    /**
     * Check the ranks per JVM of every configuration's jobs as {@code am2j run} would, before any job runs.
     *
     * @param option  {@code --ranks-per-jvm}, 0 when not given.
     * @param env     the environment, whose {@code AM2J_RANKS_PER_JVM} applies when the option is not given.
     * @param configs the matrix's configurations.
     * @param ranks   the matrix's {@code --ranks}.
     * @return the ranks per JVM of the jobs of the configurations that do not hold a node in one JVM: the option's,
     * else the variable's, 0 when neither gives more than 1.
     * @throws IllegalArgumentException naming the configuration whose nodes it does not fit.
     */
    static int ranksPerJvm(final int option, final Map<String, String> env, final List<MatrixConfig> configs,
        final int ranks)
    {
        int given = 0;
        for (final MatrixConfig config : configs)
        {
            final int jobRanks = config.ranks(ranks);
            final int nodes = config.nodes(jobRanks);
            try
            {
                if (!config.nodeInOneJvm())
                {
                    final int perJvm = JvmPlacement.ranksPerJvm(option, env, jobRanks, nodes);
                    given = perJvm > 1 ? perJvm : given;
                }
                else if (option > 0)
                {
                    throw new IllegalArgumentException("--ranks-per-jvm " + option + " does not apply: the " +
                        "configuration holds each node's ranks in one JVM");
                }
                else
                {
                    JvmPlacement.ranksPerJvm(config.ranksPerJvm(jobRanks, 0), Map.of(), jobRanks, nodes);
                }
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("configuration " + config.cliName() + ": " + ex.getMessage());
            }
        }
        return given;
    }

    /**
     * @return these options, after checking that the directories of {@code --out} and {@code --chart} can be written
     * (unless only the help is asked for).
     * @throws IllegalArgumentException when one cannot.
     */
    MatrixOptions checkOutputs()
    {
        if (!help)
        {
            BenchCommand.writableDirectory("--out", out);
            BenchCommand.writableDirectory("--chart", chart);
        }
        return this;
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

    /**
     * @return the help: every option with its default, then every configuration with the {@code am2j run} options of
     * its jobs.
     */
    static String help()
    {
        final StringBuilder help = new StringBuilder(CommandLines.help(new MatrixOptions()));
        help.append("Configurations (--configs; default ").append(names(MatrixConfig.defaults("small", false)))
            .append("; with --preset ").append(MatrixConfig.PAPER_PRESET).append(" and no --ranks ")
            .append(names(MatrixConfig.defaults(MatrixConfig.PAPER_PRESET, false))).append("):\n");
        for (final MatrixConfig config : MatrixConfig.values())
        {
            help.append("  ").append(config.cliName()).append(": ").append(config.description()).append("; am2j run ")
                .append(String.join(" ", config.runOptions(config.fixesRanks() ? 0 : DEFAULT_RANKS)))
                .append(config.fixesRanks() ? "" : " (P = " + DEFAULT_RANKS + ")").append('\n');
        }
        return help.append("At the paper's scale the launcher waits up to ")
            .append(AppsMatrix.PAPER_SCALE_JOIN_TIMEOUT_MS / 1000).append(" s for the ranks of a job to join unless -D")
            .append(RendezvousConfig.JOIN_TIMEOUT_PROP).append(" or ").append(RendezvousConfig.JOIN_TIMEOUT_VARIABLE)
            .append(" says otherwise.\n").toString();
    }

    private static String names(final List<MatrixConfig> configs)
    {
        return String.join(",", configs.stream().map(MatrixConfig::cliName).toList());
    }

    /**
     * @throws IllegalArgumentException when a value of the option is empty or given twice.
     */
    private static void once(final String option, final List<?> values)
    {
        final HashSet<Object> seen = new HashSet<>();
        for (final Object value : values)
        {
            if (!seen.add(value) || "".equals(value))
            {
                throw new IllegalArgumentException(option + " '" + value + "' is empty or given twice");
            }
        }
    }

    /** The applications' names, for the help. */
    static final class AppNames extends ArrayList<String>
    {
        private static final long serialVersionUID = 1L;

        AppNames()
        {
            super(Apps.all().stream().map(SplitCApp::name).toList());
        }
    }
}
