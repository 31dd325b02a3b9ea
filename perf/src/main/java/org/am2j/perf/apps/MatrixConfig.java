package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;

/**
 * The configurations of the model paper's Tables 5 and 6 that one machine of emulated nodes can host: how many ranks
 * a job has, over how many emulated nodes the launcher spreads them (in blocks), which transports the rank JVMs open
 * ({@code -Dam2j.transports}) and what else the launcher is told.
 * <p>
 * Two families. The first four ({@link #SHM_ONLY}, {@link #MULTI}, {@link #NET}, {@link #CLUMP}) take the matrix's
 * {@code --ranks}. The others are the paper's machines at its scale and fix their own ranks: the 8-way SMP of Table 5
 * ({@link #SMP_SHM}, {@link #SMP_MULTI}), the Clump of four 8-way SMPs and the NOW of 32 of Table 6
 * ({@link #CLUMP32}, {@link #NOW32}), and the Clump whose nodes share 3 NICs ({@link #CLUMP32_3NIC}).
 * <p>
 * {@link #CLUMP32_3NIC} passes {@code --nics-per-node 3} to {@code am2j run} and a link rate to the ranks; it is in the
 * paper preset's default list beside {@link #CLUMP32}, so that Table 6's shape comes out with both kinds of NIC.
 * <p>
 * {@link #CLUMP_THREADS} (which takes {@code --ranks}) and {@link #CLUMP32_THREADS} hold each node's ranks as threads
 * of one JVM ({@code am2j run --ranks-per-jvm K}); they run when {@code --configs} names them.
 */
enum MatrixConfig
{
    /** One node, shared memory only (the paper's 8-way SMP, "Shared Memory"). */
    SHM_ONLY("shm-only", "one node, shared memory only", "inproc,shm", 0, ranks -> 1, 0, false),
    /** One node with both protocols open: every poll also polls the network (the SMP's "Multi-Protocol"). */
    MULTI("multi", "one node, multi-protocol", "inproc,shm,net", 0, ranks -> 1, 0, false),
    /** One rank per emulated node, the network only (the NOW). */
    NET("net", "all network, one rank per node", "inproc,net", 0, ranks -> ranks, 0, false),
    /** Two emulated nodes, both protocols: shared memory inside a node, the network between (the Clump). */
    CLUMP("clump", "clump of 2 nodes, multi-protocol", "inproc,shm,net", 0, ranks -> Math.min(2, ranks), 0,
        false),
    /** Table 5's 8-way SMP with the shared memory protocol only: 8 ranks on one node. */
    SMP_SHM("smp-shm", "8-way SMP: 8 ranks on one node, shared memory only", "inproc,shm", PaperScale.SMP_RANKS,
        ranks -> 1, 0, false),
    /** Table 5's 8-way SMP with both protocols open: 8 ranks on one node. */
    SMP_MULTI("smp-multi", "8-way SMP: 8 ranks on one node, multi-protocol", "inproc,shm,net", PaperScale.SMP_RANKS,
        ranks -> 1, 0, false),
    /**
     * Table 6's Clump: 32 ranks on 4 nodes of 8, both protocols, one NIC per process (am2j's default: every rank
     * JVM owns its network endpoint).
     */
    CLUMP32("clump32", "the Clump: 32 ranks on 4 nodes of 8, multi-protocol, one NIC per process", "inproc,shm,net",
        PaperScale.RANKS, ranks -> PaperScale.CLUMP_NODES, 0, false),
    /** Table 6's NOW: 32 ranks on 32 nodes of 1, the network only. */
    NOW32("now32", "the NOW: 32 ranks on 32 nodes of 1, network only", "inproc,net", PaperScale.RANKS, ranks -> ranks,
        0, false),
    /**
     * Table 6's Clump as the paper built it: 32 ranks on 4 nodes of 8 whose ranks share 3 NIC processes per node
     * ({@code am2j run --nics-per-node 3}: 3, 3 and 2 ranks each), every NIC's link limited to the paper's Myrinet
     * rate ({@code -Dam2j.net.linkRateMBps=160}).
     */
    CLUMP32_3NIC("clump-3nic", "the Clump: 32 ranks on 4 nodes of 8 sharing " + PaperScale.NICS_PER_NODE +
        " NICs per node, " + PaperScale.LINK_RATE_MBPS + " MB/s links, multi-protocol", "inproc,shm,net",
        PaperScale.RANKS, ranks -> PaperScale.CLUMP_NODES, PaperScale.NICS_PER_NODE, false),
    /**
     * The clump of 2 nodes with each node's ranks as threads of one JVM ({@code am2j run --ranks-per-jvm P/2}): the
     * in-process transport within a node, the network between the two. P must be even.
     */
    CLUMP_THREADS("clump-threads", "clump of 2 nodes, multi-protocol, each node's ranks as threads of one JVM",
        "inproc,shm,net", 0, ranks -> Math.min(2, ranks), 0, true),
    /**
     * Table 6's Clump with each node's 8 ranks as threads of one JVM ({@code am2j run --ranks-per-jvm 8}), as
     * Charm++'s SMP mode runs a node: 32 ranks on 4 nodes, one JVM and one NIC per node.
     */
    CLUMP32_THREADS("clump32-threads", "the Clump: 32 ranks on 4 nodes of 8, multi-protocol, each node's ranks as " +
        "threads of one JVM", "inproc,shm,net", PaperScale.RANKS, ranks -> PaperScale.CLUMP_NODES, 0, true);

