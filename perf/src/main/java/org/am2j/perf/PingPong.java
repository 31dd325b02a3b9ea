package org.am2j.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.am2j.spmd.Am2Run;
import org.am2j.spmd.CpuPinning;

/**
 * The ping-pong benchmark, {@code bin/am2j pingpong}:
 * <pre>
 * am2j pingpong --protocol shm|multi-shm|net|multi-net [--size BYTES] [--rounds N] [--warmup N] [--json FILE] [--quick]
 * </pre>
 * It runs each pair of rank JVMs as a job of the SPMD launcher ({@link Am2Run}, in this process):
 * {@code am2j run -n 2 --nodes N --pin --timeout T --jvm-opt -Dam2j.transports=.. --cp <this class path> -- MAINCLASS
 * ARGS}, so each rank is pinned to its own CPU with {@code taskset} when it can be ({@link CpuPinning}), on the
 * emulated nodes and with the transports of the {@link Protocol}, and the pair is killed when it outlives its time
 * limit. It measures, in this order, each measurement behind a machine-state probe ({@link EpochGuard}):
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
    /** Exit status of a usage error. */
    public static final int USAGE_STATUS = 2;
    /** Exit status when the benchmark could not run to the end. */
    public static final int FAILURE_STATUS = 1;
    /** Ranks of every job of the benchmark. */
    static final int RANKS = 2;

    /** Time limit of a rank pair beyond its round trips, mostly JVM start-up and slow-epoch retries. */
    private static final long PAIR_BASE_TIMEOUT_MS = 120_000;
    /** Time allowed per round trip of a pair, generous: the limit is a guard against hangs, not a target. */
    private static final long PAIR_NS_PER_ROUND_TRIP = 20_000;

    private final PrintStream out;
    private final PrintStream err;
    private final Am2Run launcher;

    /**
     * @param out where the table and the ranks' output go.
     * @param err where progress and errors go.
     */
    public PingPong(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
        this.launcher = new Am2Run(out, err);
    }

    /**
     * Run the benchmark and exit with its status.
     *
     * @param args the command line after {@code pingpong}.
     */
    public static void main(final String[] args)
    {
        final PingPong pingPong = new PingPong(System.out, System.err);
        Runtime.getRuntime().addShutdownHook(new Thread(pingPong::stop, "am2j-pingpong-shutdown"));
        final int status = pingPong.run(args);
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    /**
     * Stop the rank JVMs of the measurement under way, if any, and refuse to start more (the shutdown hook of
     * {@link #main(String[])}).
     */
    public void stop()
    {
        launcher.shutdown();
    }

    /**
     * Run the benchmark.
     *
     * @param args the command line after {@code pingpong}.
     * @return 0 when everything was measured, {@value #USAGE_STATUS} for a usage error, {@value #FAILURE_STATUS}
     * (or a failing rank's status) otherwise.
     */
    public int run(final String[] args)
    {
        final PingPongOptions options;
        try
        {
            options = PingPongOptions.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("am2j pingpong: " + ex.getMessage());
            err.println(PingPongOptions.USAGE);
            return USAGE_STATUS;
        }
        if (options.help())
        {
            out.println(PingPongOptions.USAGE);
            out.println(PingPongOptions.HELP);
            return 0;
        }
        final Protocol protocol = options.protocol();
        if (null != options.json())
        {
            final Path dir = options.json().toAbsolutePath().getParent();
            if (null == dir || !Files.isDirectory(dir) || !Files.isWritable(dir))
            {
                err.println("am2j pingpong: --json " + options.json() + ": " + dir + " is not a writable directory");
                err.println(PingPongOptions.USAGE);
                return USAGE_STATUS;
            }
        }
        if (Runtime.getRuntime().availableProcessors() < RANKS)
        {
            err.println("am2j pingpong: needs at least 2 CPUs (the two ranks spin-wait on each other), this JVM has " +
                Runtime.getRuntime().availableProcessors());
            return FAILURE_STATUS;
        }
        final List<String> missing = TransportCheck.missing(protocol.transports());
        if (!missing.isEmpty())
        {
            err.println("am2j pingpong: --protocol " + protocol.cliName() + " needs the transports " +
                protocol.transports() + "; not on the class path: " + String.join(", ", missing) +
                " (found: " + TransportCheck.available() + ")");
            return FAILURE_STATUS;
        }

        // the CPUs the ranks run on: the launcher's --pin takes them from CpuPinning.detect() the same way
        final CpuPinning pinning = CpuPinning.detect();
        final MachineState start = MachineState.read();
        final String timestamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        final String command = command(args);
        try
        {
            final Results am = measureAm(options);
            if (null == am)
            {
                return FAILURE_STATUS;
            }
            final Results limit = measureLimit(
                options.rounds(), options.warmup(), am.getLong("probe_fastest_p50_ns"));
            if (null == limit)
            {
                return FAILURE_STATUS;
            }
            Results udp = null;
            if (protocol.overNetwork())
            {
                udp = measureUdpLimit(options.rounds(), options.warmup(), options.bwMessages(), protocol.nodes(),
                    Math.min(am.getLong("probe_fastest_p50_ns"), limit.getLong("probe_fastest_p50_ns")));
                if (null == udp)
                {
                    return FAILURE_STATUS;
                }
            }
            final PingPongReport report = new PingPongReport(
                options, command, timestamp, pinning, start, am, limit, udp);
            report.printTable(out);
            if (null != options.json())
            {
                Files.writeString(options.json(), report.json(), StandardCharsets.UTF_8);
                err.println("am2j pingpong: wrote " + options.json());
            }
            return 0;
        }
        catch (final IOException ex)
        {
            err.println("am2j pingpong: " + ex);
            return FAILURE_STATUS;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err.println("am2j pingpong: interrupted");
            return FAILURE_STATUS;
        }
    }

    private Results measureAm(final PingPongOptions options)
        throws IOException, InterruptedException
    {
        err.println("am2j pingpong: measuring am2j over " + options.protocol().cliName() + " (" +
            options.protocol().transports() + ")");
        final Path line = deletedOnExit(CacheLinePingPong.createFile());
        final Path results = deletedOnExit(Files.createTempFile("am2j-pingpong-", ".results"));
        try
        {
            final RankConfig config = new RankConfig(
                options.protocol().route(), options.rounds(), options.warmup(), options.size(), options.osBursts(),
                options.osWarmupBursts(), options.bwMessages(), PingPongOptions.BW_REPEATS, EpochGuard.NO_PROBE,
                line, results);
            final int status = runPair(
                "am2j " + options.protocol().cliName(), AmPingPongRank.class.getName(), config.toArgs(),
                options.amProperties(), options.protocol().nodes(),
                pairTimeoutSeconds(4L * (options.rounds() + options.warmup())));
            return 0 == status ? results(results) : null;
        }
        finally
        {
            Files.deleteIfExists(line);
            Files.deleteIfExists(results);
        }
    }

    /**
     * Measure the machine's limit: the cache-line ping-pong between two rank JVMs pinned like the AM ranks.
     *
     * @param rounds         timed round trips.
     * @param warmup         untimed round trips before them.
     * @param fastestProbeNs fastest probe of the run so far, or {@link EpochGuard#NO_PROBE}.
     * @return the results ({@code limit_rtt_*}, the probe's), or {@code null} when the ranks failed.
     * @throws IOException          when the files of the pair cannot be made.
     * @throws InterruptedException when interrupted (the ranks are destroyed first).
     */
    Results measureLimit(final int rounds, final int warmup, final long fastestProbeNs)
        throws IOException, InterruptedException
    {
        err.println("am2j pingpong: measuring the machine's limit (cache-line ping-pong between two JVMs)");
        final Path line = deletedOnExit(CacheLinePingPong.createFile());
        final Path results = deletedOnExit(Files.createTempFile("am2j-pingpong-", ".results"));
        try
        {
            final RankConfig config = new RankConfig(
                "-", rounds, warmup, 0, 0, 0, 0, 0, fastestProbeNs, line, results);
            final int status = runPair(
                "limit", CacheLineRank.class.getName(), config.toArgs(), Map.of(), 1,
                pairTimeoutSeconds((long)rounds + warmup));
            return 0 == status ? results(results) : null;
        }
        finally
        {
            Files.deleteIfExists(line);
            Files.deleteIfExists(results);
        }
    }

    /**
     * Measure the network's limit, for the net protocols: plain UDP between two rank JVMs pinned like the AM ranks
     * ({@link UdpRank}), a ping-pong of {@value UdpPingPong#SHORT_BYTES}-byte datagrams and streams of
     * {@value UdpPingPong#STREAM_BYTES}-byte ones.
     *
     * @param rounds         timed round trips.
     * @param warmup         untimed round trips before them.
     * @param bwMessages     datagrams of each timed stream.
     * @param nodes          emulated nodes the ranks are placed on, as the AM ranks were.
     * @param fastestProbeNs fastest probe of the run so far, or {@link EpochGuard#NO_PROBE}.
     * @return the results ({@code limit_udp_rtt_*}, {@code udp_bw_8k_*}, {@code udp_loss}, the probe's), or
     * {@code null} when the ranks failed.
     * @throws IOException          when the files of the pair cannot be made.
     * @throws InterruptedException when interrupted (the ranks are destroyed first).
     */
    Results measureUdpLimit(
        final int rounds, final int warmup, final int bwMessages, final int nodes, final long fastestProbeNs)
        throws IOException, InterruptedException
    {
        err.println("am2j pingpong: measuring the network's limit (plain UDP ping-pong and stream between two JVMs)");
        final Path line = deletedOnExit(CacheLinePingPong.createFile());
        final Path results = deletedOnExit(Files.createTempFile("am2j-pingpong-", ".results"));
        try
        {
            final RankConfig config = new RankConfig(
                "-", rounds, warmup, 0, 0, 0, bwMessages, PingPongOptions.BW_REPEATS, fastestProbeNs, line, results);
            final int status = runPair(
                "udp limit", UdpRank.class.getName(), config.toArgs(), Map.of(), nodes,
                pairTimeoutSeconds(4L * (rounds + warmup)));
            return 0 == status ? results(results) : null;
        }
        finally
        {
            Files.deleteIfExists(line);
            Files.deleteIfExists(results);
        }
    }

    /**
     * Run a pair of rank JVMs as a job of the launcher, pinned, under a time limit, on this process's class path:
     * {@code am2j run -n 2 --nodes N --pin --timeout T --jvm-opt -Dkey=value ... --cp <class path> -- MAINCLASS ARGS}.
     * The ranks' output lines reach this benchmark's streams prefixed with {@code [R] }.
     *
     * @param label          what the pair measures, for messages.
     * @param mainClass      the rank program: its {@code main(String[])} runs in both ranks.
     * @param rankArgs       the rank program's arguments.
     * @param properties     system properties of both JVMs.
     * @param nodes          emulated nodes: 1 puts both ranks on node 0, 2 puts rank r on node r.
     * @param timeoutSeconds how long the pair may run before both ranks are killed.
     * @return 0 when both ranks exited with 0, else the launcher's non-zero status (it has said why).
     * @throws InterruptedException when interrupted while waiting (the launcher has stopped both ranks first).
     */
    int runPair(
        final String label,
        final String mainClass,
        final List<String> rankArgs,
        final Map<String, String> properties,
        final int nodes,
        final int timeoutSeconds) throws InterruptedException
    {
        final List<String> args = new ArrayList<>(List.of(
            "-n", Integer.toString(RANKS), "--nodes", Integer.toString(nodes), "--pin",
            "--timeout", Integer.toString(timeoutSeconds)));
        for (final Map.Entry<String, String> property : properties.entrySet())
        {
            args.add("--jvm-opt");
            args.add("-D" + property.getKey() + "=" + property.getValue());
        }
        args.add("--cp");
        args.add(System.getProperty("java.class.path"));
        args.add("--");
        args.add(mainClass);
        args.addAll(rankArgs);

        final int status = launcher.run(args.toArray(new String[0]));
        if (Thread.interrupted())
        {
            throw new InterruptedException("interrupted while the " + label + " ranks ran");
        }
        if (0 != status)
        {
            err.println("am2j pingpong: " + label + ": the rank JVMs failed (am2j run exit status " + status + ")");
        }
        return status;
    }

    /**
     * @param roundTrips of the pair's measurements.
     * @return the pair's time limit in seconds: {@link #PAIR_BASE_TIMEOUT_MS} plus
     * {@link #PAIR_NS_PER_ROUND_TRIP} per round trip, rounded up.
     */
    static int pairTimeoutSeconds(final long roundTrips)
    {
        final long timeoutMs = PAIR_BASE_TIMEOUT_MS + TimeUnit.NANOSECONDS.toMillis(
            roundTrips * PAIR_NS_PER_ROUND_TRIP);
        return (int)Math.min(Integer.MAX_VALUE, (timeoutMs + 999) / 1000);
    }

    private static Results results(final Path results) throws IOException
    {
        final Results read = Results.read(results);
        if (!read.has("probe_fastest_p50_ns"))
        {
            throw new IOException("rank 0 exited with 0 but left no results in " + results);
        }
        return read;
    }

    /**
     * @param file to delete when the JVM exits, also on SIGINT or SIGTERM while a pair is running (the deletion after
     *             the pair then may not run).
     * @return the file.
     */
    private static Path deletedOnExit(final Path file)
    {
        file.toFile().deleteOnExit();
        return file;
    }

    private static String command(final String[] args)
    {
        final StringBuilder text = new StringBuilder("am2j pingpong");
        for (final String arg : args)
        {
            text.append(' ');
            if (arg.isEmpty() || !arg.matches("[A-Za-z0-9_./=:,+-]+"))
            {
                text.append('\'').append(arg.replace("'", "'\\''")).append('\'');
            }
            else
            {
                text.append(arg);
            }
        }
        return text.toString();
    }
}
