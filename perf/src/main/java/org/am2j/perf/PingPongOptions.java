package org.am2j.perf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.am2j.api.Am;
import org.am2j.launch.JvmPlacement;
import org.am2j.spmd.SpmdEnvironment;
import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of {@link PingPong}, parsed and checked (see {@link #HELP}).
 * <p>
 * Defaults: {@value #DEFAULT_ROUNDS} timed round trips after at least {@value #DEFAULT_WARMUP} warm-up ones (and at
 * least as many as {@link WarmUp} takes to settle);
 * {@code --quick} makes them {@value #QUICK_ROUNDS} and {@value #QUICK_WARMUP}; an explicit {@code --rounds} or
 * {@code --warmup} wins over {@code --quick} whatever the order. The other workloads scale with the round trips:
 * o_s is measured over {@code rounds / 64} bursts of {@value #OS_BURST} requests, and each bandwidth run sends
 * {@code rounds / 4} medium messages of 8 KiB, kept within [{@value #MIN_BW_MESSAGES}, {@value #MAX_BW_MESSAGES}].
 *
 * @param help        true when help was asked for; the other values are then not set.
 * @param protocol    the protocol to measure.
 * @param size        bytes of the medium round trips, or 0 when they are not measured.
 * @param rounds      timed round trips of each latency measurement.
 * @param warmup      untimed round trips before them.
 * @param poll        the poll scheduler setting of the AM ranks, or null for their default.
 * @param nic         the NIC mode of the AM ranks, or null for the default.
 * @param nicsPerNode shared NIC processes per emulated node of the AM ranks, 0 when each has its in-process NIC.
 * @param ranksPerJvm ranks of a pair in one JVM: 1, a JVM per rank, or 2, the pair as threads of one JVM
 *                    ({@code --ranks-per-jvm}, else {@code AM2J_RANKS_PER_JVM}), whose AM messages then go through
 *                    the in-process transport ({@link #route(Protocol)}).
 * @param json        where to write the JSON results, or {@code null}.
 * @param quick       true for {@code --quick}.
 */
record PingPongOptions(boolean help, Protocol protocol, int size, int rounds, int warmup, String poll, String nic,
    int nicsPerNode, int ranksPerJvm, Path json, boolean quick)
{
    /** Timed round trips by default. */
    static final int DEFAULT_ROUNDS = 1_000_000;
    /** Warm-up round trips by default. */
    static final int DEFAULT_WARMUP = 200_000;
    /** Timed round trips with {@code --quick}. */
    static final int QUICK_ROUNDS = 100_000;
    /** Warm-up round trips with {@code --quick}. */
    static final int QUICK_WARMUP = 20_000;
    /** Most round trips of one measurement. */
    static final int MAX_ROUNDS = 100_000_000;
    /** Requests sent back to back, timed as one block, in the o_s measurement. */
    static final int OS_BURST = 64;
    /** Fewest medium messages of one bandwidth run. */
    static final int MIN_BW_MESSAGES = 1_024;
    /** Most medium messages of one bandwidth run. */
    static final int MAX_BW_MESSAGES = 65_536;
    /** Bandwidth runs whose median and range are reported. */
    static final int BW_REPEATS = 5;
    /** Most shared NIC processes per emulated node ({@code --nics-per-node}), the launcher's limit. */
    static final int MAX_NICS_PER_NODE = 64;
    /** What {@code --nics-per-node} counts, for its errors. */
    static final String NICS_PER_NODE = "shared NIC processes per node, 0 for in-process NICs";
    /** {@link #nicKind(int)} of ranks that each run their own NIC in-process. */
    static final String IN_PROCESS_NIC = "in-process";
    /** {@link #nicKind(int)} of ranks served by shared NIC processes. */
    static final String SHARED_NIC = "shared";

    /** The usage line, printed after an error. */
    static final String USAGE = CommandLines.usage(new Arguments());
    /** The usage line and what each option means. */
    static final String HELP = CommandLines.help(new Arguments());

    /** The command line as given. */
    @Command(name = "am2j pingpong")
    private static final class Arguments
    {
        @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--protocol", paramLabel = "P", completionCandidates = ProtocolNames.class,
            description = "the protocol between the two ranks, one of ${COMPLETION-CANDIDATES} (shm: two JVMs of one " +
            "node over shared memory)")
        Protocol protocol;
        @Option(names = "--size", paramLabel = "BYTES", description = "also measure round trips of medium messages " +
            "of BYTES, 1 to " + Am.MAX_MEDIUM + " (the reply echoes them), and their limit: BYTES passed back and " +
            "forth between the limit's two JVMs")
        @Range(min = 1, max = Am.MAX_MEDIUM, meaning = "medium message bytes")
        int size;
        @Option(names = "--rounds", paramLabel = "N", description = "timed round trips of each latency measurement " +
            "(default " + DEFAULT_ROUNDS + ")")
        @Range(min = 1, max = MAX_ROUNDS, meaning = "timed round trips")
        int rounds = -1;
        @Option(names = "--warmup", paramLabel = "N", description = "at least N untimed round trips before them " +
            "(default " + DEFAULT_WARMUP + "), and on for at least 0.5 s, until the JIT has settled (at most 5 s)")
        @Range(min = 0, max = MAX_ROUNDS, meaning = "warm-up round trips")
        int warmup = -1;
        @Option(names = "--poll", paramLabel = "NAME", description = "poll scheduler of the ranks (am2j.poll: every, " +
            "fractional:K, adaptive, calibrated, ...)")
        String poll;
        @Option(names = "--nic", paramLabel = "MODE", description = "NIC agent mode of the ranks for the network " +
            "protocols: inline (default) or thread")
        String nic;
        @Option(names = "--nics-per-node", paramLabel = "K", description = "network protocols: K shared NIC " +
            "processes on each rank's emulated node serve the ranks instead of their in-process NICs, started and " +
            "stopped with each pair as 'am2j run --nics-per-node K' does; 0, the default, keeps the in-process NIC")
        @Range(min = 0, max = MAX_NICS_PER_NODE, meaning = NICS_PER_NODE)
        int nicsPerNode;
        @Option(names = "--ranks-per-jvm", paramLabel = "K", description = "1 (the default, or " +
            JvmPlacement.RANKS_PER_JVM_VARIABLE + ") runs each pair as two JVMs; 2 runs each pair as two threads of " +
            "one JVM, as 'am2j run --ranks-per-jvm 2' does, so the AM round trips go through the in-process " +
            "transport and the limit is the cache line between two threads (shm and multi-shm only: the ranks of " +
            "net and multi-net are on two nodes); with pinning, the JVM runs on both ranks' CPUs")
        @Range(min = 1, max = SpmdEnvironment.MAX_SIZE, meaning = "ranks per JVM")
        int ranksPerJvm;
        @Option(names = "--json", paramLabel = "FILE", description = "also write the results as a JSON object to FILE")
        Path json;
        @Option(names = "--quick", description = QUICK_ROUNDS + " round trips after at least " + QUICK_WARMUP +
            " warm-up ones, for quick checks")
        boolean quick;
    }

    /**
     * @param args the command line after {@code pingpong}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static PingPongOptions parse(final String[] args)
    {
        return parse(args, System.getenv());
    }

    /**
     * @param args the command line after {@code pingpong}.
     * @param env  the environment, for {@code AM2J_RANKS_PER_JVM}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static PingPongOptions parse(final String[] args, final Map<String, String> env)
    {
        final Arguments options = new Arguments();
        CommandLines.parse(CommandLines.of(options).registerConverter(Protocol.class, Protocol::byName), args);
        if (options.help)
        {
            return new PingPongOptions(true, null, 0, 0, 0, null, null, 0, 1, null, false);
        }
        if (null == options.protocol)
        {
            throw new IllegalArgumentException("missing --protocol " + Protocol.choices());
        }
        if (null != options.poll && options.poll.isBlank())
        {
            throw new IllegalArgumentException("--poll needs a scheduler name");
        }
        if (null != options.nic && !"inline".equals(options.nic) && !"thread".equals(options.nic))
        {
            throw new IllegalArgumentException("--nic '" + options.nic + "' must be inline or thread");
        }
        if (options.nicsPerNode > 0 && !options.protocol.overNetwork())
        {
            throw new IllegalArgumentException("--nics-per-node " + options.nicsPerNode + " needs a network protocol (" +
                Protocol.NET.cliName() + " or " + Protocol.MULTI_NET.cliName() + "): the ranks of --protocol " +
                options.protocol.cliName() + " do not reach each other through a NIC");
        }
        final int ranksPerJvm = pairRanksPerJvm(options.ranksPerJvm, env, options.protocol);
        BenchCommand.writableDirectory("--json", options.json);
        return new PingPongOptions(false, options.protocol, options.size,
            options.rounds >= 0 ? options.rounds : options.quick ? QUICK_ROUNDS : DEFAULT_ROUNDS,
            options.warmup >= 0 ? options.warmup : options.quick ? QUICK_WARMUP : DEFAULT_WARMUP, options.poll,
            options.nic, options.nicsPerNode, ranksPerJvm, options.json, options.quick);
    }

    /**
     * The ranks per JVM of a benchmark's pairs of a protocol, checked as {@code am2j run} checks them
     * ({@link JvmPlacement}): the pair in one JVM needs its two ranks on one node.
     *
     * @param option   {@code --ranks-per-jvm}, 0 when not given.
     * @param env      the environment, whose {@code AM2J_RANKS_PER_JVM} applies when the option is not given.
     * @param protocol the protocol of the pairs.
     * @return 1 or 2.
     * @throws IllegalArgumentException when it is neither, or 2 for ranks on two nodes.
     */
    static int pairRanksPerJvm(final int option, final Map<String, String> env, final Protocol protocol)
    {
        final int ranksPerJvm = JvmPlacement.ranksPerJvm(option, env, RankPairs.RANKS, 1);
        if (ranksPerJvm > 1 && protocol.nodes() > 1)
        {
            throw new IllegalArgumentException((option > 0 ? "--ranks-per-jvm " :
                JvmPlacement.RANKS_PER_JVM_VARIABLE + " = ") + ranksPerJvm + " puts the pair in one JVM, which is " +
                "on one node, but the ranks of --protocol " + protocol.cliName() + " are on two emulated nodes: use " +
                "--protocol " + Protocol.SHM.cliName() + " or " + Protocol.MULTI_SHM.cliName() + " (the in-process " +
                "transport then carries the round trips), or one rank per JVM");
        }
        return ranksPerJvm;
    }

    /**
     * @param measured the configuration of a rank pair of this run.
     * @return the transport its AM messages must take: the protocol's, or the in-process transport when the pair is
     * in one JVM.
     */
    String route(final Protocol measured)
    {
        return measured.route(measured.ranksPerJvm(ranksPerJvm));
    }

    /** The names {@code --protocol} takes, for the help. */
    static final class ProtocolNames extends ArrayList<String>
    {
        private static final long serialVersionUID = 1L;

        ProtocolNames()
        {
            super(Stream.of(Protocol.values()).map(Protocol::cliName).toList());
        }
    }

    /**
     * @param nicsPerNode shared NIC processes per emulated node, 0 for in-process NICs.
     * @return how the results name that kind of NIC: {@value #IN_PROCESS_NIC} or {@value #SHARED_NIC}.
     */
    static String nicKind(final int nicsPerNode)
    {
        return nicsPerNode > 0 ? SHARED_NIC : IN_PROCESS_NIC;
    }

    /**
     * @param measured the configuration of a rank pair of this run (the single-protocol reference may differ from
     *                 {@link #protocol()}).
     * @return its system properties with this run's {@code --poll} and {@code --nic}.
     */
    Map<String, String> amProperties(final Protocol measured)
    {
        final Map<String, String> properties = new LinkedHashMap<>(measured.systemProperties());
        if (null != poll)
        {
            properties.put("am2j.poll", poll);
        }
        if (null != nic)
        {
            properties.put("am2j.nic", nic);
        }
        return properties;
    }

    /**
     * @return bursts of {@link #OS_BURST} requests timed for o_s.
     */
    int osBursts()
    {
        return Math.max(1, rounds / OS_BURST);
    }

    /**
     * @return untimed bursts before them.
     */
    int osWarmupBursts()
    {
        return warmup / OS_BURST;
    }

    /**
     * @return medium messages of 8 KiB in each bandwidth run.
     */
    int bwMessages()
    {
        return Math.max(MIN_BW_MESSAGES, Math.min(MAX_BW_MESSAGES, rounds / 4));
    }
}
