package org.am2j.splitc.app;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.am2j.api.Am;
import org.am2j.spi.RankScope;
import org.am2j.splitc.SplitC;
import org.am2j.splitc.SplitCOptions;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * The rank program of {@code bin/am2j app}, run by the launcher on every rank:
 * {@code AppMain APP [--preset NAME] [--warmup W] [--timed K] [--json FILE] [--PARAM VALUE]...} ({@link AppArgs}).
 * <p>
 * For each run of the preset it sets up a fresh {@link SplitC} with the segment the run needs, runs the application
 * on every rank (its warm-ups, then K timed runs) and, on rank 0, prints the progress lines, then the report of the
 * timed run of median total ({@link RunReport#print}); with {@code --json} rank 0 writes every timed run's report to
 * FILE, spec by spec, with {@code total_s} the sum of each spec's median, the ranks per JVM and the pids of the job's
 * rank JVMs. Exit status: 0 when every run was verified, 1 when one was not or a rank failed (the launcher then stops
 * the job), 2 for bad options; a rank of a JVM that holds several ({@code --ranks-per-jvm K}) returns instead of
 * exiting with 0, and fails with {@link RankFailed} instead of another status ({@link #main}).
 */
public final class AppMain
{
    /** Exit status of a run whose result was not verified, or of a failure. */
    public static final int FAILED = 1;
    /** Exit status of bad options. */
    public static final int USAGE = 2;

    /** Where the progress lines of warm-up runs go. */
    private static final PrintStream DISCARD = new PrintStream(OutputStream.nullOutputStream());

    private AppMain()
    {
    }

    /**
     * Run this rank and end it: in a JVM of its own, exit with the status; in a JVM that holds several ranks as
     * threads ({@code --ranks-per-jvm K}, the calling thread bound to a {@link RankScope}), return when every run was
     * verified, so that the JVM's other ranks go on, and otherwise throw {@link RankFailed}, which the JVM reports
     * naming this rank before it stops its ranks and the launcher the job.
     *
     * @param args the application's options ({@link AppArgs}).
     */
    public static void main(final String[] args)
    {
        final RankScope scope = RankScope.current();
        int status;
        try (Job job = Spmd.init())
        {
            status = run(job, args, System.out);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("am2j app: " + ex.getMessage());
            status = USAGE;
        }
        catch (final Throwable t)
        {
            System.out.flush();
            System.err.println("am2j app: rank failed: " + t);
            t.printStackTrace();
            status = FAILED;
        }
        System.out.flush();
        System.err.flush();
        if (null == scope)
        {
            System.exit(status);
        }
        else if (0 != status)
        {
            throw new RankFailed(scope.rank(), status);
        }
    }

    /**
     * A rank of a JVM that holds several ended with a non-zero status, which it cannot exit with without ending its
     * sibling ranks' work. Its message is all there is to say (what went wrong was printed before): no stack trace.
     */
    static final class RankFailed extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        /**
         * @param rank   that failed.
         * @param status it would have exited with in a JVM of its own.
         */
        RankFailed(final int rank, final int status)
        {
            super("am2j app: rank " + rank + " ended with status " + status + (USAGE == status ? " (bad options)" :
                " (a run was not verified, or the rank failed)"), null, false, false);
        }
    }

    /**
     * One run of a spec, on a Split-C runtime of its own.
     *
     * @param warmups  warm-up runs before this one, or -1 for a warm-up run itself.
     * @param timedRun which timed run of the spec this is, from 1; 0 for a warm-up run.
     * @return its report, with {@link #activity} in it.
     */
    private static RunReport runOnce(final Job job, final SplitCApp app, final RunSpec spec, final PhaseClock clock,
        final int warmups, final int timedRun)
    {
        // The compilations the previous run queued finish before this one starts (with this rank asleep), not in it.
        final long settleMillis = JitClock.settle();
        final SplitC sc = SplitC.init(job, new SplitCOptions().segmentBytes(app.segmentBytes(spec, job.size())));
        try
        {
            final long jitBefore = JitClock.millis();
            final ThreadCpu threadsBefore = ThreadCpu.now();
            final long start = System.nanoTime();
            final RunReport report = app.run(sc, spec, clock)
                .withActivity(activity(sc, jitBefore, threadsBefore, start, warmups, timedRun, settleMillis));
            sc.finish();
            return report;
        }
        finally
        {
            sc.close();
        }
    }

    /**
     * A collective after a run: what the ranks did besides the application, each the largest over the ranks (the
     * same values on every rank).
     *
     * @param warmups       warm-up runs before this one, or -1 for a warm-up run itself.
     * @param threadsBefore the other threads' CPU times when the run started.
     * @param timedRun      which timed run of the spec this is, from 1; 0 for a warm-up run.
     * @param settleMillis  how long this rank let the compilers finish before the run ({@link JitClock#settle}).
     */
    private static Map<String, Object> activity(final SplitC sc, final long jitBefore, final ThreadCpu threadsBefore,
        final long start, final int warmups, final int timedRun, final long settleMillis)
    {
        final long jitAfter = JitClock.millis();
        final ThreadCpu threadsAfter = ThreadCpu.now();
        final long runMillis = sc.allReduceMax((System.nanoTime() - start) / 1_000_000L);
        final long jitMillis = sc.allReduceMax(jitBefore < 0 || jitAfter < 0 ? -1 : jitAfter - jitBefore);
        final Map<String, Object> activity = new LinkedHashMap<>();
        if (warmups >= 0)
        {
            activity.put("warmup_runs", warmups);
        }
        if (timedRun > 0)
        {
            activity.put("timed_run", timedRun);
        }
        activity.put("run_ms_max", runMillis);
        activity.put("jit_ms_max", jitMillis);
        activity.put("jit_quiet", Warmup.quiet(jitMillis, runMillis));
        // CPU time, not the JIT's own elapsed count: what the compilers and the other threads (collector, keeper)
        // took from the CPUs during the run.
        activity.put("jit_cpu_ms_max", sc.allReduceMax(threadsAfter.compilerMillisSince(threadsBefore)));
        activity.put("other_threads_cpu_ms_max", sc.allReduceMax(threadsAfter.otherMillisSince(threadsBefore)));
        activity.put("jit_settle_ms_max", sc.allReduceMax(settleMillis));
        activity.put("sleeps_max", sc.allReduceMax(sc.sleeps()));
        activity.put("sleep_timeouts_max", sc.allReduceMax(sc.sleepTimeouts()));
        return activity;
    }

    /**
     * @param reports the timed runs of one spec, at least one.
     * @return the one whose total is the median: the lower middle one of an even number.
     */
    static RunReport medianReport(final List<RunReport> reports)
    {
        final List<RunReport> sorted = new ArrayList<>(reports);
        sorted.sort(Comparator.comparingDouble(RunReport::totalSeconds));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /**
     * Run every run of the options on this rank.
     *
     * @param job  this rank's job.
     * @param args the application's options.
     * @param out  where rank 0 prints.
     * @return the exit status.
     * @throws IOException when the JSON report cannot be written.
     */
    public static int run(final Job job, final String[] args, final PrintStream out) throws IOException
    {
        final AppArgs options = AppArgs.parse(Arrays.asList(args));
        final SplitCApp app = options.app();
        final List<RunSpec> runs = options.runs();
        for (final RunSpec spec : runs)
        {
            app.check(spec, job.size(), job.nodes());
        }
        final boolean root = job.rank() == 0;
        final String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        if (root)
        {
            out.println("am2j app " + app.name() + " --preset " + options.preset() + ": " + runs.size() + " run(s) on " +
                job.size() + " rank(s), " + job.nodes() + " node(s); poll " + Am.pollScheduler() + ", transports " +
                Am.transports());
        }
        final List<RunReport> reports = new ArrayList<>();
        double medianTotal = 0;
        boolean verified = true;
        for (final RunSpec spec : runs)
        {
            if (root)
            {
                out.println(app.name() + ": " + spec);
            }
            final Warmup warmup = options.warmup();
            int warmups = 0;
            boolean quiet = false;
            while (!warmup.finished(warmups, quiet))
            {
                // The same progress lines as the timed run, into a discarding stream: formatting them is code the
                // timed run runs too (on rank 0), and a warm-up that skipped it left it to compile while timed.
                final RunReport warm = runOnce(job, app, spec,
                    new PhaseClock(DISCARD, app.name() + ": " + spec.label(), root), -1, 0);
                verified &= warm.verified();
                warmups++;
                quiet = Boolean.TRUE.equals(warm.activity().get("jit_quiet"));
                if (root)
                {
                    out.println(app.name() + ": " + spec.label() + ": warm-up run " + warmups +
                        (warmup.auto() ? " (until the JIT is quiet, at most " : " of ") + warmup.runs() +
                        (warmup.auto() ? ")" : "") + (warm.verified() ? " verified" : " NOT VERIFIED") + "; JIT " +
                        warm.activity().get("jit_ms_max") + " ms in " + warm.activity().get("run_ms_max") + " ms");
                }
            }
            final int timed = options.timed();
            final List<RunReport> timedReports = timedRuns(job, app, spec, warmups, timed, out);
            verified &= timedReports.stream().allMatch(RunReport::verified);
            reports.addAll(timedReports);
            final RunReport median = medianReport(timedReports);
            medianTotal += median.totalSeconds();
            if (root)
            {
                if (timed > 1)
                {
                    out.println(app.name() + ": " + spec.label() + ": the timed run of median total:");
                }
                median.print(out);
            }
        }
        // every rank takes part, as every rank has the same options
        final RankJvms jvms = null != options.json() ? RankJvms.gather(job) : null;
        if (root && null != jvms)
        {
            writeJson(job, jvms, options, args, started, verified, medianTotal, reports);
            out.println("am2j app: wrote " + options.json());
        }
        if (root)
        {
            out.println("am2j app " + app.name() + ": " + (verified ? "all runs verified" : "NOT VERIFIED"));
        }
        return verified ? 0 : FAILED;
    }

    /**
     * The timed runs of a spec, after its warm-ups; rank 0 prints the time of each when there are several.
     */
    private static List<RunReport> timedRuns(final Job job, final SplitCApp app, final RunSpec spec, final int warmups,
        final int timed, final PrintStream out)
    {
        final boolean root = job.rank() == 0;
        final List<RunReport> reports = new ArrayList<>();
        for (int t = 1; t <= timed; t++)
        {
            final RunReport report = runOnce(job, app, spec,
                new PhaseClock(out, app.name() + ": " + spec.label(), root), warmups, t);
            reports.add(report);
            if (root && timed > 1)
            {
                out.printf(Locale.ROOT, "%s: %s: timed run %d of %d: %.3f s%s%n", app.name(), spec.label(), t,
                    timed, report.totalSeconds(), report.verified() ? ", verified" : ", NOT VERIFIED");
            }
        }
        return reports;
    }

    /** Write the JSON report of every timed run (rank 0). */
    private static void writeJson(final Job job, final RankJvms jvms, final AppArgs options, final String[] args,
        final String started, final boolean verified, final double medianTotal, final List<RunReport> reports)
        throws IOException
    {
        final Map<String, Object> json = new LinkedHashMap<>();
        json.put("app", options.app().name());
        json.put("preset", options.preset());
        json.put("warmup", options.warmup().auto() ? options.warmup().toString() : options.warmup().runs());
        json.put("arguments", Arrays.asList(args));
        json.put("ranks", job.size());
        json.put("nodes", job.nodes());
        json.put("ranks_per_jvm", jvms.ranksPerJvm());
        json.put("jvm_pids", jvms.pids());
        json.put("poll", Am.pollScheduler());
        json.put("transports", Am.transports());
        json.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        json.put("cpus", Runtime.getRuntime().availableProcessors());
        json.put("started", started);
        json.put("timed", options.timed());
        json.put("verified", verified);
        json.put("total_s", medianTotal);
        json.put("runs", reports.stream().map(RunReport::toJson).toList());
        Files.writeString(options.json(), ReportJson.write(json), StandardCharsets.UTF_8);
    }
}
