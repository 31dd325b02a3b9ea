package org.am2j.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.am2j.api.AmException;
import org.am2j.core.AmRuntime;
import org.am2j.core.stats.CountersFile;
import org.am2j.spi.HostPort;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.ShmDirectories;
import org.am2j.spmd.RendezvousConfig;
import org.am2j.spmd.RendezvousServer;
import org.am2j.spmd.SpmdEnvironment;

/**
 * The SPMD launcher ({@code bin/am2j run}, {@code bin/am2run}): starts P rank JVMs on this machine, spread in blocks
 * over N emulated nodes, runs their rendezvous server, and supervises them.
 * <pre>
 * am2j run -n P [--nodes N] [--poll NAME] [--nic inline|thread] [--ranks-per-jvm K] [--pin] [--timeout SECONDS]
 *     [--jvm-opt OPT]... [--cp CLASSPATH] -- MAINCLASS [ARGS]
 * </pre>
 * With {@code --ranks-per-jvm K} each rank JVM holds K consecutive ranks of one node as threads ({@link RankThreads},
 * {@link JvmPlacement}); what is said of a rank's exit below is then said of the JVM, naming its ranks.
 * (the leading {@code run} is optional). Each rank runs {@link RankMain} with the rank program's class, the
 * environment of {@link SpmdEnvironment}; each emulated node gets a shared-memory root of its own, and so is its own
 * shared-memory domain and node ({@link org.am2j.spi.NodeIdentity}), removed when the job ends; see
 * {@link RankCommand} and {@link RankPlacement}.
 * <p>
 * <b>Pinning.</b> With {@code --pin} rank R runs under {@code taskset -c CPU} on the R-th CPU this process may use,
 * modulo their number ({@link CpuPinning}); when pinning cannot be applied (no {@code taskset}, fewer than two
 * allowed CPUs) the launcher says so once on standard error and runs the ranks unpinned.
 * <p>
 * <b>Output.</b> Every line a rank writes is copied to the launcher's stream of the same kind, prefixed with
 * {@code [R] }, whole ({@link LinePump}). Ranks read an empty standard input.
 * <p>
 * <b>Exit.</b> The launcher exits with 0 when every rank exits with 0. When a rank exits with another status or dies,
 * it prints {@code am2j run: rank R exited with status S} (or {@code was killed by signal K} for a status of 128 + K,
 * as the JVM reports a death by signal), stops the other ranks (SIGTERM, then SIGKILL after
 * {@value #GRACE_MS} ms) and exits with that rank's status (1 when it is not 1 to 255). A rank that exits with 0
 * before every rank has joined the job's rendezvous fails the job the same way at once, with
 * {@code am2j run: rank R exited with status 0 before joining the job ...}, rather than leave the others waiting
 * for the join timeout. With {@code --timeout S}, a
 * job still running S seconds after the launcher began to start its ranks prints
 * {@code am2j run: the job exceeded its time limit of S s}, has every rank stopped the same way and exits with
 * {@value #TIMEOUT_STATUS}. Usage errors print the usage line and exit with 2. A main class missing from the ranks'
 * class path is reported once, before any rank starts, with that class path and the classes of it the user may have
 * meant ({@link MainClassCheck}); the launcher then exits with 1. The shared-memory files of a rank that
 * could not remove them itself (killed, crashed) are removed once it has exited ({@link RankFiles}).
 * <p>
 * <b>No orphans.</b> A shutdown hook stops every rank when the launcher is terminated (SIGTERM, SIGINT); every rank's
 * {@link LauncherWatchdog} halts it when the launcher dies without running hooks (SIGKILL).
 * <p>
 * <b>Embedding.</b> A program can run jobs itself with {@code new Am2Run(out, err).run(args)}, one at a time, in
 * turn on one instance; it then stops the ranks on its own termination by calling {@link #shutdown()} from its
 * shutdown hook, as {@link #main(String[])} does. A thread interrupted while {@link #run(String[])} waits stops the
 * ranks and gets {@value #FAILURE_STATUS}, its interrupt status set.
 */
