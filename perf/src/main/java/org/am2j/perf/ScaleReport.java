package org.am2j.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The results of {@code am2j scale} and their Markdown and JSON forms: each figure next to the command of the job
 * that made it, and the machine's state (CPUs, load, clock) before and after.
 */
final class ScaleReport
{
    /** One {@code am2j hello} job: a line per rank. */
    record Hello(int ranks, int nodes, String command, double wallSeconds, List<ScaleLine> lines)
    {
        double startupMs(final boolean max)
        {
            return stat(lines, "startup_ms", max);
        }

        double rssKb(final boolean max)
        {
            return stat(lines, "rss_kb", max);
        }

        double hwmKb(final boolean max)
        {
            return stat(lines, "hwm_kb", max);
        }
    }

    /** One poll job of one medium: a line per peer count. */
    record Poll(String medium, String command, List<ScaleLine> lines)
    {
        /**
         * @return bytes per added peer of heap + direct + mapped buffers, from the fewest to the most peers; NaN
         * with fewer than two counts.
         */
        double bytesPerPeer(final String... keys)
        {
            if (lines.size() < 2)
            {
                return Double.NaN;
            }
            final ScaleLine first = lines.get(0);
            final ScaleLine last = lines.get(lines.size() - 1);
            long delta = 0;
            for (final String key : keys)
            {
                delta += last.longValue(key) - first.longValue(key);
            }
            return (double)delta / (last.longValue("peers") - first.longValue("peers"));
        }
    }

    /** One flood job: a line per rank. */
    record Flood(int ranks, int nodes, String command, List<ScaleLine> lines)
    {
        long roundTrips()
        {
            return lines.stream().mapToLong(l -> l.longValue("round_trips")).sum();
        }

        double seconds()
        {
            return lines.stream().mapToDouble(l -> l.doubleValue("seconds")).max().orElse(Double.NaN);
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

    static double stat(final List<ScaleLine> lines, final String key, final boolean max)
    {
        final double[] values = lines.stream().mapToDouble(l -> l.doubleValue(key)).filter(v -> v >= 0).sorted()
            .toArray();
        if (0 == values.length)
        {
            return Double.NaN;
        }
        if (max)
        {
            return values[values.length - 1];
        }
        final int mid = values.length / 2;
        return 0 == values.length % 2 ? (values[mid - 1] + values[mid]) / 2 : values[mid];
    }

    private static String f(final String format, final double value)
    {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, format, value);
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
                .append("barrier, close); resident memory at that point and at its peak (`VmRSS`, `VmHWM`).\n\n");
            md.append("| ranks | nodes | job wall s | start-up ms median | max | RSS MiB median | max | " +
                "peak RSS MiB median | max |\n");
            md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (final Hello h : hellos)
            {
                md.append("| ").append(h.ranks()).append(" | ").append(h.nodes()).append(" | ")
                    .append(f("%.1f", h.wallSeconds())).append(" | ")
                    .append(f("%.0f", h.startupMs(false))).append(" | ").append(f("%.0f", h.startupMs(true)))
                    .append(" | ").append(f("%.1f", h.rssKb(false) / 1024)).append(" | ")
                    .append(f("%.1f", h.rssKb(true) / 1024)).append(" | ")
                    .append(f("%.1f", h.hwmKb(false) / 1024)).append(" | ")
                    .append(f("%.1f", h.hwmKb(true) / 1024)).append(" |\n");
            }
            md.append('\n');
            for (final Hello h : hellos)
            {
                md.append("- ").append(h.ranks()).append(" ranks: `").append(h.command()).append("`\n");
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
                for (final ScaleLine l : p.lines())
                {
                    md.append("| ").append(p.medium()).append(" | ").append(l.longValue("peers")).append(" | ")
                        .append(f("%.1f", l.doubleValue("ns_per_poll"))).append(" | ")
                        .append(f("%.1f", l.doubleValue("ns_per_poll_min"))).append(" | ")
                        .append(f("%.0f", l.longValue("heap_b") / 1024.0)).append(" | ")
                        .append(f("%.0f", l.longValue("direct_b") / 1024.0)).append(" | ")
                        .append(f("%.0f", l.longValue("mapped_b") / 1024.0)).append(" |\n");
                }
            }
            md.append("\n| medium | bytes per peer: heap | direct | mapped | all |\n|---|---:|---:|---:|---:|\n");
            for (final Poll p : polls)
            {
                md.append("| ").append(p.medium()).append(" | ").append(f("%.0f", p.bytesPerPeer("heap_b")))
                    .append(" | ").append(f("%.0f", p.bytesPerPeer("direct_b"))).append(" | ")
                    .append(f("%.0f", p.bytesPerPeer("mapped_b"))).append(" | ")
                    .append(f("%.0f", p.bytesPerPeer("heap_b", "direct_b", "mapped_b"))).append(" |\n");
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
            md.append("| ranks | nodes | round trips | s (slowest rank) | round trips/s | per rank/s |\n");
            md.append("|---:|---:|---:|---:|---:|---:|\n");
            for (final Flood fl : floods)
            {
                md.append("| ").append(fl.ranks()).append(" | ").append(fl.nodes()).append(" | ")
                    .append(fl.roundTrips()).append(" | ").append(f("%.3f", fl.seconds())).append(" | ")
                    .append(f("%.0f", fl.perSecond())).append(" | ")
                    .append(f("%.0f", fl.perSecond() / fl.ranks())).append(" |\n");
            }
            md.append('\n');
            for (final Flood fl : floods)
            {
                md.append("- ").append(fl.ranks()).append(" ranks on ").append(fl.nodes()).append(" node(s): `")
                    .append(fl.command()).append("`\n");
            }
        }
        if (!failures.isEmpty())
        {
            md.append("\n## Failed jobs\n\n");
            for (final String failure : failures)
            {
                md.append("- ").append(failure).append('\n');
            }
        }
        return md.toString();
    }

