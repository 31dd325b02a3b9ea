package org.am2j.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.am2j.launch.Am2Run;
import org.am2j.launch.CpuPinning;

/**
 * Runs the rank pairs of a benchmark ({@link PingPong}, {@link LogP}): each pair is a job of the SPMD launcher
 * ({@link Am2Run}, in this process), {@code am2j run -n 2 --nodes N --ranks-per-jvm K --pin --timeout T --jvm-opt
 * -Dkey=value ... --cp <this class path> -- MAINCLASS ARGS}, so each rank is pinned to its own CPU with
 * {@code taskset} when it can be ({@link CpuPinning}), on the emulated nodes asked for, and the pair is killed when it
 * outlives its time limit. With K = 1 the pair is two rank JVMs; with K = 2 it is two threads of one JVM (on one
 * node), which runs on both ranks' CPUs. K is always given, so that an {@code AM2J_RANKS_PER_JVM} of the environment
 * places no pair behind the benchmark's back. A pair's rank program gets a {@link RankConfig} command line naming a
 * fresh cache-line file (for the {@link EpochGuard} probes) and the file rank 0 writes its {@link Results} to; both
 * files are deleted after the pair, or at exit when the benchmark is stopped.
 * <p>
 * The pairs every benchmark holds itself against live here too: the machine's limit ({@link #measureLimit}) and the
 * network's ({@link #measureUdpLimit}).
 */
final class RankPairs
{
    /** Ranks of every job. */
    static final int RANKS = 2;

    /** Time limit of a rank pair beyond its round trips, mostly JVM start-up and slow-epoch retries. */
    private static final long PAIR_BASE_TIMEOUT_MS = 120_000;
    /** Time allowed per round trip of a pair, generous: the limit is a guard against hangs, not a target. */
    private static final long PAIR_NS_PER_ROUND_TRIP = 20_000;

    /**
     * Makes the command line of a pair's rank program once its files exist.
     */
    @FunctionalInterface
    interface ConfigMaker
    {
        /**
         * @param line    the pair's cache-line file.
         * @param results where rank 0 writes its results.
         * @return the configuration of both ranks.
         */
        RankConfig make(Path line, Path results);
    }

    private final String command;
    private final PrintStream err;
    private final Am2Run launcher;

    /**
     * @param command the benchmark's name for its messages, e.g. {@code am2j pingpong}.
     * @param out     where the ranks' output goes.
     * @param err     where progress, the ranks' errors and failures go.
     */
    RankPairs(final String command, final PrintStream out, final PrintStream err)
    {
        this.command = command;
        this.err = err;
        this.launcher = new Am2Run(out, err);
    }

    /**
     * Stop the rank JVMs of the pair under way, if any, and refuse to start more.
     */
    void shutdown()
    {
        launcher.shutdown();
    }

    /**
     * Run one pair, its ranks served by shared NIC processes when asked, and read rank 0's results.
     *
     * @param label       what the pair measures, for messages.
     * @param mainClass   the rank program.
     * @param config      makes the rank program's configuration.
     * @param properties  system properties of both JVMs.
     * @param nodes       emulated nodes: 1 puts both ranks on node 0, 2 puts rank r on node r.
     * @param nicsPerNode NIC processes per emulated node, started and stopped by the launcher with the pair
     *                    ({@code --nics-per-node}); 0 gives each rank its in-process NIC.
     * @param ranksPerJvm 1 for two rank JVMs, 2 for the pair as threads of one JVM (one node).
     * @param roundTrips  how many round trips (or equivalent units of work) the pair makes, for its time limit.
     * @return rank 0's results, or {@code null} when a rank failed (said on the error stream).
     * @throws IOException          when the pair's files cannot be made or the results read.
     * @throws InterruptedException when interrupted (the ranks are stopped first).
     */
    Results measure(
        final String label,
        final String mainClass,
        final ConfigMaker config,
        final Map<String, String> properties,
        final int nodes,
        final int nicsPerNode,
        final int ranksPerJvm,
        final long roundTrips) throws IOException, InterruptedException
    {
        final Path line = deletedOnExit(CacheLinePingPong.createFile());
        final Path results = deletedOnExit(Files.createTempFile("am2j-pair-", ".results"));
        try
        {
            final int status = runPair(label, mainClass, config.make(line, results).toArgs(), properties, nodes,
                nicsPerNode, ranksPerJvm, pairTimeoutSeconds(roundTrips));
            return 0 == status ? results(results) : null;
        }
        finally
        {
            Files.deleteIfExists(line);
            Files.deleteIfExists(results);
        }
    }

