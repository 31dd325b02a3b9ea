package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the tests of real launchers ({@code mpirun}, {@code srun}) share: the rank program's command line as the
 * README's "Several machines" section writes it, processes run within a time bound, and the clean-up of every process
 * a test started, found by a marker in its environment. The launchers' daemons and the tasks they start (Slurm's
 * {@code slurmstepd} detaches from {@code slurmd}) are not all descendants of the test JVM, but all inherit the
 * environment the test gave the launcher: {@link #MARKER} with a value unique to the test.
 */
final class LauncherJob
{
    /** The variable every process of a launcher test carries, its value unique to the test. */
    static final String MARKER = "AM2J_LAUNCHER_TEST";
    /** The ranks of every launcher test. */
    static final int RANKS = 4;
    /** Pings with every other rank, 8 KiB and short requests to every other rank: a few seconds in all. */
    private static final String[] PER_PAIR = {"20", "20", "200"};

    private LauncherJob()
    {
    }

    /**
     * @param packages the packages that bring them, for the reason.
     * @param programs commands the test needs.
     * @return why the test cannot run (the programs missing from {@code PATH} and the packages that bring them), or
     * {@code null} when all are present.
     */
    static String missing(final String packages, final String... programs)
    {
        final List<String> absent = new ArrayList<>();
        for (final String program : programs)
        {
            if (null == find(program))
            {
                absent.add(program);
            }
        }
        return absent.isEmpty() ? null :
            absent + " not found on PATH (" + System.getenv("PATH") + "); install the packages " + packages;
    }

    /**
     * @param program a command name.
     * @return its path on {@code PATH} or in the system directories, or {@code null}.
     */
    static Path find(final String program)
    {
        final String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin:/usr/bin:/bin";
        for (final String dir : path.split(File.pathSeparator))
        {
            final Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /**
     * @return a TCP port of the loopback address free a moment ago, for the rendezvous or a daemon.
     * @throws IOException when none can be had.
     */
    static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    /**
     * The rank program as the README starts it under a launcher: {@code java} with the two flags of "Set up" and a
     * class path holding the program and am2j, here {@link NamespaceFloodMain} with every rank on one host: a
     * ping-pong between every pair of ranks, then 8 KiB and short requests from every rank to every other, each
     * checked to arrive once with its reply.
     *
     * @param seconds the rank program's own time limit.
     * @return the command line.
     */
    static List<String> rankCommand(final long seconds)
    {
        return rankCommand(seconds, RANKS, "-Xmx128m");
    }

    /**
     * The rank program as the README starts it under a launcher whose every process holds
     * {@code AM2J_RANKS_PER_JVM} ranks as threads: as {@link #rankCommand(long)}, the main class
     * {@code org.am2j.launch.RankThreads} before the program's.
     *
     * @param seconds the rank program's own time limit.
     * @param ranks   of the job: the launcher's processes times the ranks each holds.
     * @return the command line.
     */
    static List<String> rankThreadsCommand(final long seconds, final int ranks)
    {
        return rankCommand(seconds, ranks, "-Xmx256m", "org.am2j.launch.RankThreads");
    }

    private static List<String> rankCommand(final long seconds, final int ranks, final String heap,
        final String... mainClasses)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(NamespaceJob.JVM_FLAGS);
        command.addAll(List.of(heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(List.of(mainClasses));
        command.add(NamespaceFloodMain.class.getName());
        command.add("a".repeat(ranks));
        command.add("all");
        command.addAll(List.of(PER_PAIR));
        command.add(Long.toString(seconds));
        return command;
    }

    /**
     * Start a process with the test's environment plus {@code env}, its standard output and error merged into
     * {@code output}.
     *
     * @param command the program and its arguments.
     * @param env     variables added to the inherited environment (the test's {@link #MARKER} among them).
     * @param output  the file its output goes to.
     * @return the started process.
     * @throws IOException when it cannot be started.
     */
    static Process start(final List<String> command, final Map<String, String> env, final Path output)
        throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(output.toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    /**
     * Run a command to its end; one still running after {@code timeoutMs} is killed with its descendants.
     *
     * @return its exit status, or -1 when it was killed for running too long.
     */
    static int run(final long timeoutMs, final List<String> command, final Map<String, String> env, final Path output)
        throws IOException, InterruptedException
    {
        final Process process = start(command, env, output);
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS))
        {
            kill(process);
            return -1;
        }
        return process.exitValue();
    }

    /**
     * Kill a process and its descendants, and wait a little for it to end.
     */
    static void kill(final Process process) throws InterruptedException
    {
        if (null != process)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /**
     * Kill every process of this machine whose environment holds {@code MARKER=value}, other than this JVM.
     *
     * @param value the test's marker.
     * @return the pids killed (empty after a clean run).
     */
    static List<Long> killMarked(final String value)
    {
        final List<Long> killed = new ArrayList<>();
        for (final ProcessHandle process : marked(value))
        {
            if (process.destroyForcibly())
            {
                killed.add(process.pid());
            }
        }
        return killed;
    }

    /**
     * Wait until no process carries the marker any more (one that is on its way out, such as a NIC process that has
     * just removed its node's directory, is given the time to finish), at most {@code seconds}.
     *
     * @param value   the marker's value.
     * @param seconds the bound.
     */
    static void awaitNoMarked(final String value, final int seconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
        while (!marked(value).isEmpty() && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(50);
        }
    }

    private static List<ProcessHandle> marked(final String value)
    {
        final byte[] entry = (MARKER + "=" + value + "\0").getBytes(StandardCharsets.UTF_8);
        final long self = ProcessHandle.current().pid();
        final List<ProcessHandle> marked = new ArrayList<>();
        ProcessHandle.allProcesses().filter(p -> p.pid() != self).forEach(p ->
        {
            final byte[] environ;
            try
            {
                environ = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "environ"));
            }
            catch (final IOException | SecurityException ex)
            {
                return; // gone, or another user's: not one this test started
            }
            if (contains(environ, entry) && p.isAlive())
            {
                marked.add(p);
            }
        });
        return marked;
    }

    private static boolean contains(final byte[] environ, final byte[] entry)
    {
        outer:
        for (int i = 0; i + entry.length <= environ.length; i++)
        {
            if (0 != i && 0 != environ[i - 1])
            {
                continue;
            }
            for (int j = 0; j < entry.length; j++)
            {
                if (environ[i + j] != entry[j])
                {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * Check that every rank ran on one node and printed its {@code rank R ok: ...} line, and print those lines.
     *
     * @param output the launcher's output (its ranks' merged).
     * @param what   the launcher, for messages.
     */
    static void checkRanks(final String output, final String what)
    {
        checkRanks(output, what, RANKS, 1);
    }

    /**
     * Check that each of the job's ranks ran once, on one node, and printed its {@code rank R ok: ...} line once, and
     * that each of the launcher's processes held its K consecutive ranks (K above 1: they are threads of one JVM,
     * whose lines it prefixes {@code [R] }); print the {@code ok} lines.
     *
     * @param output     the launcher's output (its ranks' merged).
     * @param what       the launcher, for messages.
     * @param ranks      of the job.
     * @param perProcess ranks each of the launcher's processes holds, K.
     */
    static void checkRanks(final String output, final String what, final int ranks, final int perProcess)
    {
        final String prefix = perProcess > 1 ? "\\[(\\d+)] " : "()";
        final Map<Integer, Long> pidOfRank = new HashMap<>();
        final Matcher started = Pattern.compile("^" + prefix + "job=\\S+ pid=(\\d+) rank=(\\d+) node=0 of 1 ",
            Pattern.MULTILINE).matcher(output);
        long lines = 0;
        while (started.find())
        {
            lines++;
            final int rank = Integer.parseInt(started.group(3));
            assertTrue(perProcess == 1 || started.group(1).equals(started.group(3)),
                what + ": a line of rank " + rank + " prefixed [" + started.group(1) + "]\n" + output);
            pidOfRank.put(rank, Long.parseLong(started.group(2)));
        }
        for (int r = 0; r < ranks; r++)
        {
            assertTrue(pidOfRank.containsKey(r), what + ": rank " + r + " did not print its 'rank=" + r +
                " node=0 of 1' line\n" + output);
            final String ok = (perProcess > 1 ? "[" + r + "] " : "") + "rank " + r + " ok: ";
            final List<String> oks = output.lines().filter(line -> line.startsWith(ok)).toList();
            assertEquals(1, oks.size(), what + ": '" + ok + "' lines\n" + output);
            System.out.println("  " + oks.get(0));
            final int first = r - r % perProcess;
            assertEquals(pidOfRank.get(first), pidOfRank.get(r),
                what + ": ranks " + first + " and " + r + " are in one process\n" + output);
        }
        assertEquals(ranks, lines, what + ": ranks started, each once\n" + output);
        assertEquals(ranks / perProcess, new HashSet<>(pidOfRank.values()).size(),
            what + ": processes of " + perProcess + " ranks each\n" + output);
    }

    /**
     * @return the file's text, or a line saying why there is none.
     */
    static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "(no " + file + ")\n";
        }
        catch (final IOException ex)
        {
            return "(cannot read " + file + ": " + ex + ")\n";
        }
    }
}