    /**
     * @return the report as a JSON object.
     */
    String json()
    {
        final StringBuilder text = new StringBuilder();
        final JsonWriter json = new JsonWriter(text);
        json.beginObject();
        json.name("command").value(commandLine);
        json.name("date").value(date);
        json.name("cpus").value(cpus);
        json.name("java").value(java);
        machine(json, "machine_before", before);
        machine(json, "machine_after", after);
        json.name("hello").beginArray();
        for (final Hello h : hellos)
        {
            json.beginObject().name("ranks").value(h.ranks()).name("nodes").value(h.nodes())
                .name("command").value(h.command()).name("job_wall_s").value(h.wallSeconds())
                .name("startup_ms_median").value(h.startupMs(false)).name("startup_ms_max").value(h.startupMs(true))
                .name("rss_kb_median").value(h.rssKb(false)).name("rss_kb_max").value(h.rssKb(true))
                .name("hwm_kb_median").value(h.hwmKb(false)).name("hwm_kb_max").value(h.hwmKb(true))
                .endObject();
        }
        json.endArray();
        json.name("poll").beginArray();
        for (final Poll p : polls)
        {
            json.beginObject().name("medium").value(p.medium()).name("command").value(p.command());
            json.name("bytes_per_peer").value(p.bytesPerPeer("heap_b", "direct_b", "mapped_b"));
            json.name("heap_bytes_per_peer").value(p.bytesPerPeer("heap_b"));
            json.name("direct_bytes_per_peer").value(p.bytesPerPeer("direct_b"));
            json.name("mapped_bytes_per_peer").value(p.bytesPerPeer("mapped_b"));
            json.name("points").beginArray();
            for (final ScaleLine l : p.lines())
            {
                json.beginObject().name("peers").value(l.longValue("peers"))
                    .name("ns_per_poll").value(l.doubleValue("ns_per_poll"))
                    .name("ns_per_poll_min").value(l.doubleValue("ns_per_poll_min"))
                    .name("heap_b").value(l.longValue("heap_b")).name("direct_b").value(l.longValue("direct_b"))
                    .name("mapped_b").value(l.longValue("mapped_b")).endObject();
            }
            json.endArray().endObject();
        }
        json.endArray();
        json.name("flood").beginArray();
        for (final Flood fl : floods)
        {
            json.beginObject().name("ranks").value(fl.ranks()).name("nodes").value(fl.nodes())
                .name("command").value(fl.command()).name("round_trips").value(fl.roundTrips())
                .name("seconds").value(fl.seconds()).name("round_trips_per_s").value(fl.perSecond())
                .endObject();
        }
        json.endArray();
        json.name("failures").beginArray();
        for (final String failure : failures)
        {
            json.value(failure);
        }
        json.endArray();
        json.endObject();
        return text.append('\n').toString();
    }

    private static void machine(final JsonWriter json, final String name, final MachineState state)
    {
        json.name(name).beginObject().name("load_avg_1m").value(state.load1()).name("load_avg_5m")
            .value(state.load5()).name("load_avg_15m").value(state.load15()).name("cpu_mhz").value(state.cpuMhz())
            .endObject();
    }

    @Override
    public String toString()
    {
        return "ScaleReport" + Arrays.asList(hellos.size(), polls.size(), floods.size(), failures.size());
    }
}
