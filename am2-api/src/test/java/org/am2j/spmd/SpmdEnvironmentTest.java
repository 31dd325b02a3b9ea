package org.am2j.spmd;

import java.util.HashMap;
import java.util.Map;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpmdEnvironmentTest
{
    /** The node identity of the process, as {@link org.am2j.spi.NodeIdentity} would read it. */
    private static final String HOST = "0123456789abcdef";
    private static final long PID = 4242;

    private static Map<String, String> am2jEnvironment()
    {
        final Map<String, String> env = new HashMap<>();
        env.put("AM2J_RANK", "2");
        env.put("AM2J_SIZE", "4");
        env.put("AM2J_NODE", "1");
        env.put("AM2J_NODES", "2");
        env.put("AM2J_NODE_ID", "host1/node1");
        env.put("AM2J_JOB", "j123-abc");
        env.put("AM2J_BOOTSTRAP", "127.0.0.1:40000");
        env.put("AM2J_LAUNCHER_PID", "777");
        env.put("AM2J_LAUNCHER_START", "1700000000000");
        env.put("PATH", "/usr/bin");
        return env;
    }

    private static AmException badArg(final Map<String, String> env)
    {
        final AmException ex = assertThrows(AmException.class, () -> SpmdEnvironment.parse(env, HOST, PID));
        assertEquals(AmError.BAD_ARG, ex.error());
        return ex;
    }

    @Test
    void noLauncherVariablesMakeASingleRankJob()
    {
        final SpmdEnvironment env = SpmdEnvironment.parse(Map.of("PATH", "/bin"), HOST, PID);

        assertEquals(LauncherKind.NONE, env.launcher());
        assertEquals(0, env.rank());
        assertEquals(1, env.size());
        assertEquals(0, env.node());
        assertEquals(1, env.nodes());
        assertEquals(HOST, env.nodeId());
        assertEquals("solo-" + PID, env.jobId());
        assertNull(env.bootstrap());
        assertEquals(0, env.launcherPid());
    }

    @Test
    void singleRankJobTakesNodeIdAndJobFromEnvironment()
    {
        final SpmdEnvironment env = SpmdEnvironment.parse(Map.of("AM2J_NODE_ID", "n7", "AM2J_JOB", "myjob"), HOST, PID);

        assertEquals("n7", env.nodeId());
        assertEquals("myjob", env.jobId());
    }

    @Test
    void parsesEveryVariableOfAm2jLauncher()
    {
        final SpmdEnvironment env = SpmdEnvironment.parse(am2jEnvironment(), HOST, PID);

        assertEquals(LauncherKind.AM2J, env.launcher());
        assertEquals(2, env.rank());
        assertEquals(4, env.size());
        assertEquals(1, env.node());
        assertEquals(2, env.nodes());
        assertEquals("host1/node1", env.nodeId());
        assertEquals("j123-abc", env.jobId());
        assertEquals("127.0.0.1", env.bootstrap().getHostString());
        assertEquals(40000, env.bootstrap().getPort());
        assertEquals(777, env.launcherPid());
        assertEquals(1700000000000L, env.launcherStartMillis());
    }

    @Test
    void am2jLauncherRanksWithoutOverrideTakeTheirOwnNodeIdentity()
    {
        final Map<String, String> env = am2jEnvironment();
        env.remove("AM2J_NODE_ID");

        assertEquals(HOST, SpmdEnvironment.parse(env, HOST, PID).nodeId());
    }

    @Test
    void am2jLauncherWinsOverExternalLaunchers()
    {
        final Map<String, String> env = am2jEnvironment();
        env.put("SLURM_PROCID", "0");
        env.put("SLURM_NTASKS", "8");
        env.put("OMPI_COMM_WORLD_RANK", "0");
        env.put("OMPI_COMM_WORLD_SIZE", "8");

        assertEquals(LauncherKind.AM2J, SpmdEnvironment.parse(env, HOST, PID).launcher());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "AM2J_RANK", "AM2J_SIZE", "AM2J_NODE", "AM2J_NODES", "AM2J_JOB", "AM2J_BOOTSTRAP",
        "AM2J_LAUNCHER_PID", "AM2J_LAUNCHER_START" })
    void missingAm2jVariableIsNamed(final String variable)
    {
        final Map<String, String> env = am2jEnvironment();
        env.remove(variable);

        final AmException ex = badArg(env);

        assertTrue(ex.getMessage().contains(variable + " is missing"), ex.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "AM2J_RANK|x|[0, AM2J_SIZE - 1 = 3]",
        "AM2J_RANK|-1|[0, AM2J_SIZE - 1 = 3]",
        "AM2J_RANK|4|[0, AM2J_SIZE - 1 = 3]",
        "AM2J_RANK|+1|[0, AM2J_SIZE - 1 = 3]",
        "AM2J_RANK|1.0|[0, AM2J_SIZE - 1 = 3]",
        "AM2J_SIZE|0|[1, 4096]",
        "AM2J_SIZE|4097|[1, 4096]",
        "AM2J_SIZE|99999999999999999999|[1, 4096]",
        "AM2J_NODE|2|[0, AM2J_NODES - 1 = 1]",
        "AM2J_NODES|0|[1, AM2J_SIZE = 4]",
        "AM2J_NODES|5|[1, AM2J_SIZE = 4]",
        "AM2J_JOB|a/b|[A-Za-z0-9._-]",
        "AM2J_JOB|'x y'|[A-Za-z0-9._-]",
        "AM2J_BOOTSTRAP|localhost|host:port",
        "AM2J_BOOTSTRAP|localhost:|host:port",
        "AM2J_BOOTSTRAP|:4000|host:port",
        "AM2J_BOOTSTRAP|localhost:0|the port 0 is outside 1 to 65535",
        "AM2J_BOOTSTRAP|localhost:65536|the port 65536 is outside 1 to 65535",
        "AM2J_BOOTSTRAP|localhost:http|the port 'http' is not a number from 1 to 65535",
        "AM2J_BOOTSTRAP|::1:4000|in brackets",
        "AM2J_BOOTSTRAP|[::1:4000|no closing bracket",
        "AM2J_BOOTSTRAP|'my host:4000'|the host holds the character ' '",
        "AM2J_LAUNCHER_PID|0|a pid, 1 or more",
        "AM2J_LAUNCHER_PID|abc|a pid, 1 or more",
        "AM2J_LAUNCHER_START|-5|0 or more" })
    void malformedAm2jVariableIsNamedWithWhatIsAllowed(final String variable, final String value, final String allowed)
    {
        final Map<String, String> env = am2jEnvironment();
        env.put(variable, value);

        final AmException ex = badArg(env);

        assertTrue(ex.getMessage().contains(variable), ex.getMessage());
        assertTrue(ex.getMessage().contains(allowed), ex.getMessage());
    }

    @Test
    void everyMissingVariableOfTheLauncherIsNamedAtOnce()
    {
        final AmException ex = badArg(Map.of("AM2J_RANK", "1", "AM2J_SIZE", "2", "AM2J_LAUNCHER_PID", "777"));

        assertTrue(ex.detail().startsWith("AM2J_NODES, AM2J_NODE, AM2J_JOB, AM2J_BOOTSTRAP and AM2J_LAUNCHER_START " +
            "are missing: bin/am2j run gives each rank "), ex.getMessage());
        assertTrue(ex.detail().contains("without a launcher set only AM2J_RANK, AM2J_SIZE and AM2J_BOOTSTRAP"),
            ex.getMessage());
    }

    @Test
    void missingAndMalformedVariablesAreNamedInOneError()
    {
        final Map<String, String> env = am2jEnvironment();
        env.remove("AM2J_JOB");
        env.put("AM2J_RANK", "x");
        env.put("AM2J_BOOTSTRAP", "localhost");

        final String detail = badArg(env).detail();

        assertTrue(detail.startsWith("AM2J_JOB is missing: bin/am2j run gives each rank"), detail);
        assertTrue(detail.endsWith("; AM2J_RANK = 'x' must be a whole number in [0, AM2J_SIZE - 1 = 3]; " +
            "AM2J_BOOTSTRAP = 'localhost' is not host:port or [ipv6-address]:port with port 1 to 65535: no port " +
            "(add :port)"), detail);
    }

    @Test
    void rankAndSizeAndBootstrapAloneAreAJobWithoutALauncher()
    {
        final SpmdEnvironment env = SpmdEnvironment.parse(
            Map.of("AM2J_RANK", "1", "AM2J_SIZE", "2", "AM2J_BOOTSTRAP", "127.0.0.1:7400"), HOST, PID);

        assertEquals(LauncherKind.MANUAL, env.launcher());
        assertTrue(env.launcher().rankZeroServes());
        assertEquals(1, env.rank());
        assertEquals(2, env.size());
        assertEquals(SpmdEnvironment.UNKNOWN_NODE, env.node());
        assertEquals(SpmdEnvironment.UNKNOWN_NODE, env.nodes());
        assertEquals(HOST, env.nodeId());
        assertEquals("boot-127.0.0.1-7400", env.jobId());
        assertEquals(7400, env.bootstrap().getPort());
        assertEquals(0, env.launcherPid());
        assertEquals("myjob", SpmdEnvironment.parse(Map.of("AM2J_RANK", "0", "AM2J_SIZE", "2",
            "AM2J_BOOTSTRAP", "127.0.0.1:7400", "AM2J_JOB", "myjob"), HOST, PID).jobId());
    }

    @Test
    void withoutALauncherWhatIsMissingIsNamedWithWhatToSet()
    {
        final String noBootstrap = badArg(Map.of("AM2J_RANK", "0", "AM2J_SIZE", "2")).detail();
        assertTrue(noBootstrap.startsWith("AM2J_BOOTSTRAP is missing: without a launcher every process needs " +
            "AM2J_RANK (0 to AM2J_SIZE - 1) and AM2J_SIZE (1 to 4096), and with more than one rank AM2J_BOOTSTRAP"),
            noBootstrap);

        final String noSize = badArg(Map.of("AM2J_RANK", "0", "AM2J_BOOTSTRAP", "h:1")).detail();
        assertTrue(noSize.startsWith("AM2J_SIZE is missing: without a launcher"), noSize);

        final String sizeAlone = badArg(Map.of("AM2J_SIZE", "2")).detail();
        assertTrue(sizeAlone.startsWith("AM2J_RANK and AM2J_BOOTSTRAP are missing: without a launcher"), sizeAlone);

        final String rankTooLarge = badArg(Map.of("AM2J_RANK", "2", "AM2J_SIZE", "2", "AM2J_BOOTSTRAP", "h:1")).detail();
        assertEquals("AM2J_RANK = '2' must be a whole number in [0, AM2J_SIZE - 1 = 1]", rankTooLarge);
    }

    @Test
    void blankVariablesCountAsNotSet()
    {
        final Map<String, String> env = new HashMap<>(Map.of("AM2J_RANK", " ", "AM2J_SIZE", "", "AM2J_NODE_ID", " "));
        final SpmdEnvironment single = SpmdEnvironment.parse(env, HOST, PID);
        assertEquals(LauncherKind.NONE, single.launcher());
        assertEquals(HOST, single.nodeId());

        env.put("AM2J_RANK", " 1 ");
        env.put("AM2J_SIZE", "2");
        env.put("AM2J_BOOTSTRAP", " h:1 ");
        assertEquals(1, SpmdEnvironment.parse(env, HOST, PID).rank());
    }

    @Test
    void nodeIdWithControlCharacterOrTooLongIsRejected()
    {
        final Map<String, String> env = am2jEnvironment();
        env.put("AM2J_NODE_ID", "a\nb");
        assertTrue(badArg(env).getMessage().contains("AM2J_NODE_ID"));

        env.put("AM2J_NODE_ID", "n".repeat(SpmdEnvironment.MAX_NODE_ID_BYTES + 1));
        assertTrue(badArg(env).getMessage().contains("AM2J_NODE_ID"));

        env.put("AM2J_NODE_ID", "n".repeat(SpmdEnvironment.MAX_NODE_ID_BYTES));
        assertEquals(SpmdEnvironment.MAX_NODE_ID_BYTES, SpmdEnvironment.parse(env, HOST, PID).nodeId().length());
    }

    @Test
    void jobIdTooLongIsRejected()
    {
        final Map<String, String> env = am2jEnvironment();
        env.put("AM2J_JOB", "j".repeat(SpmdEnvironment.MAX_JOB_ID_LENGTH + 1));

        assertTrue(badArg(env).getMessage().contains("AM2J_JOB"));
    }

    @Test
    void bracketedIpv6BootstrapIsAccepted()
    {
        final Map<String, String> env = am2jEnvironment();
        env.put("AM2J_BOOTSTRAP", "[::1]:4000");

        final SpmdEnvironment parsed = SpmdEnvironment.parse(env, HOST, PID);

        assertEquals("::1", parsed.bootstrap().getHostString());
        assertEquals(4000, parsed.bootstrap().getPort());
    }

    @Test
    void slurm()
    {
        final Map<String, String> env = new HashMap<>();
        env.put("SLURM_PROCID", "3");
        env.put("SLURM_NTASKS", "8");
        env.put("SLURM_JOB_ID", "1234");
        env.put("SLURM_STEP_ID", "0");
        env.put("AM2J_BOOTSTRAP", "node001:7000");

        final SpmdEnvironment parsed = SpmdEnvironment.parse(env, HOST, PID);

        assertEquals(LauncherKind.SLURM, parsed.launcher());
        assertEquals(3, parsed.rank());
        assertEquals(8, parsed.size());
        assertEquals(SpmdEnvironment.UNKNOWN_NODE, parsed.node());
        assertEquals(SpmdEnvironment.UNKNOWN_NODE, parsed.nodes());
        assertEquals(HOST, parsed.nodeId());
        assertEquals("slurm-1234.0", parsed.jobId());
        assertEquals("node001", parsed.bootstrap().getHostString());
        assertEquals(7000, parsed.bootstrap().getPort());
        assertEquals(0, parsed.launcherPid());
    }

    @Test
    void openMpi()
    {
        final Map<String, String> env = new HashMap<>();
        env.put("OMPI_COMM_WORLD_RANK", "0");
        env.put("OMPI_COMM_WORLD_SIZE", "2");
        env.put("AM2J_BOOTSTRAP", "head:7000");

        final SpmdEnvironment parsed = SpmdEnvironment.parse(env, HOST, PID);

        assertEquals(LauncherKind.OPEN_MPI, parsed.launcher());
        assertEquals(0, parsed.rank());
        assertEquals(2, parsed.size());
        assertEquals(HOST, parsed.nodeId());
        assertEquals("boot-head-7000", parsed.jobId());
    }

    @Test
    void pmi()
    {
        final Map<String, String> env = new HashMap<>();
        env.put("PMI_RANK", "1");
        env.put("PMI_SIZE", "3");
        env.put("AM2J_BOOTSTRAP", "head:7000");
        env.put("AM2J_NODE_ID", "rack1-n3");
        env.put("AM2J_JOB", "run42");

        final SpmdEnvironment parsed = SpmdEnvironment.parse(env, HOST, PID);

        assertEquals(LauncherKind.PMI, parsed.launcher());
        assertEquals(1, parsed.rank());
        assertEquals(3, parsed.size());
        assertEquals("rack1-n3", parsed.nodeId());
        assertEquals("run42", parsed.jobId());
    }

    @Test
    void externalLaunchersAreTriedInOrder()
    {
        final Map<String, String> env = new HashMap<>();
        env.put("PMI_RANK", "1");
        env.put("PMI_SIZE", "3");
        env.put("OMPI_COMM_WORLD_RANK", "2");
        env.put("OMPI_COMM_WORLD_SIZE", "4");
        env.put("AM2J_BOOTSTRAP", "head:7000");
        assertEquals(LauncherKind.OPEN_MPI, SpmdEnvironment.parse(env, HOST, PID).launcher());

        env.put("SLURM_PROCID", "0");
        env.put("SLURM_NTASKS", "5");
        final SpmdEnvironment parsed = SpmdEnvironment.parse(env, HOST, PID);
        assertEquals(LauncherKind.SLURM, parsed.launcher());
        assertEquals(5, parsed.size());
    }

    @Test
    void externalLauncherWithSeveralRanksNeedsBootstrap()
    {
        final AmException ex = badArg(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2"));

        assertTrue(ex.getMessage().contains("AM2J_BOOTSTRAP is missing"), ex.getMessage());
        assertTrue(ex.getMessage().contains("host:port"), ex.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"PMI_RANK,PMI_SIZE,PMI", "AM2J_RANK,AM2J_SIZE,MANUAL"})
    void oneRankUnderAnExternalLauncherOrNoneNeedsNoBootstrap(final String rankVariable, final String sizeVariable,
        final LauncherKind kind)
    {
        final SpmdEnvironment parsed = SpmdEnvironment.parse(Map.of(rankVariable, "0", sizeVariable, "1"), HOST, PID);

        assertEquals(kind, parsed.launcher());
        assertEquals(0, parsed.node());
        assertEquals(1, parsed.nodes());
        assertNull(parsed.bootstrap());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SLURM_PROCID|0|SLURM_NTASKS|x|SLURM_NTASKS",
        "SLURM_PROCID|2|SLURM_NTASKS|2|SLURM_PROCID",
        "OMPI_COMM_WORLD_RANK|-1|OMPI_COMM_WORLD_SIZE|2|OMPI_COMM_WORLD_RANK",
        "OMPI_COMM_WORLD_RANK|0|OMPI_COMM_WORLD_SIZE|0|OMPI_COMM_WORLD_SIZE",
        "PMI_RANK|one|PMI_SIZE|2|PMI_RANK" })
    void malformedExternalVariableIsNamed(
        final String rankVariable,
        final String rank,
        final String sizeVariable,
        final String size,
        final String named)
    {
        final AmException ex = badArg(Map.of(rankVariable, rank, sizeVariable, size, "AM2J_BOOTSTRAP", "h:1"));

        assertTrue(ex.getMessage().contains(named), ex.getMessage());
    }

    @ParameterizedTest
    @CsvSource({ "SLURM_PROCID,SLURM_NTASKS", "OMPI_COMM_WORLD_RANK,OMPI_COMM_WORLD_SIZE", "PMI_RANK,PMI_SIZE" })
    void externalLauncherMissingHalfIsNamed(final String rankVariable, final String sizeVariable)
    {
        assertTrue(badArg(Map.of(rankVariable, "0")).getMessage().contains(sizeVariable + " is missing"));
        assertTrue(badArg(Map.of(sizeVariable, "2", "AM2J_BOOTSTRAP", "h:1")).getMessage()
            .contains(rankVariable + " is missing"));
    }

    @ParameterizedTest
    @CsvSource({ "SLURM_PROCID,SLURM_NTASKS,SLURM", "OMPI_COMM_WORLD_RANK,OMPI_COMM_WORLD_SIZE,OPEN_MPI",
        "PMI_RANK,PMI_SIZE,PMI" })
    void processPOfNHoldingKRanksHoldsRanksPTimesKOnOfAJobOfNTimesK(
        final String rankVariable, final String sizeVariable, final LauncherKind kind)
    {
        for (int p = 0; p < 2; p++)
        {
            for (int i = 0; i < 4; i++)
            {
                final SpmdEnvironment parsed = SpmdEnvironment.parse(Map.of(rankVariable, Integer.toString(p),
                    sizeVariable, "2", "AM2J_RANKS_PER_JVM", "4", "AM2J_RANK_IN_JVM", Integer.toString(i),
                    "AM2J_BOOTSTRAP", "head:7000"), HOST, PID);

                assertEquals(kind, parsed.launcher());
                assertEquals(p * 4 + i, parsed.rank());
                assertEquals(8, parsed.size());
                assertEquals(SpmdEnvironment.UNKNOWN_NODE, parsed.node());
                assertEquals(HOST, parsed.nodeId());
                assertEquals("boot-head-7000", parsed.jobId());
            }
        }
    }

    @Test
    void oneProcessHoldingSeveralRanksNeedsBootstrapAndJobIdIsSlurms()
    {
        final Map<String, String> env = new HashMap<>(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1",
            "SLURM_JOB_ID", "99", "AM2J_RANKS_PER_JVM", "2", "AM2J_RANK_IN_JVM", "1"));
        assertTrue(badArg(env).getMessage().contains("AM2J_BOOTSTRAP is missing"), badArg(env).getMessage());

        env.put("AM2J_BOOTSTRAP", "127.0.0.1:7000");
        final SpmdEnvironment parsed = SpmdEnvironment.parse(env, HOST, PID);
        assertEquals(1, parsed.rank());
        assertEquals(2, parsed.size());
        assertEquals("slurm-99", parsed.jobId());
    }

    @ParameterizedTest
    @CsvSource({ "1", "'  1 '" })
    void oneRankPerProcessIsTheLaunchersRankWithOrWithoutThePlace(final String perJvm)
    {
        final Map<String, String> env = new HashMap<>(Map.of("OMPI_COMM_WORLD_RANK", "3", "OMPI_COMM_WORLD_SIZE", "5",
            "AM2J_BOOTSTRAP", "head:7000", "AM2J_RANKS_PER_JVM", perJvm));
        assertEquals(3, SpmdEnvironment.parse(env, HOST, PID).rank());
        assertEquals(5, SpmdEnvironment.parse(env, HOST, PID).size());

        env.put("AM2J_RANK_IN_JVM", "0");
        assertEquals(3, SpmdEnvironment.parse(env, HOST, PID).rank());
        assertEquals(5, SpmdEnvironment.parse(env, HOST, PID).size());
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "-2", "two", "1.5", "4097" })
    void ranksPerJvmThatIsNotAWholeNumberFromOneIsNamedWithWhatIsAllowed(final String perJvm)
    {
        final AmException ex = badArg(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "AM2J_BOOTSTRAP", "h:1",
            "AM2J_RANKS_PER_JVM", perJvm, "AM2J_RANK_IN_JVM", "0"));

        assertTrue(ex.getMessage().contains("AM2J_RANKS_PER_JVM"), ex.getMessage());
        assertTrue(ex.getMessage().contains("a whole number in [1, 4096]"), ex.getMessage());
        final AmException direct = assertThrows(AmException.class,
            () -> SpmdEnvironment.ranksPerJvm(Map.of("AM2J_RANKS_PER_JVM", perJvm)));
        assertEquals(AmError.BAD_ARG, direct.error());
        assertTrue(direct.getMessage().contains("AM2J_RANKS_PER_JVM"), direct.getMessage());
    }

    @Test
    void ranksPerJvmIsOneWhenNotSet()
    {
        assertEquals(1, SpmdEnvironment.ranksPerJvm(Map.of()));
        assertEquals(1, SpmdEnvironment.ranksPerJvm(Map.of("AM2J_RANKS_PER_JVM", " ")));
        assertEquals(4, SpmdEnvironment.ranksPerJvm(Map.of("AM2J_RANKS_PER_JVM", "4")));
    }

    @Test
    void severalRanksPerProcessWithoutTheirPlaceSayToStartThroughRankThreads()
    {
        final AmException ex = badArg(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2",
            "AM2J_BOOTSTRAP", "h:1", "AM2J_RANKS_PER_JVM", "4"));

        assertTrue(ex.getMessage().contains("AM2J_RANK_IN_JVM"), ex.getMessage());
        assertTrue(ex.getMessage().contains("org.am2j.launch.RankThreads"), ex.getMessage());
    }

    @ParameterizedTest
    @CsvSource({ "4,4", "4,-1", "1,1", "4,x" })
    void placeOutsideTheProcesssRanksIsNamed(final String perJvm, final String inJvm)
    {
        final AmException ex = badArg(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "AM2J_BOOTSTRAP", "h:1",
            "AM2J_RANKS_PER_JVM", perJvm, "AM2J_RANK_IN_JVM", inJvm));

        assertTrue(ex.getMessage().contains("AM2J_RANK_IN_JVM = '" + inJvm + "'") ||
            ex.getMessage().contains("AM2J_RANK_IN_JVM = " + inJvm), ex.getMessage());
        assertTrue(ex.getMessage().contains("[0, AM2J_RANKS_PER_JVM - 1 = " + (Integer.parseInt(perJvm) - 1) + "]"),
            ex.getMessage());
    }

    @Test
    void moreRanksThanAJobMayHaveNamesBothVariables()
    {
        final AmException ex = badArg(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1025", "AM2J_BOOTSTRAP", "h:1",
            "AM2J_RANKS_PER_JVM", "4", "AM2J_RANK_IN_JVM", "0"));

        assertTrue(ex.getMessage().contains("SLURM_NTASKS = 1025 processes of AM2J_RANKS_PER_JVM = 4 ranks each"),
            ex.getMessage());
        assertTrue(ex.getMessage().contains("4096"), ex.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = { "MANUAL", "AM2J" })
    void am2jsLauncherAndNoLauncherGiveTheRankItselfAndIgnoreRanksPerJvm(final LauncherKind kind)
    {
        final Map<String, String> env = kind == LauncherKind.AM2J ? am2jEnvironment() :
            new HashMap<>(Map.of("AM2J_RANK", "2", "AM2J_SIZE", "4", "AM2J_BOOTSTRAP", "h:1"));
        env.put("AM2J_RANKS_PER_JVM", "2");
        env.put("AM2J_RANK_IN_JVM", "1");

        final SpmdEnvironment parsed = SpmdEnvironment.parse(env, HOST, PID);

        assertEquals(kind, parsed.launcher());
        assertEquals(2, parsed.rank());
        assertEquals(4, parsed.size());
    }

    @Test
    void nodesAreNumberedInOrderOfTheirLowestRank()
    {
        final byte[][] ids = { "b".getBytes(), "b".getBytes(), "a".getBytes(), "c".getBytes(), "a".getBytes() };

        final int[] indices = Spmd.nodeIndices(ids);

        assertEquals("[0, 0, 1, 2, 1]", java.util.Arrays.toString(indices));
    }
}
