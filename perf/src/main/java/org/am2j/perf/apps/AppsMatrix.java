package org.am2j.perf.apps;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.agrona.IoUtil;
import org.am2j.perf.BenchCommand;
import org.am2j.perf.MachineState;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.splitc.app.AppArgs;
import org.am2j.splitc.app.AppMain;
import org.am2j.splitc.app.RunSpec;
import org.am2j.splitc.app.SplitCApp;
import org.am2j.launch.Am2Run;
import org.am2j.spmd.RendezvousConfig;

/**
 * {@code bin/am2j apps-matrix}: every Split-C application of the model paper (3D FFT, CON, EM3D with both layouts:
 * the runs of a preset) in every configuration of the paper's Tables 5 and 6 that emulated nodes on this machine can
 * host ({@link MatrixConfig}: with {@code --ranks P}, one node with shared memory only, one node multi-protocol, all
 * network, a clump of 2 nodes; at the paper's scale, the 8-way SMP with each protocol, the Clump of 4 nodes of 8 and
 * the NOW of 32), each cell in {@code --repeat} jobs that time each run {@code --timed} times, and with each further
 * {@code --poll} scheduler right after the first.
 * <pre>
 * am2j apps-matrix [--preset NAME] [--out FILE] [--ranks P] [--repeat R] [--warmup W] [--timed K] [--poll S]...
 *     [--apps A,B] [--configs C,D] [--chart FILE] [--timeout S] [--time-limit S] [--em3d-iterations N] [--pin]
 *     [--keep DIR]
 * </pre>
 * Each job is {@code am2j run -n P --nodes N [--nics-per-node K] --jvm-opt -Dam2j.transports=.. [--jvm-opt ..]
 * [--poll S] [--pin] --timeout T --jvm-opt -Dam2j.splitc.stallSeconds=.. -- org.am2j.splitc.app.AppMain APP --preset
 * NAME --warmup W --timed K --json FILE [--iterations N]} ({@link #jobArguments}) through the launcher in this process
 * ({@link Am2Run}); its output goes to a log file. A job counts when it exits with 0 and its JSON report says
 * {@code "verified": true} for every run, with the ranks, transports and node count asked for. The cycle runs repeat
 * by repeat, application by application, configuration by configuration, so that a slow epoch of the shared machine
 * spreads over the configurations instead of hitting one. No job starts when less than {@value #MIN_JOB_SECONDS} s
 * of {@code --time-limit} are left, and a job's time limit is cut to what is left. The load average is sampled before
 * the first job and after each. The result is a Markdown file ({@link MatrixReport}, with Table 4 and Table 6's shape
 * when the configurations of the paper's scale ran) and a bar chart PNG ({@link MatrixChart}). Exit status: 0 when
 * every hosted cell verified in every repeat, 1 otherwise (a job that did not start for the time limit included), 2
 * for bad options.
 */
public final class AppsMatrix
{
    private static final int LOG_TAIL_LINES = 12;
    /** No job starts with less than this many seconds left of the matrix's time limit. */
    static final int MIN_JOB_SECONDS = 30;
    /**
     * How long the launcher waits for every rank to join a job at the paper's scale, unless the rendezvous's property
     * or variable says otherwise: 32 rank JVMs starting on a few busy CPUs can take longer than the launcher's default
     * of 60 s.
     */
    static final long PAPER_SCALE_JOIN_TIMEOUT_MS = 300_000;

    private final PrintStream out;
    private final PrintStream err;
    private volatile Am2Run current;
    private volatile boolean stopped;

