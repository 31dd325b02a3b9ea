package org.am2j.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RankThreads} in processes of an external launcher, whose variables the test gives by hand as
 * {@code mpirun} and {@code srun} would ({@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE},
 * {@code SLURM_PROCID}/{@code SLURM_NTASKS}), so that it runs where no launcher is installed (net-protocol's
 * {@code MpirunTest} and {@code SrunTest} run the real ones): the launcher's process p of n holds ranks p·K .. p·K + K
 * - 1 of a job of n·K ranks, K from {@code AM2J_RANKS_PER_JVM} or from RankThreads' first argument, and a bad K, or
 * K above 1 without RankThreads, is an error naming what to do. Every test kills what it started when it ends.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RankThreadsExternalTest
{
    private static final long WAIT_S = 75;
    private static final Pattern COUNT_LINE = Pattern.compile(
        "^\\[(\\d+)] rank (\\d+) pid (\\d+) count (\\d+) loader (\\S+)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killEverythingStarted()
    {
        for (final Process process : started)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** What a process printed, and its status. */
    private record Ran(int status, String out)
    {
    }

    private Process start(final String name, final Map<String, String> launcherVariables, final String... args)
        throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(RankCommand.JVM_FLAGS);
        command.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
            System.getProperty("java.class.path")));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve(name).toFile());
        // only the variables this test gives say which launcher started the process
        builder.environment().keySet().removeIf(variable -> variable.startsWith("AM2J_") ||
            variable.startsWith("SLURM_") || variable.startsWith("OMPI_") || variable.startsWith("PMI_"));
        builder.environment().putAll(launcherVariables);
        final Process process = builder.start();
        started.add(process);
        return process;
    }

    private Ran await(final String name, final Process process) throws Exception
    {
        final boolean ended = process.waitFor(WAIT_S, TimeUnit.SECONDS);
        final String out = Files.readString(dir.resolve(name));
        assertTrue(ended, name + " did not end in " + WAIT_S + " s\n" + out);
        return new Ran(process.exitValue(), out);
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    /**
     * @return the pid of each rank that printed its count line, checking that the count is its own.
     */
    private static Map<Integer, Long> pidsOfRanks(final String out)
    {
        final Map<Integer, Long> pids = new HashMap<>();
        final Matcher m = COUNT_LINE.matcher(out);
        while (m.find())
        {
            final int rank = Integer.parseInt(m.group(2));
            assertEquals(m.group(1), m.group(2), "a rank's line carries its own prefix\n" + out);
            assertEquals(Integer.toString(10 * (rank + 1)), m.group(4), "rank " + rank + "'s own count\n" + out);
            assertEquals("rank-" + rank, m.group(5), "rank " + rank + "'s own class loader\n" + out);
            assertEquals(null, pids.put(rank, Long.parseLong(m.group(3))), "rank " + rank + " ran twice\n" + out);
        }
        return pids;
    }

    @Test
    void processPOfTwoUnderOpenMpiHoldsRanksTwoPAndTwoPPlusOneOfAJobOfFour() throws Exception
    {
        final String bootstrap = "127.0.0.1:" + freePort();
        final List<Process> processes = new ArrayList<>();
        for (int p = 0; p < 2; p++)
        {
            processes.add(start("p" + p, Map.of("OMPI_COMM_WORLD_RANK", Integer.toString(p),
                "OMPI_COMM_WORLD_SIZE", "2", "AM2J_RANKS_PER_JVM", "2", "AM2J_BOOTSTRAP", bootstrap),
                RankThreads.class.getName(), StaticCountMain.class.getName()));
        }
        final Map<Integer, Long> pids = new HashMap<>();
        for (int p = 0; p < 2; p++)
        {
            final Ran ran = await("p" + p, processes.get(p));
            assertEquals(0, ran.status(), ran.out());
            final Map<Integer, Long> ofProcess = pidsOfRanks(ran.out());
            assertEquals(List.of(2 * p, 2 * p + 1), List.copyOf(new java.util.TreeSet<>(ofProcess.keySet())),
                "the ranks of process " + p + "\n" + ran.out());
            assertEquals(processes.get(p).pid(), ofProcess.get(2 * p), ran.out());
            assertEquals(processes.get(p).pid(), ofProcess.get(2 * p + 1), ran.out());
            pids.putAll(ofProcess);
        }
        assertNotEquals(pids.get(1), pids.get(2));
    }

    @Test
    void ranksPerJvmOnRankThreadsCommandLineUnderSlurm() throws Exception
    {
        final Process process = start("one", Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1", "SLURM_JOB_ID", "7",
            "AM2J_BOOTSTRAP", "127.0.0.1:" + freePort()),
            RankThreads.class.getName(), "2", StaticCountMain.class.getName());
        final Ran ran = await("one", process);

        assertEquals(0, ran.status(), ran.out());
        assertEquals(Map.of(0, process.pid(), 1, process.pid()), pidsOfRanks(ran.out()), ran.out());
    }

    @Test
    void ranksPerJvmThatIsNotAWholeNumberFromOneIsAUsageErrorNamingIt() throws Exception
    {
        for (final String bad : List.of("0", "two"))
        {
            final Ran ran = await("bad" + bad, start("bad" + bad, Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "AM2J_RANKS_PER_JVM", bad, "AM2J_BOOTSTRAP", "127.0.0.1:1"),
                RankThreads.class.getName(), StaticCountMain.class.getName()));

            assertEquals(RankMain.USAGE_STATUS, ran.status(), ran.out());
            assertTrue(ran.out().contains("am2j rank: BAD_ARG: AM2J_RANKS_PER_JVM = '" + bad + "' must be a whole " +
                "number in [1, 4096]"), ran.out());
        }
    }

    @Test
    void severalRanksPerProcessWithoutRankThreadsSayToStartIt() throws Exception
    {
        final Ran ran = await("plain", start("plain", Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE",
            "2", "AM2J_RANKS_PER_JVM", "4", "AM2J_BOOTSTRAP", "127.0.0.1:1"),
            RankMain.class.getName(), StaticCountMain.class.getName()));

        assertEquals(RankMain.USAGE_STATUS, ran.status(), ran.out());
        assertTrue(ran.out().contains("AM2J_RANK_IN_JVM") && ran.out().contains("org.am2j.launch.RankThreads"),
            ran.out());
    }
}
