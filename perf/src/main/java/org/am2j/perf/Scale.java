package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.am2j.launch.Am2Run;

/**
 * {@code am2j scale}: how the cost of am2j grows with ranks and peers, as Markdown and JSON: start-up time and
 * resident memory per rank of {@code am2j hello} at several rank counts ({@link ScaleHelloMain}); the cost of an
 * empty poll and the memory per peer with 1, 8, 32 mapped peers on each medium ({@link ScalePollMain}); round trips
 * per second of an all-to-all of short requests against two-rank floods ({@link ScaleFloodMain}). The hello jobs
 * and the all-to-all run once for each count of ranks per JVM asked for ({@code --ranks-per-jvm 1,8,32}) that
 * divides the ranks of every node; the report says which it did not run. Each job runs through the launcher in this
 * process, one after another, with its ranks per JVM given (so {@code AM2J_RANKS_PER_JVM} does not apply), and its
 * command goes into the report. {@value ScaleOptions#USAGE}
 */
public final class Scale
{
    private final PrintStream out;
    private final PrintStream err;

    Scale(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * @param args see {@link ScaleOptions#USAGE}.
     */
    public static void main(final String[] args)
    {
        System.exit(new Scale(System.out, System.err).run(args));
    }

    int run(final String[] args)
    {
        final ScaleOptions options = BenchCommand.parse("am2j scale", ScaleOptions::parse, args, ScaleOptions.USAGE,
            err);
        if (null == options)
        {
            return BenchCommand.USAGE_STATUS;
        }
        if (options.help)
        {
            out.print(ScaleOptions.HELP);
            return 0;
        }
        final ScaleReport report = new ScaleReport("bin/am2j scale " + String.join(" ", args),
            Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), Runtime.getRuntime().availableProcessors(),
            "Java " + System.getProperty("java.version"), MachineState.read());
        if (options.parts.contains("hello"))
        {
            for (final int ranks : options.helloRanks)
            {
                for (final int perJvm : options.ranksPerJvm)
                {
                    hello(options, report, ranks, perJvm);
                }
            }
        }
        if (options.parts.contains("poll"))
        {
            for (final String medium : options.media)
            {
                poll(options, report, medium);
            }
        }
        if (options.parts.contains("flood"))
        {
            flood(options, report, 2, 1, 1);
            flood(options, report, 2, 2, 1);
            for (final int perJvm : options.ranksPerJvm)
            {
                flood(options, report, options.floodRanks, Math.min(options.nodes, options.floodRanks), perJvm);
            }
        }
        report.after(MachineState.read());
        try
        {
            if (null != options.json)
            {
                Files.writeString(options.json, report.json());
                err.println("am2j scale: wrote " + options.json);
            }
            if (null != options.md)
            {
                Files.writeString(options.md, report.markdown());
                err.println("am2j scale: wrote " + options.md);
            }
            else
            {
                out.print(report.markdown());
            }
        }
        catch (final IOException ex)
        {
            err.println("am2j scale: " + ex);
            return 1;
        }
        return report.failures.isEmpty() ? 0 : 1;
    }

    /**
     * @param ranks  of a job, P.
     * @param nodes  of the job, N (at most P), which hold consecutive ranks, the first P mod N of them one more.
     * @param perJvm ranks per JVM, K.
     * @return why the launcher would refuse K, or {@code null} when K divides the ranks of every node.
     */
    static String indivisible(final int ranks, final int nodes, final int perJvm)
    {
        for (int node = 0; node < nodes; node++)
        {
            final int onNode = ranks / nodes + (node < ranks % nodes ? 1 : 0);
            if (onNode % perJvm != 0)
            {
                return "-n " + ranks + " --nodes " + nodes + " --ranks-per-jvm " + perJvm + ": " + perJvm +
                    " does not divide the " + onNode + " rank(s) of node " + node;
            }
        }
        return null;
    }

    /**
     * @return whether the job can run with that many ranks per JVM; when not, the report says why.
     */
    private boolean placeable(
        final ScaleReport report, final String what, final int ranks, final int nodes, final int perJvm)
    {
        final String problem = indivisible(ranks, nodes, perJvm);
        if (null != problem)
        {
            report.skipped.add(what + " " + problem);
            err.println("am2j scale: not run: " + what + " " + problem);
        }
        return null == problem;
    }

    private void hello(final ScaleOptions options, final ScaleReport report, final int ranks, final int perJvm)
    {
        final int nodes = Math.min(options.nodes, ranks);
        if (!placeable(report, "hello", ranks, nodes, perJvm))
        {
            return;
        }
        final Job job = runJob(options, ranks, nodes, perJvm, List.of(), ScaleHelloMain.class.getName());
        final List<ScaleLine.Hello> lines = job.lines("hello", ScaleLine.Hello.class, ranks, report);
        if (null == lines)
        {
            return;
        }
        final ScaleReport.Hello hello = new ScaleReport.Hello(ranks, nodes, perJvm, job.command, job.seconds, lines);
        if (hello.jvms() != ranks / perJvm)
        {
            // the memory per rank counts each JVM once, by its pid: lines from other JVMs than placed would skew it
            report.failures.add("`" + job.command + "` printed scale.hello lines from " + hello.jvms() +
                " JVM(s), not " + ranks / perJvm);
            return;
        }
        report.hellos.add(hello);
    }

    private void poll(final ScaleOptions options, final ScaleReport report, final String medium)
    {
        final int peers = options.pollPeers[options.pollPeers.length - 1];
        final String counts = Arrays.stream(options.pollPeers).mapToObj(Integer::toString)
            .collect(Collectors.joining(","));
        final Job job = runJob(options, peers + 1, 1, 1, List.of("-Dam2j.transports=inproc," + medium),
            ScalePollMain.class.getName(), medium, counts, Integer.toString(options.polls),
            Integer.toString(options.timeoutSeconds));
        final List<ScaleLine.Poll> lines = job.lines("poll", ScaleLine.Poll.class, options.pollPeers.length, report);
        if (null != lines)
        {
            report.polls.add(new ScaleReport.Poll(medium, job.command, lines));
        }
    }

    private void flood(
        final ScaleOptions options, final ScaleReport report, final int ranks, final int nodes, final int perJvm)
    {
        if (!placeable(report, "all-to-all", ranks, nodes, perJvm))
        {
            return;
        }
        final Job job = runJob(options, ranks, nodes, perJvm, List.of(), ScaleFloodMain.class.getName(),
            Long.toString(options.messages), Integer.toString(options.window),
            Integer.toString(options.timeoutSeconds));
        final List<ScaleLine.Flood> lines = job.lines("flood", ScaleLine.Flood.class, ranks, report);
        if (null != lines)
        {
            report.floods.add(new ScaleReport.Flood(ranks, nodes, perJvm, job.command, lines));
        }
    }

    /** A finished job: its command (as a user would type it), status, output and wall time. */
    private record Job(String command, int status, String output, String errors, double seconds)
    {
        /**
         * @return the job's measurement lines of the kind, or {@code null} after recording in the report why
         * there are none.
         */
        <T> List<T> lines(final String kind, final Class<T> type, final int expected, final ScaleReport report)
        {
            String problem = null;
            List<T> lines = null;
            if (0 != status)
            {
                problem = "exited with status " + status + (Am2Run.TIMEOUT_STATUS == status ? " (time limit)" : "");
            }
            else
            {
                try
                {
                    lines = ScaleLine.parseAll(output, kind, type);
                    if (lines.size() != expected)
                    {
                        problem = "printed " + lines.size() + " scale." + kind + " lines, not " + expected;
                    }
                }
                catch (final IllegalArgumentException ex)
                {
                    problem = ex.getMessage();
                }
            }
            if (null == problem)
            {
                return lines;
            }
            final List<String> tail = errors.lines().toList();
            report.failures.add("`" + command + "` " + problem + (tail.isEmpty() ? "" : ": " +
                String.join(" / ", tail.subList(Math.max(0, tail.size() - 3), tail.size()))));
            return null;
        }
    }

    private Job runJob(
        final ScaleOptions options, final int ranks, final int nodes, final int perJvm, final List<String> jvmOptions,
        final String mainClass, final String... args)
    {
        final List<String> shown = new ArrayList<>(List.of("-n", Integer.toString(ranks), "--nodes",
            Integer.toString(nodes), "--ranks-per-jvm", Integer.toString(perJvm), "--timeout",
            Integer.toString(options.timeoutSeconds)));
        jvmOptions.forEach(option -> shown.addAll(List.of("--jvm-opt", option)));
        final List<String> command = new ArrayList<>(shown);
        command.addAll(List.of("--cp", System.getProperty("java.class.path"), "--", mainClass));
        command.addAll(List.of(args));
        shown.addAll(List.of("--", mainClass));
        shown.addAll(List.of(args));
        final String text = "bin/am2j run " + String.join(" ", shown);
        err.println("am2j scale: " + text);
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final long begin = System.nanoTime();
        final int status;
        try (PrintStream jobOut = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
             PrintStream jobErr = new PrintStream(errBytes, true, StandardCharsets.UTF_8))
        {
            status = new Am2Run(jobOut, jobErr).run(command.toArray(new String[0]));
        }
        final double seconds = (System.nanoTime() - begin) / 1e9;
        err.printf(java.util.Locale.ROOT, "am2j scale:   status %d in %.1f s%n", status, seconds);
        return new Job(text, status, outBytes.toString(StandardCharsets.UTF_8),
            errBytes.toString(StandardCharsets.UTF_8), seconds);
    }
}
