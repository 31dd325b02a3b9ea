package org.am2j.perf;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.am2j.launch.CpuPinning;
import org.am2j.splitc.app.ReportJson;

/**
 * The results of one {@link PingPong} run, as a table for people and as a JSON object for tools. Every number comes
 * from the rank pairs' {@link Results} or from this machine at the start of the run; the only things computed here
 * are the ratios of the medians, and each measurement's {@code slow_epoch} flag, checked again against the fastest
 * probe of the whole run (see {@link EpochGuard}).
 * <p>
 * The limit a protocol is held against ({@link Summary#limit()}, the JSON's {@code limit}) is the cache-line ping-pong for
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
    /** {@link Summary#limit()} of the shared-memory protocols. */
    static final String CACHE_LINE_LIMIT = "cache_line";
    /** {@link Summary#limit()} of the net protocols. */
    static final String UDP_LIMIT = "udp";

    private final PingPongOptions options;
    private final CpuPinning pinning;
    private final Results results = new Results();
    private final MachineReport machine;
    private final boolean udp;
    private final boolean single;
    private final Summary summary;

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
        this.pinning = pinning;
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
        final long rtt = results.getLong("rtt_p50_ns");
        final double overLine = ratio(rtt, results.getLong("limit_rtt_p50_ns"));
        final Double overUdp = this.udp ? ratio(rtt, results.getLong("limit_udp_rtt_p50_ns")) : null;
        summary = new Summary(options.protocol().cliName(), options.protocol().transports(),
            options.route(options.protocol()), options.ranksPerJvm(),
            null == options.poll() ? "default" : options.poll(), null == options.nic() ? "default" : options.nic(),
            PingPongOptions.nicKind(options.nicsPerNode()), options.nicsPerNode(), org.am2j.net.NetTransport.wireMode(),
            command, timestamp,
            options.rounds(), options.warmup(), options.size() > 0 ? Integer.valueOf(options.size()) : null,
            pinning.applied(), results.getLong("wake_rtt_p50_ns") - rtt,
            this.single ? options.protocol().single().cliName() : null,
            this.single ? ratio(rtt, results.getLong(SINGLE_MEASUREMENT + "_p50_ns")) : null,
            this.udp ? Integer.valueOf(UdpPingPong.SHORT_BYTES) : null, this.udp ? UDP_LIMIT : CACHE_LINE_LIMIT,
            this.udp ? overUdp : overLine, overLine, results.has(MEDIUM_LIMIT_MEASUREMENT + "_p50_ns") ?
            ratio(results.getLong("medium_rtt_p50_ns"), results.getLong(MEDIUM_LIMIT_MEASUREMENT + "_p50_ns")) : null,
            overUdp, PingPongOptions.OS_BURST, options.osBursts(), options.bwMessages(), this.udp ?
            ratio(results.getDouble("bw_8k_gbps"), results.getDouble("udp_bw_8k_gbps")) : null, machine.slowEpoch());
    }

    /**
     * @return the run's settings and the figures computed from its results.
     */
    Summary summary()
    {
        return summary;
    }

    /**
     * @param value   a measurement.
     * @param limitOf its limit.
     * @return their ratio to three decimals; NaN when the limit is 0 (a stream of which less than two datagrams
     * arrived).
     */
    static double ratio(final double value, final double limitOf)
    {
        return 0 == limitOf ? Double.NaN : MachineReport.round(value / limitOf, 1000);
    }

    /**
     * Print the table.
     *
     * @param out where.
     */
    void printTable(final PrintStream out)
    {
        final String protocol = options.protocol().cliName();
        final boolean oneJvm = options.ranksPerJvm() > 1;
        out.printf(Locale.ROOT,
            "am2j pingpong --protocol %s: %s, route %s, %s, %s; %,d round trips after %,d warm-up%n",
            protocol, oneJvm ? "2 ranks as threads of one JVM" : "2 rank JVMs", summary.route(),
            LogP.nicText(options.nicsPerNode()), !pinning.applied() ? "NOT pinned (no taskset or < 2 CPUs)" :
                (oneJvm ? "the JVM pinned to CPUs " : "pinned to CPUs ") + pinning.cpu(0) + " and " + pinning.cpu(1),
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
        if (null != summary.ratioP50Medium())
        {
            latencyRow(out, "  limit: " + options.size() + " B each way", MEDIUM_LIMIT_MEASUREMENT);
        }
        if (interleaved())
        {
            latencyRow(out, "  limit: line, interleaved", "limit_interleaved_rtt");
        }
        if (single)
        {
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 multi / single", summary.ratioP50SingleProtocol());
        }
        if (udp)
        {
            latencyRow(out, "  limit: udp (" + UdpPingPong.SHORT_BYTES + " B)", "limit_udp_rtt");
            if (interleavedUdp())
            {
                latencyRow(out, "  limit: udp, interleaved", InterleavedRoundTrips.UDP_LIMIT);
            }
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 short / udp limit", summary.ratioP50Udp());
        }
        else
        {
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 short / limit", summary.ratioP50());
        }
        if (interleaved())
        {
            interleavedRow(out, "ratio p50, interleaved", InterleavedRoundTrips.LINE_RATIO, "the line");
        }
        if (null != summary.ratioP50Medium())
        {
            out.printf(Locale.ROOT, "%-28s %.2f%n", "ratio p50 medium / limit", summary.ratioP50Medium());
        }
        if (interleavedUdp())
        {
            interleavedRow(out, "ratio p50, interleaved udp", InterleavedRoundTrips.UDP_RATIO,
                "plain UDP in the same JVMs");
        }
        out.printf(Locale.ROOT, "%-28s %,d ns   p50 round trip to a peer asleep in waitSema() minus the busy one%n",
            "wake-up latency", summary.wakeLatencyNs());
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
            out.printf(Locale.ROOT, "%-28s %.2f%n", "bandwidth / udp stream", summary.bwRatioUdp());
        }
        machine.printTable(out, 28, List.of());
    }

    private void interleavedRow(final PrintStream out, final String label, final String ratioKey, final String with)
    {
        final double[] blocks = results.getDoubles(ratioKey + "_blocks");
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
     * The run's settings and the figures computed here, as the JSON names them; a part the run did not measure is
     * left out ({@code null}), except {@code size}, which is {@code null} when no medium round trips were measured.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Summary(String protocol, String transports, String route, int ranksPerJvm, String poll, String nic,
        String nicKind, int nicsPerNode, String wire, String command, String timestamp, int rounds, int warmup,
        @JsonInclude(JsonInclude.Include.ALWAYS) Integer size, boolean pinned, long wakeLatencyNs,
        String singleProtocol, Double ratioP50SingleProtocol, Integer limitUdpBytes, String limit, double ratioP50,
        double ratioP50CacheLine, Double ratioP50Medium, Double ratioP50Udp, int osBurst, int osBursts,
        @JsonProperty("bw_8k_messages") int bw8kMessages, Double bwRatioUdp, boolean slowEpoch)
    {
    }

    /**
     * @return the JSON object of the run: its {@link Summary}, every result of its rank pairs under the name they
     * gave it (the single-protocol pair's round trips as {@code single_protocol_rtt_*}), and {@code machine}.
     */
    String json()
    {
        final ObjectNode json = Results.MAPPER.valueToTree(summary);
        results.asJson().properties().stream()
            .filter(result -> !result.getKey().startsWith("machine.") && !"probe_fastest_p50_ns".equals(result.getKey()))
            .forEach(result -> json.set(result.getKey(), result.getValue()));
        machine.putInto(json);
        return ReportJson.write(json);
    }
}