    /**
     * Measure the machine's limit: the cache-line ping-pong between two rank JVMs pinned like the AM ranks (or two
     * threads of one JVM, as the AM ranks), and with a size, medium round trips of that many bytes on the pair's data
     * page ({@link CacheLineRank}).
     *
     * @param ranksPerJvm    1 for two rank JVMs, 2 for two threads of one JVM.
     * @param rounds         timed round trips of each.
     * @param warmup         untimed round trips before them.
     * @param size           bytes of the medium round trips, 0 for none.
     * @param fastestProbeNs fastest probe of the run so far, or {@link EpochGuard#NO_PROBE}.
     * @return the results ({@code limit_rtt_*}, {@code limit_medium_rtt_*} with a size, the probe's), or
     * {@code null} when the ranks failed.
     * @throws IOException          when the files of the pair cannot be made.
     * @throws InterruptedException when interrupted (the ranks are destroyed first).
     */
    Results measureLimit(final int ranksPerJvm, final int rounds, final int warmup, final int size,
        final long fastestProbeNs) throws IOException, InterruptedException
    {
        err.println(command + ": measuring the machine's limit (cache-line ping-pong between two " +
            (ranksPerJvm > 1 ? "threads of one JVM" : "JVMs") +
            (size > 0 ? ", and " + size + " bytes each way" : "") + ")");
        return measure("limit", CacheLineRank.class.getName(), (line, results) -> new RankConfig(
            "-", rounds, warmup, size, 0, 0, 0, 0, fastestProbeNs, line, results), Map.of(), 1, 0, ranksPerJvm,
            (size > 0 ? 2L : 1L) * (rounds + warmup));
    }

