package org.am2j.launch;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.am2j.core.stats.CountersFile;
import org.am2j.spi.NodeIdentity;
import org.am2j.spi.ShmDirectories;
import org.am2j.spmd.SpmdEnvironment;

/**
 * Builds the command line and environment of each rank JVM of a launch:
 * <pre>
 * [taskset -c CPU] &lt;java.home&gt;/bin/java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
 *     --enable-native-access=ALL-UNNAMED [options of more ranks than CPUs] [--jvm-opt options]
 *     -Dam2j.job=&lt;job id&gt; [-Dam2j.poll=..] [-Dam2j.nic=..]
 *     -cp &lt;class path&gt; org.am2j.launch.RankMain MAINCLASS [ARGS]
 * </pre>
 * or, with {@code --ranks-per-jvm K} above 1, one such JVM per K ranks running {@code org.am2j.launch.RankThreads K
 * MAINCLASS [ARGS]} ({@link RankThreads}, {@link JvmPlacement}).
 * ({@code taskset -c CPU} with {@code --pin} when pinning can be applied, see {@link CpuPinning#prefix(int)}), with
 * the {@code AM2J_*} variables of {@link SpmdEnvironment} (and {@code AM2J_POLL}, {@code AM2J_NIC} when given) added
 * to the launcher's environment. With more ranks than CPUs the ranks' JVMs compile with C1 only and collect with the
 * serial collector ({@link OversubscribedJvm}) unless the user's options say otherwise.
 * <p>
 * <b>Emulated nodes.</b> With more than one node, each node's ranks get a shared-memory root of their own
 * ({@value ShmDirectories#ROOT_VARIABLE}, see {@link RankPlacement#nodeRoot}), and so a node identity of their own
 * ({@link NodeIdentity}); an {@value NodeIdentity#NODE_VARIABLE} of the launcher's environment is not passed on, as it
 * would put every emulated node on one node. The ranks' counters files stay in the launcher's counters directory, where
 * {@code am2j stat} looks.
 */
