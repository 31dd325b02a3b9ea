package org.am2j.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.am2j.launch.JvmPlacement;
import org.am2j.spmd.SpmdEnvironment;

import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of {@link LogP}, parsed and checked (see {@link #HELP}).
 * <p>
 * The amount of work of each measurement is a {@link Scale}: {@link #FULL} by default, {@link #QUICK} with
 * {@code --quick}; {@code --rounds N} sets the round trips of every ping-pong (with a fifth as many warm-up ones)
 * whatever the order.
 *
 * @param help    true when help was asked for; the other values are then not set.
 * @param quick   true for {@code --quick}.
 * @param scale   the work of each measurement.
 * @param json    where to write the JSON results, or {@code null}.
 * @param plots   the directory to write the PNG plots to, or {@code null}.
 * @param nicsPerNode shared NIC processes per emulated node of the network configurations' pairs, 0 (the default)
 *                for the in-process NIC.
 * @param ranksPerJvm 2 to run the pairs of the one-node configurations (shm, multi-shm) and the cache-line limit as two
 *                threads of one JVM, through the in-process transport ({@code --ranks-per-jvm}, else
 *                {@code AM2J_RANKS_PER_JVM}); 1, the default, for a JVM per rank.
 */
record LogPOptions(boolean help, boolean quick, LogPOptions.Scale scale, Path json, Path plots, int nicsPerNode,
    int ranksPerJvm)
{
    /**
     * How much each measurement does.
     *
     * @param rounds          timed round trips of every ping-pong (AM, Aeron, limits).
     * @param warmup          untimed round trips before them.
     * @param signatureReps   timed repetitions of every burst of the signature.
     * @param signatureWarmup untimed repetitions before them.
     * @param longestBurst    the longest burst of the signature over shared memory (a power of two, at most the
     *                        shared-memory protocol's request depth).
     * @param longestNetBurst the longest burst of the signature over the network (a power of two).
     * @param largestTransfer the largest transfer of the bandwidth curve, bytes (a power of two, at most
     *                        {@link AmMessaging#TRANSFER_BUFFER_BYTES}).
     * @param fewestTransfers the fewest transfers of one size.
     * @param udpStream       datagrams of each stream of the UDP limit.
     */
    record Scale(
        int rounds,
        int warmup,
        int signatureReps,
        int signatureWarmup,
        int longestBurst,
        int longestNetBurst,
        int largestTransfer,
        int fewestTransfers,
        int udpStream)
    {
        /**
         * @param rounds timed round trips.
         * @return this scale with that many round trips and a fifth as many warm-up ones.
         */
        Scale withRounds(final int rounds)
        {
            return new Scale(rounds, rounds / 5, signatureReps, signatureWarmup, longestBurst, longestNetBurst,
                largestTransfer, fewestTransfers, udpStream);
        }

        /**
         * @param protocol a configuration.
         * @return the longest burst of its signature.
         */
        int longestBurst(final Protocol protocol)
        {
            return protocol.overNetwork() ? longestNetBurst : longestBurst;
        }
    }

    /**
     * The longest burst of the signature over shared memory at either scale: the shared-memory protocol's request
     * depth. A longer burst fills the destination queue and the sender backs off (spin, yield, then park); on the
     * development machine the bursts timed after such a back-off, short ones included, took about three times as long
     * for the rest of the row, which spoils o_s and g.
     */
    static final int LONGEST_BURST = 256;
    /**
     * The longest burst of the signature over the network at either scale: 32 windows of credits. Without delay the
     * time per message there grows until a burst is several windows long (the sender waits for acknowledgements), so
     * the four longest bursts, whose slopes give g, must all be well past that.
     */
    static final int LONGEST_NET_BURST = 1024;
    /** Repetitions of each signature burst by default. */
    private static final int FULL_REPS = 50;
    /** Repetitions of each signature burst with {@code --quick}. */
    private static final int QUICK_REPS = 10;
    /** The fewest transfers of each size of the bandwidth curve by default. */
    private static final int FULL_TRANSFERS = 32;
    /** The fewest transfers of each size of the bandwidth curve with {@code --quick}. */
    private static final int QUICK_TRANSFERS = 8;
    /** The default scale. */
    static final Scale FULL = new Scale(PingPongOptions.DEFAULT_ROUNDS, PingPongOptions.DEFAULT_WARMUP, FULL_REPS, 5,
        LONGEST_BURST, LONGEST_NET_BURST, 1 << 20, FULL_TRANSFERS, 16_384);
    /** The scale of {@code --quick}. */
    static final Scale QUICK = new Scale(PingPongOptions.QUICK_ROUNDS, PingPongOptions.QUICK_WARMUP, QUICK_REPS, 3,
        LONGEST_BURST, LONGEST_NET_BURST, 1 << 20, QUICK_TRANSFERS, PingPongOptions.MIN_BW_MESSAGES);

    /** The usage line, printed after an error. */
    static final String USAGE = CommandLines.usage(new Arguments());
    /** The usage line and what each option means. */
    static final String HELP = CommandLines.help(new Arguments());

    /** The command line as given. */
    @Command(name = "am2j logp")
    private static final class Arguments
    {
        @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--quick", description = PingPongOptions.QUICK_ROUNDS + " round trips per ping-pong (default " +
            PingPongOptions.DEFAULT_ROUNDS + "), " + QUICK_REPS + " repetitions of each signature burst (default " +
            FULL_REPS + "), " + QUICK_TRANSFERS + " or more transfers of each size (default " + FULL_TRANSFERS + ")")
        boolean quick;
        @Option(names = "--rounds", paramLabel = "N", description = "timed round trips of every ping-pong, with at " +
            "least N/5 warm-up ones (each warm-up goes on for at least 0.5 s, until the JIT has settled, at most 5 s)")
        @Range(min = 1, max = PingPongOptions.MAX_ROUNDS, meaning = "timed round trips")
        int rounds;
        @Option(names = "--nics-per-node", paramLabel = "K", description = "the network configurations (multi-net, " +
            "net) and the poll-cost pairs: K shared NIC processes on each rank's emulated node serve the ranks " +
            "instead of their in-process NICs ('am2j run --nics-per-node K'); 0, the default, keeps the in-process NIC")
        @Range(min = 0, max = PingPongOptions.MAX_NICS_PER_NODE, meaning = PingPongOptions.NICS_PER_NODE)
        int nicsPerNode;
        @Option(names = "--ranks-per-jvm", paramLabel = "K", description = "1 (the default, or " +
            JvmPlacement.RANKS_PER_JVM_VARIABLE + ") runs every pair as two JVMs; 2 runs the pairs of shm and " +
            "multi-shm and the cache-line limit as two threads of one JVM ('am2j run --ranks-per-jvm 2'), so their " +
            "messages go through the in-process transport; the network configurations (two nodes), the peers and " +
            "the poll-cost pairs keep a JVM per rank")
        @Range(min = 1, max = SpmdEnvironment.MAX_SIZE, meaning = "ranks per JVM")
        int ranksPerJvm;
        @Option(names = "--json", paramLabel = "FILE", description = "also write the results as a JSON object to FILE")
        Path json;
        @Option(names = "--plots", paramLabel = "DIR", description = "draw the signature of each configuration and " +
            "the bandwidth curves as PNG files in DIR")
        Path plots;
    }

    /**
     * @param protocol a configuration.
     * @return the shared NIC processes per emulated node of its pair: {@link #nicsPerNode()} over the network, 0 (no
     * NIC process: its ranks do not reach each other through a NIC) over shared memory.
     */
    int nicsPerNode(final Protocol protocol)
    {
        return protocol.overNetwork() ? nicsPerNode : 0;
    }

    /**
     * @param args the command line after {@code logp}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static LogPOptions parse(final String[] args)
    {
        return parse(args, System.getenv());
    }

    /**
     * @param args the command line after {@code logp}.
     * @param env  the environment, whose {@code AM2J_RANKS_PER_JVM} applies when {@code --ranks-per-jvm} is not given.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static LogPOptions parse(final String[] args, final Map<String, String> env)
    {
        final Arguments given = CommandLines.parse(new Arguments(), args);
        if (given.help)
        {
            return new LogPOptions(true, false, null, null, null, 0, 1);
        }
        BenchCommand.writableDirectory("--json", given.json);
        if (null != given.plots && Files.exists(given.plots) && !Files.isDirectory(given.plots))
        {
            throw new IllegalArgumentException("--plots " + given.plots + " is not a directory");
        }
        final int ranksPerJvm = PingPongOptions.pairRanksPerJvm(given.ranksPerJvm, env, Protocol.SHM);
        final Scale scale = given.quick ? QUICK : FULL;
        return new LogPOptions(false, given.quick, given.rounds > 0 ? scale.withRounds(given.rounds) : scale, given.json,
            given.plots, given.nicsPerNode, ranksPerJvm);
    }
}