public final class Am2Run
{
    /** Exit status of a usage error. */
    public static final int USAGE_STATUS = 2;
    /** Exit status when the job could not be started or a rank's status is not 1 to 255. */
    public static final int FAILURE_STATUS = 1;
    /** Exit status of a job stopped by its {@code --timeout}, as {@code timeout(1)}'s. */
    public static final int TIMEOUT_STATUS = 124;
    /** How long ranks get between SIGTERM and SIGKILL. */
    public static final long GRACE_MS = 2_000;

    private static final long PUMP_DRAIN_MS = 2_000;
    /** What follows {@code rank R exited with status 0} when the rank left before every rank had joined. */
    static final String BEFORE_JOINING =
        " before joining the job (a rank program must join it, Spmd.init(), before it exits)";
    /** How long the ranks of a NIC process that died get to report it before the job is stopped. */
    private static final long NIC_LOSS_REPORT_MS = 1_000;

    /** The names of the signals that usually end a JVM, by number (Linux's). */
    private static final String[] SIGNALS = {
        null, "HUP", "INT", "QUIT", "ILL", null, "ABRT", "BUS", "FPE", "KILL", null, "SEGV", null, "PIPE", null,
        "TERM" };

    private final PrintStream out;
    private final PrintStream err;
    private volatile RankProcesses current;
    private volatile NicProcesses currentNics;
    private volatile boolean shuttingDown;
    private volatile boolean stopping;

