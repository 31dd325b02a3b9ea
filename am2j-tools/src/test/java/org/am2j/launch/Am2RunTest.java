package org.am2j.launch;

import org.am2j.spi.NodeIdentity;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.ShmDirectories;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.am2j.spmd.RendezvousConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The launcher end to end, with real rank JVMs on the test class path. Every test is bounded by {@link Timeout} and
 * by the timeouts of its waits, and kills whatever it started when it ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Am2RunTest
{
    private static final long RUN_TIMEOUT_S = 45;
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final List<Long> rankPids = new ArrayList<>();

    @AfterEach
    void killEverythingStarted()
    {
        spmdDescendants().forEach(ProcessHandle::destroyForcibly);
        for (final long pid : rankPids)
        {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        executor.shutdownNow();
    }

    private Future<Integer> launch(final String... args)
    {
        return executor.submit(() -> new Am2Run(out, err).run(args));
    }

    private int run(final String... args) throws Exception
    {
        return launch(args).get(RUN_TIMEOUT_S, TimeUnit.SECONDS);
    }

    private String out()
    {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err()
    {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    private String output()
    {
        return "\n--- stdout ---\n" + out() + "--- stderr ---\n" + err();
    }

    /**
     * @return the processes this JVM started, directly or not, that run launchers or ranks (all of them when the
     * platform does not tell command lines), so that other tests' processes are left alone.
     */
    private static Stream<ProcessHandle> spmdDescendants()
    {
        return ProcessHandle.current().descendants()
            .filter(p -> p.info().commandLine().map(c -> c.contains("org.am2j.spmd.")).orElse(true));
    }

    private static void assertNoRunningDescendant()
    {
        final List<ProcessHandle> running = spmdDescendants()
            .filter(p -> ProcessIdentity.isAlive(p.pid(), ProcessIdentity.UNKNOWN_START_TIME))
            .collect(Collectors.toList());
        assertTrue(running.isEmpty(), "still running: " + running);
    }

    @Test
    void usageErrorsPrintTheUsageAndExitWithTwo() throws Exception
    {
        assertEquals(Am2Run.USAGE_STATUS, run("run", "-n", "2", "--nodes", "3", "--", "Main"));
        assertTrue(err().contains("am2j run: --nodes 3 is more than -n 2"), err());
        assertTrue(err().contains(LaunchOptions.USAGE), err());

        assertEquals(0, run("--help"));
        assertTrue(out().contains(LaunchOptions.USAGE), out());
    }

    @Test
    void anUnknownPollSchedulerIsOneLineListingTheValidOnesAndNoRankStarts() throws Exception
    {
        assertEquals(Am2Run.USAGE_STATUS, run("run", "-n", "2", "--poll", "bogus", "--", HelloMain.class.getName()));

        final List<String> lines = err().lines().collect(Collectors.toList());
        assertEquals(1, lines.size(), output());
        assertTrue(lines.get(0).startsWith("am2j run: --poll bogus: 'bogus' is not a poll scheduler; valid: every"),
            output());
        assertEquals("", out(), "a rank started" + output());
    }

    @Test
    void aBadPollArgumentIsOneLine() throws Exception
    {
        assertEquals(Am2Run.USAGE_STATUS, run("run", "-n", "2", "--poll", "every:3", "--", HelloMain.class.getName()));

        assertEquals(List.of("am2j run: --poll every:3: poll scheduler 'every' takes no argument, got '3'"),
            err().lines().collect(Collectors.toList()), output());
    }

    @Test
    void aRankThatNeverJoinsIsReportedWhileWaitedForAndThenFailsTheJob() throws Exception
    {
        final String previous = System.getProperty(RendezvousConfig.JOIN_TIMEOUT_PROP);
        System.setProperty(RendezvousConfig.JOIN_TIMEOUT_PROP, "15000");
        final int status;
        try
        {
            status = run("run", "-n", "3", "--", NeverJoinsOnRank1Main.class.getName());
        }
        finally
        {
            if (null == previous)
            {
                System.clearProperty(RendezvousConfig.JOIN_TIMEOUT_PROP);
            }
            else
            {
                System.setProperty(RendezvousConfig.JOIN_TIMEOUT_PROP, previous);
            }
        }

        assertNotEquals(0, status, output());
        assertTrue(err().contains("am2j run: rendezvous: waiting for ranks [1] of job '"), output());
        assertTrue(err().contains("2 of 3 joined after"), output());
        assertTrue(err().contains("did not join within 15000 ms (2 of 3 joined") &&
            err().contains(RendezvousConfig.JOIN_TIMEOUT_VARIABLE), output());
        assertTrue(!out().contains("joined "), "a rank went on as if the job had started" + output());
    }

    @Test
    void aRankThatExitsWithZeroBeforeJoiningFailsTheJobAtOnceNamingItAndLeavesNothingBehind() throws Exception
    {
        final Path shmRoot = dir.resolve("shm");
        // A join timeout far beyond this test's bound: only the launcher noticing rank 1's exit can end the job.
        final Process launcher = startLauncher(
            Map.of(ShmDirectories.ROOT_VARIABLE, shmRoot.toString(), RendezvousConfig.JOIN_TIMEOUT_VARIABLE, "600000"),
            "run", "-n", "3", "--", ExitsBeforeJoiningOnRank1Main.class.getName(), dir.toString());
        try
        {
            final List<Long> pids = awaitPidFiles(3);
            assertTrue(launcher.waitFor(WAIT_MS, TimeUnit.MILLISECONDS),
                "the job did not fail when rank 1 exited" + launcherOutput());
            final String errText = Files.readString(dir.resolve("launcher.err"));
            assertEquals(Am2Run.FAILURE_STATUS, launcher.exitValue(), launcherOutput());
            assertTrue(errText.contains("am2j run: rank 1 exited with status 0" + Am2Run.BEFORE_JOINING + "\n"),
                launcherOutput());
            assertFalse(errText.contains("did not join within"), launcherOutput());
            awaitGone(pids);
            assertNoRunningDescendant();
            // the node's identity is kept, as after any job; the ranks' counters files are gone
            try (Stream<Path> left = Files.walk(shmRoot))
            {
                assertEquals(List.of(shmRoot, shmRoot.resolve(NodeIdentity.FILE_NAME)),
                    left.sorted().collect(Collectors.toList()), launcherOutput());
            }
        }
        finally
        {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly().waitFor(WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void helloPrintsOneLinePerRankOnItsBlockNode() throws Exception
    {
        final int status = run("run", "-n", "4", "--nodes", "2", "--", HelloMain.class.getName());

        assertEquals(0, status, output());
        final List<String> lines = Arrays.stream(out().split("\n"))
            .filter(line -> line.matches("\\[\\d+] rank .*"))
            .sorted()
            .collect(Collectors.toList());
        assertEquals(List.of(
            "[0] rank 0 of 4 on node 0",
            "[1] rank 1 of 4 on node 0",
            "[2] rank 2 of 4 on node 1",
            "[3] rank 3 of 4 on node 1"), lines, output());
        // each emulated node had a shared-memory root of its own (HelloMain checks their node identities differ);
        // the launcher removes them with the job
        final Path root = ShmDirectories.userRoot();
        if (Files.isDirectory(root))
        {
            try (Stream<Path> entries = Files.list(root))
            {
                final String prefix = "emulated+j" + ProcessHandle.current().pid() + "-";
                assertEquals(List.of(), entries.map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith(prefix)).collect(Collectors.toList()));
            }
        }
    }

    @Test
    void statShowsEachRanksEndpointWithItsRankAndJob() throws Exception
    {
        final int status = run("-n", "2", "--", StatOfItselfMain.class.getName());

        assertEquals(0, status, output());
        final String job = "j" + ProcessHandle.current().pid() + "-[0-9a-z]+";
        for (int r = 0; r < 2; r++)
        {
            final String rank = Integer.toString(r);
            final List<String> lines = out().lines().filter(line -> line.startsWith("[" + rank + "] stat "))
                .map(line -> line.substring(("[" + rank + "] stat ").length())).collect(Collectors.toList());
            assertEquals(2, lines.size(), output());
            assertTrue(lines.get(0).matches("\\d+\\s+" + rank + "\\s+" + job + "\\s+\\d+\\s+.*"), output());
            assertTrue(lines.get(1).matches("ep \\d+ endpoint \\(\\d+ transports?\\)  rank " + rank + "  job " + job),
                output());
        }
    }

    @Test
    void rankExitingWithAStatusFailsTheJobNamingItAndStopsTheOthers() throws Exception
    {
        final int status = run("-n", "3", "--", ExitOnRank1Main.class.getName());

        assertEquals(3, status, output());
        assertTrue(err().contains("am2j run: rank 1 exited with status 3\n"), output());
        for (int r = 0; r < 3; r++)
        {
            assertTrue(out().contains("[" + r + "] out " + r + "\n"), output());
            assertTrue(err().contains("[" + r + "] err " + r + "\n"), output());
        }
        assertNoRunningDescendant();
    }

    @Test
    void uncaughtExceptionPrintsItsStackTraceAndExitsWithOne() throws Exception
    {
        final int status = run("-n", "2", "--", ThrowOnRank1Main.class.getName());

        assertEquals(1, status, output());
        assertTrue(err().contains(
            "[1] Exception in thread \"main\" java.lang.IllegalStateException: boom on rank 1\n"), output());
        assertTrue(err().contains("[1] \tat org.am2j.launch.ThrowOnRank1Main.main("), output());
        assertTrue(err().contains("am2j run: rank 1 exited with status 1\n"), output());
        assertNoRunningDescendant();
    }

    @Test
    void aMissingMainClassIsReportedOnceWithTheClassPathAndWhatWasMeant() throws Exception
    {
        final int status = run("-n", "2", "--", "org.am2j.spmd.hellomain");

        assertEquals(Am2Run.FAILURE_STATUS, status, output());
        final String classPath = System.getProperty("java.class.path");
        assertEquals(List.of(
            "am2j run: main class org.am2j.spmd.hellomain not found on the ranks' class path (--cp, then am2j's own): " +
                classPath,
            "am2j run: did you mean org.am2j.launch.HelloMain?"), err().lines().collect(Collectors.toList()), output());
        assertEquals("", out(), "a rank started" + output());

        errBytes.reset();
        assertEquals(Am2Run.FAILURE_STATUS, run("-n", "2", "--cp", dir.toString(), "--", "SleepForeverMain"), output());
        assertTrue(err().startsWith("am2j run: main class SleepForeverMain not found on the ranks' class path " +
            "(--cp, then am2j's own): " + dir + File.pathSeparator + classPath + "\n"), output());
        assertTrue(err().endsWith("\nam2j run: did you mean org.am2j.launch.SleepForeverMain?\n"), output());
    }

    @Test
    void killedRankFailsTheJobNamingIt() throws Exception
    {
        final Future<Integer> job = launch("-n", "2", "--", PidFileMain.class.getName(), dir.toString());
        final List<Long> pids = awaitPidFiles(2);

        ProcessHandle.of(pids.get(1)).ifPresent(ProcessHandle::destroyForcibly);

        assertEquals(128 + 9, job.get(RUN_TIMEOUT_S, TimeUnit.SECONDS), output());
        assertTrue(err().contains("am2j run: rank 1 was killed by signal 9 (SIGKILL)\n"), output());
        assertNoRunningDescendant();
    }

    @Test
    void aJobOverItsTimeLimitIsKilledWithAMessage() throws Exception
    {
        final long startNs = System.nanoTime();
        final int status = run("-n", "2", "--timeout", "2", "--", SleepForeverMain.class.getName(), dir.toString());
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

        assertNotEquals(0, status, output());
        assertEquals(Am2Run.TIMEOUT_STATUS, status, output());
        assertTrue(err().contains("am2j run: the job exceeded its time limit of 2 s\n"), output());
        assertTrue(elapsedMs >= 2_000, "stopped after " + elapsedMs + " ms" + output());
        assertTrue(elapsedMs < 2_000 + Am2Run.GRACE_MS + 10_000, "stopped after " + elapsedMs + " ms" + output());
        final List<Long> pids = new ArrayList<>();
        for (int r = 0; r < 2; r++)
        {
            final Path file = PidFileMain.pidFile(dir, r);
            if (Files.exists(file))
            {
                pids.add(Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim()));
            }
        }
        rankPids.addAll(pids);
        awaitGone(pids);
        assertNoRunningDescendant();
    }

    @Test
    void pinnedRanksRunEachOnItsOwnCpu() throws Exception
    {
        final CpuPinning pinning = CpuPinning.detect();
        assumeTrue(pinning.applied(), "cannot pin here: " + pinning.unpinnedReason());

        final int status = run("-n", "2", "--pin", "--", AffinityMain.class.getName());

        assertEquals(0, status, output());
        final String rank0 = affinity(0);
        final String rank1 = affinity(1);
        assertEquals(Integer.toString(pinning.cpu(0)), rank0, output());
        assertEquals(Integer.toString(pinning.cpu(1)), rank1, output());
        assertNotEquals(rank0, rank1, output());
        assertFalse(err().contains("cannot pin"), output());
    }

    @Test
    void pinWithoutTasksetSaysSoOnceAndRunsUnpinned() throws Exception
    {
        final Process launcher = startLauncher(
            Map.of("PATH", dir.resolve("no-taskset-here").toString()),
            "run", "-n", "2", "--pin", "--", AffinityMain.class.getName());
        try
        {
            assertTrue(launcher.waitFor(WAIT_MS, TimeUnit.MILLISECONDS), "the launcher did not finish");
            final String errText = Files.readString(dir.resolve("launcher.err"));
            assertEquals(0, launcher.exitValue(), launcherOutput());
            final String message =
                "am2j run: --pin: cannot pin the ranks (taskset is not on the PATH); running them unpinned\n";
            assertTrue(errText.contains(message), launcherOutput());
            assertEquals(errText.indexOf(message), errText.lastIndexOf(message), launcherOutput());
            final String outText = Files.readString(dir.resolve("launcher.out"));
            assertTrue(outText.contains("[0] affinity ") && outText.contains("[1] affinity "), launcherOutput());
        }
        finally
        {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly().waitFor(WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    private String affinity(final int rank)
    {
        final String prefix = "[" + rank + "] affinity ";
        final List<String> lines = Arrays.stream(out().split("\n"))
            .filter(line -> line.startsWith(prefix))
            .collect(Collectors.toList());
        assertEquals(1, lines.size(), output());
        return lines.get(0).substring(prefix.length());
    }

    @Test
    void terminatingTheLauncherStopsEveryRank() throws Exception
    {
        final Process launcher = startLauncher();
        try
        {
            final List<Long> pids = awaitPidFiles(2);

            launcher.destroy();

            assertTrue(launcher.waitFor(WAIT_MS, TimeUnit.MILLISECONDS), "the launcher ignored SIGTERM");
            awaitGone(pids);
        }
        finally
        {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly().waitFor(WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void killingTheLauncherStopsEveryRank() throws Exception
    {
        final Process launcher = startLauncher();
        try
        {
            final List<Long> pids = awaitPidFiles(2);

            launcher.destroyForcibly();

            assertTrue(launcher.waitFor(WAIT_MS, TimeUnit.MILLISECONDS), "the launcher survived SIGKILL");
            awaitGone(pids);
        }
        finally
        {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly().waitFor(WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    private Process startLauncher() throws IOException
    {
        return startLauncher(Map.of(), "run", "-n", "2", "--", PidFileMain.class.getName(), dir.toString());
    }

    private Process startLauncher(final Map<String, String> env, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(RankCommand.JVM_FLAGS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Am2Run.class.getName());
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("launcher.out").toFile())
            .redirectError(dir.resolve("launcher.err").toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    private List<Long> awaitPidFiles(final int ranks) throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        final List<Long> pids = new ArrayList<>();
        for (int r = 0; r < ranks; r++)
        {
            final Path file = PidFileMain.pidFile(dir, r);
            while (!Files.exists(file))
            {
                if (System.nanoTime() > deadlineNs)
                {
                    fail("rank " + r + " wrote no pid file" + output() + launcherOutput());
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
            final long pid = Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim());
            pids.add(pid);
            rankPids.add(pid);
        }
        return pids;
    }

    private void awaitGone(final List<Long> pids) throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        for (final long pid : pids)
        {
            while (ProcessIdentity.isAlive(pid, ProcessIdentity.UNKNOWN_START_TIME))
            {
                if (System.nanoTime() > deadlineNs)
                {
                    fail("rank pid " + pid + " is still running" + launcherOutput());
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
    }

    private String launcherOutput() throws IOException
    {
        final Path outFile = dir.resolve("launcher.out");
        final Path errFile = dir.resolve("launcher.err");
        return "\n--- launcher stdout ---\n" + (Files.exists(outFile) ? Files.readString(outFile) : "") +
            "--- launcher stderr ---\n" + (Files.exists(errFile) ? Files.readString(errFile) : "");
    }
}
