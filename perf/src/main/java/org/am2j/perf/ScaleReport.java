package org.am2j.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.LongStream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.am2j.splitc.app.ReportJson;

/**
 * The results of {@code am2j scale} and their Markdown and JSON forms: each figure next to the command of the job
 * that made it, and the machine's state (CPUs, load, clock) before and after.
 */
final class ScaleReport
{
    /**
     * One {@code am2j hello} job: a line per rank, {@code ranksPerJvm} ranks in each JVM. The memory figures of a
     * line are its JVM's: the medians and maxima are over the ranks, the sums per rank over the JVMs.
     */
    record Hello(int ranks, int nodes, int ranksPerJvm, String command, double wallSeconds,
        List<ScaleLine.Hello> lines)
    {
        double startupMs(final boolean max)
        {
            return stat(lines.stream().mapToLong(ScaleLine.Hello::startupMs), max);
        }

        double rssKb(final boolean max)
        {
            return stat(lines.stream().mapToLong(ScaleLine.Hello::rssKb), max);
        }

        double hwmKb(final boolean max)
        {
            return stat(lines.stream().mapToLong(ScaleLine.Hello::hwmKb), max);
        }

        /**
         * @return the JVMs the lines came from (distinct pids).
         */
        int jvms()
        {
            return (int)lines.stream().mapToLong(ScaleLine.Hello::pid).distinct().count();
        }

        /**
         * The memory of the job per rank: the proportional set size of each of its JVMs, counted once however many
         * of its ranks read it (the largest reading, the last of them, as its ranks end hello one after another),
         * summed over the JVMs and divided by the ranks.
         *
         * @return KiB per rank, or NaN when a JVM's PSS is unknown.
         */
        double pssKbPerRank()
        {
            final Map<Long, Long> byJvm = new HashMap<>();
            for (final ScaleLine.Hello line : lines)
            {
                byJvm.merge(line.pid(), line.pssKb(), Math::max);
            }
            long sum = 0;
            for (final long pss : byJvm.values())
            {
                if (pss < 0)
                {
                    return Double.NaN;
                }
                sum += pss;
            }
            return byJvm.isEmpty() ? Double.NaN : (double)sum / ranks;
        }
    }

    /** One poll job of one medium: a line per peer count. */
    record Poll(String medium, String command, List<ScaleLine.Poll> lines)
    {
        /**
         * @param bytes of a point: heap, direct or mapped buffers, or their sum.
         * @return those bytes per added peer, from the fewest to the most peers; NaN with fewer than two counts.
         */
        double bytesPerPeer(final ToLongFunction<ScaleLine.Poll> bytes)
        {
            if (lines.size() < 2)
            {
                return Double.NaN;
            }
            final ScaleLine.Poll first = lines.get(0);
            final ScaleLine.Poll last = lines.get(lines.size() - 1);
            return (double)(bytes.applyAsLong(last) - bytes.applyAsLong(first)) / (last.peers() - first.peers());
        }

        double allBytesPerPeer()
        {
            return bytesPerPeer(point -> point.heapB() + point.directB() + point.mappedB());
        }
    }

    /** One flood job: a line per rank, {@code ranksPerJvm} ranks in each JVM. */
    record Flood(int ranks, int nodes, int ranksPerJvm, String command, List<ScaleLine.Flood> lines)
    {
        long roundTrips()
        {
            return lines.stream().mapToLong(ScaleLine.Flood::roundTrips).sum();
        }

        double seconds()
        {
            return lines.stream().mapToDouble(ScaleLine.Flood::seconds).max().orElse(Double.NaN);
        }

        double perSecond()
        {
            return roundTrips() / seconds();
        }
    }

    private final String commandLine;
    private final String date;
    private final int cpus;
    private final String java;
    private final MachineState before;
    private MachineState after;
    final List<Hello> hellos = new ArrayList<>();
    final List<Poll> polls = new ArrayList<>();
    final List<Flood> floods = new ArrayList<>();
    final List<String> failures = new ArrayList<>();
    /** Jobs not run, and why (a ranks-per-JVM count that does not divide the ranks of every node). */
    final List<String> skipped = new ArrayList<>();

