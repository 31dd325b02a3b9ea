package org.am2j.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.am2j.api.AmException;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.RankMain;
import org.am2j.spmd.RendezvousConfig;
import org.am2j.spmd.RendezvousServer;
import org.am2j.spmd.SpmdEnvironment;

/**
 * Starts the two rank JVMs of a benchmark the way {@code bin/am2j run -n 2} starts them, with one addition: each
 * JVM can be prefixed by {@code taskset -c CPU} ({@link CpuPinning}). The pair runs {@link RankMain} with the rank
 * program's class, so the ranks join through an am2j rendezvous server this class runs ({@code Spmd.init()} works
 * in them), get the {@code AM2J_*} environment, the node identity {@code <host>/node<k>} (also as
 * {@code -Dam2j.node}), and a launcher watchdog that halts them if this process dies.
 * <p>
 * Output lines of rank R are copied to this process's streams prefixed with {@code [R] }. When a rank exits with a
 * non-zero status, or the pair outlives its time limit, the other rank is stopped; {@link #stop()} (also from a
 * shutdown hook) stops both. Every started JVM is destroyed before {@link #run(long)} returns.
 */
final class RankPair
{
    /** Ranks of a pair. */
    static final int RANKS = 2;
    /** Exit status reported when the pair timed out or could not start. */
    static final int FAILURE_STATUS = 1;

    private static final List<String> JVM_FLAGS = Collections.unmodifiableList(Arrays.asList(
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"));
    private static final long GRACE_MS = 2_000;
    private static final long PUMP_DRAIN_MS = 2_000;

    private final String label;
    private final String mainClass;
    private final List<String> args;
    private final Map<String, String> properties;
    private final int nodes;
    private final CpuPinning pinning;
    private final PrintStream out;
    private final PrintStream err;
    private final Process[] processes = new Process[RANKS];
    private boolean stopped;

    /**
     * @param label      what the pair measures, for messages.
     * @param mainClass  the rank program: its {@code main(String[])} runs in both ranks.
     * @param args       the rank program's arguments.
     * @param properties system properties of both JVMs.
     * @param nodes      emulated nodes: 1 puts both ranks on node 0, 2 puts rank r on node r.
     * @param pinning    the CPUs of the ranks.
     * @param out        where the ranks' standard output goes.
     * @param err        where the ranks' standard error and this class's messages go.
     */
    RankPair(
        final String label,
        final String mainClass,
        final List<String> args,
        final Map<String, String> properties,
        final int nodes,
        final CpuPinning pinning,
        final PrintStream out,
        final PrintStream err)
    {
        if (nodes < 1 || nodes > RANKS)
        {
            throw new IllegalArgumentException("nodes = " + nodes + " is outside [1, " + RANKS + "]");
        }
        this.label = label;
        this.mainClass = mainClass;
        this.args = List.copyOf(args);
        this.properties = Map.copyOf(properties);
        this.nodes = nodes;
        this.pinning = pinning;
        this.out = out;
        this.err = err;
    }

    /**
     * Run both ranks to the end.
     *
     * @param timeoutMs how long the pair may run before both ranks are killed.
     * @return 0 when both ranks exited with 0; else the status of the first rank that failed, or
     * {@value #FAILURE_STATUS} when the pair could not start or timed out.
     * @throws InterruptedException when interrupted while waiting (both ranks are destroyed first).
     */
    int run(final long timeoutMs) throws InterruptedException
    {
        final long pid = ProcessHandle.current().pid();
        final String jobId = "pp" + pid + "-" + Long.toString(System.nanoTime() & 0xFFFFFFFFFL, 36);
        final RendezvousServer server;
        try
        {
            server = RendezvousServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), RANKS, jobId,
                new RendezvousConfig().log(message -> err.println("am2j pingpong: " + label + ": rendezvous: " +
                    message)));
        }
        catch (final AmException ex)
        {
            err.println("am2j pingpong: " + label + ": " + ex.getMessage());
            return FAILURE_STATUS;
        }
        final List<Thread> pumps = new ArrayList<>();
        try
        {
            final BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
            final String bootstrap = bootstrap(server.address());
            for (int rank = 0; rank < RANKS; rank++)
            {
                final Process process;
                try
                {
                    process = build(rank, jobId, bootstrap, pid).start();
                }
                catch (final IOException ex)
                {
                    err.println("am2j pingpong: " + label + ": cannot start rank " + rank + ": " + ex.getMessage());
                    return FAILURE_STATUS;
                }
                if (!keep(rank, process))
                {
                    return FAILURE_STATUS;
                }
                closeQuietly(process);
                pumps.add(pump(process.getInputStream(), out, rank));
                pumps.add(pump(process.getErrorStream(), err, rank));
                final int r = rank;
                process.onExit().thenRun(() -> exits.add(r));
            }
            return await(exits, timeoutMs);
        }
        finally
        {
            stop();
            for (final Thread pump : pumps)
            {
                pump.join(PUMP_DRAIN_MS);
            }
            server.close();
        }
    }