    /**
     * @param out where progress and the summary go.
     * @param err where errors go.
     */
    public AppsMatrix(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * @param args the command line after {@code apps-matrix}.
     */
    public static void main(final String[] args)
    {
        final AppsMatrix matrix = new AppsMatrix(System.out, System.err);
        BenchCommand.main("am2j-apps-matrix-shutdown", matrix::stop, matrix::run, args);
    }

    /**
     * Stop the job under way and start no more.
     */
    public void stop()
    {
        stopped = true;
        final Am2Run launcher = current;
        if (null != launcher)
        {
            launcher.shutdown();
        }
    }

    /** One job of the matrix. */
    private record Job(int repeat, SplitCApp app, List<String> labels, MatrixConfig config, String poll)
    {
        /**
         * Mark every run of the job failed in its cells.
         */
        void fail(final MatrixResult result, final String why)
        {
            labels.forEach(label -> result.cell(poll, config, label).fail("repeat " + repeat + ": " + why));
        }

        String name()
        {
            return app.name() + "-" + config.cliName() + "-" + poll.replaceAll("[^A-Za-z0-9_.-]", "_") + "-r" + repeat;
        }
    }

    /**
     * @param args the command line after {@code apps-matrix}.
     * @return the exit status.
     */
    public int run(final String[] args)
    {
        final MatrixOptions options = BenchCommand.parse(
            "am2j apps-matrix", a -> MatrixOptions.parse(a).checkOutputs(), args, MatrixOptions.USAGE, err);
        if (null == options)
        {
            return BenchCommand.USAGE_STATUS;
        }
        if (options.help)
        {
            out.print(MatrixOptions.help());
            return 0;
        }

        final int cores = Runtime.getRuntime().availableProcessors();
        final List<String> labels = new ArrayList<>();
        final List<List<RunSpec>> specs = new ArrayList<>();
        for (final SplitCApp app : options.apps)
        {
            final List<String> appArgs = new ArrayList<>(List.of(app.name(), "--preset", options.preset));
            appArgs.addAll(options.appOverrides(app));
            final List<RunSpec> runs = AppArgs.parse(appArgs).runs();
            specs.add(runs);
            runs.forEach(spec -> labels.add(spec.label()));
        }
        final MatrixResult result = new MatrixResult("bin/am2j apps-matrix" + (args.length == 0 ? "" : " " +
            String.join(" ", args)), options.preset, options.ranks, cores, options.repeat, options.warmup,
            options.timed, options.polls,
            options.configs, labels);
        result.run().timeLimitSeconds = options.timeLimitSeconds;
        result.run().timeoutSeconds = options.timeoutSeconds;
        result.run().ranksPerJvm = options.ranksPerJvm;
        result.run().em3dIterations = options.em3dIterations;

        final List<Job> jobs = new ArrayList<>();
        for (int r = 1; r <= options.repeat; r++)
        {
            for (int a = 0; a < options.apps.size(); a++)
            {
                final SplitCApp app = options.apps.get(a);
                for (final MatrixConfig config : options.configs)
                {
                    final String notHosted = notHosted(app, specs.get(a), options.ranks, config);
                    for (final String poll : options.polls)
                    {
                        if (null != notHosted)
                        {
                            if (r == 1)
                            {
                                specs.get(a).forEach(spec -> result.cell(poll, config, spec.label())
                                    .notHosted(notHosted));
                            }
                            continue;
                        }
                        jobs.add(new Job(r, app, specs.get(a).stream().map(RunSpec::label).toList(), config, poll));
                    }
                }
            }
        }

        final Path work;
        try
        {
            work = null != options.keep ? Files.createDirectories(options.keep) :
                Files.createTempDirectory("am2j-apps-matrix-");
        }
        catch (final IOException ex)
        {
            err.println("am2j apps-matrix: cannot create a directory for the jobs' logs: " + ex);
            return BenchCommand.FAILURE_STATUS;
        }

        out.printf(Locale.ROOT, "am2j apps-matrix: preset %s, %s on %d cores, %d job(s) (%d application(s) x " +
            "%d configuration(s) x %d poll scheduler(s) x %d repeat(s)), at most %d s per job and %d s in all; logs " +
            "and reports in %s%n", options.preset, MatrixReport.rankCounts(result), cores, jobs.size(),
            options.apps.size(), options.configs.size(), options.polls.size(), options.repeat, options.timeoutSeconds,
            options.timeLimitSeconds, work);
        final boolean joinTimeoutSet = options.configs.stream().anyMatch(MatrixConfig::fixesRanks) &&
            joinTimeoutForPaperScale(options.timeoutSeconds);
        final String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        final long start = System.nanoTime();
        sampleLoad(result);
        try
        {
            int done = 0;
            for (final Job job : jobs)
            {
                if (stopped)
                {
                    err.println("am2j apps-matrix: stopped");
                    break;
                }
                done++;
                final long left = options.timeLimitSeconds - (System.nanoTime() - start) / 1_000_000_000L;
                if (left < MIN_JOB_SECONDS)
                {
                    final String why = String.format(Locale.ROOT, "not run: the matrix's time limit of %d s " +
                        "(--time-limit) was reached", options.timeLimitSeconds);
                    job.fail(result, why);
                    result.run().skippedJobs++;
                    err.printf(Locale.ROOT, "[%d/%d] %s, %s, poll %s, repeat %d: %s%n", done, jobs.size(),
                        job.app().name(), job.config().cliName(), job.poll(), job.repeat(), why);
                    continue;
                }
                runJob(options, result, job, work, done, jobs.size(), (int)Math.min(options.timeoutSeconds, left));
                sampleLoad(result);
            }
        }
        finally
        {
            if (joinTimeoutSet)
            {
                System.clearProperty(RendezvousConfig.JOIN_TIMEOUT_PROP);
            }
        }
        final double wall = (System.nanoTime() - start) / 1e9;
        result.run().java = System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + " (" +
            System.getProperty("java.home") + ")";
        result.run().started = started;
        result.run().wallSeconds = wall;

        try
        {
            final Path outDir = options.out.toAbsolutePath().getParent();
            final Path chart = options.chart.toAbsolutePath();
            final String chartRef = outDir.equals(chart.getParent()) ? chart.getFileName().toString() :
                outDir.relativize(chart).toString();
            MatrixChart.write(result, options.chart);
            Files.writeString(options.out, MatrixReport.markdown(result, chartRef), StandardCharsets.UTF_8);
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println("am2j apps-matrix: cannot write the results: " + ex);
            return BenchCommand.FAILURE_STATUS;
        }
        summary(result, options, wall);
        final boolean ok = result.allVerified() && !stopped;
        if (ok && null == options.keep)
        {
            IoUtil.delete(work.toFile(), true);
        }
        else if (!ok)
        {
            out.println("am2j apps-matrix: the jobs' logs and reports are kept in " + work);
        }
        return ok ? 0 : BenchCommand.FAILURE_STATUS;
    }

    private static String notHosted(
        final SplitCApp app,
        final List<RunSpec> runs,
        final int ranks,
        final MatrixConfig config)
    {
        try
        {
            for (final RunSpec spec : runs)
            {
                app.check(spec, ranks, config.nodes(ranks));
            }
            return null;
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage();
        }
    }

    /**
     * The command line of {@code am2j run} for one job: the configuration's placement ({@link
     * MatrixConfig#runOptions}), the poll scheduler when one was given, pinning, the time limit, the stall limit of
     * the Split-C layer, the class path, then the application with its preset, warm-ups, timed runs, JSON report and
     * the matrix's overrides of its parameters ({@link MatrixOptions#appOverrides}).
     *
     * @param options        the matrix's options.
     * @param config         the job's configuration.
     * @param app            the job's application.
     * @param poll           the job's poll scheduler.
     * @param json           where the job writes its report.
     * @param timeoutSeconds the job's time limit.
     * @param classPath      the class path of the ranks.
     * @return the arguments of {@code am2j run}, in order.
     */
    static List<String> jobArguments(
        final MatrixOptions options,
        final MatrixConfig config,
        final SplitCApp app,
        final String poll,
        final Path json,
        final int timeoutSeconds,
        final String classPath)
    {
        final List<String> args = new ArrayList<>(config.runOptions(options.ranks, options.ranksPerJvm));
        if (options.pollGiven)
        {
            args.add("--poll");
            args.add(poll);
        }
        if (options.pin)
        {
            args.add("--pin");
        }
        args.addAll(List.of("--timeout", Integer.toString(timeoutSeconds),
            "--jvm-opt", "-Dam2j.splitc.stallSeconds=" + Math.max(30, timeoutSeconds / 2),
            "--cp", classPath,
            "--", AppMain.class.getName(), app.name(), "--preset", options.preset,
            "--warmup", options.warmup.toString(), "--timed", Integer.toString(options.timed), "--json",
            json.toString()));
        args.addAll(options.appOverrides(app));
        return args;
    }

    private void runJob(
        final MatrixOptions options,
        final MatrixResult result,
        final Job job,
        final Path work,
        final int index,
        final int count,
        final int timeoutSeconds)
    {
        final int ranks = job.config().ranks(options.ranks);
        final int nodes = job.config().nodes(ranks);
        final Path json = work.resolve(job.name() + ".json");
        final Path log = work.resolve(job.name() + ".log");
        final List<String> args = jobArguments(options, job.config(), job.app(), job.poll(), json, timeoutSeconds,
            System.getProperty("java.class.path"));

        final long begin = System.nanoTime();
        int status;
        try (OutputStream file = Files.newOutputStream(log);
             PrintStream logStream = new PrintStream(file, true, StandardCharsets.UTF_8))
        {
            logStream.println("am2j run " + String.join(" ", args));
            final Am2Run launcher = new Am2Run(logStream, logStream);
            current = launcher;
            if (stopped)
            {
                launcher.shutdown();
            }
            status = launcher.run(args.toArray(new String[0]));
            current = null;
        }
        catch (final IOException ex)
        {
            err.println("am2j apps-matrix: " + log + ": " + ex);
            status = BenchCommand.FAILURE_STATUS;
        }
        final double wall = (System.nanoTime() - begin) / 1e9;

        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%d/%d] %s, %s (%d ranks on %d " +
            "node(s), %s), poll %s, repeat %d: ", index, count, job.app().name(), job.config().cliName(), ranks, nodes,
            job.config().transports(), job.poll(), job.repeat()));
        final String failure = collect(result, job, ranks, nodes, status, json, line);
        if (null != failure)
        {
            final String why = failure + " (log " + log + ")";
            job.fail(result, why);
            line.append("FAILED: ").append(why);
            err.println(line.append(String.format(Locale.ROOT, " [%.1f s wall]", wall)));
            for (final String tail : tail(log))
            {
                err.println("    " + tail);
            }
        }
        else
        {
            out.println(line.append(String.format(Locale.ROOT, " [%.1f s wall]", wall)));
        }
    }

    /**
     * Put a job's runs into their cells when they count.
     *
     * @return {@code null} when they were put in, else why not.
     */
    private static String collect(
        final MatrixResult result,
        final Job job,
        final int ranks,
        final int nodes,
        final int status,
        final Path json,
        final StringBuilder line)
    {
        if (0 != status)
        {
            return "the job exited with status " + status + (Am2Run.TIMEOUT_STATUS == status ? " (time limit)" : "");
        }
        final AppReport report;
        try
        {
            report = AppReport.parse(Files.readString(json, StandardCharsets.UTF_8));
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            return "no report: " + ex.getMessage();
        }
        if (!report.transports().equals(job.config().transportList()))
        {
            return "the ranks opened transports " + report.transports() + ", not " + job.config().transportList();
        }
        if (report.nodes() != nodes || report.ranks() != ranks)
        {
            return "the job ran " + report.ranks() + " ranks on " + report.nodes() + " nodes, not " + ranks + " on " +
                nodes;
        }
        final int ranksPerJvm = job.config().ranksPerJvm(ranks, result.run().ranksPerJvm);
        if (report.ranksPerJvm() != ranksPerJvm)
        {
            return "the job ran " + report.ranksPerJvm() + " ranks per JVM, not " + ranksPerJvm;
        }
        final String scheduler = job.poll().split(":", 2)[0];
        if (!report.poll().startsWith(scheduler))
        {
            return "the ranks polled with " + report.poll() + ", not " + job.poll();
        }
        final List<String> labels = job.labels().stream()
            .flatMap(label -> Collections.nCopies(result.timed(), label).stream()).toList();
        final List<String> got = report.runs().stream().map(AppRun::label).toList();
        if (!got.equals(labels))
        {
            return "the report's runs are " + got + ", not " + labels;
        }
        final List<String> notVerified = report.runs().stream().filter(run -> !run.verified()).map(AppRun::label)
            .toList();
        if (!report.verified() || !notVerified.isEmpty())
        {
            return "NOT VERIFIED: " + notVerified;
        }
        for (final AppRun run : report.runs())
        {
            result.cell(job.poll(), job.config(), run.label()).add(run);
            line.append(String.format(Locale.ROOT, "%s %.3f s, ", run.label(), run.totalSeconds()));
        }
        line.append("verified");
        return null;
    }

    private void summary(final MatrixResult result, final MatrixOptions options, final double wall)
    {
        out.printf(Locale.ROOT, "am2j apps-matrix: %s on %d cores, %.0f s wall (%.1f min)%n",
            MatrixReport.rankCounts(result), result.cores(), wall, wall / 60);
        out.println("median total s:  " + String.join("  ", result.configs().stream().map(MatrixConfig::cliName)
            .toList()) + "  | multi/shm-only");
        for (final String label : result.labels())
        {
            final StringBuilder row = new StringBuilder("  " + label + ":");
            for (final MatrixConfig config : result.configs())
            {
                row.append(' ').append(MatrixReport.seconds(result.cell(config, label).medianTotal()));
            }
            final List<MatrixConfig> pair = MatrixRatios.onePair(result);
            row.append("  | ").append(pair.isEmpty() ? "" : MatrixReport.ratio(MatrixRatios.configRatio(result, pair.get(0),
                pair.get(1), label)));
            out.println(row);
        }
        final Map<String, Double> perApp = MatrixRatios.perApplication(result, result.polls().get(0));
        if (!perApp.isEmpty())
        {
            final List<String> parts = new ArrayList<>();
            perApp.forEach((app, r) -> parts.add(app + " " + MatrixReport.ratio(r)));
            out.println("multi/shm-only per application: " + String.join(", ", parts));
        }
        out.println("am2j apps-matrix: wrote " + options.out + " and " + options.chart + (result.allVerified() ?
            "; every run verified" : "; NOT every run verified (see the Failures section)"));
    }

    /**
     * Let the launcher of this process wait longer for 32 ranks to join ({@link #PAPER_SCALE_JOIN_TIMEOUT_MS}, at
     * most the job's time limit) unless the user set the rendezvous's join timeout; the launcher reads it at the start
     * of each job.
     *
     * @return true when it set the property, which the caller clears after the jobs.
     */
    private boolean joinTimeoutForPaperScale(final int jobTimeoutSeconds)
    {
        if (!Settings.system().isSet(
            new Setting(RendezvousConfig.JOIN_TIMEOUT_PROP, RendezvousConfig.JOIN_TIMEOUT_VARIABLE)))
        {
            final long ms = Math.min(PAPER_SCALE_JOIN_TIMEOUT_MS, jobTimeoutSeconds * 1000L);
            System.setProperty(RendezvousConfig.JOIN_TIMEOUT_PROP, Long.toString(ms));
            out.println("am2j apps-matrix: the launcher waits up to " + ms / 1000 + " s for the ranks of a job to " +
                "join (-D" + RendezvousConfig.JOIN_TIMEOUT_PROP + ")");
            return true;
        }
        return false;
    }

    private static List<String> tail(final Path log)
    {
        try
        {
            final List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
        }
        catch (final IOException | RuntimeException ex)
        {
            return List.of("(no log: " + ex + ")");
        }
    }

    private static void sampleLoad(final MatrixResult result)
    {
        final MachineState state = MachineState.read();
        if (!Double.isNaN(state.load1()))
        {
            // without a load average (no /proc/loadavg) the report leaves it out
            result.run().loads.add(new double[] { state.load1(), state.load5(), state.load15() });
        }
    }
}
