package org.am2j.perf;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.am2j.launch.CpuPinning;
import org.am2j.splitc.app.ReportJson;

/**
 * The results of one {@link LogP} run, as a table for people and a JSON object for tools: the LogP parameters of the
 * four configurations beside the paper's Table 3, the round trips of the peers (Aeron IPC and UDP) and of the limits
 * (cache line, plain UDP) measured in the same run, our round trips over theirs, and the machine state of every
 * measurement ({@link MachineReport}).
 * <p>
 * JSON: {@code shm}, {@code multi_shm}, {@code multi_net}, {@code net}, each with exactly the keys of {@link Row}
 * ({@code L_us, os_us, or_us, g_us, G_us_per_byte, bw_MBps, half_power_bytes, rtt_us}); {@code peers} with exactly
 * {@code aeron_ipc_rtt_us, aeron_udp_rtt_us, limit_shm_rtt_us, limit_udp_rtt_us}; then {@code ratios},
 * {@code targets} (whether {@code shm} and {@code net} meet {@link #SHM_TARGET} and {@link #NET_TARGET}),
 * {@code paper} (Table 3 in the same keys), {@code details} (per configuration the round trip's
 * percentiles, the signature and the bandwidth curve as measured), {@code poll_cost} ({@link NetPollCost}),
 * {@code nic_kind} and {@code nics_per_node} (the network configurations' NIC), the run's command, scale and time,
 * and {@code machine}.
 */
final class LogPReport
{
    /** The configurations, in the order of the paper's columns. */
    static final List<Protocol> CONFIGS = List.of(Protocol.SHM, Protocol.MULTI_SHM, Protocol.MULTI_NET, Protocol.NET);
    /** The paper's names of its columns, in the same order. */
    static final List<String> PAPER_COLUMNS = List.of(
        "Shared Memory", "Multi-Protocol Shared Memory", "Multi-Protocol Myrinet", "Myrinet");
    /** What a kB of the paper's half-power points is taken to be, bytes. */
    static final double KB = 1000;
    /** The shared-memory target: {@code shm}'s round trip at most this many times Aeron IPC's of the same run. */
    static final double SHM_TARGET = 1.20;
    /** The network target: {@code net}'s round trip at most this many times Aeron UDP's of the same run. */
    static final double NET_TARGET = 1.0;

    /**
     * The rows of Table 3, with the paper's figures (Lumetta, Mainwaring and Culler, "Multi-Protocol Active Messages
     * on a Cluster of SMP's", SC'97, Table 3: Sun Enterprise 5000 servers and Myrinet) in the order of
     * {@link #CONFIGS}, copied as printed.
     */
    enum Row
    {
        /** Latency. */
        L("Latency (L)", "us", "L_us", p -> p.latencyNs() / 1000, -0.3, 0.1, 15.5, 13.8),
        /** Send overhead. */
        OS("Send Overhead (o_s)", "us", "os_us", p -> p.osNs() / 1000, 1.8, 2.1, 3.3, 5.6),
        /** Receive overhead. */
        OR("Receive Overhead (o_r)", "us", "or_us", p -> p.orNs() / 1000, 1.3, 1.4, 8.6, 8.1),
        /** Gap. */
        GAP("Gap (g)", "us", "g_us", p -> p.gNs() / 1000, 3.1, 3.6, 17.6, 17.6),
        /** Gap per byte. */
        GAP_PER_BYTE("Gap per Byte (G)", "us/B", "G_us_per_byte", p -> p.gapPerByteNs() / 1000, 0.00602, 0.00625,
            0.0305, 0.0315),
        /** Bandwidth. */
        BANDWIDTH("Bandwidth (1/G)", "MB/s", "bw_MBps", LogPParameters::bandwidthMBps, 166, 160, 32.8, 31.7),
        /** Half-power point (the paper's kB, in bytes here). */
        HALF_POWER("Half-power Point", "kB", "half_power_bytes", LogPParameters::halfPowerBytes, 5.1 * KB, 5.3 * KB,
            8.6 * KB, 8.7 * KB),
        /** Round trip. */
        RTT("Round Trip Time (RTT)", "us", "rtt_us", p -> p.rttNs() / 1000, 5.6, 7.2, 55, 55);

