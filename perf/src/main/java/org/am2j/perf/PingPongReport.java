package org.am2j.perf;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.am2j.launch.CpuPinning;
import org.am2j.splitc.app.ReportJson;

/**
 * The results of one {@link PingPong} run, as a table for people and as a JSON object for tools. Every number comes
 * from the rank pairs' {@link Results} or from this machine at the start of the run; the only things computed here
 * are the ratios of the medians, and each measurement's {@code slow_epoch} flag, checked again against the fastest
 * probe of the whole run (see {@link EpochGuard}).
 * <p>
 * The limit a protocol is held against ({@link #limit()}, the JSON's {@code limit}) is the cache-line ping-pong for
 * the shared-memory protocols and plain UDP for the net protocols, whose results then include the UDP pair's:
 * {@code ratio_p50} is the short round trip's median over that limit's. The short round trips alternate in blocks
 * with a limit measured in the same two JVMs ({@link InterleavedRoundTrips}): the cache line over shared memory
 * ({@code ratio_p50_interleaved}), plain UDP over the network ({@code ratio_p50_interleaved_udp}).
 */
final class PingPongReport
{
    /** The limit of the medium round trips: {@code --size} bytes each way on the limit pair's data page. */
    private static final String MEDIUM_LIMIT_MEASUREMENT = "limit_medium_rtt";
    /** The short round trips of a multi-protocol run's single protocol, measured in the same run. */
    private static final String SINGLE_MEASUREMENT = "single_protocol_rtt";
    /** {@link #limit()} of the shared-memory protocols. */
    static final String CACHE_LINE_LIMIT = "cache_line";
    /** {@link #limit()} of the net protocols. */
    static final String UDP_LIMIT = "udp";

    private final PingPongOptions options;
    private final String command;
    private final String timestamp;
    private final CpuPinning pinning;
    private final MachineState start;
    private final Results results = new Results();
    private final MachineReport machine;
    private final boolean udp;
    private final boolean single;

    /**
     * @param options   of the run.
     * @param command   the command line, for the record.
     * @param timestamp start of the run, ISO-8601.
     * @param pinning   of the ranks.
     * @param start     machine state at the start.
     * @param am        results of the AM rank pair.
     * @param single    results of the single-protocol reference pair of a multi-protocol run, or {@code null}.
     * @param limit     results of the cache-line rank pair.
     * @param udp       results of the UDP rank pair, or {@code null} when it was not measured (shared memory).
     */
    PingPongReport(
        final PingPongOptions options,
        final String command,
        final String timestamp,
        final CpuPinning pinning,
        final MachineState start,
        final Results am,
        final Results single,
        final Results limit,
        final Results udp)
    {
        this.options = options;
        this.command = command;
        this.timestamp = timestamp;
        this.pinning = pinning;
        this.start = start;
        results.putAll(am).putAll(limit);
        long fastest = Math.min(am.getLong("probe_fastest_p50_ns"), limit.getLong("probe_fastest_p50_ns"));
        this.udp = null != udp;
        if (null != udp)
        {
            results.putAll(udp);
            fastest = Math.min(fastest, udp.getLong("probe_fastest_p50_ns"));
        }
        machine = new MachineReport(pinning, start, fastest);
        // in this order, those the pairs measured
        Stream.of("rtt", "medium_rtt", "wake_rtt", "os", "bw_8k", "limit_rtt", MEDIUM_LIMIT_MEASUREMENT,
            "limit_udp_rtt", "udp_bw_8k").filter(name -> results.has("machine." + name + ".attempts"))
            .forEach(name -> machine.add(name, results, name));
        this.single = null != single;
        if (null != single)
        {
            LatencySummary.from(single, "rtt").putInto(results, SINGLE_MEASUREMENT);
            if (single.has("rtt_warmup_rounds"))
            {
                results.put(SINGLE_MEASUREMENT + "_warmup_rounds", single.getLong("rtt_warmup_rounds"));
            }
            machine.add(SINGLE_MEASUREMENT, single, "rtt");
        }
    }

    /**
     * @return the limit the run is held against: {@value #UDP_LIMIT} when the UDP pair was measured, else
     * {@value #CACHE_LINE_LIMIT}.
     */
    String limit()
    {
        return udp ? UDP_LIMIT : CACHE_LINE_LIMIT;
    }

    /**
     * @param name of a measurement.
     * @return true when its probes were slow, against the fastest probe of the whole run.
     */
    boolean slowEpoch(final String name)
    {
        return machine.slowEpoch(name);
    }

    /**
     * @return true when any measurement was taken in a slow epoch.
     */
    boolean slowEpoch()
    {
        return machine.slowEpoch();
    }