final class RankCommand
{
    /** The flags every JVM that loads am2j needs: Agrona 2.x reaches jdk.internal.misc, JNA native access. */
    static final List<String> JVM_FLAGS = Collections.unmodifiableList(Arrays.asList(
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"));

    /** The network transport's address setting (read by net-protocol's configuration). */
    static final String NET_HOST_PROPERTY = "am2j.net.host";
    /** The same setting as an environment variable. */
    static final String NET_HOST_VARIABLE = "AM2J_NET_HOST";

    /** The shared NICs' settings (read by net-protocol's configuration, SharedNicConfig). */
    static final String NICS_PER_NODE_VARIABLE = "AM2J_NICS_PER_NODE";
    static final String NIC_INDEX_VARIABLE = "AM2J_NIC_INDEX";
    static final String NIC_DIR_VARIABLE = "AM2J_NIC_DIR";
    static final String NIC_AUTOSTART_VARIABLE = "AM2J_NIC_AUTOSTART";
    /** The main class of a NIC process (in net-protocol, on the launcher's class path). */
    static final String NIC_PROCESS_CLASS = "org.am2j.net.SharedNicProcess";

    private final LaunchOptions options;
    private final String jobId;
    private final String bootstrap;
    private final Path shmRoot;
    private final long launcherPid;
    private final long launcherStartMillis;
    private final String java;
    private final String classPath;
    private final CpuPinning pinning;
    private final int processors;

    /**
     * @param options             of the launch.
     * @param jobId               of the job.
     * @param bootstrap           {@code host:port} of the rendezvous server.
     * @param shmRoot             the launcher's shared-memory root, under which emulated nodes get theirs.
     * @param launcherPid         pid of the launcher.
     * @param launcherStartMillis start instant of the launcher, 0 when unknown.
     * @param pinning             the CPUs of the ranks, or {@code null} to start them unpinned.
     */
    RankCommand(
        final LaunchOptions options,
        final String jobId,
        final String bootstrap,
        final Path shmRoot,
        final long launcherPid,
        final long launcherStartMillis,
        final CpuPinning pinning)
    {
        this.options = options;
        this.jobId = jobId;
        this.bootstrap = bootstrap;
        this.shmRoot = shmRoot;
        this.launcherPid = launcherPid;
        this.launcherStartMillis = launcherStartMillis;
        this.pinning = pinning;
        this.processors = Runtime.getRuntime().availableProcessors();
        this.java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        this.classPath = classPath(options.classPath());
    }

    /**
     * A user's {@code --cp} adds to am2j's own class path (the launcher's), in front of it: the user's classes are
     * found first, and am2j's RankMain and its transports are always there.
     *
     * @param userClassPath the {@code --cp} of the launch, or {@code null}.
     * @return the class path of the ranks.
     */
    static String classPath(final String userClassPath)
    {
        final String own = System.getProperty("java.class.path");
        return null == userClassPath ? own : userClassPath + File.pathSeparator + own;
    }

    /**
     * @param rank of a process of the job.
     * @return its shared-memory root: the launcher's, or its emulated node's.
     */
    Path shmRoot(final int rank)
    {
        return options.nodes() > 1 ?
            RankPlacement.nodeRoot(shmRoot, jobId, RankPlacement.nodeOf(rank, options.ranks(), options.nodes())) :
            shmRoot;
    }

    /**
     * @return NIC processes per node, 0 when every rank has a NIC of its own.
     */
    int nicsPerNode()
    {
        return options.nicsPerNode();
    }

    /**
     * @return emulated nodes of the job.
     */
    int nodes()
    {
        return options.nodes();
    }

    /**
     * @param node an emulated node.
     * @return the directory of its NIC processes' control files and their endpoints' queue blocks.
     */
    Path nicDirectory(final int node)
    {
        final Path root = options.nodes() > 1 ? RankPlacement.nodeRoot(shmRoot, jobId, node) : shmRoot;
        return root.resolve("nics-" + jobId);
    }

    /**
     * @param node  an emulated node.
     * @param index which of its NICs.
     * @return a process builder for that NIC process, its standard streams piped; it makes its control file in
     *         {@link #nicDirectory(int)}.
     */
    ProcessBuilder buildNic(final int node, final int index)
    {
        final List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(JVM_FLAGS);
        command.addAll(options.jvmOptions());
        command.add("-Dam2j.job=" + jobId);
        command.add("-cp");
        command.add(classPath);
        command.add(NIC_PROCESS_CLASS);
        command.add(nicDirectory(node).toString());
        command.add(Integer.toString(index));
        final ProcessBuilder builder = new ProcessBuilder(command);
        jobEnvironment(builder.environment(), node);
        return builder;
    }

    /**
     * Put in a process's environment what every process of the job gets: its node's shared-memory root, the job, the
     * launcher (the process exits when the launcher is gone, killed without stopping it) and the network address.
     */
    private void jobEnvironment(final Map<String, String> env, final int node)
    {
        if (options.nodes() > 1)
        {
            env.put(ShmDirectories.ROOT_VARIABLE, RankPlacement.nodeRoot(shmRoot, jobId, node).toString());
            env.remove(NodeIdentity.NODE_VARIABLE);
        }
        env.put(SpmdEnvironment.AM2J_JOB, jobId);
        env.put(SpmdEnvironment.AM2J_LAUNCHER_PID, Long.toString(launcherPid));
        env.put(SpmdEnvironment.AM2J_LAUNCHER_START, Long.toString(launcherStartMillis));
        // Every process of this launcher runs on this machine: emulated nodes reach each other's NICs over loopback
        // (whose MTU lets a whole message travel in one datagram), unless the user chose an address.
        if (!env.containsKey(NET_HOST_VARIABLE))
        {
            final String chosen = System.getProperty(NET_HOST_PROPERTY);
            env.put(NET_HOST_VARIABLE, null != chosen && !chosen.isEmpty() ? chosen : "127.0.0.1");
        }
    }

    /**
     * @return the number of rank JVMs: one per rank, or one per {@code --ranks-per-jvm} ranks.
     */
    int jvms()
    {
        return JvmPlacement.jvms(options.ranks(), options.ranksPerJvm());
    }

    /**
     * @return ranks each rank JVM holds.
     */
    int ranksPerJvm()
    {
        return options.ranksPerJvm();
    }

    /**
     * @param jvm index of a rank JVM.
     * @return its first rank.
     */
    int firstRank(final int jvm)
    {
        return JvmPlacement.firstRank(jvm, options.ranksPerJvm());
    }

    /**
     * @param jvm index of a rank JVM.
     * @return what it holds, for messages: {@code rank R}, or {@code ranks F-L (one JVM)}.
     */
    String describe(final int jvm)
    {
        return JvmPlacement.describe(jvm, options.ranksPerJvm());
    }

    /**
     * @param jvm index of the rank JVM to start, which is its rank when each JVM holds one; with K ranks per JVM it
     *            runs {@link RankThreads} for ranks jvm·K .. jvm·K + K - 1, and its environment is its first rank's.
     * @return a process builder for it, its standard streams piped.
     */
    ProcessBuilder build(final int jvm)
    {
        final int rank = firstRank(jvm);
        final int node = RankPlacement.nodeOf(rank, options.ranks(), options.nodes());
        final List<String> command = new ArrayList<>();
        if (null != pinning)
        {
            command.addAll(pinning.prefix(rank, options.ranksPerJvm()));
        }
        command.add(java);
        command.addAll(JVM_FLAGS);
        command.addAll(OversubscribedJvm.options(options.ranks(), processors, options.jvmOptions()));
        command.addAll(options.jvmOptions());
        command.add("-Dam2j.job=" + jobId);
        if (null != options.poll())
        {
            command.add("-Dam2j.poll=" + options.poll());
        }
        if (null != options.nic())
        {
            command.add("-Dam2j.nic=" + options.nic());
        }
        command.add("-cp");
        command.add(classPath);
        if (options.ranksPerJvm() > 1)
        {
            command.add(RankThreads.class.getName());
            command.add(Integer.toString(options.ranksPerJvm()));
        }
        else
        {
            command.add(RankMain.class.getName());
        }
        command.add(options.mainClass());
        command.addAll(options.mainArgs());

        final ProcessBuilder builder = new ProcessBuilder(command);
        final Map<String, String> env = builder.environment();
        jobEnvironment(env, node);
        env.put(SpmdEnvironment.AM2J_RANK, Integer.toString(rank));
        env.put(SpmdEnvironment.AM2J_SIZE, Integer.toString(options.ranks()));
        env.put(SpmdEnvironment.AM2J_NODE, Integer.toString(node));
        env.put(SpmdEnvironment.AM2J_NODES, Integer.toString(options.nodes()));
        if (options.nodes() > 1)
        {
            env.putIfAbsent(CountersFile.DIRECTORY_ENV_NAME, CountersFile.defaultDirectory().toString());
        }
        env.put(SpmdEnvironment.AM2J_BOOTSTRAP, bootstrap);
        if (null != options.poll())
        {
            env.put(SpmdEnvironment.AM2J_POLL, options.poll());
        }
        if (null != options.nic())
        {
            env.put(SpmdEnvironment.AM2J_NIC, options.nic());
        }
        if (options.nicsPerNode() > 0)
        {
            final int first = RankPlacement.firstRankOf(node, options.ranks(), options.nodes());
            final int onNode = RankPlacement.ranksOn(node, options.ranks(), options.nodes());
            env.put(NICS_PER_NODE_VARIABLE, Integer.toString(options.nicsPerNode()));
            env.put(NIC_INDEX_VARIABLE, Integer.toString(
                RankPlacement.nicOf(rank - first, onNode, options.nicsPerNode())));
            env.put(NIC_DIR_VARIABLE, nicDirectory(node).toString());
            // The launcher starts the NIC processes itself: a rank that finds none serving fails rather than start
            // another set.
            env.put(NIC_AUTOSTART_VARIABLE, "false");
        }
        return builder;
    }
}
