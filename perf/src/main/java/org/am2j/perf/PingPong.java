package org.am2j.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.am2j.launch.Am2Run;
import org.am2j.launch.CpuPinning;

/**
 * The ping-pong benchmark, {@code bin/am2j pingpong}:
 * <pre>
 * am2j pingpong --protocol shm|multi-shm|net|multi-net [--size BYTES] [--rounds N] [--warmup N] [--nics-per-node K]
 *     [--ranks-per-jvm K] [--json FILE] [--quick]
 * </pre>
 * It runs each pair of rank JVMs as a job of the SPMD launcher ({@link Am2Run}, in this process):
 * {@code am2j run -n 2 --nodes N --pin --timeout T --jvm-opt -Dam2j.transports=.. --cp <this class path> -- MAINCLASS
 * ARGS}, so each rank is pinned to its own CPU with {@code taskset} when it can be ({@link CpuPinning}), on the
 * emulated nodes and with the transports of the {@link Protocol}, and the pair is killed when it outlives its time
 * limit. With {@code --nics-per-node K} (network protocols) the pair's ranks are served by K shared NIC processes
 * per emulated node, which the launcher starts before the ranks and stops after them, as {@code am2j run
 * --nics-per-node K} does; the limits' pairs use no NIC. With {@code --ranks-per-jvm 2} (one-node protocols) each
 * pair is two threads of one JVM ({@code am2j run --ranks-per-jvm 2}): the AM round trips then go through the
 * in-process transport, which the report names as the route, and the cache-line limit is between the two threads. It
 * measures, in this order, each measurement behind a machine-state probe ({@link EpochGuard}):
 * <ol>
 * <li>short request/reply round trips: warm-up, then {@code --rounds} round trips each timed with
 * {@link System#nanoTime()} into an HdrHistogram (p50, p99, p99.9, mean, min, max);</li>
 * <li>with {@code --size B}, the same for medium messages of B bytes whose reply echoes the B bytes;</li>
 * <li>o_s: the mean time of one {@code request()} call for a short message, from bursts of
 * {@value PingPongOptions#OS_BURST} requests sent back to back and timed as a block (the replies are taken between
 * bursts, untimed);</li>
 * <li>the one-way bandwidth of 8 KiB medium messages, pipelined, copied in at the sender and out at the receiver
 * (the paper's G), reported as the median and range of {@value PingPongOptions#BW_REPEATS} runs;</li>
 * <li>in two more JVMs pinned the same way, the machine's limit: a plain cache-line ping-pong over a mapped file
 * ({@link CacheLinePingPong}), same warm-up and round trips, and the ratio of the medians;</li>
 * <li>for the net protocols, in two more JVMs pinned the same way, the network's limit ({@link UdpPingPong}): a plain
 * UDP ping-pong over loopback, same warm-up and round trips, and plain UDP streams of 8 KiB datagrams, repeated like
 * the AM bandwidth; the ratios of the round trips' medians and of the bandwidths' medians are then against these.</li>
 * </ol>
 * The AM ranks are ordinary am2j programs ({@link AmPingPongRank}) that use the public API only; the limits' ranks
 * ({@link CacheLineRank}, {@link UdpRank}) use no AM layer. It prints a table, and with {@code --json FILE} writes
 * the results as a JSON object ({@link PingPongReport}). Exit status: 0 when measured, 1 when a rank failed or the
 * transports are not on the class path, 2 for a usage error. {@link #stop()} (the shutdown hook of
 * {@link #main(String[])}) stops the rank JVMs of the pair under way through the launcher's
 * {@link Am2Run#shutdown()}; a rank JVM whose benchmark dies without running hooks is halted by its launcher
 * watchdog.
 */
public final class PingPong
{
    static final String NAME = "am2j pingpong";

    private final PrintStream out;
    private final PrintStream err;
    private final RankPairs pairs;

    /**
     * @param out where the table and the ranks' output go.
     * @param err where progress and errors go.
     */
    public PingPong(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
        this.pairs = new RankPairs(NAME, out, err);
    }

    /**
     * Run the benchmark and exit with its status.
     *
     * @param args the command line after {@code pingpong}.
     */
    public static void main(final String[] args)
    {
        final PingPong pingPong = new PingPong(System.out, System.err);
        BenchCommand.main("am2j-pingpong-shutdown", pingPong::stop, pingPong::run, args);
    }