        /** The paper's name of the row. */
        private final String label;
        /** The unit of the table (the JSON's is in the key). */
        private final String unit;
        /** The JSON key. */
        private final String key;
        private final ToDoubleFunction<LogPParameters> measured;
        /** The paper's figure of each of {@link #CONFIGS}, in the JSON's unit. */
        private final double[] paper;

        Row(final String label, final String unit, final String key, final ToDoubleFunction<LogPParameters> measured,
            final double... paper)
        {
            this.label = label;
            this.unit = unit;
            this.key = key;
            this.measured = measured;
            this.paper = paper;
        }

        /**
         * @param p measured parameters.
         * @return this row's value, in the JSON's unit.
         */
        double of(final LogPParameters p)
        {
            return measured.applyAsDouble(p);
        }

        /**
         * @param value in the JSON's unit.
         * @return it in the table's unit, formatted.
         */
        String format(final double value)
        {
            if (Double.isNaN(value))
            {
                return "?";
            }
            return switch (this)
            {
                case GAP_PER_BYTE -> String.format(Locale.ROOT, value < 0.001 ? "%.7f" : "%.5f", value);
                case BANDWIDTH -> String.format(Locale.ROOT, value < 1000 ? "%.1f" : "%.0f", value);
                case HALF_POWER -> String.format(Locale.ROOT, "%.1f", value / KB);
                default -> String.format(Locale.ROOT, Math.abs(value) < 10 ? "%.3f" : "%.2f", value);
            };
        }

        /**
         * @param value in the JSON's unit.
         * @return it rounded for the JSON.
         */
        double round(final double value)
        {
            return switch (this)
            {
                case GAP_PER_BYTE -> Double.isFinite(value) ? Math.round(value * 1e9) / 1e9 : value;
                case BANDWIDTH -> MachineReport.round(value, 10);
                case HALF_POWER -> MachineReport.round(value, 1);
                default -> MachineReport.round(value, 10_000);
            };
        }
    }

    /** A peer or limit: its JSON key, its table label, its results and the key prefix of its round trips. */
    private record Peer(String key, String label, Results results, String prefix)
    {
        double rttUs()
        {
            return results.getLong(prefix + "_p50_ns") / 1000.0;
        }
    }

    private final LogPOptions options;
    private final String command;
    private final String timestamp;
    private final CpuPinning pinning;
    private final Map<Protocol, Results> am;
    private final Map<Protocol, LogPParameters> parameters = new LinkedHashMap<>();
    private final Peer aeronIpc;
    private final Peer aeronUdp;
    private final Peer limitShm;
    private final Peer limitUdp;
    private final MachineReport machine;
    private final NetPollCost pollCost;

    /**
     * @param options   of the run.
     * @param command   the command line, for the record.
     * @param timestamp start of the run, ISO-8601.
     * @param pinning   of the ranks.
     * @param start     machine state at the start.
     * @param am        results of the AM rank pair of each of {@link #CONFIGS}.
     * @param aeronIpc  results of the Aeron IPC pair.
     * @param aeronUdp  results of the Aeron UDP pair.
     * @param limitShm  results of the cache-line pair.
     * @param limitUdp  results of the plain UDP pair.
     * @param pollCost  the empty network poll and the calibrated scheduler's ratio, from their pairs.
     */
    LogPReport(
        final LogPOptions options,
        final String command,
        final String timestamp,
        final CpuPinning pinning,
        final MachineState start,
        final Map<Protocol, Results> am,
        final Results aeronIpc,
        final Results aeronUdp,
        final Results limitShm,
        final Results limitUdp,
        final NetPollCost pollCost)
    {
        this.options = options;
        this.pollCost = pollCost;
        this.command = command;
        this.timestamp = timestamp;
        this.pinning = pinning;
        this.am = am;
        this.aeronIpc = new Peer("aeron_ipc_rtt_us", "Aeron IPC", aeronIpc, "aeron_rtt");
        this.aeronUdp = new Peer("aeron_udp_rtt_us", "Aeron UDP", aeronUdp, "aeron_rtt");
        this.limitShm = new Peer("limit_shm_rtt_us", "limit: cache line", limitShm, "limit_rtt");
        this.limitUdp = new Peer("limit_udp_rtt_us", "limit: plain UDP", limitUdp, "limit_udp_rtt");
        final List<Results> all = new ArrayList<>(am.values());
        all.addAll(List.of(aeronIpc, aeronUdp, limitShm, limitUdp, pollCost.network(), pollCost.calibrated()));
        final long fastest = all.stream().mapToLong(results -> results.getLong("probe_fastest_p50_ns")).min()
            .orElse(EpochGuard.NO_PROBE);
        machine = new MachineReport(pinning, start, fastest);
        for (final Protocol protocol : CONFIGS)
        {
            final Results results = am.get(protocol);
            parameters.put(protocol, LogPParameters.of(
                results.getLong("rtt_p50_ns"), signature(protocol), transferCurve(protocol)));
            for (final String name : amMeasurements())
            {
                machine.add(key(protocol) + "." + name, results, name);
            }
        }
        machine.add("aeron_ipc", aeronIpc, AeronRank.measurement(AeronPingPong.Kind.IPC));
        machine.add("aeron_udp", aeronUdp, AeronRank.measurement(AeronPingPong.Kind.UDP));
        machine.add("limit_shm", limitShm, "limit_rtt");
        machine.add("limit_udp", limitUdp, "limit_udp_rtt");
        machine.add("limit_udp_stream", limitUdp, "udp_bw_8k");
        machine.add("poll_network", pollCost.network(), "poll");
        machine.add("poll_calibrated", pollCost.calibrated(), "poll");
    }

