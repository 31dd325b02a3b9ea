package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job under Open MPI's {@code mpirun}, started as the README's "Several machines" section says:
 * {@code mpirun -n 4 -x AM2J_BOOTSTRAP=host:port java ... -cp ... Program}, the rank and size from
 * {@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE}. Every pair of ranks ping-pongs and floods each other
 * ({@link NamespaceFloodMain}), every message arriving once with its reply. Only this test needs
 * {@code --allow-run-as-root} (CI runs as root) and {@code --oversubscribe} (4 ranks on 2 CPUs). Skipped, with the
 * reason, where {@code mpirun} is not installed (Debian's package {@code openmpi-bin}). The same with 2 processes of
 * 4 ranks each, as threads ({@code -x AM2J_RANKS_PER_JVM=4 java ... org.am2j.launch.RankThreads Program}): ranks of
 * one process talk in-process, the two processes over shared memory.
 */
class MpirunTest
{
    private static final long RANK_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void everyPairOfFourRanksExchangesUnderMpirun() throws Exception
    {
        skipWithoutMpirun();
        final String bootstrap = "127.0.0.1:" + LauncherJob.freePort();
        final List<String> command = mpirun("-n", Integer.toString(LauncherJob.RANKS), "-x",
            "AM2J_BOOTSTRAP=" + bootstrap);
        command.addAll(LauncherJob.rankCommand(RANK_SECONDS));
        LauncherJob.checkRanks(run("mpirun", command, Map.of()), "mpirun");
        System.out.println("MpirunTest: 4 ranks under mpirun with AM2J_BOOTSTRAP=" + bootstrap +
            ": every pair exchanged, every message once with its reply");
    }

    @Test
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void everyPairOfEightRanksExchangesUnderMpirunOfTwoProcessesOfFourRanksEach() throws Exception
    {
        skipWithoutMpirun();
        final List<String> command = mpirun("-n", "2", "-x", "AM2J_RANKS_PER_JVM=4", "-x",
            "AM2J_BOOTSTRAP=127.0.0.1:" + LauncherJob.freePort());
        command.addAll(LauncherJob.rankThreadsCommand(RANK_SECONDS, 8));
        LauncherJob.checkRanks(run("mpirun-threads", command, Map.of()), "mpirun", 8, 4);
        System.out.println("MpirunTest: 2 processes of 4 ranks each under mpirun with AM2J_RANKS_PER_JVM=4: " +
            "every pair of the 8 ranks exchanged, every message once with its reply");
    }

    /**
     * The mpirun line of docs/commands.md's "Under srun or mpirun", run as written ({@link DocsRecipe}): 2 processes
     * of 4 ranks each of the README's HelloAm. What the root user and a machine of fewer than 2 CPUs need is given to
     * mpirun in its environment, so that the line stays as the docs write it.
     */
    @Test
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void theDocsRecipeOfFourRanksPerProcessRunsUnderMpirun() throws Exception
    {
        skipWithoutMpirun();
        final List<String> recipe = DocsRecipe.recipe("docs/commands.md", "**Under `srun` or `mpirun`.**",
            DocsRecipe.compileHello(dir)).stream().filter(line -> !line.contains("srun ")).toList();
        final String output = run("mpirun-recipe", DocsRecipe.bash(recipe), Map.of("PATH", DocsRecipe.path(),
            "OMPI_ALLOW_RUN_AS_ROOT", "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1",
            "OMPI_MCA_rmaps_base_oversubscribe", "1"));
        DocsRecipe.checkGreetings(output, 8, true);
    }

    private static void skipWithoutMpirun()
    {
        final String reason = LauncherJob.missing("openmpi-bin", "mpirun");
        System.out.println("MpirunTest: " + (null == reason ? "mpirun found, the test runs" : "skipped: " + reason));
        assumeTrue(null == reason, reason);
    }

    /**
     * @param options mpirun's options after those only this test needs.
     * @return the command line so far.
     */
    private static List<String> mpirun(final String... options)
    {
        final List<String> command = new ArrayList<>(List.of(LauncherJob.find("mpirun").toString(),
            "--allow-run-as-root", "--oversubscribe"));
        command.addAll(List.of(options));
        return command;
    }

    /**
     * Run a command (mpirun, or a script that runs it) with {@code env} and a marker of its own added to its
     * environment, check that it ends with status 0 in time, and kill whatever it left running.
     *
     * @param name    of the run, for its marker and output file.
     * @param command what runs the job.
     * @param env     variables added to its environment.
     * @return its output.
     */
    private String run(final String name, final List<String> command, final Map<String, String> env) throws Exception
    {
        final String marker = name + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final Map<String, String> environment = new HashMap<>(env);
        environment.put(LauncherJob.MARKER, marker);
        final Path output = dir.resolve(name + ".out");
        boolean passed = false;
        try
        {
            final int status = LauncherJob.run(TimeUnit.SECONDS.toMillis(RANK_SECONDS + 20), command, environment,
                output);
            assertEquals(0, status, name + " ended with " + status + " (-1: killed for running too long)\n" +
                String.join(" ", command) + "\n" + LauncherJob.read(output));
            passed = true;
            return LauncherJob.read(output);
        }
        finally
        {
            final List<Long> left = LauncherJob.killMarked(marker);
            if (passed)
            {
                assertEquals(List.of(), left, "processes of the job left after mpirun ended (killed)");
            }
        }
    }

    @Test
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void theRanksStartTheirNodesSharedNicsUnderMpirun() throws Exception
    {
        final String reason = LauncherJob.missing("openmpi-bin", "mpirun");
        assumeTrue(null == reason, reason);

        final String marker = "mpirun-nics-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final String job = "mpinics-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final String bootstrap = "127.0.0.1:" + LauncherJob.freePort();
        final List<String> command = new ArrayList<>(List.of(LauncherJob.find("mpirun").toString(),
            "--allow-run-as-root", "--oversubscribe", "-n", Integer.toString(LauncherJob.RANKS),
            "-x", "AM2J_BOOTSTRAP=" + bootstrap, "-x", "AM2J_NICS_PER_NODE=2", "-x", "AM2J_JOB=" + job));
        command.addAll(LauncherJob.rankCommand(RANK_SECONDS));
        final Path output = dir.resolve("mpirun.out");
        final Path nics = org.am2j.spi.ShmDirectories.userRoot().resolve("nics-" + job);
        boolean passed = false;
        try
        {
            final Process mpirun = LauncherJob.start(command, Map.of(LauncherJob.MARKER, marker), output);
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(RANK_SECONDS + 20);
            long nicProcesses = 0;
            while (mpirun.isAlive() && System.nanoTime() - end < 0)
            {
                // The NIC processes a rank started: their command line names the node's NIC directory.
                nicProcesses = Math.max(nicProcesses, ProcessHandle.allProcesses().filter((p) ->
                    p.info().commandLine().orElse("").contains(nics.toString())).count());
                Thread.sleep(100);
            }
            if (mpirun.isAlive())
            {
                LauncherJob.kill(mpirun);
            }
            final int status = mpirun.isAlive() ? -1 : mpirun.exitValue();
            assertEquals(0, status, "mpirun ended with " + status + "\n" + LauncherJob.read(output));
            assertEquals(2, nicProcesses, "the first rank started the node's 2 NIC processes, once");
            LauncherJob.checkRanks(LauncherJob.read(output), "mpirun");
            // The NIC processes the first rank started stop once the ranks' endpoints are gone, and the last one
            // removes the directory.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (java.nio.file.Files.exists(nics) && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(50);
            }
            assertTrue(!java.nio.file.Files.exists(nics), "NIC directory left: " + nics);
            // The last NIC process removes the directory and then exits: give it the moment it takes.
            LauncherJob.awaitNoMarked(marker, 10);
            passed = true;
        }
        finally
        {
            final List<Long> left = LauncherJob.killMarked(marker);
            org.am2j.spi.ShmDirectories.deleteTree(nics);
            // Only when the job passed: after a failure above, what is left is its consequence, and asserting it
            // here would hide the failure that says why.
            if (passed)
            {
                assertEquals(List.of(), left, "processes of the job left after mpirun ended (killed)");
            }
        }
    }
}
