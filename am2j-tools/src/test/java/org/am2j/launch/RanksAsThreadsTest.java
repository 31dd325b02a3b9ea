package org.am2j.launch;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.am2j.spmd.SpmdEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs whose JVMs hold several ranks as threads ({@code --ranks-per-jvm K}, {@link RankThreads}), with real rank JVMs
 * on the test class path. Every test is bounded by {@link Timeout} and kills whatever it started when it ends.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RanksAsThreadsTest
{
    private static final long RUN_TIMEOUT_S = 75;
    private static final Pattern COUNT_LINE = Pattern.compile(
        "^\\[(\\d+)] rank (\\d+) pid (\\d+) count (\\d+) loader (\\S+)$", Pattern.MULTILINE);

    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @AfterEach
    void killEverythingStarted()
    {
        executor.shutdownNow();
        rankJvms().forEach(ProcessHandle::destroyForcibly);
    }

    private static List<ProcessHandle> rankJvms()
    {
        return ProcessHandle.current().descendants()
            .filter(p -> p.info().commandLine().map(c -> c.contains("org.am2j.launch.Rank")).orElse(true))
            .filter(ProcessHandle::isAlive)
            .collect(Collectors.toList());
    }

    /** What a job printed, and its status. */
    private record Ran(int status, String out, String err)
    {
        String output()
        {
            return "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    private Ran run(final String... args) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final Future<Integer> job = executor.submit(() -> new Am2Run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run(args));
        final int status = job.get(RUN_TIMEOUT_S, TimeUnit.SECONDS);
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void twoRanksOfOneJvmEachSeeTheirOwnStaticFieldAndEnvironment() throws Exception
    {
        final Ran ran = run("run", "-n", "2", "--ranks-per-jvm", "2", "--timeout", "60", "--",
            StaticCountMain.class.getName());
        assertEquals(0, ran.status(), ran.output());

        final Map<Integer, MatchResult> lines = new HashMap<>();
        final Matcher m = COUNT_LINE.matcher(ran.out());
        while (m.find())
        {
            assertEquals(m.group(1), m.group(2), "a rank's line carries its own prefix" + ran.output());
            lines.put(Integer.parseInt(m.group(2)), m.toMatchResult());
        }
        assertEquals(2, lines.size(), "a line of each rank" + ran.output());
        for (int rank = 0; rank < 2; rank++)
        {
            assertEquals(Integer.toString(10 * (rank + 1)), lines.get(rank).group(4),
                "rank " + rank + "'s count" + ran.output());
        }
        final String[] pids = { lines.get(0).group(3), lines.get(1).group(3) };
        final String[] loaders = { lines.get(0).group(5), lines.get(1).group(5) };
        assertEquals(pids[0], pids[1], "both ranks in one JVM" + ran.output());
        assertNotEquals(loaders[0], loaders[1], "each rank's program in a loader of its own" + ran.output());
        assertTrue(rankJvms().isEmpty(), "still running: " + rankJvms());
    }

    @Test
    void statShowsTheEndpointsOfOneJvmWithTheirOwnRanks() throws Exception
    {
        final Ran ran = run("run", "-n", "2", "--ranks-per-jvm", "2", "--timeout", "60", "--",
            StatOfItselfMain.class.getName());
        assertEquals(0, ran.status(), ran.output());

        // each rank prints the heading of every endpoint of its process: the JVM's two ranks' endpoints
        final String job = "j" + ProcessHandle.current().pid() + "-[0-9a-z]+";
        for (int r = 0; r < 2; r++)
        {
            final String prefix = "[" + r + "] stat ";
            final List<String> endpoints = ran.out().lines().filter(line -> line.startsWith(prefix + "ep "))
                .map(line -> line.substring(prefix.length())
                    .replaceAll("^ep \\d+ endpoint \\(\\d+ transports?\\)  ", ""))
                .sorted().collect(Collectors.toList());
            assertEquals(2, endpoints.size(), ran.output());
            assertTrue(endpoints.get(0).matches("rank 0  job " + job), ran.output());
            assertTrue(endpoints.get(1).matches("rank 1  job " + job), ran.output());
        }
    }

    @Test
    void helloOverTwoNodesOfTwoRankJvms() throws Exception
    {
        final Ran ran = run("run", "-n", "4", "--nodes", "2", "--ranks-per-jvm", "2", "--timeout", "60", "--",
            HelloMain.class.getName());
        assertEquals(0, ran.status(), ran.output());
        for (int rank = 0; rank < 4; rank++)
        {
            assertTrue(ran.out().contains("[" + rank + "] rank " + rank + " of 4 on node " + rank / 2 + "\n"),
                ran.output());
        }
    }

    @Test
    void aRankThatThrowsFailsTheJobNamingItAndTheOtherRanksAreStopped() throws Exception
    {
        // ranks 0-1 in one JVM, 2-3 in another: rank 1 throws after a barrier, the others sleep to be stopped
        final Ran ran = run("run", "-n", "4", "--ranks-per-jvm", "2", "--timeout", "60", "--",
            ThrowOnRank1Main.class.getName());
        assertEquals(RankMain.FAILURE_STATUS, ran.status(), ran.output());

        assertTrue(ran.err().contains("[1] am2j rank 1: uncaught exception in the rank's main; stopping this JVM's " +
            "ranks 0-1\n"), ran.output());
        assertTrue(ran.err().contains(
            "[1] Exception in thread \"rank-1\" java.lang.IllegalStateException: boom on rank 1\n"),
            ran.output());
        // the frames of a rank's program name its class loader, rank-R
        assertTrue(ran.err().contains("[1] \tat rank-1//org.am2j.launch.ThrowOnRank1Main.main("), "its stack trace" +
            ran.output());
        assertTrue(ran.err().contains("am2j run: ranks 0-1 (one JVM) exited with status 1\n"), ran.output());
        assertTrue(ran.err().contains("am2j run: stopping the other 1 rank(s)\n"), ran.output());
        assertTrue(rankJvms().isEmpty(), "still running: " + rankJvms());
    }

    @Test
    void aRankThatExitsEndsItsJvmAndTheLauncherNamesEveryRankOfIt() throws Exception
    {
        final Ran ran = run("run", "-n", "4", "--ranks-per-jvm", "2", "--timeout", "60", "--",
            ExitOnRank1Main.class.getName());
        assertEquals(3, ran.status(), ran.output());

        for (int rank = 0; rank < 4; rank++)
        {
            assertTrue(ran.out().contains("[" + rank + "] out " + rank + "\n"), ran.output());
            assertTrue(ran.err().contains("[" + rank + "] err " + rank + "\n"), ran.output());
        }
        assertTrue(ran.err().contains("am2j run: ranks 0-1 (one JVM) exited with status 3\n"), ran.output());
        assertTrue(rankJvms().isEmpty(), "still running: " + rankJvms());
    }

    @Test
    void aRankThatReturnsBeforeJoiningFailsTheJobBeforeTheJoinTimeout() throws Exception
    {
        // the join timeout is 60 s: the job's own limit, 40 s, would end it first (status 124) were it awaited
        final Ran ran = run("run", "-n", "2", "--ranks-per-jvm", "2", "--timeout", "40", "--",
            ReturnsBeforeJoiningOnRank1Main.class.getName());
        assertEquals(RankMain.FAILURE_STATUS, ran.status(), ran.output());

        assertTrue(ran.err().contains("[1] am2j rank 1: main returned before joining the job (a rank program must " +
            "join it, Spmd.init(), before it ends); stopping this JVM's ranks 0-1\n"), ran.output());
        assertTrue(ran.err().contains("am2j run: ranks 0-1 (one JVM) exited with status 1\n"), ran.output());
        assertTrue(rankJvms().isEmpty(), "still running: " + rankJvms());
    }

    @Test
    void aJvmOfKRanksRunsRankThreadsAsItsFirstRankOnTheCpusOfItsRanks()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "8", "--nodes", "2", "--ranks-per-jvm",
            "2", "--pin", "--", "Main", "a" }, Map.of());
        final RankCommand command = new RankCommand(options, "j1", "127.0.0.1:1", Path.of("/dev/shm/am2j-test"), 1, 0,
            CpuPinning.of("/usr/bin/taskset", "4-7"));

        assertEquals(4, command.jvms());
        final List<String> words = command.build(1).command();
        assertEquals(List.of("/usr/bin/taskset", "-c", "6,7"), words.subList(0, 3));
        assertEquals(List.of(RankThreads.class.getName(), "2", "Main", "a"), words.subList(words.size() - 4,
            words.size()));
        assertEquals("2", command.build(1).environment().get(SpmdEnvironment.AM2J_RANK));
        assertEquals("0", command.build(1).environment().get(SpmdEnvironment.AM2J_NODE));
        assertEquals("4", command.build(2).environment().get(SpmdEnvironment.AM2J_RANK));
        assertEquals("1", command.build(2).environment().get(SpmdEnvironment.AM2J_NODE));
        assertEquals(command.shmRoot(4), command.shmRoot(command.firstRank(2)));
        assertEquals("ranks 6-7 (one JVM)", command.describe(3));
    }

    @Test
    void ranksPerJvmMustDivideTheRanksOfEveryNode()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> LaunchOptions.parse(new String[]{ "-n", "6", "--nodes", "2", "--ranks-per-jvm", "2", "--", "M" },
                Map.of()));
        assertEquals("--ranks-per-jvm 2 does not divide the 3 rank(s) of node 0 (-n 6 over --nodes 2): a JVM holds " +
            "ranks of one node only; K may be 1 or 3", ex.getMessage());

        final IllegalArgumentException fromEnv = assertThrows(IllegalArgumentException.class,
            () -> LaunchOptions.parse(new String[]{ "-n", "5", "--nodes", "2", "--", "M" },
                Map.of(LaunchOptions.RANKS_PER_JVM_VARIABLE, "3")));
        assertEquals("AM2J_RANKS_PER_JVM = 3 does not divide the 2 rank(s) of node 1 (-n 5 over --nodes 2): a JVM " +
            "holds ranks of one node only; K may be 1", fromEnv.getMessage());

        assertEquals(4, LaunchOptions.parse(new String[]{ "-n", "8", "--nodes", "2", "--", "M" },
            Map.of(LaunchOptions.RANKS_PER_JVM_VARIABLE, "4")).ranksPerJvm());
        assertEquals(2, LaunchOptions.parse(new String[]{ "-n", "8", "--ranks-per-jvm", "2", "--", "M" },
            Map.of(LaunchOptions.RANKS_PER_JVM_VARIABLE, "4")).ranksPerJvm(), "the option wins");
        assertEquals(1, LaunchOptions.parse(new String[]{ "-n", "3", "--", "M" }, Map.of()).ranksPerJvm());
        assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse(
            new String[]{ "-n", "4", "--", "M" }, Map.of(LaunchOptions.RANKS_PER_JVM_VARIABLE, "two")));
    }
}
