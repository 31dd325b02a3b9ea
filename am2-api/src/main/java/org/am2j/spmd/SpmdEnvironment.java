package org.am2j.spmd;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.HostPort;
import org.am2j.spi.NodeIdentity;
import org.am2j.spi.Settings;

/**
 * Where this process sits in an SPMD job, read from the environment its launcher gave it.
 * <p>
 * <b>am2j's launcher</b> ({@code bin/am2j run}, in the am2j-tools module) sets, for every rank:
 * <table>
 * <caption>Variables of am2j's launcher</caption>
 * <tr><th>variable</th><th>meaning</th><th>allowed</th></tr>
 * <tr><td>{@value #AM2J_RANK}</td><td>rank of this process</td><td>0 to size - 1</td></tr>
 * <tr><td>{@value #AM2J_SIZE}</td><td>number of ranks</td><td>1 to {@value #MAX_SIZE}</td></tr>
 * <tr><td>{@value #AM2J_NODE}</td><td>index of this rank's node</td><td>0 to nodes - 1</td></tr>
 * <tr><td>{@value #AM2J_NODES}</td><td>number of nodes</td><td>1 to size</td></tr>
 * <tr><td>{@value #AM2J_JOB}</td><td>job id</td><td>1 to {@value #MAX_JOB_ID_LENGTH} of
 * {@code [A-Za-z0-9._-]}</td></tr>
 * <tr><td>{@value #AM2J_BOOTSTRAP}</td><td>address of the rendezvous server</td><td>{@code host:port} or
 * {@code [ipv6]:port}, port 1 to 65535</td></tr>
 * <tr><td>{@value #AM2J_LAUNCHER_PID}</td><td>pid of the launcher process</td><td>1 or more</td></tr>
 * <tr><td>{@value #AM2J_LAUNCHER_START}</td><td>start instant of the launcher in epoch milliseconds, so that a
 * reused pid is not mistaken for the launcher; 0 when unknown</td><td>0 or more</td></tr>
 * </table>
 * All of them are required once {@value #AM2J_RANK} or {@value #AM2J_SIZE} is present together with one of the
 * variables only that launcher knows ({@value #AM2J_NODE}, {@value #AM2J_NODES}, {@value #AM2J_LAUNCHER_PID},
 * {@value #AM2J_LAUNCHER_START}).
 * <p>
 * <b>Without a launcher</b> ({@link LauncherKind#MANUAL}) each process is given {@value #AM2J_RANK},
 * {@value #AM2J_SIZE} and, with more than one rank, {@value #AM2J_BOOTSTRAP}, naming an address of rank 0's machine:
 * rank 0 runs the rendezvous server there and the node comes from the node identities, as under an external launcher
 * (below); {@value #AM2J_JOB} is optional.
 * <p>
 * <b>Node identity.</b> Under every launcher the node identity is this process's shared-memory domain
 * ({@link NodeIdentity#local()}: the id kept in the shared-memory root, which the launcher gives each emulated node its
 * own of), unless {@value #AM2J_NODE_ID} overrides it (1 to {@value #MAX_NODE_ID_BYTES} UTF-8 bytes, no control
 * characters).
 * <p>
 * <b>External launchers.</b> Otherwise the rank and size come from {@code SLURM_PROCID}/{@code SLURM_NTASKS}, then
 * {@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE}, then {@code PMI_RANK}/{@code PMI_SIZE} (see
 * {@link LauncherKind}). The node index is not known from the environment ({@link #node()} is {@link #UNKNOWN_NODE})
 * and {@link Spmd#init()} derives it from the node identities of all ranks. {@value #AM2J_BOOTSTRAP} is required when there is more than one rank and must name
 * the address of rank 0, which runs the rendezvous server in-process on that port. The job id is {@value #AM2J_JOB}
 * when set, else {@code slurm-<SLURM_JOB_ID>[.<SLURM_STEP_ID>]} under SLURM, else derived from the bootstrap address.
 * <p>
 * <b>Several ranks per process under an external launcher.</b> With {@value #AM2J_RANKS_PER_JVM} = K (1 to
 * {@value #MAX_SIZE}; 1 when not set) each of the launcher's n processes holds K ranks as threads
 * ({@code org.am2j.launch.RankThreads}, in the am2j-tools module): the job has n·K ranks, and the launcher's process p
 * holds ranks p·K .. p·K + K - 1, the rank of a thread being p·K + {@value #AM2J_RANK_IN_JVM} (0 to K - 1, which
 * {@code RankThreads} gives each of its ranks). With K above 1, {@value #AM2J_RANK_IN_JVM} is required: a process
 * that was not started through {@code RankThreads} is an error that says so. n·K must not exceed {@value #MAX_SIZE}.
 * The ranks of one process are on its node. am2j's launcher and a job without one ({@link LauncherKind#MANUAL}) give
 * each rank its own {@value #AM2J_RANK}, and do not read these two variables.
 * <p>
 * <b>No variables.</b> With none of these variables the process is rank 0 of a single-process job on node 0 of 1.
 * <p>
 * Values are trimmed, and a blank one counts as not set. Missing or malformed variables are one {@link AmException}
 * with {@link AmError#BAD_ARG} whose message names every one of them and what is allowed.
 *
 * @param launcher            which launcher started this process.
 * @param rank                rank of this process, 0 to {@link #size()} - 1.
 * @param size                number of ranks in the job.
 * @param node                index of this rank's node, or {@link #UNKNOWN_NODE} under an external launcher with
 *                            several ranks.
 * @param nodes               number of nodes, or {@link #UNKNOWN_NODE} under an external launcher with several ranks.
 * @param nodeId              identity of this rank's node: equal strings mean the same shared-memory domain
 *                            ({@link NodeIdentity}).
 * @param jobId               the job id, safe to use in a file name.
 * @param bootstrap           the (unresolved) address of the rendezvous server, or {@code null} for a single-process
 *                            job without one.
 * @param launcherPid         pid of am2j's launcher, or 0 when not started by it.
 * @param launcherStartMillis start instant of am2j's launcher in epoch milliseconds, or 0 when unknown.
 */