    /**
     * Measure the network's limit: plain UDP between two rank JVMs pinned like the AM ranks ({@link UdpRank}), a
     * ping-pong of {@value UdpPingPong#SHORT_BYTES}-byte datagrams and streams of
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
        err.println(command + ": measuring the network's limit (plain UDP ping-pong and stream between two JVMs)");
        return measure("udp limit", UdpRank.class.getName(), (line, results) -> new RankConfig(
            "-", rounds, warmup, 0, 0, 0, bwMessages, PingPongOptions.BW_REPEATS, fastestProbeNs, line, results),
            Map.of(), nodes, 0, 1, 4L * (rounds + warmup));
    }

    /**
     * Run a pair of ranks as a job of the launcher, pinned, under a time limit, on this process's class path:
     * {@code am2j run -n 2 --nodes N --ranks-per-jvm K --pin --timeout T --jvm-opt -Dkey=value ... --cp <class path>
     * -- MAINCLASS ARGS}.
     * The ranks' output lines reach this benchmark's streams prefixed with {@code [R] }. With {@code nicsPerNode} K
     * &gt; 0 the launcher starts K NIC processes per emulated node before the ranks and stops them after, on every
     * exit path (a failing rank, the time limit, {@link #shutdown()}), as {@code am2j run --nics-per-node K} does.
     *
     * @param label          what the pair measures, for messages.
     * @param mainClass      the rank program: its {@code main(String[])} runs in both ranks.
     * @param rankArgs       the rank program's arguments.
     * @param properties     system properties of both JVMs.
     * @param nodes          emulated nodes: 1 puts both ranks on node 0, 2 puts rank r on node r.
     * @param nicsPerNode    NIC processes per emulated node; 0 gives each rank its in-process NIC.
     * @param ranksPerJvm    1 for two rank JVMs, 2 for the pair as threads of one JVM (one node).
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
        final int nicsPerNode,
        final int ranksPerJvm,
        final int timeoutSeconds) throws InterruptedException
    {
        final List<String> args = launchArgs(mainClass, rankArgs, properties, nodes, nicsPerNode, ranksPerJvm,
            timeoutSeconds, System.getProperty("java.class.path"));
        final int status = launcher.run(args.toArray(new String[0]));
        if (Thread.interrupted())
        {
            throw new InterruptedException("interrupted while the " + label + " ranks ran");
        }
        if (0 != status)
        {
            err.println(command + ": " + label + ": the rank " + (ranksPerJvm > 1 ? "JVM" : "JVMs") +
                " failed (am2j run exit status " + status + ")");
        }
        return status;
    }

    /**
     * @param mainClass      the rank program.
     * @param rankArgs       its arguments.
     * @param properties     system properties of both JVMs.
     * @param nodes          emulated nodes.
     * @param nicsPerNode    NIC processes per emulated node, 0 for in-process NICs (no option then).
     * @param ranksPerJvm    ranks in each JVM, 1 or 2.
     * @param timeoutSeconds the pair's time limit.
     * @param classPath      the ranks' class path.
     * @return the launcher's command line: {@code -n 2 --nodes N [--nics-per-node K] --ranks-per-jvm K --pin
     * --timeout T [--jvm-opt -Dkey=value]... --cp CP -- MAINCLASS ARGS}.
     */
    static List<String> launchArgs(
        final String mainClass,
        final List<String> rankArgs,
        final Map<String, String> properties,
        final int nodes,
        final int nicsPerNode,
        final int ranksPerJvm,
        final int timeoutSeconds,
        final String classPath)
    {
        final List<String> args = new ArrayList<>(List.of("-n", Integer.toString(RANKS), "--nodes",
            Integer.toString(nodes)));
        if (nicsPerNode > 0)
        {
            args.addAll(List.of("--nics-per-node", Integer.toString(nicsPerNode)));
        }
        args.addAll(List.of("--ranks-per-jvm", Integer.toString(ranksPerJvm), "--pin", "--timeout",
            Integer.toString(timeoutSeconds)));
        properties.forEach((key, value) -> args.addAll(List.of("--jvm-opt", "-D" + key + "=" + value)));
        args.addAll(List.of("--cp", classPath, "--", mainClass));
        args.addAll(rankArgs);
        return args;
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

    /**
     * @param transports the transports the pairs need, comma separated.
     * @param who        what needs them, for the error.
     * @return true when this machine can run the pairs: at least {@value #RANKS} CPUs (the two ranks spin-wait on
     * each other) and the transports on the class path; otherwise false, said on the error stream.
     */
    boolean canRun(final String transports, final String who)
    {
        final int cpus = Runtime.getRuntime().availableProcessors();
        final List<String> missing = TransportCheck.missing(transports);
        if (cpus < RANKS)
        {
            err.println(command + ": needs at least 2 CPUs (the two ranks spin-wait on each other), this JVM has " +
                cpus);
        }
        else if (!missing.isEmpty())
        {
            err.println(command + ": " + who + " needs the transports " + transports + "; not on the class path: " +
                String.join(", ", missing) + " (found: " + TransportCheck.available() + ")");
        }
        return cpus >= RANKS && missing.isEmpty();
    }

    /**
     * Write a report to the file of {@code --json}, if any, and say so.
     *
     * @param json the file, or {@code null}.
     * @param text the report.
     * @throws IOException when it cannot be written.
     */
    void writeJson(final Path json, final String text) throws IOException
    {
        if (null != json)
        {
            Files.writeString(json, text, StandardCharsets.UTF_8);
            err.println(command + ": wrote " + json);
        }
    }

    /** A rank pair failed; the launcher has said why. */
    static final class PairFailed extends Exception
    {
        private static final long serialVersionUID = 1L;

        PairFailed()
        {
            super(null, null, false, false);
        }
    }

    /** The pairs of a benchmark, measured one after another; each may fail. */
    @FunctionalInterface
    interface Pairs
    {
        /**
         * @throws PairFailed           when a pair failed (the launcher has said why).
         * @throws IOException          when a pair's files cannot be made or a report written.
         * @throws InterruptedException when interrupted.
         */
        void measure() throws PairFailed, IOException, InterruptedException;
    }

    /**
     * The fastest probe of a benchmark's pairs so far, handed to each next pair so that its guard judges against it.
     */
    static final class Fastest
    {
        private long ns = EpochGuard.NO_PROBE;

        /**
         * @param results of a pair, or {@code null} when it failed.
         * @return them.
         * @throws PairFailed when it failed.
         */
        Results of(final Results results) throws PairFailed
        {
            if (null == results)
            {
                throw new PairFailed();
            }
            ns = Math.min(ns, results.getLong("probe_fastest_p50_ns"));
            return results;
        }

        /**
         * @return the fastest probe median so far, or {@link EpochGuard#NO_PROBE}.
         */
        long ns()
        {
            return ns;
        }
    }

    /**
     * Measure a benchmark's pairs, and say on the error stream why they could not all be measured.
     *
     * @param pairs the measurements and the report.
     * @return 0 when all were measured and reported, 1 otherwise.
     */
    int measureAll(final Pairs pairs)
    {
        try
        {
            pairs.measure();
            return 0;
        }
        catch (final PairFailed ex)
        {
            return 1;
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println(command + ": " + ex);
            return 1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err.println(command + ": interrupted");
            return 1;
        }
    }
}