    /** The scale of the paper's runs. */
    static final class PaperScale
    {
        /** Processors of Table 6's Clump and NOW. */
        static final int RANKS = 32;
        /** SMPs of the Clump. */
        static final int CLUMP_NODES = 4;
        /** Processors of one SMP (Table 5). */
        static final int SMP_RANKS = 8;
        /** NICs of one SMP of the Clump. */
        static final int NICS_PER_NODE = 3;
        /** The Myrinet link rate of the paper's NICs, MB/s. */
        static final int LINK_RATE_MBPS = 160;

        private PaperScale()
        {
        }
    }

    /** The preset whose default configurations are those at the paper's scale. */
    static final String PAPER_PRESET = "paper";

    private final String cliName;
    private final String description;
    private final String transports;
    private final int fixedRanks;
    private final IntUnaryOperator nodes;
    private final int nicsPerNode;
    private final boolean nodeInOneJvm;

    /**
     * @param fixedRanks  the ranks of its jobs, 0 for the matrix's {@code --ranks}.
     * @param nodes       the emulated nodes of a job of so many ranks.
     * @param nicsPerNode 0 for a NIC per rank process, else so many NIC processes per node that its ranks share, each
     *                    link at the paper's Myrinet rate ({@link PaperScale#LINK_RATE_MBPS}).
     * @param nodeInOneJvm true when each node's ranks are threads of one JVM, false for a JVM per rank.
     */
    MatrixConfig(final String cliName, final String description, final String transports, final int fixedRanks,
        final IntUnaryOperator nodes, final int nicsPerNode, final boolean nodeInOneJvm)
    {
        this.cliName = cliName;
        this.description = description;
        this.transports = transports;
        this.fixedRanks = fixedRanks;
        this.nodes = nodes;
        this.nicsPerNode = nicsPerNode;
        this.nodeInOneJvm = nodeInOneJvm;
    }

    /**
     * @return true when the configuration holds each node's ranks in one JVM, as threads.
     */
    boolean nodeInOneJvm()
    {
        return nodeInOneJvm;
    }

    /**
     * @param ranks       of the job.
     * @param ranksPerJvm the matrix's {@code --ranks-per-jvm}, 0 when not given.
     * @return the ranks each JVM of a job holds: a node's when the configuration holds a node in one JVM, else the
     * matrix's, else 1.
     */
    int ranksPerJvm(final int ranks, final int ranksPerJvm)
    {
        return nodeInOneJvm ? ranks / nodes(ranks) : Math.max(1, ranksPerJvm);
    }

    /**
     * @param ranks of the job.
     * @return the emulated nodes the ranks are spread over.
     */
    int nodes(final int ranks)
    {
        return nodes.applyAsInt(ranks);
    }

    /**
     * @param matrixRanks the matrix's {@code --ranks}.
     * @return the ranks of this configuration's jobs: its own when it fixes them, else {@code matrixRanks}.
     */
    int ranks(final int matrixRanks)
    {
        return fixedRanks > 0 ? fixedRanks : matrixRanks;
    }

    /**
     * @return true when the configuration fixes its ranks (the paper's scale) and ignores {@code --ranks}.
     */
    boolean fixesRanks()
    {
        return fixedRanks > 0;
    }