public record SpmdEnvironment(
    LauncherKind launcher,
    int rank,
    int size,
    int node,
    int nodes,
    String nodeId,
    String jobId,
    InetSocketAddress bootstrap,
    long launcherPid,
    long launcherStartMillis)
{
    /** Rank of this process under am2j's launcher. */
    public static final String AM2J_RANK = "AM2J_RANK";
    /** Number of ranks under am2j's launcher. */
    public static final String AM2J_SIZE = "AM2J_SIZE";
    /** Index of this rank's node under am2j's launcher. */
    public static final String AM2J_NODE = "AM2J_NODE";
    /** Number of nodes under am2j's launcher. */
    public static final String AM2J_NODES = "AM2J_NODES";
    /** Overrides the identity of this rank's node ({@link NodeIdentity#NODE_VARIABLE}). */
    public static final String AM2J_NODE_ID = NodeIdentity.NODE_VARIABLE;
    /** Job id. */
    public static final String AM2J_JOB = "AM2J_JOB";
    /** Address ({@code host:port}) of the rendezvous server. */
    public static final String AM2J_BOOTSTRAP = "AM2J_BOOTSTRAP";
    /** Pid of the launcher process. */
    public static final String AM2J_LAUNCHER_PID = "AM2J_LAUNCHER_PID";
    /** Start instant of the launcher process, epoch milliseconds, 0 when unknown. */
    public static final String AM2J_LAUNCHER_START = "AM2J_LAUNCHER_START";
    /**
     * Ranks each process of an external launcher holds as threads, K; also what {@code bin/am2j run} takes when
     * {@code --ranks-per-jvm} is not given.
     */
    public static final String AM2J_RANKS_PER_JVM = "AM2J_RANKS_PER_JVM";
    /** Which of its process's K ranks a thread works for under an external launcher, 0 to K - 1. */
    public static final String AM2J_RANK_IN_JVM = "AM2J_RANK_IN_JVM";
    /** Poll scheduler requested by {@code --poll}; read by the endpoint core. */
    public static final String AM2J_POLL = "AM2J_POLL";
    /** NIC agent mode requested by {@code --nic}; read by the network protocol. */
    public static final String AM2J_NIC = "AM2J_NIC";

    /** Most ranks a job may have. */
    public static final int MAX_SIZE = 4096;
    /** Longest node identity, in UTF-8 bytes. */
    public static final int MAX_NODE_ID_BYTES = 255;
    /** Longest job id, in characters. */
    public static final int MAX_JOB_ID_LENGTH = 64;
    /** {@link #node()} when the environment does not say which node this rank is on. */
    public static final int UNKNOWN_NODE = -1;

    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,18}");
    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_JOB_ID_LENGTH + "}");
    private static final String WHOLE = "a whole number in ";
    /** The variables only am2j's launcher knows: one of them set says that it started this process. */
    private static final String[] LAUNCHER_ONLY = {AM2J_NODE, AM2J_NODES, AM2J_LAUNCHER_PID, AM2J_LAUNCHER_START};

    /**
     * Parse an environment, taking the node identity ({@link NodeIdentity#local()}) and pid of this process for the
     * values derived from them.
     *
     * @param env the environment, e.g. {@link System#getenv()}.
     * @return where this process sits in its job.
     * @throws AmException {@link AmError#BAD_ARG} when variables are missing or malformed, naming all of them;
     *                     {@link AmError#RESOURCE} when the node identity cannot be read or made.
     */
    public static SpmdEnvironment parse(final Map<String, String> env)
    {
        AmException.checkNotNull("env", env);
        final String override = new EnvironmentReader(env).text(AM2J_NODE_ID);
        return parse(env, null != override ? override : NodeIdentity.local(), ProcessHandle.current().pid());
    }

    /**
     * Parse an environment.
     *
     * @param env         the environment.
     * @param localNodeId the node identity of this process, used unless {@value #AM2J_NODE_ID} is set.
     * @param pid         of this process, for the job id of a single-process job.
     * @return where this process sits in its job.
     * @throws AmException {@link AmError#BAD_ARG} when variables are missing or malformed, naming all of them.
     */
    public static SpmdEnvironment parse(final Map<String, String> env, final String localNodeId, final long pid)
    {
        AmException.checkNotNull("env", env);
        AmException.checkNotNull("localNodeId", localNodeId);
        final EnvironmentReader reader = new EnvironmentReader(env);
        if (reader.isSet(AM2J_RANK) || reader.isSet(AM2J_SIZE))
        {
            for (final String variable : LAUNCHER_ONLY)
            {
                if (reader.isSet(variable))
                {
                    return parseAm2j(reader, localNodeId);
                }
            }
            return parseRankZeroServes(LauncherKind.MANUAL, reader, env, localNodeId);
        }
        for (final LauncherKind kind : LauncherKind.values())
        {
            if (kind.isExternal() && (reader.isSet(kind.rankVariable()) || reader.isSet(kind.sizeVariable())))
            {
                return parseRankZeroServes(kind, reader, env, localNodeId);
            }
        }
        final String nodeId = nodeId(reader, localNodeId);
        final String jobId = reader.isSet(AM2J_JOB) ? jobId(reader) : "solo-" + pid;
        reader.check("");
        return new SpmdEnvironment(LauncherKind.NONE, 0, 1, 0, 1, nodeId, jobId, null, 0, 0);
    }

    private static SpmdEnvironment parseAm2j(final EnvironmentReader reader, final String localNodeId)
    {
        final int size = (int)reader.number(AM2J_SIZE, 1, MAX_SIZE, WHOLE + "[1, " + MAX_SIZE + "]");
        final int rank = (int)reader.number(AM2J_RANK, 0, size > 0 ? size - 1 : MAX_SIZE - 1,
            WHOLE + "[0, " + AM2J_SIZE + " - 1" + (size > 0 ? " = " + (size - 1) : "") + "]");
        final int nodes = (int)reader.number(AM2J_NODES, 1, size > 0 ? size : MAX_SIZE,
            WHOLE + "[1, " + AM2J_SIZE + (size > 0 ? " = " + size : "") + "]");
        final int node = (int)reader.number(AM2J_NODE, 0, nodes > 0 ? nodes - 1 : MAX_SIZE - 1,
            WHOLE + "[0, " + AM2J_NODES + " - 1" + (nodes > 0 ? " = " + (nodes - 1) : "") + "]");
        final String nodeId = nodeId(reader, localNodeId);
        final String jobId = jobId(reader);
        final InetSocketAddress bootstrap = reader.address(AM2J_BOOTSTRAP);
        final long launcherPid = reader.number(AM2J_LAUNCHER_PID, 1, Long.MAX_VALUE, "a pid, 1 or more");
        final long launcherStart = reader.number(
            AM2J_LAUNCHER_START, 0, Long.MAX_VALUE, "epoch milliseconds, 0 or more (0: unknown)");
        reader.check("bin/am2j run gives each rank " + AM2J_RANK + ", " + AM2J_SIZE + ", " + AM2J_NODE + ", " +
            AM2J_NODES + ", " + AM2J_JOB + ", " + AM2J_BOOTSTRAP + ", " + AM2J_LAUNCHER_PID + " and " +
            AM2J_LAUNCHER_START + "; without a launcher set only " + AM2J_RANK + ", " + AM2J_SIZE + " and " +
            AM2J_BOOTSTRAP + " (" + String.join(", ", LAUNCHER_ONLY) + " say that bin/am2j run started the rank)");
        return new SpmdEnvironment(
            LauncherKind.AM2J, rank, size, node, nodes, nodeId, jobId, bootstrap, launcherPid, launcherStart);
    }

    /**
     * Without a launcher ({@link LauncherKind#MANUAL}) or under an external one: rank 0 serves the rendezvous, and the
     * node comes from the node identities of the ranks.
     */
    private static SpmdEnvironment parseRankZeroServes(
        final LauncherKind kind, final EnvironmentReader reader, final Map<String, String> env,
        final String localNodeId)
    {
        final String sizeVariable = kind.sizeVariable();
        final int processes = (int)reader.number(sizeVariable, 1, MAX_SIZE, WHOLE + "[1, " + MAX_SIZE + "]");
        final int process = (int)reader.number(kind.rankVariable(), 0, processes > 0 ? processes - 1 : MAX_SIZE - 1,
            WHOLE + "[0, " + sizeVariable + " - 1" + (processes > 0 ? " = " + (processes - 1) : "") + "]");
        final int perProcess = kind.isExternal() ? ranksPerJvm(reader) : 1;
        final int inProcess = kind.isExternal() ? rankInJvm(reader, perProcess) : 0;
        if (processes > 0 && perProcess > 0 && (long)processes * perProcess > MAX_SIZE)
        {
            reader.problem(sizeVariable + " = " + processes + " processes of " + AM2J_RANKS_PER_JVM + " = " +
                perProcess + " ranks each are " + (long)processes * perProcess + " ranks, more than a job may have (" +
                MAX_SIZE + ")");
        }
        final int size = processes * perProcess;
        final int rank = process * perProcess + inProcess;
        final String nodeId = nodeId(reader, localNodeId);
        final InetSocketAddress bootstrap = size > 1 || reader.isSet(AM2J_BOOTSTRAP) ?
            reader.address(AM2J_BOOTSTRAP) : null;
        final String jobId = reader.isSet(AM2J_JOB) ? jobId(reader) : derivedJobId(kind, env, bootstrap, rank);
        reader.check(kind == LauncherKind.MANUAL ?
            "without a launcher every process needs " + AM2J_RANK + " (0 to " + AM2J_SIZE + " - 1) and " + AM2J_SIZE +
            " (1 to " + MAX_SIZE + "), and with more than one rank " + AM2J_BOOTSTRAP + ", " + HostPort.FORMAT +
            ": an address of rank 0's machine, where rank 0 serves the rendezvous (" + AM2J_JOB + " is optional)" :
            kind + " gives each process " + kind.rankVariable() + " and " + sizeVariable + "; with more than one " +
            "rank " + AM2J_BOOTSTRAP + " must name rank 0's rendezvous address as " + HostPort.FORMAT + ": rank 0 " +
            "listens on that port");
        final int node = size == 1 ? 0 : UNKNOWN_NODE;
        final int nodes = size == 1 ? 1 : UNKNOWN_NODE;
        return new SpmdEnvironment(kind, rank, size, node, nodes, nodeId, jobId, bootstrap, 0, 0);
    }

    /**
     * @param env an environment.
     * @return {@value #AM2J_RANKS_PER_JVM} of it: the ranks a process of an external launcher holds as threads, K; 1
     * when not set.
     * @throws AmException {@link AmError#BAD_ARG} naming the variable when it is not a whole number in [1,
     *                     {@value #MAX_SIZE}].
     */
    public static int ranksPerJvm(final Map<String, String> env)
    {
        AmException.checkNotNull("env", env);
        final EnvironmentReader reader = new EnvironmentReader(env);
        final int perJvm = ranksPerJvm(reader);
        reader.check("");
        return perJvm;
    }

    /**
     * @return {@value #AM2J_RANKS_PER_JVM}, 1 when not set, or -1 when malformed (recorded).
     */
    private static int ranksPerJvm(final EnvironmentReader reader)
    {
        return reader.isSet(AM2J_RANKS_PER_JVM) ? (int)reader.number(AM2J_RANKS_PER_JVM, 1, MAX_SIZE,
            WHOLE + "[1, " + MAX_SIZE + "]: the ranks each process of the launcher holds as threads") : 1;
    }

    /**
     * @param perJvm K, or -1 when malformed.
     * @return {@value #AM2J_RANK_IN_JVM}, 0 when not set and K is 1, or -1 when it is missing or malformed
     * (recorded).
     */
    private static int rankInJvm(final EnvironmentReader reader, final int perJvm)
    {
        if (!reader.isSet(AM2J_RANK_IN_JVM))
        {
            if (perJvm > 1)
            {
                reader.problem(AM2J_RANKS_PER_JVM + " = " + perJvm + " says each process of the launcher holds " +
                    perJvm + " ranks as threads, but " + AM2J_RANK_IN_JVM + ", which of them this thread works " +
                    "for, is not set: start java with the main class org.am2j.launch.RankThreads before the " +
                    "program's (java ... org.am2j.launch.RankThreads MAINCLASS [ARGS]), which gives each of its " +
                    "ranks its own");
                return -1;
            }
            return 0;
        }
        final int last = Math.max(perJvm, 1) - 1;
        return (int)reader.number(AM2J_RANK_IN_JVM, 0, last,
            WHOLE + "[0, " + AM2J_RANKS_PER_JVM + " - 1" + (perJvm > 0 ? " = " + last : "") + "]");
    }

    /**
     * @return the job id of a job without {@value #AM2J_JOB}: Slurm's job and step, else one made of the rendezvous
     * address, which all ranks share.
     */
    private static String derivedJobId(
        final LauncherKind kind, final Map<String, String> env, final InetSocketAddress bootstrap, final int rank)
    {
        final String slurmJob = env.get("SLURM_JOB_ID");
        if (kind == LauncherKind.SLURM && null != slurmJob && DECIMAL.matcher(slurmJob).matches())
        {
            final String step = env.get("SLURM_STEP_ID");
            return "slurm-" + slurmJob + (null != step && DECIMAL.matcher(step).matches() ? "." + step : "");
        }
        if (null != bootstrap)
        {
            return sanitise("boot-" + bootstrap.getHostString() + "-" + bootstrap.getPort());
        }
        return sanitise(kind.name().toLowerCase(Locale.ROOT) + "-solo-" + Math.max(0, rank));
    }

    private static String sanitise(final String s)
    {
        final String safe = s.replaceAll("[^A-Za-z0-9.-]", "_");
        return safe.length() > MAX_JOB_ID_LENGTH ? safe.substring(0, MAX_JOB_ID_LENGTH) : safe;
    }

    /**
     * @return {@value #AM2J_NODE_ID} when the environment has it, else this process's own node identity; checked.
     */
    private static String nodeId(final EnvironmentReader reader, final String localNodeId)
    {
        final String allowed = "1 to " + MAX_NODE_ID_BYTES + " UTF-8 bytes without control characters";
        if (reader.isSet(AM2J_NODE_ID))
        {
            return reader.checked(AM2J_NODE_ID, SpmdEnvironment::isValidNodeId, allowed);
        }
        if (!isValidNodeId(localNodeId))
        {
            reader.problem("the node identity = '" + Settings.printable(localNodeId) + "' is not " + allowed);
        }
        return localNodeId;
    }

    /**
     * @param nodeId a candidate node identity.
     * @return true when it has 1 to {@value #MAX_NODE_ID_BYTES} UTF-8 bytes and no control characters.
     */
    static boolean isValidNodeId(final String nodeId)
    {
        return !nodeId.isEmpty() && nodeId.getBytes(StandardCharsets.UTF_8).length <= MAX_NODE_ID_BYTES &&
            nodeId.chars().noneMatch(Character::isISOControl);
    }

    /**
     * @param jobId a candidate job id.
     * @return true when it has 1 to {@value #MAX_JOB_ID_LENGTH} characters of {@code [A-Za-z0-9._-]}.
     */
    static boolean isValidJobId(final String jobId)
    {
        return JOB_ID.matcher(jobId).matches();
    }

    private static String jobId(final EnvironmentReader reader)
    {
        return reader.checked(AM2J_JOB, SpmdEnvironment::isValidJobId,
            "1 to " + MAX_JOB_ID_LENGTH + " characters of [A-Za-z0-9._-]");
    }

    @Override
    public String toString()
    {
        return "SpmdEnvironment{launcher=" + launcher + ", rank=" + rank + ", size=" + size + ", node=" + node +
            ", nodes=" + nodes + ", nodeId='" + nodeId + "', jobId='" + jobId + "', bootstrap=" + bootstrap +
            ", launcherPid=" + launcherPid + ", launcherStartMillis=" + launcherStartMillis + '}';
    }
}