    /**
     * @return median short round trip over the median round trip of {@link #limit()}.
     */
    double ratioP50()
    {
        return udp ? ratioP50Udp() : ratioP50CacheLine();
    }

    /**
     * @return median short round trip over the cache-line ping-pong's median round trip.
     */
    double ratioP50CacheLine()
    {
        return ratio(results.getLong("rtt_p50_ns"), results.getLong("limit_rtt_p50_ns"));
    }

    /**
     * @return true when the limit pair measured medium round trips ({@code --size}).
     */
    boolean mediumLimit()
    {
        return results.has(MEDIUM_LIMIT_MEASUREMENT + "_p50_ns");
    }

    /**
     * @return median medium round trip over the median of the limit's medium round trips of the same size.
     */
    double ratioP50Medium()
    {
        return ratio(results.getLong("medium_rtt_p50_ns"), results.getLong(MEDIUM_LIMIT_MEASUREMENT + "_p50_ns"));
    }

    /**
     * @return median short round trip over the plain UDP ping-pong's median round trip (net protocols only).
     */
    double ratioP50Udp()
    {
        return ratio(results.getLong("rtt_p50_ns"), results.getLong("limit_udp_rtt_p50_ns"));
    }

    /**
     * @return median 8 KiB bandwidth over the plain UDP stream's median bandwidth (net protocols only).
     */
    double bwRatioUdp()
    {
        return ratio(results.getDouble("bw_8k_gbps"), results.getDouble("udp_bw_8k_gbps"));
    }

    /**
     * @param value   a measurement.
     * @param limitOf its limit.
     * @return their ratio; NaN when the limit is 0 (a stream of which less than two datagrams arrived).
     */
    static double ratio(final double value, final double limitOf)
    {
        return 0 == limitOf ? Double.NaN : value / limitOf;
    }

    /**
     * @return a multi-protocol run's median short round trip over its single protocol's, measured in the same run.
     */
    double ratioP50Single()
    {
        return ratio(results.getLong("rtt_p50_ns"), results.getLong(SINGLE_MEASUREMENT + "_p50_ns"));
    }

    /**
     * @return how much longer a round trip takes when the responder sleeps in waitSema(): the cost of waking it.
     */
    long wakeLatencyNs()
    {
        return results.getLong("wake_rtt_p50_ns") - results.getLong("rtt_p50_ns");
    }

    /**
     * Print the table.
     *
     * @param out where.
     */
    void printTable(final PrintStream out)
    {
        final String protocol = options.protocol().cliName();
        out.printf(Locale.ROOT,
            "am2j pingpong --protocol %s: 2 rank JVMs, %s, %s; %,d round trips after %,d warm-up%n",
            protocol, LogP.nicText(options.nicsPerNode()), pinning.applied() ?
                "pinned to CPUs " + pinning.cpu(0) + " and " + pinning.cpu(1) : "NOT pinned (no taskset or < 2 CPUs)",
            options.rounds(), options.warmup());
        out.printf(Locale.ROOT, "%-28s %9s %9s %9s %11s %9s %11s%n",
            "round trip (ns)", "p50", "p99", "p99.9", "mean", "min", "max");
        latencyRow(out, "  am2j short (" + protocol + ")", "rtt");
        if (results.has("medium_rtt_p50_ns"))
        {
            latencyRow(out, "  am2j medium " + options.size() + " B", "medium_rtt");
        }
        latencyRow(out, "  am2j short, peer asleep", "wake_rtt");
        if (single)
        {
            latencyRow(out, "  am2j short (" + options.protocol().single().cliName() + " alone)", SINGLE_MEASUREMENT);
        }
        latencyRow(out, "  limit: cache line", "limit_rtt");
        if (mediumLimit())
        {
            latencyRow(out, "  limit: " + options.size() + " B each way", MEDIUM_LIMIT_MEASUREMENT);
        }
        if (interleaved())
        {
            latencyRow(out, "  limit: line, interleaved", "limit_interleaved_rtt");
        }
        if (single)
        {
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 multi / single", ratioP50Single());
        }
        if (udp)
        {
            latencyRow(out, "  limit: udp (" + UdpPingPong.SHORT_BYTES + " B)", "limit_udp_rtt");
            if (interleavedUdp())
            {
                latencyRow(out, "  limit: udp, interleaved", InterleavedRoundTrips.UDP_LIMIT);
            }
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 short / udp limit", ratioP50Udp());
        }
        else
        {
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 short / limit", ratioP50());
        }
        if (interleaved())
        {
            interleavedRow(out, "ratio p50, interleaved", InterleavedRoundTrips.LINE_RATIO, "the line");
        }
        if (mediumLimit())
        {
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 medium / limit", ratioP50Medium());
        }
        if (interleavedUdp())
        {
            interleavedRow(out, "ratio p50, interleaved udp", InterleavedRoundTrips.UDP_RATIO,
                "plain UDP in the same JVMs");
        }
        out.printf(Locale.ROOT, "%-28s %,d ns   p50 round trip to a peer asleep in waitSema() minus the busy one%n",
            "wake-up latency", wakeLatencyNs());
        out.printf(Locale.ROOT,
            "%-28s %.1f ns   mean of %,d bursts of %d requests; median burst %.1f ns (%d queue-full back-offs)%n",
            "o_s (short request)", results.getDouble("os_ns"), options.osBursts(), PingPongOptions.OS_BURST,
            results.getDouble("os_burst_p50_ns"), results.getLong("os_queue_full_backoffs"));
        out.printf(Locale.ROOT,
            "%-28s %.3f GB/s   median of %d runs of %,d messages; range %.3f - %.3f (%d queue-full back-offs)%n",
            "bandwidth 8 KiB medium", results.getDouble("bw_8k_gbps"), PingPongOptions.BW_REPEATS,
            options.bwMessages(), results.getDouble("bw_8k_gbps_min"), results.getDouble("bw_8k_gbps_max"),
            results.getLong("bw_8k_queue_full_backoffs"));
        if (udp)
        {
            out.printf(Locale.ROOT,
                "%-28s %.3f GB/s   median of %d runs of %,d datagrams; range %.3f - %.3f; %.2f%% lost " +
                    "(%d send-buffer-full spins)%n",
                "limit: udp 8 KiB stream", results.getDouble("udp_bw_8k_gbps"), PingPongOptions.BW_REPEATS,
                results.getLong("udp_bw_8k_datagrams"), results.getDouble("udp_bw_8k_gbps_min"),
                results.getDouble("udp_bw_8k_gbps_max"), 100 * results.getDouble("udp_loss"),
                results.getLong("udp_bw_8k_send_full_spins"));
            out.printf(Locale.ROOT, "%-28s %.2f%n", "bandwidth / udp stream", bwRatioUdp());
        }
        machine.printTable(out, 28);
    }