    /**
     * @param out where the ranks' standard output goes.
     * @param err where the ranks' standard error and the launcher's messages go.
     */
    public Am2Run(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * Run a job and exit with its status.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        final Am2Run launcher = new Am2Run(System.out, System.err);
        Runtime.getRuntime().addShutdownHook(new Thread(launcher::shutdown, "am2j-run-shutdown"));
        final int status = launcher.run(args);
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    /**
     * Run a job: start the ranks, wait for them, stop them all when one fails or the time limit passes.
     *
     * @param args the command line.
     * @return the exit status: 0 when every rank exited with 0, {@value #USAGE_STATUS} for a usage error,
     * {@value #TIMEOUT_STATUS} when the time limit passed, else non-zero.
     */
    public int run(final String[] args)
    {
        final LaunchOptions options;
        try
        {
            options = LaunchOptions.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("am2j run: " + ex.getMessage());
            err.println(LaunchOptions.USAGE);
            return USAGE_STATUS;
        }
        if (options.help())
        {
            out.print(LaunchOptions.HELP);
            return 0;
        }

        final String configurationError = checkConfiguration(options);
        if (null != configurationError)
        {
            err.println("am2j run: " + configurationError);
            return USAGE_STATUS;
        }

        final List<String> missingMain = MainClassCheck.missing(options.mainClass(),
            RankCommand.classPath(options.classPath()));
        if (null != missingMain)
        {
            missingMain.forEach(line -> err.println("am2j run: " + line));
            return FAILURE_STATUS;
        }

        stopping = shuttingDown;
        final CpuPinning pinning = options.pin() ? pinning() : null;
        final long pid = ProcessHandle.current().pid();
        final String jobId = "j" + pid + "-" + Long.toString(System.currentTimeMillis(), 36);
        final RendezvousServer server;
        try
        {
            server = RendezvousServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), options.ranks(), jobId,
                new RendezvousConfig().log(this::rendezvousLog));
        }
        catch (final AmException ex)
        {
            err.println("am2j run: " + ex.getMessage());
            return FAILURE_STATUS;
        }
        final Path shmRoot;
        try
        {
            shmRoot = ShmDirectories.userRoot();
            if (options.nodes() > 1)
            {
                RankPlacement.sweepEmulatedNodesRoots(shmRoot);
            }
        }
        catch (final AmException ex)
        {
            server.close();
            err.println("am2j run: " + ex.getMessage());
            return FAILURE_STATUS;
        }
        try
        {
            final RankCommand command = new RankCommand(
                options, jobId, HostPort.format(server.address()), shmRoot, pid, ProcessIdentity.currentStartTimeMs(),
                pinning);
            return supervise(command.jvms(), command, options.timeoutSeconds(), server);
        }
        finally
        {
            server.close();
            removeJobFiles(options, shmRoot, jobId);
        }
    }

    /** Remove the job's shared-memory directories once its ranks and NIC processes have exited or been killed. */
    private static void removeJobFiles(final LaunchOptions options, final Path shmRoot, final String jobId)
    {
        if (options.nicsPerNode() > 0 && options.nodes() == 1)
        {
            // the NIC processes have exited or been killed: nothing maps their directory's files any more
            ShmDirectories.deleteTree(shmRoot.resolve("nics-" + jobId));
        }
        if (options.nodes() > 1)
        {
            // every rank has exited or been killed: nothing maps the emulated nodes' files any more
            ShmDirectories.deleteTree(RankPlacement.emulatedNodesRoot(shmRoot, jobId));
            ShmDirectories.removeIfEmpty(shmRoot);
        }
    }

    /**
     * Stop every rank still running (the shutdown hook of {@link #main(String[])}); a job started after this fails at
     * once.
     */
    public void shutdown()
    {
        shuttingDown = true;
        stopping = true;
        final RankProcesses ranks = current;
        if (null != ranks)
        {
            stop(ranks, "terminated; stopping ");
        }
        final NicProcesses nics = currentNics;
        if (null != nics)
        {
            nics.stop(GRACE_MS);
        }
    }

    /**
     * Check what every rank would otherwise find wrong on its own, each with a stack trace: the poll scheduler
     * ({@code --poll}, else an {@code AM2J_POLL} the ranks inherit), against the schedulers of the ranks' class path.
     *
     * @param options of the launch.
     * @return a one-line error, or {@code null} when the configuration is usable.
     */
    static String checkConfiguration(final LaunchOptions options)
    {
        final String poll = null != options.poll() ? options.poll() :
            Settings.system().value(Setting.variable(SpmdEnvironment.AM2J_POLL));
        if (null == poll)
        {
            return null;
        }
        try (URLClassLoader loader = ClassPaths.loader(options.classPath(), Am2Run.class.getClassLoader()))
        {
            AmRuntime.checkPollSetting(poll, loader);
            return null;
        }
        catch (final AmException ex)
        {
            return (null != options.poll() ? "--poll " : SpmdEnvironment.AM2J_POLL + " = ") + poll + ": " +
                ex.detail();
        }
        catch (final IOException | ServiceConfigurationError ex)
        {
            return "cannot look for poll schedulers on the ranks' class path: " + ex.getMessage();
        }
    }

    /**
     * @return this process's pinning when it can be applied, else {@code null} after saying why on standard error.
     */
    private CpuPinning pinning()
    {
        final CpuPinning pinning = CpuPinning.detect();
        if (!pinning.applied())
        {
            err.println("am2j run: --pin: cannot pin the ranks (" + pinning.unpinnedReason() +
                "); running them unpinned");
            return null;
        }
        return pinning;
    }

    private void rendezvousLog(final String message)
    {
        // once the launcher stops the ranks, their disconnections are expected: it has reported the cause itself
        if (!stopping)
        {
            err.println("am2j run: rendezvous: " + message);
        }
    }

    private int supervise(final int size, final RankCommand command, final int timeoutSeconds,
        final RendezvousServer server)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        final RankProcesses ranks = new RankProcesses(size);
        current = ranks;
        final BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
        final Thread[][] pumps = new Thread[size][];
        final NicProcesses nics = command.nicsPerNode() > 0 ? new NicProcesses(command.nodes(), command.nicsPerNode()) :
            null;
        try
        {
            if (null != nics)
            {
                currentNics = nics;
                nics.start(command, out, err, exits);
            }
            return supervise(size, command, timeoutSeconds, deadlineNs, ranks, exits, pumps, nics, server);
        }
        catch (final IOException ex)
        {
            err.println("am2j run: " + ex.getMessage());
            return FAILURE_STATUS;
        }
        finally
        {
            if (null != nics)
            {
                // After the ranks (or with them, on a failure): nothing maps the NICs' files any more.
                nics.stop(GRACE_MS);
            }
        }
    }

    private int supervise(final int size, final RankCommand command, final int timeoutSeconds, final long deadlineNs,
        final RankProcesses ranks, final BlockingQueue<Integer> exits, final Thread[][] pumps, final NicProcesses nics,
        final RendezvousServer server)
    {
        for (int r = 0; r < size; r++)
        {
            if (!startRank(r, command, ranks, exits, pumps))
            {
                return FAILURE_STATUS;
            }
        }
        try
        {
            return awaitRanks(size, command, timeoutSeconds, deadlineNs, ranks, exits, pumps, nics, server);
        }
        catch (final InterruptedException ex)
        {
            stopping = true;
            err.println("am2j run: interrupted; stopping the ranks");
            // the interrupt is set again only once the ranks are gone: they get their grace period like any others
            ranks.terminate(GRACE_MS);
            Thread.currentThread().interrupt();
            return FAILURE_STATUS;
        }
        finally
        {
            // Ranks stopped for a time limit, a failure or an interrupt were not reaped while awaited.
            for (int r = 0; r < size; r++)
            {
                final Process process = ranks.get(r);
                if (null != process && !process.isAlive())
                {
                    reap(command, r, process);
                }
            }
        }
    }

    /**
     * Start one rank, its output pumps and the report of its exit.
     *
     * @return false when the job fails (shut down, the rank could not start), its ranks stopped.
     */
    private boolean startRank(final int r, final RankCommand command, final RankProcesses ranks,
        final BlockingQueue<Integer> exits, final Thread[][] pumps)
    {
        if (shuttingDown)
        {
            ranks.terminate(GRACE_MS);
            return false;
        }
        final Process process;
        try
        {
            process = command.build(r).start();
        }
        catch (final IOException ex)
        {
            err.println("am2j run: cannot start " + command.describe(r) + ": " + ex.getMessage());
            ranks.terminate(GRACE_MS);
            return false;
        }
        if (!ranks.add(r, process))
        {
            return false;
        }
        try
        {
            process.getOutputStream().close();
        }
        catch (final IOException ignore)
        {
            // the rank's standard input is closed either way
        }
        // a JVM of several ranks prefixes each line with its rank itself (RankOutput)
        pumps[r] = command.ranksPerJvm() == 1 ? LinePump.start(process, out, err, Integer.toString(r)) :
            LinePump.startUnprefixed(process, out, err, Integer.toString(r));
        process.onExit().thenRun(() -> exits.add(r));
        return true;
    }

    /**
     * Wait for every rank (and NIC process) to exit, stopping them all at the first failure or at the time limit.
     *
     * @return the job's exit status.
     */
    private int awaitRanks(final int size, final RankCommand command, final int timeoutSeconds,
        final long deadlineNs, final RankProcesses ranks, final BlockingQueue<Integer> exits, final Thread[][] pumps,
        final NicProcesses nics, final RendezvousServer server) throws InterruptedException
    {
        int status = 0;
        boolean failing = false;
        for (int done = 0; done < size; done++)
        {
            final Integer rank = failing || LaunchOptions.NO_TIMEOUT == timeoutSeconds ?
                exits.take() : exits.poll(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (null == rank)
            {
                stopping = true;
                err.println("am2j run: the job exceeded its time limit of " + timeoutSeconds + " s");
                stop(ranks, "stopping ");
                drain(pumps);
                return TIMEOUT_STATUS;
            }
            if (rank < 0)
            {
                // A NIC process exited while ranks ran: its ranks cannot use the network any more.
                done--;
                if (!failing)
                {
                    failing = true;
                    stopping = true;
                    status = FAILURE_STATUS;
                    err.println("am2j run: " + nics.describeExit(-1 - rank));
                    // The ranks it served notice it within a poll or two and report what came back; then the job
                    // stops.
                    Thread.sleep(NIC_LOSS_REPORT_MS);
                    ranks.terminate(GRACE_MS);
                }
                continue;
            }
            for (final Thread pump : pumps[rank])
            {
                pump.join(PUMP_DRAIN_MS);
            }
            reap(command, rank, ranks.get(rank));
            final int exitValue = ranks.get(rank).exitValue();
            // A rank gone before every rank joined can never join: the others would wait for the join timeout.
            if ((exitValue != 0 || !server.everyRankJoined()) && !failing)
            {
                failing = true;
                stopping = true;
                status = exitValue > 0 && exitValue < 256 ? exitValue : FAILURE_STATUS;
                err.println("am2j run: " + describeExit(command.describe(rank), exitValue) +
                    (0 == exitValue ? BEFORE_JOINING : ""));
                stop(ranks, "stopping the other ");
            }
        }
        return status;
    }

    /** Stop every rank, saying how many were still running after {@code am2j run: WHAT}. */
    private void stop(final RankProcesses ranks, final String what)
    {
        final int alive = ranks.alive();
        if (alive > 0)
        {
            err.println("am2j run: " + what + alive + " rank(s)");
        }
        ranks.terminate(GRACE_MS);
    }

    /**
     * Remove the shared-memory files an exited rank left (all of them when it was killed; none are left by a rank
     * that closed its endpoints and exited).
     */
    private static void reap(final RankCommand command, final int jvm, final Process process)
    {
        RankFiles.removeAfterExit(command.shmRoot(command.firstRank(jvm)), CountersFile.defaultDirectory(),
            process.pid());
    }

    /**
     * Give the output pumps of stopped ranks at most {@link #PUMP_DRAIN_MS} in all to copy what is left.
     *
     * @param pumps the output pumps of every rank.
     * @throws InterruptedException when interrupted while waiting.
     */
    private static void drain(final Thread[][] pumps) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PUMP_DRAIN_MS);
        for (final Thread[] rankPumps : pumps)
        {
            for (final Thread pump : rankPumps)
            {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                if (leftMs <= 0)
                {
                    return;
                }
                pump.join(leftMs);
            }
        }
    }

    /**
     * @param rank      that exited.
     * @param exitValue its exit value as {@link Process#exitValue()} reports it (128 + K for a death by signal K).
     * @return {@code rank R exited with status S} or {@code rank R was killed by signal K (NAME)}.
     */
    static String describeExit(final int rank, final int exitValue)
    {
        return describeExit("rank " + rank, exitValue);
    }

    /**
     * @param ranks     what exited: {@code rank R}, or the ranks of a JVM that held several.
     * @param exitValue its exit value as {@link Process#exitValue()} reports it (128 + K for a death by signal K).
     * @return {@code RANKS exited with status S} or {@code RANKS was killed by signal K (NAME)}.
     */
    static String describeExit(final String ranks, final int exitValue)
    {
        if (exitValue > 128 && exitValue <= 128 + 64)
        {
            final int signal = exitValue - 128;
            return ranks + " was killed by signal " + signal + signalName(signal);
        }
        return ranks + " exited with status " + exitValue;
    }

    private static String signalName(final int signal)
    {
        return signal < SIGNALS.length && null != SIGNALS[signal] ? " (SIG" + SIGNALS[signal] + ")" : "";
    }
}