    /**
     * @return options of {@code am2j run} beyond ranks, nodes and transports, in order (none for most).
     */
    List<String> launcherOptions()
    {
        return nicsPerNode > 0 ? List.of("--nics-per-node", Integer.toString(nicsPerNode)) : List.of();
    }

    /**
     * @return JVM options of the ranks beyond the transports ({@code --jvm-opt} each), in order.
     */
    List<String> jvmOptions()
    {
        return nicsPerNode > 0 ? List.of("-Dam2j.net.linkRateMBps=" + PaperScale.LINK_RATE_MBPS) : List.of();
    }

    /**
     * @return how the ranks reach the network, in words (Table 6 names it).
     */
    String nics()
    {
        return nicsPerNode > 0 ? nicsPerNode + " NICs per node shared by its " + fixedRanks / nodes(fixedRanks) +
            " ranks, " + PaperScale.LINK_RATE_MBPS + " MB/s links" :
            !transportList().contains("net") ? "no network" : nodeInOneJvm ? "one NIC per JVM (a node's)" :
            "one NIC per process";
    }

    /**
     * @return the short name (in tables and file names).
     */
    String cliName()
    {
        return cliName;
    }

    /**
     * @return what it is, in words.
     */
    String description()
    {
        return description;
    }

    /**
     * @return the transports the rank JVMs open, comma separated ({@code -Dam2j.transports}).
     */
    String transports()
    {
        return transports;
    }

    /**
     * @return the transports as a list, in order.
     */
    List<String> transportList()
    {
        return Arrays.asList(transports.split(","));
    }

    /**
     * The options of {@code am2j run} that place a job of this configuration: ranks, nodes, the launcher options of
     * the configuration, the transports and the configuration's JVM options.
     *
     * @param matrixRanks the matrix's {@code --ranks}.
     * @return those options, in order.
     */
    List<String> runOptions(final int matrixRanks)
    {
        return runOptions(matrixRanks, 0);
    }

    /**
     * As {@link #runOptions(int)}, with {@code --ranks-per-jvm K} after the nodes when a JVM holds several ranks.
     *
     * @param matrixRanks the matrix's {@code --ranks}.
     * @param ranksPerJvm the matrix's {@code --ranks-per-jvm}, 0 when not given ({@link #ranksPerJvm(int, int)}).
     * @return those options, in order.
     */
    List<String> runOptions(final int matrixRanks, final int ranksPerJvm)
    {
        final int ranks = ranks(matrixRanks);
        final List<String> args = new ArrayList<>(List.of("-n", Integer.toString(ranks), "--nodes",
            Integer.toString(nodes(ranks))));
        final int perJvm = ranksPerJvm(ranks, ranksPerJvm);
        if (perJvm > 1)
        {
            args.addAll(List.of("--ranks-per-jvm", Integer.toString(perJvm)));
        }
        args.addAll(launcherOptions());
        args.addAll(List.of("--jvm-opt", "-Dam2j.transports=" + transports));
        jvmOptions().forEach(option -> args.addAll(List.of("--jvm-opt", option)));
        return args;
    }

    /**
     * @param preset     the applications' preset.
     * @param ranksGiven true when {@code --ranks} was given.
     * @return the configurations run when {@code --configs} is not given: with the {@value #PAPER_PRESET} preset and
     * no {@code --ranks}, those at the paper's scale ({@link #SMP_SHM}, {@link #SMP_MULTI}, {@link #CLUMP32},
     * {@link #CLUMP32_3NIC}, {@link #NOW32}); else the four that take {@code --ranks}.
     */
    static List<MatrixConfig> defaults(final String preset, final boolean ranksGiven)
    {
        return PAPER_PRESET.equals(preset) && !ranksGiven ? List.of(SMP_SHM, SMP_MULTI, CLUMP32, CLUMP32_3NIC, NOW32) :
            List.of(SHM_ONLY, MULTI, NET, CLUMP);
    }

    /**
     * @param name a short name.
     * @return the configuration of that name.
     * @throws IllegalArgumentException naming the choices.
     */
    static MatrixConfig byName(final String name)
    {
        return Stream.of(values()).filter(config -> config.cliName.equals(name)).findFirst().orElseThrow(() ->
            new IllegalArgumentException("unknown configuration '" + name + "'; known: " +
            String.join(", ", Stream.of(values()).map(MatrixConfig::cliName).toList())));
    }
}
