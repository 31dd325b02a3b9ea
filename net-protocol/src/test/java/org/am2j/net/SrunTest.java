package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job under Slurm's {@code srun}, started as the README's "Several machines" section says:
 * {@code AM2J_BOOTSTRAP=host:port srun -n 4 java ... -cp ... Program}, the rank and size from
 * {@code SLURM_PROCID}/{@code SLURM_NTASKS}. The test makes a one-node Slurm of its own in a temporary directory: a
 * MUNGE key and {@code munged} on a socket there, a {@code slurm.conf} naming that socket, this host as the only node
 * (2 CPUs here) and ports free a moment before, then {@code slurmctld} and {@code slurmd} in the foreground as
 * root. Every pair of ranks ping-pongs and floods each other ({@link NamespaceFloodMain}), every message arriving
 * once with its reply. Only this test needs {@code --overcommit} (4 tasks on 2 CPUs). Every process of the test
 * carries a marker in its environment; whatever happens, the daemons and any task left are killed and the directory
 * removed. Skipped, with the reason, where Slurm or MUNGE is not installed (Debian's packages {@code slurmctld},
 * {@code slurmd}, {@code slurm-client}, {@code munge}) or the test does not run as root. The same with 2 tasks of 4
 * ranks each, as threads ({@code AM2J_RANKS_PER_JVM=4 srun -n 2 java ... org.am2j.launch.RankThreads Program}).
 */
class SrunTest
{
    private static final long RANK_SECONDS = 60;
    private static final long DAEMON_START_MS = 30_000;
    private static final String NODE = "am2jnode";

    @TempDir
    Path dir;

    private final List<Process> daemons = new ArrayList<>();

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyPairOfFourRanksExchangesUnderSrunOfAOneNodeSlurm() throws Exception
    {
        final String bootstrap = "127.0.0.1:" + LauncherJob.freePort();
        final String output = runUnderSlurm("srun", srun(LauncherJob.RANKS, LauncherJob.rankCommand(RANK_SECONDS)),
            Map.of("AM2J_BOOTSTRAP", bootstrap));
        LauncherJob.checkRanks(output, "srun");
        System.out.println("SrunTest: 4 ranks under srun --overcommit of a one-node Slurm with AM2J_BOOTSTRAP=" +
            bootstrap + ": every pair exchanged, every message once with its reply");
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyPairOfEightRanksExchangesUnderSrunOfTwoTasksOfFourRanksEach() throws Exception
    {
        final String bootstrap = "127.0.0.1:" + LauncherJob.freePort();
        final String output = runUnderSlurm("srun-threads", srun(2, LauncherJob.rankThreadsCommand(RANK_SECONDS, 8)),
            Map.of("AM2J_BOOTSTRAP", bootstrap, "AM2J_RANKS_PER_JVM", "4"));
        LauncherJob.checkRanks(output, "srun", 8, 4);
        System.out.println("SrunTest: 2 tasks of 4 ranks each under srun of a one-node Slurm with " +
            "AM2J_RANKS_PER_JVM=4: every pair of the 8 ranks exchanged, every message once with its reply");
    }

    /**
     * The srun line of docs/commands.md's "Under srun or mpirun", run as written ({@link DocsRecipe}): 2 tasks of 4
     * ranks each of the README's HelloAm ({@code SLURM_OVERCOMMIT} in srun's environment lets a machine of fewer than
     * 2 CPUs run it as written).
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theDocsRecipeOfFourRanksPerTaskRunsUnderSrun() throws Exception
    {
        final List<String> recipe = DocsRecipe.recipe("docs/commands.md", "**Under `srun` or `mpirun`.**",
            DocsRecipe.compileHello(dir)).stream().filter(line -> !line.startsWith("mpirun ")).toList();
        final String output = runUnderSlurm("recipe", DocsRecipe.bash(recipe),
            Map.of("PATH", DocsRecipe.path(), "SLURM_OVERCOMMIT", "1"));
        DocsRecipe.checkGreetings(output, 8, true);
    }

    private static List<String> srun(final int tasks, final List<String> taskCommand)
    {
        final List<String> command = new ArrayList<>(List.of(LauncherJob.find("srun").toString(),
            "--overcommit", "-n", Integer.toString(tasks), "--time=2", "--kill-on-bad-exit=1"));
        command.addAll(taskCommand);
        return command;
    }

    /**
     * Start a one-node Slurm, run a command in it (srun, or a script that runs it) with {@code jobEnv} added to its
     * environment, check that it succeeds, then stop the daemons and kill whatever is left.
     *
     * @param name    of the test, for its marker and output file.
     * @param command what runs the job.
     * @param jobEnv  variables given to the command, and so to every task.
     * @return the command's output.
     */
    private String runUnderSlurm(final String name, final List<String> command, final Map<String, String> jobEnv)
        throws Exception
    {
        String reason = LauncherJob.missing("slurmctld slurmd slurm-client munge",
            "slurmctld", "slurmd", "srun", "sinfo", "munged");
        if (null == reason && !isRoot())
        {
            reason = "slurmd must run as root to start tasks; CI runs as root";
        }
        System.out.println("SrunTest: " + (null == reason ? "Slurm and MUNGE found, the test runs" :
            "skipped: " + reason));
        assumeTrue(null == reason, reason);

        final String marker = name + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final Path conf = dir.resolve("slurm.conf");
        final Map<String, String> env = Map.of(LauncherJob.MARKER, marker, "SLURM_CONF", conf.toString());
        Process job = null;
        boolean passed = false;
        try
        {
            startMunge(env);
            writeConf(conf);
            daemons.add(LauncherJob.start(List.of(LauncherJob.find("slurmctld").toString(), "-D", "-i", "-f",
                conf.toString()), env, dir.resolve("slurmctld.out")));
            daemons.add(LauncherJob.start(List.of(LauncherJob.find("slurmd").toString(), "-D", "-N", NODE, "-f",
                conf.toString()), env, dir.resolve("slurmd.out")));
            awaitIdleNode(env);

            final Map<String, String> jobEnvironment = new java.util.HashMap<>(env);
            jobEnvironment.putAll(jobEnv);
            final Path output = dir.resolve(name + ".out");
            job = LauncherJob.start(command, jobEnvironment, output);
            final boolean ended = job.waitFor(RANK_SECONDS + 20, TimeUnit.SECONDS);
            assertTrue(ended, "srun did not end in time\n" + String.join(" ", command) + "\n" +
                LauncherJob.read(output) + logs());
            assertEquals(0, job.exitValue(), "srun ended with " + job.exitValue() + "\n" +
                String.join(" ", command) + "\n" + LauncherJob.read(output) + logs());
            passed = true;
            return LauncherJob.read(output);
        }
        finally
        {
            LauncherJob.kill(job);
            stopDaemons();
            final List<Long> left = LauncherJob.killMarked(marker);
            if (passed)
            {
                assertEquals(List.of(), left, "processes of the Slurm job left after its daemons stopped (killed)");
            }
        }
    }

    private static boolean isRoot() throws IOException
    {
        final Matcher uid = Pattern.compile("^Uid:\\s+\\d+\\s+(\\d+)", Pattern.MULTILINE)
            .matcher(Files.readString(Path.of("/proc/self/status")));
        return uid.find() && "0".equals(uid.group(1));
    }

    private Path socket()
    {
        return dir.resolve("munge.socket");
    }

    private void startMunge(final Map<String, String> env) throws Exception
    {
        final Path key = dir.resolve("munge.key");
        final byte[] bytes = new byte[1024];
        new SecureRandom().nextBytes(bytes);
        Files.write(key, bytes);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        daemons.add(LauncherJob.start(List.of(LauncherJob.find("munged").toString(), "--foreground", "--force",
            "--socket=" + socket(), "--key-file=" + key, "--log-file=" + dir.resolve("munged.log"),
            "--pid-file=" + dir.resolve("munged.pid"), "--seed-file=" + dir.resolve("munged.seed")),
            env, dir.resolve("munged.out")));
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DAEMON_START_MS);
        while (!Files.exists(socket()))
        {
            assertTrue(daemons.get(0).isAlive(), "munged stopped" + logs());
            assertTrue(System.nanoTime() < deadline, "munged made no socket in " + DAEMON_START_MS + " ms" + logs());
            Thread.sleep(50);
        }
    }

