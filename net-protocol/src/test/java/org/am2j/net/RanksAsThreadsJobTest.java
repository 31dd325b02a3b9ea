package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.am2j.launch.Am2Run;
import org.am2j.shm.LauncherTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs whose JVMs hold two ranks each as threads ({@code am2j run --ranks-per-jvm 2}) over two emulated nodes: every
 * rank all-gathers the endpoint names and sends every other rank every message kind, checking the replies
 * ({@link CrossNodeMain}), so that ranks of one JVM talk in-process, JVMs of one node over shared memory, and nodes
 * over the network, each pair on its transport only.
 */
class RanksAsThreadsJobTest
{
    private static final Pattern JOB_LINE = Pattern.compile("^\\[(\\d+)] job=(\\S+) pid=(\\d+) rank=(\\d+)$",
        Pattern.MULTILINE);

    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @AfterEach
    void cleanUp()
    {
        executor.shutdownNow();
        LauncherTestSupport.ourDescendants().forEach(ProcessHandle::destroyForcibly);
    }

    private void everyMessageKindBetweenEveryPair(final int ranks, final String... launcherOptions) throws Exception
    {
        everyMessageKindBetweenEveryPair(ranks, 2, launcherOptions);
    }

    private void everyMessageKindBetweenEveryPair(final int ranks, final int nodes, final String... launcherOptions)
        throws Exception
    {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
        final List<String> command = new ArrayList<>(List.of("run", "-n", Integer.toString(ranks), "--nodes",
            Integer.toString(nodes), "--ranks-per-jvm", "2", "--timeout", "150", "--jvm-opt", "-Xmx128m"));
        command.addAll(List.of(launcherOptions));
        command.addAll(List.of("--cp", System.getProperty("java.class.path"), "--", CrossNodeMain.class.getName(), "1",
            "multi"));
        final Future<Integer> job = executor.submit(() -> new Am2Run(out, err).run(command.toArray(new String[0])));
        final int status = job.get(165, TimeUnit.SECONDS);
        final String text = outBytes.toString(StandardCharsets.UTF_8);
        final String output = "\n--- stdout ---\n" + text + "--- stderr ---\n" + errBytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, output);
        for (int r = 0; r < ranks; r++)
        {
            final String prefix = "[" + r + "] rank " + r + " ok: handled " + (ranks - 1) * CrossNodeMain.MESSAGES +
                " requests;";
            assertEquals(1, text.lines().filter((line) -> line.startsWith(prefix)).count(),
                "missing '" + prefix + "'" + output);
        }
        final Map<Integer, Long> pids = new HashMap<>();
        String jobId = null;
        final Matcher lines = JOB_LINE.matcher(text);
        while (lines.find())
        {
            assertEquals(lines.group(1), lines.group(4), "a rank's line carries its own prefix" + output);
            pids.put(Integer.parseInt(lines.group(4)), Long.parseLong(lines.group(3)));
            jobId = lines.group(2);
        }
        assertEquals(ranks, pids.size(), "job lines" + output);
        for (int r = 0; r < ranks; r += 2)
        {
            assertEquals(pids.get(r), pids.get(r + 1), "ranks " + r + " and " + (r + 1) + " share a JVM" + output);
            if (r > 0)
            {
                assertNotEquals(pids.get(r - 1), pids.get(r), "ranks " + (r - 1) + " and " + r + output);
            }
        }
        assertTrue(LauncherTestSupport.ourDescendants().findAny().isEmpty(), "processes left" + output);
        LauncherTestSupport.assertNothingLeft(jobId, List.copyOf(pids.values()));
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void fourRanksOnTwoNodesTwoPerJvm() throws Exception
    {
        // in-process within each JVM, the network between the nodes
        everyMessageKindBetweenEveryPair(4);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void eightRanksOnTwoNodesTwoPerJvm() throws Exception
    {
        // and shared memory between the two JVMs of each node
        everyMessageKindBetweenEveryPair(8);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void fourRanksOnTwoNodesTwoPerJvmAsVirtualThreads() throws Exception
    {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21 or later");
        // the NIC's selector is the blocker: a platform thread sleeps there for the virtual ranks
        everyMessageKindBetweenEveryPair(4, "--jvm-opt", "-Dam2j.rankThreads=virtual");
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void fourRanksOfOneNodeTwoPerJvmAsVirtualThreadsOverSharedMemoryOnly() throws Exception
    {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21 or later");
        // the shared-memory futex is the blocker, where no virtual thread may sleep
        everyMessageKindBetweenEveryPair(4, 1, "--jvm-opt", "-Dam2j.rankThreads=virtual", "--jvm-opt",
            "-Dam2j.transports=inproc,shm");
    }

    // soak: 12 JVMs; the two ranks of a JVM share its link to the node's NIC process (whose watch they once read at
    // once); the default build runs shared NICs in SharedNicJobTest
    @Tag("soak")
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void eightRanksOnTwoNodesTwoPerJvmThroughSharedNics() throws Exception
    {
        everyMessageKindBetweenEveryPair(8, "--nics-per-node", "2");
    }
}