    private static List<String> amMeasurements()
    {
        final List<String> names = new ArrayList<>(List.of("rtt"));
        IntStream.range(0, LogPRank.DELAY_FACTORS.length).forEach(k -> names.add("sig_d" + k));
        names.add("transfer");
        return names;
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return its JSON key: its command-line name with {@code _} for {@code -}.
     */
    static String key(final Protocol protocol)
    {
        return protocol.cliName().replace('-', '_');
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return its parameters.
     */
    LogPParameters parameters(final Protocol protocol)
    {
        return parameters.get(protocol);
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return its signature.
     */
    LogPParameters.Signature signature(final Protocol protocol)
    {
        return am.get(protocol).get("signature", LogPParameters.Signature.class);
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return its bandwidth curve.
     */
    LogPParameters.TransferCurve transferCurve(final Protocol protocol)
    {
        final LogPRank.Transfer transfer = am.get(protocol).get("transfer", LogPRank.Transfer.class);
        return new LogPParameters.TransferCurve(transfer.bytes(), transfer.medianNs());
    }

    /**
     * @return true when any measurement was taken in a slow epoch.
     */
    boolean slowEpoch()
    {
        return machine.slowEpoch();
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return the peer its round trip is held against: Aeron IPC for the shared-memory configurations, Aeron UDP
     * for the network ones.
     */
    private Peer peerOf(final Protocol protocol)
    {
        return protocol.overNetwork() ? aeronUdp : aeronIpc;
    }

    private Peer limitOf(final Protocol protocol)
    {
        return protocol.overNetwork() ? limitUdp : limitShm;
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return its median round trip over its Aeron peer's.
     */
    double overPeer(final Protocol protocol)
    {
        return parameters.get(protocol).rttNs() / 1000 / peerOf(protocol).rttUs();
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return its median round trip over its limit's.
     */
    double overLimit(final Protocol protocol)
    {
        return parameters.get(protocol).rttNs() / 1000 / limitOf(protocol).rttUs();
    }

    /**
     * The shared-memory round trips held against the cache line of their own pair, measured in blocks alternating
     * with it ({@link InterleavedRoundTrips}), and against Aeron IPC through that line: ({@code shm} / its line) over
     * (Aeron IPC / its line). The two pairs run seconds apart and this machine can change state in between; each
     * ratio to its own line takes the state out to first order.
     *
     * @return in order, {@code <config>_rtt_over_line_interleaved} for each shared-memory configuration whose pair
     * interleaved, {@code aeron_ipc_rtt_over_line_interleaved} when the Aeron IPC pair did, and
     * {@code <config>_rtt_over_aeron_ipc_line_normalized} when both did; empty when none did (results of a build
     * before the interleaving).
     */
    Map<String, Double> lineNormalized()
    {
        final Map<String, Double> ratios = new LinkedHashMap<>();
        final double aeron = overLineInterleaved(aeronIpc.results);
        for (final Protocol protocol : CONFIGS)
        {
            final double ours = protocol.overNetwork() ? Double.NaN : overLineInterleaved(am.get(protocol));
            if (!Double.isNaN(ours))
            {
                ratios.put(key(protocol) + "_rtt_over_line_interleaved", ours);
            }
        }
        if (!Double.isNaN(aeron))
        {
            ratios.put("aeron_ipc_rtt_over_line_interleaved", aeron);
            for (final Protocol protocol : CONFIGS)
            {
                final Double ours = ratios.get(key(protocol) + "_rtt_over_line_interleaved");
                if (null != ours)
                {
                    ratios.put(key(protocol) + "_rtt_over_aeron_ipc_line_normalized", ours / aeron);
                }
            }
        }
        return ratios;
    }

    private static double overLineInterleaved(final Results results)
    {
        return results.has("ratio_p50_interleaved") ? results.getDouble("ratio_p50_interleaved") : Double.NaN;
    }

    /**
     * @param ours  a measured value.
     * @param paper the paper's.
     * @return ours over the paper's, NaN when either is not positive (a ratio of latencies around 0 says nothing).
     */
    static double ratio(final double ours, final double paper)
    {
        return ours > 0 && paper > 0 ? ours / paper : Double.NaN;
    }

    /**
     * @param protocol one of the configurations.
     * @return the transport its pair's messages took.
     */
    private String route(final Protocol protocol)
    {
        return protocol.route(protocol.ranksPerJvm(options.ranksPerJvm()));
    }

    /**
     * Print the table.
     *
     * @param out where.
     */
    void printTable(final PrintStream out)
    {
        final LogPOptions.Scale scale = options.scale();
        out.printf(Locale.ROOT, "am2j logp%s: network configurations over %s; %s; %,d round trips per ping-pong after %,d warm-up; signature bursts " +
            "1-%d (network 1-%d) x %d delays x %d repetitions; transfers 64 B-%d KiB%n",
            options.quick() ? " --quick" : "", LogP.nicText(options.nicsPerNode()), pinning.applied() ? "rank pairs pinned to CPUs " + pinning.cpu(0) +
                " and " + pinning.cpu(1) : "rank pairs NOT pinned (no taskset or < 2 CPUs)", scale.rounds(),
            scale.warmup(), scale.longestBurst(), scale.longestNetBurst(), LogPRank.DELAY_FACTORS.length,
            scale.signatureReps(), scale.largestTransfer() / 1024);
        if (options.ranksPerJvm() > 1)
        {
            out.println("the pairs of the one-node configurations as threads of one JVM: " + CONFIGS.stream()
                .map(protocol -> key(protocol) + " route " + route(protocol)).collect(Collectors.joining(", ")));
        }
        out.println("LogP parameters (the paper's Table 3): am2j on this machine beside the paper (Sun Enterprise " +
            "5000 SMPs, Myrinet); ratio = am2j / paper");
        final StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-23s %-5s", "", ""));
        final StringBuilder sub = new StringBuilder(String.format(Locale.ROOT, "%-23s %-5s", "parameter", "unit"));
        for (int c = 0; c < CONFIGS.size(); c++)
        {
            head.append(String.format(Locale.ROOT, " | %-28s", key(CONFIGS.get(c)) + " / " + PAPER_COLUMNS.get(c)
                .replace("Multi-Protocol", "Multi").replace("Shared Memory", "SM")));
            sub.append(String.format(Locale.ROOT, " | %9s %9s %8s", "am2j", "paper", "ratio"));
        }
        out.println(head);
        out.println(sub);
        for (final Row row : Row.values())
        {
            final StringBuilder line = new StringBuilder(
                String.format(Locale.ROOT, "%-23s %-5s", row.label, row.unit));
            for (int c = 0; c < CONFIGS.size(); c++)
            {
                final double ours = row.of(parameters.get(CONFIGS.get(c)));
                final double ratio = ratio(ours, row.paper[c]);
                line.append(String.format(Locale.ROOT, " | %9s %9s %8s", row.format(ours), row.format(row.paper[c]),
                    Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, ratio < 10 ? "%.3f" : "%.1f", ratio)));
            }
            out.println(line);
        }
        out.println();
        out.printf(Locale.ROOT, "%-28s %10s %10s %10s %10s%n", "round trip p50, same run", "am2j us", "peer us",
            "am2j/peer", "target");
        for (final Protocol protocol : CONFIGS)
        {
            final Peer peer = peerOf(protocol);
            final double ratio = overPeer(protocol);
            out.printf(Locale.ROOT, "%-28s %10.3f %10.3f %10.3f %10s%n", key(protocol) + " / " + peer.label,
                parameters.get(protocol).rttNs() / 1000, peer.rttUs(), ratio,
                Double.isNaN(target(protocol)) ? "" : String.format(Locale.ROOT, "<=%.2f %s", target(protocol),
                    meetsTarget(protocol) ? "met" : "NOT met"));
        }
        for (final Protocol protocol : CONFIGS)
        {
            final Peer limit = limitOf(protocol);
            out.printf(Locale.ROOT, "%-28s %10.3f %10.3f %10.3f%n", key(protocol) + " / " + limit.label,
                parameters.get(protocol).rttNs() / 1000, limit.rttUs(), overLimit(protocol));
        }
        final Map<String, Double> normalized = lineNormalized();
        if (!normalized.isEmpty())
        {
            out.println("against the cache line of each pair's own machine state (round trips in up to " +
                InterleavedRoundTrips.BLOCKS + " blocks alternating with the pair's line; median of the blocks' " +
                "ratios):");
            for (final Map.Entry<String, Double> ratio : normalized.entrySet())
            {
                out.printf(Locale.ROOT, "  %-48s %8.3f%n", ratio.getKey(), ratio.getValue());
            }
        }
        out.printf(Locale.ROOT, "%-28s %10s %10s %10s %10s%n", "peer round trips (us)", "p50", "p99", "p99.9",
            "mean");
        for (final Peer peer : List.of(aeronIpc, aeronUdp, limitShm, limitUdp))
        {
            final LatencySummary s = LatencySummary.from(peer.results, peer.prefix);
            out.printf(Locale.ROOT, "  %-26s %10.3f %10.3f %10.3f %10.3f%n", peer.label, s.p50() / 1000.0,
                s.p99() / 1000.0, s.p999() / 1000.0, s.mean() / 1000);
        }
        pollCost.printTable(out);
        machine.printTable(out, 28, impossibleFigures());
    }

    /**
     * @return one line per configuration whose L came out negative, which a latency cannot be: the overheads then
     * include part of the wire time (an inline NIC makes the send system call inside o_s), so L = RTT/2 - o_s - o_r
     * subtracts it twice.
     */
    List<String> impossibleFigures()
    {
        final List<String> impossible = new ArrayList<>();
        for (final Protocol protocol : CONFIGS)
        {
            final LogPParameters p = parameters.get(protocol);
            if (p.latencyNs() < 0)
            {
                impossible.add(String.format(Locale.ROOT, "%s L = %.3f us < 0: o_s + o_r (%.3f us) exceed half the " +
                    "round trip (%.3f us), so the overheads include wire time; read RTT, o_s and o_r, not L",
                    key(protocol), p.latencyNs() / 1000, (p.osNs() + p.orNs()) / 1000, p.rttNs() / 2000));
            }
        }
        return impossible;
    }

    /**
     * @param protocol one of {@link #CONFIGS}.
     * @return the most its round trip may be over its Aeron peer's: {@link #SHM_TARGET} for {@code shm},
     * {@link #NET_TARGET} for {@code net}, NaN for the multi-protocol configurations, which have no target.
     */
    static double target(final Protocol protocol)
    {
        return Protocol.SHM == protocol ? SHM_TARGET : Protocol.NET == protocol ? NET_TARGET : Double.NaN;
    }

    /**
     * @param protocol {@link Protocol#SHM} or {@link Protocol#NET}.
     * @return true when its round trip over its Aeron peer's of this run is within {@link #target(Protocol)}.
     */
    boolean meetsTarget(final Protocol protocol)
    {
        return overPeer(protocol) <= target(protocol);
    }

    /**
     * @return the JSON object of the run.
     */
    String json()
    {
        final ObjectNode json = ReportJson.object();
        for (final Protocol protocol : CONFIGS)
        {
            final ObjectNode config = json.putObject(key(protocol));
            for (final Row row : Row.values())
            {
                config.put(row.key, row.round(row.of(parameters.get(protocol))));
            }
        }
        final ObjectNode peers = json.putObject("peers");
        for (final Peer peer : List.of(aeronIpc, aeronUdp, limitShm, limitUdp))
        {
            peers.put(peer.key, MachineReport.round(peer.rttUs(), 10_000));
        }
        final ObjectNode ratios = json.putObject("ratios");
        for (final Protocol protocol : CONFIGS)
        {
            final String peer = protocol.overNetwork() ? "aeron_udp" : "aeron_ipc";
            ratios.put(key(protocol) + "_rtt_over_" + peer, MachineReport.round(overPeer(protocol), 1000));
        }
        for (final Protocol protocol : CONFIGS)
        {
            final String limit = protocol.overNetwork() ? "limit_udp" : "limit_shm";
            ratios.put(key(protocol) + "_rtt_over_" + limit, MachineReport.round(overLimit(protocol), 1000));
        }
        lineNormalized().forEach((name, ratio) -> ratios.put(name, MachineReport.round(ratio, 1000)));
        warmUps(json.putObject("warmup_rounds"));
        json.putObject("targets")
            .put("shm_rtt_at_most_aeron_ipc", meetsTarget(Protocol.SHM))
            .put("net_rtt_at_most_aeron_udp", meetsTarget(Protocol.NET));
        final ObjectNode paper = json.putObject("paper");
        paper.put("source", "Lumetta, Mainwaring, Culler: Multi-Protocol Active Messages on a Cluster of " +
            "SMP's (SC'97), Table 3; half-power points in bytes taking the paper's kB as 1000 bytes");
        for (int c = 0; c < CONFIGS.size(); c++)
        {
            final ObjectNode config = paper.putObject(key(CONFIGS.get(c)));
            config.put("column", PAPER_COLUMNS.get(c));
            for (final Row row : Row.values())
            {
                config.put(row.key, row.paper[c]);
            }
        }
        final ObjectNode details = json.putObject("details");
        for (final Protocol protocol : CONFIGS)
        {
            final LatencySummary rtt = LatencySummary.from(am.get(protocol), "rtt");
            final ObjectNode config = details.putObject(key(protocol)).put("transports", protocol.transports())
                .put("route", route(protocol))
                .put("rtt_p50_ns", rtt.p50()).put("rtt_p99_ns", rtt.p99()).put("rtt_p999_ns", rtt.p999())
                .put("rtt_mean_ns", rtt.mean());
            config.set("signature", am.get(protocol).get("signature"));
            config.set("transfer", am.get(protocol).get("transfer"));
        }
        pollCost.putInto(json);
        json.put("nic_kind", PingPongOptions.nicKind(options.nicsPerNode()));
        json.put("nics_per_node", options.nicsPerNode());
        json.put("ranks_per_jvm", options.ranksPerJvm());
        json.put("command", command);
        json.put("timestamp", timestamp);
        json.put("quick", options.quick());
        final LogPOptions.Scale scale = options.scale();
        json.put("rounds", scale.rounds());
        json.put("warmup", scale.warmup());
        json.put("signature_reps", scale.signatureReps());
        json.put("pinned", pinning.applied());
        impossibleFigures().forEach(json.putArray("impossible_figures")::add);
        json.put("slow_epoch", slowEpoch());
        machine.slowMeasurements().forEach(json.putArray("slow_epoch_measurements")::add);
        machine.putInto(json);
        return ReportJson.write(json);
    }

    /**
     * The untimed round trips each pair's warm-up took ({@link WarmUp}), by configuration and peer key; a pair whose
     * results do not say is left out.
     */
    private void warmUps(final ObjectNode json)
    {
        for (final Protocol protocol : CONFIGS)
        {
            final Results results = am.get(protocol);
            if (results.has("rtt_warmup_rounds"))
            {
                json.put(key(protocol), results.getLong("rtt_warmup_rounds"));
            }
        }
        for (final Peer peer : List.of(aeronIpc, aeronUdp, limitShm, limitUdp))
        {
            if (peer.results.has(peer.prefix + "_warmup_rounds"))
            {
                json.put(peer.key.replace("_rtt_us", ""), peer.results.getLong(peer.prefix + "_warmup_rounds"));
            }
        }
    }
}