    private void writeConf(final Path conf) throws IOException
    {
        final String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim().split("\\.")[0];
        Files.createDirectories(dir.resolve("state"));
        Files.createDirectories(dir.resolve("spool"));
        final int cpus = Runtime.getRuntime().availableProcessors();
        Files.writeString(conf, String.join("\n",
            "ClusterName=am2jtest",
            "SlurmctldHost=" + host + "(127.0.0.1)",
            "SlurmctldPort=" + LauncherJob.freePort(),
            "SlurmdPort=" + LauncherJob.freePort(),
            "AuthType=auth/munge",
            "AuthInfo=socket=" + socket(),
            "CredType=cred/munge",
            "SlurmUser=root",
            "SlurmdUser=root",
            "StateSaveLocation=" + dir.resolve("state"),
            "SlurmdSpoolDir=" + dir.resolve("spool"),
            "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
            "SlurmdPidFile=" + dir.resolve("slurmd.pid"),
            "SlurmctldLogFile=" + dir.resolve("slurmctld.log"),
            "SlurmdLogFile=" + dir.resolve("slurmd.log"),
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "SchedulerType=sched/builtin",
            "MpiDefault=none",
            "ReturnToService=2",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "SlurmdParameters=config_overrides",
            "NodeName=" + NODE + " NodeAddr=127.0.0.1 CPUs=" + cpus + " State=UNKNOWN",
            "PartitionName=am2j Nodes=ALL Default=YES MaxTime=5 State=UP",
            ""));
    }

    private void awaitIdleNode(final Map<String, String> env) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DAEMON_START_MS);
        final Path out = dir.resolve("sinfo.out");
        final List<String> sinfo = List.of(LauncherJob.find("sinfo").toString(), "-h", "-o", "%T");
        String state = "";
        while (true)
        {
            for (final Process daemon : daemons)
            {
                assertTrue(daemon.isAlive(), "a daemon stopped: " + daemon.info().command().orElse("?") + logs());
            }
            if (0 == LauncherJob.run(5_000, sinfo, env, out))
            {
                state = LauncherJob.read(out).trim();
                if ("idle".equals(state))
                {
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, "the node is not idle after " + DAEMON_START_MS +
                " ms (sinfo: " + LauncherJob.read(out).trim() + ")" + logs());
            Thread.sleep(100);
        }
    }

    private void stopDaemons() throws InterruptedException
    {
        for (int i = daemons.size() - 1; i >= 0; i--)
        {
            daemons.get(i).destroy();
        }
        for (int i = daemons.size() - 1; i >= 0; i--)
        {
            final Process daemon = daemons.get(i);
            if (!daemon.waitFor(10, TimeUnit.SECONDS))
            {
                LauncherJob.kill(daemon);
            }
        }
    }

    private String logs()
    {
        final StringBuilder sb = new StringBuilder();
        for (final String file : List.of("munged.out", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"))
        {
            sb.append("\n--- ").append(file).append(" ---\n").append(LauncherJob.read(dir.resolve(file)));
        }
        return sb.toString();
    }
}