    private void interleavedRow(final PrintStream out, final String label, final String ratioKey, final String with)
    {
        final String[] blocks = results.getString(ratioKey + "_blocks").split(",");
        out.printf(Locale.ROOT, "%-28s %.2f   median of %d blocks alternating with %s; range %.2f - %.2f%n",
            label, results.getDouble(ratioKey), blocks.length, with, results.getDouble(ratioKey + "_min"),
            results.getDouble(ratioKey + "_max"));
    }

    /**
     * @return true when the short round trips alternated in blocks with the pair's cache line (shared-memory
     * routes), so the results have the interleaved limit and ratios.
     */
    boolean interleaved()
    {
        return results.has(InterleavedRoundTrips.LINE_RATIO);
    }

    /**
     * @return true when the short round trips alternated in blocks with plain UDP round trips between the same two
     * JVMs (network routes), so the results have {@code limit_interleaved_udp_rtt_*} and
     * {@code ratio_p50_interleaved_udp*}.
     */
    boolean interleavedUdp()
    {
        return results.has(InterleavedRoundTrips.UDP_RATIO);
    }

    private void latencyRow(final PrintStream out, final String label, final String prefix)
    {
        final LatencySummary s = LatencySummary.from(results, prefix);
        out.printf(Locale.ROOT, "%-28s %9d %9d %9d %11.1f %9d %11d%n",
            label, s.p50(), s.p99(), s.p999(), s.mean(), s.min(), s.max());
    }

