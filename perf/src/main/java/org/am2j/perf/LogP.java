package org.am2j.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.am2j.launch.CpuPinning;

/**
 * The LogP microbenchmark harness, {@code bin/am2j logp}:
 * <pre>
 * am2j logp [--quick] [--rounds N] [--nics-per-node K] [--ranks-per-jvm K] [--json FILE] [--plots DIR]
 * </pre>
 * It measures the parameters of the paper's Table 3 (L, o_s, o_r, g, G, 1/G, the half-power point and the round
 * trip) for shared memory alone, multi-protocol shared memory, multi-protocol network and the network alone
 * ({@link LogPRank}, the method in {@link LogPParameters} and {@code docs/logp.md}), and in the same run the peers
 * and limits their round trips are held against, each in its own pair of pinned JVMs: the cache-line ping-pong (the
 * limit for shared memory), Aeron IPC, the four AM configurations, Aeron UDP ({@link AeronRank}) and plain UDP (the
 * limit for the network), in that order, so each peer runs next to what it is compared with; then the cost of an empty
 * network poll and the ratio the {@code calibrated} poll scheduler reads ({@link NetPollCost}, two more pairs of
 * {@link NetPollRank}). With {@code --nics-per-node K} the ranks of the network configurations and of the poll-cost
 * pairs are served by K shared NIC processes per emulated node, which the launcher starts and stops with each pair.
 * With {@code --ranks-per-jvm 2} the pairs of the one-node configurations (shm, multi-shm) and the cache-line limit
 * are two threads of one JVM: those configurations then measure the in-process transport (their {@code route}).
 * Every measurement runs
 * behind the machine-state probe of {@link EpochGuard}, retried or flagged in a slow epoch. It prints the table
 * ({@link LogPReport}), and writes the JSON with {@code --json} and the plots ({@link LogPPlots}) with
 * {@code --plots}. Exit status: 0 when measured, 1 when a pair failed or a transport is missing, 2 for a usage
 * error. {@link #stop()} (the shutdown hook of {@link #main(String[])}) stops the pair under way.
 */
public final class LogP
{
    /** The command's name in messages. */
    static final String NAME = "am2j logp";
    /** Transports the four configurations need. */
    static final String TRANSPORTS = "shm,net";

    private final PrintStream out;
    private final PrintStream err;
    private final RankPairs pairs;

    /**
     * @param out where the table and the ranks' output go.
     * @param err where progress and errors go.
     */
    public LogP(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
        this.pairs = new RankPairs(NAME, out, err);
    }

    /**
     * Run the benchmark and exit with its status.
     *
     * @param args the command line after {@code logp}.
     */
    public static void main(final String[] args)
    {
        System.setProperty("java.awt.headless", "true");
        final LogP logP = new LogP(System.out, System.err);
        BenchCommand.main("am2j-logp-shutdown", logP::stop, logP::run, args);
    }

    /**
     * Stop the rank JVMs of the measurement under way, if any, and refuse to start more.
     */
    public void stop()
    {
        pairs.shutdown();
    }

    /**
     * Run the benchmark.
     *
     * @param args the command line after {@code logp}.
     * @return 0 when everything was measured, {@value BenchCommand#USAGE_STATUS} for a usage error,
     * {@value BenchCommand#FAILURE_STATUS} otherwise.
     */
    public int run(final String[] args)
    {
        final LogPOptions options = BenchCommand.parse(NAME, LogPOptions::parse, args, LogPOptions.USAGE, err);
        if (null == options)
        {
            return BenchCommand.USAGE_STATUS;
        }
        if (options.help())
        {
            out.print(LogPOptions.HELP);
            return 0;
        }
        return run(options, BenchCommand.command(NAME, args));
    }