    /**
     * Stop both ranks: SIGTERM, then SIGKILL after a grace period. Harmless when they have exited.
     */
    void stop()
    {
        final List<Process> alive = new ArrayList<>();
        synchronized (this)
        {
            stopped = true;
            for (final Process process : processes)
            {
                if (null != process && process.isAlive())
                {
                    alive.add(process);
                }
            }
        }
        for (final Process process : alive)
        {
            process.destroy();
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MS);
        for (final Process process : alive)
        {
            try
            {
                final long left = deadline - System.nanoTime();
                if (left <= 0 || !process.waitFor(left, TimeUnit.NANOSECONDS))
                {
                    process.destroyForcibly();
                }
            }
            catch (final InterruptedException ex)
            {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * @param rank      0 or 1.
     * @param jobId     of the pair.
     * @param bootstrap {@code host:port} of the rendezvous server.
     * @param pid       of this process, the ranks' launcher.
     * @return the process builder of that rank.
     */
    ProcessBuilder build(final int rank, final String jobId, final String bootstrap, final long pid)
    {
        final int node = nodes == 1 ? 0 : rank;
        final String nodeId = SpmdEnvironment.localHostName() + "/node" + node;
        final List<String> command = new ArrayList<>(pinning.prefix(rank));
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_FLAGS);
        command.add("-Dam2j.node=" + nodeId);
        command.add("-Dam2j.job=" + jobId);
        for (final Map.Entry<String, String> property : properties.entrySet())
        {
            command.add("-D" + property.getKey() + "=" + property.getValue());
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(RankMain.class.getName());
        command.add(mainClass);
        command.addAll(args);

        final ProcessBuilder builder = new ProcessBuilder(command);
        final Map<String, String> env = builder.environment();
        env.put(SpmdEnvironment.AM2J_RANK, Integer.toString(rank));
        env.put(SpmdEnvironment.AM2J_SIZE, Integer.toString(RANKS));
        env.put(SpmdEnvironment.AM2J_NODE, Integer.toString(node));
        env.put(SpmdEnvironment.AM2J_NODES, Integer.toString(nodes));
        env.put(SpmdEnvironment.AM2J_NODE_ID, nodeId);
        env.put(SpmdEnvironment.AM2J_JOB, jobId);
        env.put(SpmdEnvironment.AM2J_BOOTSTRAP, bootstrap);
        env.put(SpmdEnvironment.AM2J_LAUNCHER_PID, Long.toString(pid));
        env.put(SpmdEnvironment.AM2J_LAUNCHER_START, Long.toString(ProcessIdentity.currentStartTimeMs()));
        return builder;
    }

    private static String bootstrap(final InetSocketAddress address)
    {
        final InetAddress host = address.getAddress();
        final String text = host.getHostAddress();
        return (host instanceof Inet6Address ? "[" + text + "]" : text) + ":" + address.getPort();
    }

    private synchronized boolean keep(final int rank, final Process process)
    {
        if (stopped)
        {
            process.destroyForcibly();
            return false;
        }
        processes[rank] = process;
        return true;
    }

    private int await(final BlockingQueue<Integer> exits, final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (int done = 0; done < RANKS; done++)
        {
            final Integer rank = exits.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (null == rank)
            {
                err.println("am2j pingpong: " + label + ": the ranks did not finish within " +
                    TimeUnit.MILLISECONDS.toSeconds(timeoutMs) + " s; stopping them");
                return FAILURE_STATUS;
            }
            final int status = processes[rank].exitValue();
            if (status != 0)
            {
                err.println("am2j pingpong: " + label + ": rank " + rank + " exited with status " + status);
                return status > 0 && status < 256 ? status : FAILURE_STATUS;
            }
        }
        return 0;
    }

    private static void closeQuietly(final Process process)
    {
        try
        {
            process.getOutputStream().close();
        }
        catch (final IOException ignore)
        {
            // the rank's standard input is closed either way
        }
    }

    private static Thread pump(final InputStream in, final PrintStream target, final int rank)
    {
        final Thread thread = new Thread(() -> copyLines(in, target, "[" + rank + "] "), "am2j-pingpong-pump-" + rank);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void copyLines(final InputStream in, final PrintStream target, final String prefix)
    {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)))
        {
            String line;
            while (null != (line = reader.readLine()))
            {
                synchronized (target)
                {
                    target.println(prefix + line);
                }
            }
        }
        catch (final IOException ignore)
        {
            // the rank's stream broke: the rank is gone
        }
    }
}