    /**
     * @return the JSON object of the run.
     */
    String json()
    {
        final ObjectNode json = ReportJson.object();
        json.put("protocol", options.protocol().cliName());
        json.put("transports", options.protocol().transports());
        json.put("poll", null == options.poll() ? "default" : options.poll());
        json.put("nic", null == options.nic() ? "default" : options.nic());
        json.put("nic_kind", options.nicKind());
        json.put("nics_per_node", options.nicsPerNode());
        json.put("wire", org.am2j.net.NetTransport.wireMode());
        json.put("command", command);
        json.put("timestamp", timestamp);
        json.put("rounds", options.rounds());
        json.put("warmup", options.warmup());
        json.put("size", options.size() > 0 ? Integer.valueOf(options.size()) : null);
        json.put("pinned", pinning.applied());
        latency(json, "rtt");
        if (results.has("medium_rtt_p50_ns"))
        {
            latency(json, "medium_rtt");
        }
        latency(json, "wake_rtt");
        json.put("wake_latency_ns", wakeLatencyNs());
        if (single)
        {
            json.put("single_protocol", options.protocol().single().cliName());
            latency(json, SINGLE_MEASUREMENT);
            json.put("ratio_p50_single_protocol", round(ratioP50Single(), 1000));
        }
        latency(json, "limit_rtt");
        if (mediumLimit())
        {
            latency(json, MEDIUM_LIMIT_MEASUREMENT);
        }
        if (udp)
        {
            latency(json, "limit_udp_rtt");
            json.put("limit_udp_rtt_resends", results.getLong("limit_udp_rtt_resends"));
            json.put("limit_udp_bytes", UdpPingPong.SHORT_BYTES);
        }
        json.put("limit", limit());
        json.put("ratio_p50", round(ratioP50(), 1000));
        json.put("ratio_p50_cache_line", round(ratioP50CacheLine(), 1000));
        if (mediumLimit())
        {
            json.put("ratio_p50_medium", round(ratioP50Medium(), 1000));
        }
        if (udp)
        {
            json.put("ratio_p50_udp", round(ratioP50Udp(), 1000));
        }
        if (interleaved())
        {
            latency(json, InterleavedRoundTrips.LINE_LIMIT);
            interleavedRatios(json, InterleavedRoundTrips.LINE_RATIO);
        }
        if (interleavedUdp())
        {
            latency(json, InterleavedRoundTrips.UDP_LIMIT);
            json.put(InterleavedRoundTrips.UDP_LIMIT + "_resends",
                results.getLong(InterleavedRoundTrips.UDP_LIMIT + "_resends"));
            interleavedRatios(json, InterleavedRoundTrips.UDP_RATIO);
        }
        json.put("os_ns", round(results.getDouble("os_ns"), 100));
        json.put("os_burst_p50_ns", round(results.getDouble("os_burst_p50_ns"), 100));
        json.put("os_burst", PingPongOptions.OS_BURST);
        json.put("os_bursts", options.osBursts());
        json.put("os_queue_full_backoffs", results.getLong("os_queue_full_backoffs"));
        bandwidth(json, "bw_8k");
        json.put("bw_8k_messages", options.bwMessages());
        json.put("bw_8k_queue_full_backoffs", results.getLong("bw_8k_queue_full_backoffs"));
        if (udp)
        {
            bandwidth(json, "udp_bw_8k");
            json.put("udp_bw_8k_datagrams", results.getLong("udp_bw_8k_datagrams"));
            json.put("udp_bw_8k_send_full_spins", results.getLong("udp_bw_8k_send_full_spins"));
            json.put("udp_loss", round(results.getDouble("udp_loss"), 1_000_000));
            json.put("bw_ratio_udp", round(bwRatioUdp(), 1000));
        }
        json.put("slow_epoch", slowEpoch());
        machine.putInto(json);
        return ReportJson.write(json);
    }

    private void interleavedRatios(final ObjectNode json, final String ratioKey)
    {
        json.put(ratioKey, round(results.getDouble(ratioKey), 1000));
        json.put(ratioKey + "_min", round(results.getDouble(ratioKey + "_min"), 1000));
        json.put(ratioKey + "_max", round(results.getDouble(ratioKey + "_max"), 1000));
        final ArrayNode blocks = json.putArray(ratioKey + "_blocks");
        Stream.of(results.getString(ratioKey + "_blocks").split(",")).forEach(ratio ->
            blocks.add(Double.parseDouble(ratio)));
    }

    private void bandwidth(final ObjectNode json, final String prefix)
    {
        json.put(prefix + "_gbps", round(results.getDouble(prefix + "_gbps"), 1000));
        json.put(prefix + "_gbps_min", round(results.getDouble(prefix + "_gbps_min"), 1000));
        json.put(prefix + "_gbps_max", round(results.getDouble(prefix + "_gbps_max"), 1000));
        final ArrayNode runs = json.putArray(prefix + "_gbps_runs");
        Stream.of(results.getString(prefix + "_gbps_runs").split(",")).forEach(run ->
            runs.add(round(Double.parseDouble(run), 1000)));
    }

    private void latency(final ObjectNode json, final String prefix)
    {
        final LatencySummary s = LatencySummary.from(results, prefix);
        json.put(prefix + "_p50_ns", s.p50()).put(prefix + "_p99_ns", s.p99()).put(prefix + "_p999_ns", s.p999())
            .put(prefix + "_mean_ns", round(s.mean(), 10)).put(prefix + "_min_ns", s.min())
            .put(prefix + "_max_ns", s.max()).put(prefix + "_count", s.count());
        if (results.has(prefix + "_warmup_rounds"))
        {
            json.put(prefix + "_warmup_rounds", results.getLong(prefix + "_warmup_rounds"));
        }
    }

    private static double round(final double value, final int scale)
    {
        return MachineReport.round(value, scale);
    }
}