    ScaleReport(final String commandLine, final String date, final int cpus, final String java,
        final MachineState before)
    {
        this.commandLine = commandLine;
        this.date = date;
        this.cpus = cpus;
        this.java = java;
        this.before = before;
        this.after = before;
    }

    void after(final MachineState state)
    {
        this.after = state;
    }

    static double stat(final LongStream known, final boolean max)
    {
        final double[] values = known.filter(v -> v >= 0).asDoubleStream().toArray();
        return max ? Arrays.stream(values).max().orElse(Double.NaN) : Medians.of(values);
    }

    private static String f(final String format, final double value)
    {
        return Markdown.number(format, value, "n/a");
    }

    /**
     * @return the report in Markdown.
     */
    String markdown()
    {
        final StringBuilder md = new StringBuilder();
        md.append("# How cost grows with ranks and peers\n\n");
        md.append("Made by `").append(commandLine).append("` on ").append(date).append(": ").append(cpus)
            .append(" CPUs, ").append(java).append(", load average ")
            .append(f("%.2f", before.load1())).append(" before and ").append(f("%.2f", after.load1()))
            .append(" after (1 min), CPU clock ").append(f("%.0f", before.cpuMhz())).append(" MHz.")
            .append(" Each job ran through the launcher (`am2j run`); its command is given with its figures.\n");
        if (!hellos.isEmpty())
        {
            md.append("\n## Start-up and resident memory of `am2j hello`\n\n");
            md.append("Per rank: time from the JVM's start to the end of hello (all-gather of endpoint names, ")
                .append("barrier, close); resident memory of the rank's JVM at that point and at its peak (`VmRSS`, ")
                .append("`VmHWM`), which a JVM of several ranks (`--ranks-per-jvm`) holds for all of them; and the ")
                .append("memory per rank: the proportional set size (`Pss` of `/proc/PID/smaps_rollup`, shared pages ")
                .append("counted in parts) of each of the job's JVMs, summed and divided by the ranks.\n\n");
            md.append("| ranks | nodes | ranks per JVM | job wall s | start-up ms median | max | RSS MiB median | max | " +
                "peak RSS MiB median | max | PSS MiB per rank |\n");
            md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (final Hello h : hellos)
            {
                Markdown.row(md, h.ranks(), h.nodes(), h.ranksPerJvm(), f("%.1f", h.wallSeconds()),
                    f("%.0f", h.startupMs(false)), f("%.0f", h.startupMs(true)), f("%.1f", h.rssKb(false) / 1024),
                    f("%.1f", h.rssKb(true) / 1024), f("%.1f", h.hwmKb(false) / 1024), f("%.1f", h.hwmKb(true) / 1024),
                    f("%.1f", h.pssKbPerRank() / 1024));
            }
            md.append('\n');
            for (final Hello h : hellos)
            {
                md.append("- ").append(h.ranks()).append(" ranks, ").append(h.ranksPerJvm()).append(" per JVM: `")
                    .append(h.command()).append("`\n");
            }
        }
        if (!polls.isEmpty())
        {
            md.append("\n## Cost of an empty poll, and memory per peer\n\n");
            md.append("Rank 0 maps peers one after another (a request and its reply each, so every transport has ")
                .append("set up what it keeps per peer), then times polls that find nothing: median and fastest ")
                .append("of five timings. Memory after a collection: heap, direct buffers, mapped files.\n\n");
            md.append("| medium | mapped peers | ns per empty poll | fastest | heap KiB | direct KiB | mapped KiB |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|\n");
            for (final Poll p : polls)
            {
                for (final ScaleLine.Poll l : p.lines())
                {
                    Markdown.row(md, p.medium(), l.peers(), f("%.1f", l.nsPerPoll()), f("%.1f", l.nsPerPollMin()),
                        f("%.0f", l.heapB() / 1024.0), f("%.0f", l.directB() / 1024.0), f("%.0f", l.mappedB() / 1024.0));
                }
            }
            md.append("\n| medium | bytes per peer: heap | direct | mapped | all |\n|---|---:|---:|---:|---:|\n");
            for (final Poll p : polls)
            {
                Markdown.row(md, p.medium(), f("%.0f", p.bytesPerPeer(ScaleLine.Poll::heapB)),
                    f("%.0f", p.bytesPerPeer(ScaleLine.Poll::directB)), f("%.0f", p.bytesPerPeer(ScaleLine.Poll::mappedB)),
                    f("%.0f", p.allBytesPerPeer()));
            }
            md.append("\nOn the network the growth is the memory per peer of the process's NIC (one NIC per process), ")
                .append("with what the endpoint keeps per mapped peer in the heap figure.\n\n");
            for (final Poll p : polls)
            {
                md.append("- ").append(p.medium()).append(": `").append(p.command()).append("`\n");
            }
        }
        if (!floods.isEmpty())
        {
            md.append("\n## Short requests: all-to-all against a two-rank flood\n\n");
            md.append("Every rank sends the same number of short requests to every other rank in turn, a window ")
                .append("of them waiting for replies, and serves the others'; round trips of the whole job per ")
                .append("second of its slowest rank.\n\n");
            md.append("| ranks | nodes | ranks per JVM | round trips | s (slowest rank) | round trips/s | per rank/s |\n");
            md.append("|---:|---:|---:|---:|---:|---:|---:|\n");
            for (final Flood fl : floods)
            {
                Markdown.row(md, fl.ranks(), fl.nodes(), fl.ranksPerJvm(), fl.roundTrips(), f("%.3f", fl.seconds()),
                    f("%.0f", fl.perSecond()), f("%.0f", fl.perSecond() / fl.ranks()));
            }
            md.append('\n');
            for (final Flood fl : floods)
            {
                md.append("- ").append(fl.ranks()).append(" ranks on ").append(fl.nodes()).append(" node(s), ")
                    .append(fl.ranksPerJvm()).append(" per JVM: `").append(fl.command()).append("`\n");
            }
        }
        if (!skipped.isEmpty())
        {
            md.append("\n## Jobs not run\n\n");
            skipped.forEach(skip -> md.append("- ").append(skip).append('\n'));
        }
        if (!failures.isEmpty())
        {
            md.append("\n## Failed jobs\n\n");
            failures.forEach(failure -> md.append("- ").append(failure).append('\n'));
        }
        return md.toString();
    }

