package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.am2j.shm.LauncherTestSupport;
import org.am2j.launch.Am2Run;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs of 3 emulated nodes of 3 ranks each, whose 2 NIC processes per node ({@code am2j run --nics-per-node 2}) serve
 * the node's ranks (2 and 1): every message kind between every pair of ranks ({@link CrossNodeMain}, shared memory on
 * a node, the shared NICs between nodes; or the network only, so that the two ranks of a NIC reach each other inside
 * it); and a NIC process killed while its ranks flood ({@link NicLossMain}): its
 * ranks' polls fail naming it, and the launcher fails the job naming it and stops everything.
 */
class SharedNicJobTest
{
    private static final int RANKS = 9;
    private static final int NODES = 3;
    private static final Pattern NIC_LINE = Pattern.compile("\\[nic (\\d+)\\.(\\d+)] am2j NIC \\d+ pid (\\d+) at ");

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void cleanUp()
    {
        executor.shutdownNow();
        LauncherTestSupport.ourDescendants().forEach(ProcessHandle::destroyForcibly);
    }

    private static List<String> command(final long timeoutSeconds, final Class<?> main, final String... args)
    {
        return command(timeoutSeconds, List.of(), main, args);
    }

    private static List<String> command(final long timeoutSeconds, final List<String> jvmOptions,
        final Class<?> main, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("run", "-n", Integer.toString(RANKS), "--nodes",
            Integer.toString(NODES), "--nics-per-node", "2", "--timeout", Long.toString(timeoutSeconds),
            "--jvm-opt", "-Xmx96m", "--jvm-opt", "-Dam2j.net.timeoutMs=4000"));
        for (final String option : jvmOptions)
        {
            command.addAll(List.of("--jvm-opt", option));
        }
        command.addAll(List.of("--cp", System.getProperty("java.class.path"), "--", main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** A stream whose text so far can be read while a job writes it. */
    private static final class Output extends ByteArrayOutputStream
    {
        synchronized String text()
        {
            return toString(StandardCharsets.UTF_8);
        }
    }

    // soak: 15 JVMs; the default build runs this job's NIC processes in aKilledNicProcessFailsTheJobNamingIt (every
    // rank floods through them), every message kind between nodes in CrossNodeTest, and a rank pair on shared NICs
    // in perf's SharedNicPairTest
    @Tag("soak")
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void everyMessageKindBetweenNodesThroughSharedNics() throws Exception
    {
        everyMessageKindBetweenEveryPair(List.of(), "multi");
    }

    // soak: 15 JVMs; the default build reaches the ranks of one NIC through it in InlineSameNicTest and
    // SameNicRoomTest
    @Tag("soak")
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void aNetworkOnlyJobReachesTheRanksOfTheSameNicThroughIt() throws Exception
    {
        // No shared memory: the two ranks a NIC serves on each node reach each other inside it.
        everyMessageKindBetweenEveryPair(List.of("-Dam2j.transports=inproc,net"), "net");
    }

    private void everyMessageKindBetweenEveryPair(final List<String> jvmOptions, final String mode) throws Exception
    {
        final Output out = new Output();
        final Output err = new Output();
        final Future<Integer> job = executor.submit(() -> new Am2Run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run(command(180, jvmOptions, CrossNodeMain.class, "1",
            mode).toArray(new String[0])));
        final int status = job.get(190, TimeUnit.SECONDS);
        final String output = "\n--- stdout ---\n" + out.text() + "--- stderr ---\n" + err.text();
        assertEquals(0, status, output);
        for (int r = 0; r < RANKS; r++)
        {
            final String prefix = "[" + r + "] rank " + r + " ok: handled " + (RANKS - 1) * CrossNodeMain.MESSAGES +
                " requests;";
            assertEquals(1, out.text().lines().filter((line) -> line.startsWith(prefix)).count(),
                "missing '" + prefix + "'" + output);
        }
        final Matcher nics = NIC_LINE.matcher(out.text());
        int started = 0;
        while (nics.find())
        {
            started++;
        }
        assertEquals(NODES * 2, started, "NIC processes that said where they serve" + output);
        assertEquals(0, LauncherTestSupport.ourDescendants().count(), "processes left");
    }

    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void aKilledNicProcessFailsTheJobNamingIt() throws Exception
    {
        final Output out = new Output();
        final Output err = new Output();
        final Future<Integer> job = executor.submit(() -> new Am2Run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run(command(150, NicLossMain.class, "3")
            .toArray(new String[0])));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (out.text().lines().filter((line) -> line.contains(" flooding")).count() < RANKS)
        {
            assertTrue(System.nanoTime() - deadline < 0 && !job.isDone(),
                "ranks did not all start flooding\n" + out.text() + err.text());
            Thread.sleep(50);
        }
        // NIC 0 of node 1 serves ranks 3 and 4.
        long pid = -1;
        final Matcher nics = NIC_LINE.matcher(out.text());
        while (nics.find())
        {
            if ("1".equals(nics.group(1)) && "0".equals(nics.group(2)))
            {
                pid = Long.parseLong(nics.group(3));
            }
        }
        assertNotEquals(-1, pid, out.text());
        assertTrue(ProcessHandle.of(pid).orElseThrow().destroyForcibly());
        final int status = job.get(60, TimeUnit.SECONDS);
        final String output = "\n--- stdout ---\n" + out.text() + "--- stderr ---\n" + err.text();
        assertNotEquals(0, status, output);
        assertTrue(err.text().contains("NIC process 0 of node 1 (pid " + pid + ") was killed by signal 9"),
            "the launcher names the NIC process" + output);
        assertTrue(err.text().contains("the shared NIC 0 (pid " + pid + ", "),
            "a rank it served says its NIC died" + output);
        // The ranks flood faster than a NIC window of 32 drains: their send queues held records the NIC never took.
        assertTrue(out.text().contains("[3] rank 3 returned EUNREACHABLE") ||
            out.text().contains("[4] rank 4 returned EUNREACHABLE"), "what the NIC never took came back" + output);
        assertEquals(0, LauncherTestSupport.ourDescendants().count(), "processes left" + output);
    }
}