    /**
     * Stop the rank JVMs of the measurement under way, if any, and refuse to start more (the shutdown hook of
     * {@link #main(String[])}).
     */
    public void stop()
    {
        pairs.shutdown();
    }

    /**
     * Run the benchmark.
     *
     * @param args the command line after {@code pingpong}.
     * @return 0 when everything was measured, {@value BenchCommand#USAGE_STATUS} for a usage error,
     * {@value BenchCommand#FAILURE_STATUS} (or a failing rank's status) otherwise.
     */
    public int run(final String[] args)
    {
        final PingPongOptions options = BenchCommand.parse(NAME, PingPongOptions::parse, args, PingPongOptions.USAGE,
            err);
        if (null == options)
        {
            return BenchCommand.USAGE_STATUS;
        }
        if (options.help())
        {
            out.print(PingPongOptions.HELP);
            return 0;
        }
        final Protocol protocol = options.protocol();
        if (!pairs.canRun(protocol.transports(), "--protocol " + protocol.cliName()))
        {
            return BenchCommand.FAILURE_STATUS;
        }

        // the CPUs the ranks run on: the launcher's --pin takes them from CpuPinning.detect() the same way
        final CpuPinning pinning = CpuPinning.detect();
        final MachineState start = MachineState.read();
        final String timestamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        final String command = BenchCommand.command(NAME, args);
        return pairs.measureAll(() ->
        {
            final RankPairs.Fastest fastest = new RankPairs.Fastest();
            final Results am = fastest.of(measureAm(options));
            final Results single = null == protocol.single() ? null : fastest.of(measureSingle(options, fastest.ns()));
            final Results limit = fastest.of(pairs.measureLimit(options.ranksPerJvm(),
                options.rounds(), options.warmup(), options.size(), fastest.ns()));
            final Results udp = !protocol.overNetwork() ? null : fastest.of(pairs.measureUdpLimit(
                options.rounds(), options.warmup(), options.bwMessages(), protocol.nodes(), fastest.ns()));
            final PingPongReport report = new PingPongReport(
                options, command, timestamp, pinning, start, am, single, limit, udp);
            report.printTable(out);
            pairs.writeJson(options.json(), report.json());
        });
    }

    private Results measureAm(final PingPongOptions options)
        throws IOException, InterruptedException
    {
        err.println("am2j pingpong: measuring am2j over " + options.protocol().cliName() + " (" +
            options.protocol().transports() + ", " + LogP.nicText(options.nicsPerNode()) + pairText(options) + ")");
        return pairs.measure("am2j " + options.protocol().cliName(), AmPingPongRank.class.getName(),
            (line, results) -> new RankConfig(
                options.route(options.protocol()), options.rounds(), options.warmup(), options.size(),
                options.osBursts(),
                options.osWarmupBursts(), options.bwMessages(), PingPongOptions.BW_REPEATS, EpochGuard.NO_PROBE,
                line, results),
            options.amProperties(options.protocol()), options.protocol().nodes(), options.nicsPerNode(),
            options.ranksPerJvm(), 4L * (options.rounds() + options.warmup()));
    }

    /**
     * @return {@code , the pair in one JVM: route inproc} when it is, else nothing.
     */
    private static String pairText(final PingPongOptions options)
    {
        return options.ranksPerJvm() > 1 ? ", the pair in one JVM: route " + options.route(options.protocol()) : "";
    }

    /**
     * The reference of a multi-protocol run: the short round trips of its single protocol (shm for multi-shm, net for
     * multi-net), between two more rank JVMs placed and pinned the same way, with the same scheduler and NIC settings.
     */
    private Results measureSingle(final PingPongOptions options, final long fastestProbeNs)
        throws IOException, InterruptedException
    {
        final Protocol single = options.protocol().single();
        err.println("am2j pingpong: measuring am2j over " + single.cliName() + " (" + single.transports() + ", " +
            LogP.nicText(options.nicsPerNode()) + pairText(options) + "), the single-protocol reference");
        return pairs.measure("am2j " + single.cliName(), AmPingPongRank.class.getName(),
            (line, results) -> new RankConfig(options.route(single), options.rounds(), options.warmup(), 0, 0, 0, 0, 0,
                fastestProbeNs, line, results),
            options.amProperties(single), single.nodes(), options.nicsPerNode(), options.ranksPerJvm(),
            2L * (options.rounds() + options.warmup()));
    }

    /**
     * @return the runner of this benchmark's rank pairs.
     */
    RankPairs pairs()
    {
        return pairs;
    }
}