    /**
     * @return the report as a JSON object.
     */
    String json()
    {
        final ObjectNode json = ReportJson.object();
        json.put("command", commandLine).put("date", date).put("cpus", cpus).put("java", java);
        json.set("machine_before", Results.MAPPER.valueToTree(before));
        json.set("machine_after", Results.MAPPER.valueToTree(after));
        final ArrayNode hello = json.putArray("hello");
        for (final Hello h : hellos)
        {
            hello.addObject().put("ranks", h.ranks()).put("nodes", h.nodes()).put("ranks_per_jvm", h.ranksPerJvm())
                .put("jvms", h.jvms()).put("command", h.command()).put("job_wall_s", h.wallSeconds())
                .put("startup_ms_median", h.startupMs(false)).put("startup_ms_max", h.startupMs(true))
                .put("rss_kb_median", h.rssKb(false)).put("rss_kb_max", h.rssKb(true))
                .put("hwm_kb_median", h.hwmKb(false)).put("hwm_kb_max", h.hwmKb(true))
                .put("pss_kb_per_rank", h.pssKbPerRank());
        }
        final ArrayNode poll = json.putArray("poll");
        for (final Poll p : polls)
        {
            poll.addObject().put("medium", p.medium()).put("command", p.command())
                .put("bytes_per_peer", p.allBytesPerPeer())
                .put("heap_bytes_per_peer", p.bytesPerPeer(ScaleLine.Poll::heapB))
                .put("direct_bytes_per_peer", p.bytesPerPeer(ScaleLine.Poll::directB))
                .put("mapped_bytes_per_peer", p.bytesPerPeer(ScaleLine.Poll::mappedB))
                .set("points", Results.MAPPER.valueToTree(p.lines()));
        }
        final ArrayNode flood = json.putArray("flood");
        for (final Flood fl : floods)
        {
            flood.addObject().put("ranks", fl.ranks()).put("nodes", fl.nodes()).put("ranks_per_jvm", fl.ranksPerJvm())
                .put("command", fl.command()).put("round_trips", fl.roundTrips())
                .put("seconds", fl.seconds()).put("round_trips_per_s", fl.perSecond());
        }
        skipped.forEach(json.putArray("skipped")::add);
        failures.forEach(json.putArray("failures")::add);
        return ReportJson.write(json);
    }
}