    /**
     * Run the benchmark with parsed options.
     *
     * @param options of the run.
     * @param command the command line, for the record.
     * @return 0 when everything was measured, {@value BenchCommand#FAILURE_STATUS} otherwise.
     */
    int run(final LogPOptions options, final String command)
    {
        if (!pairs.canRun(TRANSPORTS, "each of the four configurations"))
        {
            return BenchCommand.FAILURE_STATUS;
        }
        final CpuPinning pinning = CpuPinning.detect();
        final MachineState start = MachineState.read();
        final String timestamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        final long began = System.nanoTime();
        final LogPOptions.Scale scale = options.scale();
        return pairs.measureAll(() ->
        {
            final RankPairs.Fastest fastest = new RankPairs.Fastest();
            final Results limitShm = fastest.of(pairs.measureLimit(options.ranksPerJvm(), scale.rounds(),
                scale.warmup(), 0, fastest.ns()));
            final Results aeronIpc = fastest.of(measureAeron(AeronPingPong.Kind.IPC, scale, fastest.ns()));
            final Map<Protocol, Results> am = new LinkedHashMap<>();
            for (final Protocol protocol : LogPReport.CONFIGS)
            {
                am.put(protocol, fastest.of(measureAm(protocol, scale, options.nicsPerNode(protocol),
                    protocol.ranksPerJvm(options.ranksPerJvm()), fastest.ns())));
            }
            final Results aeronUdp = fastest.of(measureAeron(AeronPingPong.Kind.UDP, scale, fastest.ns()));
            final Results limitUdp = fastest.of(pairs.measureUdpLimit(
                scale.rounds(), scale.warmup(), scale.udpStream(), Protocol.NET.nodes(), fastest.ns()));
            final Results pollNetwork = fastest.of(measurePollCost(NetPollCost.NETWORK, options, fastest.ns()));
            final Results pollCalibrated = fastest.of(measurePollCost(NetPollCost.CALIBRATED, options, fastest.ns()));

            final LogPReport report = new LogPReport(
                options, command, timestamp, pinning, start, am, aeronIpc, aeronUdp, limitShm, limitUdp,
                new NetPollCost(options.nicsPerNode(), pollNetwork, pollCalibrated));
            report.printTable(out);
            pairs.writeJson(options.json(), report.json());
            if (null != options.plots())
            {
                for (final Path file : LogPPlots.write(report, options.plots()))
                {
                    err.println(NAME + ": wrote " + file);
                }
            }
            err.printf("%s: took %d s%n", NAME, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
        });
    }

    private Results measureAm(final Protocol protocol, final LogPOptions.Scale scale, final int nicsPerNode,
        final int ranksPerJvm, final long fastestProbeNs) throws IOException, InterruptedException
    {
        err.println(NAME + ": measuring am2j over " + protocol.cliName() + " (" + protocol.transports() +
            (protocol.overNetwork() ? ", " + nicText(nicsPerNode) : "") +
            (ranksPerJvm > 1 ? ", the pair in one JVM: route " + protocol.route(ranksPerJvm) : "") + ")");
        return pairs.measure("am2j " + protocol.cliName(), LogPRank.class.getName(),
            (line, results) -> new RankConfig(protocol.route(ranksPerJvm), scale.rounds(), scale.warmup(),
                scale.largestTransfer(), scale.signatureReps(), scale.signatureWarmup(), scale.longestBurst(protocol),
                scale.fewestTransfers(), fastestProbeNs, line, results),
            protocol.systemProperties(), protocol.nodes(), nicsPerNode, ranksPerJvm,
            amWork(scale, scale.longestBurst(protocol)));
    }

    private Results measurePollCost(final Protocol protocol, final LogPOptions options, final long fastestProbeNs)
        throws IOException, InterruptedException
    {
        final Map<String, String> properties = NetPollCost.properties(protocol);
        err.println(NAME + ": measuring empty polls over " + protocol.cliName() + " (" + protocol.transports() +
            ", " + nicText(options.nicsPerNode()) + ", am2j.poll=" + properties.get("am2j.poll") + ")");
        return pairs.measure("poll cost " + protocol.cliName(), NetPollRank.class.getName(),
            (line, results) -> new RankConfig(protocol.route(), NetPollCost.BLOCK_POLLS, NetPollCost.WARMUP_POLLS, 0,
                0, 0, 0, NetPollCost.BLOCKS, fastestProbeNs, line, results),
            properties, protocol.nodes(), options.nicsPerNode(protocol), 1,
            (long)NetPollCost.BLOCK_POLLS * NetPollCost.BLOCKS + NetPollCost.WARMUP_POLLS);
    }

    /**
     * @param nicsPerNode shared NIC processes per emulated node, 0 for in-process NICs.
     * @return that kind of NIC for people.
     */
    static String nicText(final int nicsPerNode)
    {
        return nicsPerNode > 0 ? nicsPerNode + " shared NIC process" + (nicsPerNode > 1 ? "es" : "") + " per node" :
            "in-process NIC";
    }

    private Results measureAeron(
        final AeronPingPong.Kind kind, final LogPOptions.Scale scale, final long fastestProbeNs)
        throws IOException, InterruptedException
    {
        final String name = kind.name().toLowerCase(java.util.Locale.ROOT);
        err.println(NAME + ": measuring the peer Aeron " + kind + " (ping-pong between two JVMs)");
        return pairs.measure("aeron " + name, AeronRank.class.getName(),
            (line, results) -> new RankConfig(name, scale.rounds(), scale.warmup(), AeronPingPong.MESSAGE_BYTES, 0,
                0, 0, 0, fastestProbeNs, line, results),
            Map.of(), AeronPingPong.Kind.UDP == kind ? Protocol.NET.nodes() : 1, 0, 1,
            4L * (scale.rounds() + scale.warmup()));
    }

    /**
     * @param scale        of the run.
     * @param longestBurst of the pair's signature.
     * @return the work of an AM pair in round trips, for its time limit: the round trips four times over (slow-epoch
     * retries), and the signature's and transfers' messages weighted by their delays.
     */
    static long amWork(final LogPOptions.Scale scale, final int longestBurst)
    {
        final double delays = Arrays.stream(LogPRank.DELAY_FACTORS).map(factor -> 1 + factor).sum();
        final long signature = (long)((scale.signatureReps() + scale.signatureWarmup()) * 2L *
            longestBurst * delays);
        final long transfers = (long)LogPRank.MOST_REPS_FACTOR * scale.fewestTransfers() * 2 * 20 * 16;
        return 4L * (scale.rounds() + scale.warmup() + signature + transfers);
    }
}
