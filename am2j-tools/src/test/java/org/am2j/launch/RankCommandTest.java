package org.am2j.launch;

import java.nio.file.Path;
import java.util.List;

import org.am2j.core.stats.CountersFile;
import org.am2j.spi.NodeIdentity;
import org.am2j.spi.ShmDirectories;
import org.am2j.spmd.SpmdEnvironment;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The command line of a rank JVM, without starting it.
 */
class RankCommandTest
{
    private static final Path ROOT = Path.of("/dev/shm/am2j-test");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @Test
    void pinnedRanksStartUnderTasksetOnTheirCpu()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "3", "--pin", "--", "Main" });
        final RankCommand command = new RankCommand(
            options, "j1", "127.0.0.1:1", ROOT, 1, 0, CpuPinning.of("/usr/bin/taskset", "4-5"));

        assertEquals(List.of("/usr/bin/taskset", "-c", "4", JAVA), command.build(0).command().subList(0, 4));
        assertEquals(List.of("/usr/bin/taskset", "-c", "5", JAVA), command.build(1).command().subList(0, 4));
        assertEquals(List.of("/usr/bin/taskset", "-c", "4", JAVA), command.build(2).command().subList(0, 4));
    }

    @Test
    void aUserClassPathGoesInFrontOfAm2jsOwn()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "2", "--cp", "/tmp/user", "--", "Main" });
        final List<String> words = new RankCommand(options, "j1", "127.0.0.1:1", ROOT, 1, 0, null).build(0).command();
        final String classPath = words.get(words.indexOf("-cp") + 1);
        assertEquals("/tmp/user" + java.io.File.pathSeparator + System.getProperty("java.class.path"), classPath,
            "am2j stays on the ranks' class path");
    }

    @Test
    void unpinnedRanksStartWithJava()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "2", "--", "Main", "a" });
        final RankCommand command = new RankCommand(options, "j1", "127.0.0.1:1", ROOT, 1, 0, null);

        final List<String> words = command.build(1).command();
        assertEquals(JAVA, words.get(0));
        assertEquals(List.of(RankMain.class.getName(), "Main", "a"), words.subList(words.size() - 3, words.size()));
        assertEquals("1", command.build(1).environment().get(SpmdEnvironment.AM2J_RANK));
        assertFalse(command.build(1).environment().containsKey(ShmDirectories.ROOT_VARIABLE),
            "one node: the ranks share the launcher's shared-memory root");
    }

    @Test
    void emulatedNodesGetTheirOwnSharedMemoryRootAndNoNodeOverride()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "3", "--nodes", "2", "--", "Main" });
        final RankCommand command = new RankCommand(options, "j1", "127.0.0.1:1", ROOT, 1, 0, null);

        final String node0 = ROOT.resolve("emulated+j1").resolve("node0").toString();
        final String node1 = ROOT.resolve("emulated+j1").resolve("node1").toString();
        assertEquals(node0, command.build(0).environment().get(ShmDirectories.ROOT_VARIABLE));
        assertEquals(node0, command.build(1).environment().get(ShmDirectories.ROOT_VARIABLE));
        assertEquals(node1, command.build(2).environment().get(ShmDirectories.ROOT_VARIABLE));
        for (int r = 0; r < 3; r++)
        {
            final ProcessBuilder rank = command.build(r);
            assertFalse(rank.environment().containsKey(NodeIdentity.NODE_VARIABLE));
            assertFalse(rank.command().stream().anyMatch(word -> word.startsWith("-Dam2j.node=")), rank.command().toString());
            assertEquals(CountersFile.defaultDirectory().toString(),
                rank.environment().get(CountersFile.DIRECTORY_ENV_NAME));
        }
    }

    @Test
    void sharedNicsAreStartedPerNodeAndEachRankIsToldItsNic()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "6", "--nodes", "2",
            "--nics-per-node", "2", "--", "Main" });
        final RankCommand command = new RankCommand(options, "j1", "127.0.0.1:1", ROOT, 1, 0, null);
        final String[] nicOfRank = new String[6];
        for (int r = 0; r < 6; r++)
        {
            final java.util.Map<String, String> env = command.build(r).environment();
            assertEquals("2", env.get(RankCommand.NICS_PER_NODE_VARIABLE));
            assertEquals(command.nicDirectory(r / 3).toString(), env.get(RankCommand.NIC_DIR_VARIABLE));
            nicOfRank[r] = env.get(RankCommand.NIC_INDEX_VARIABLE);
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(new String[] {"0", "0", "1", "0", "0", "1"}, nicOfRank);
        final ProcessBuilder nic = command.buildNic(1, 1);
        final java.util.List<String> words = nic.command();
        assertEquals(RankCommand.NIC_PROCESS_CLASS, words.get(words.size() - 3));
        assertEquals(command.nicDirectory(1).toString(), words.get(words.size() - 2));
        assertEquals("1", words.get(words.size() - 1));
        assertEquals(ROOT.resolve("emulated+j1").resolve("node1").toString(),
            nic.environment().get(ShmDirectories.ROOT_VARIABLE));
        assertEquals("1", nic.environment().get(SpmdEnvironment.AM2J_LAUNCHER_PID));
    }

    @Test
    void withoutNicsPerNodeRanksAreToldNothingOfSharedNics()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "2", "--", "Main" });
        final RankCommand command = new RankCommand(options, "j1", "127.0.0.1:1", ROOT, 1, 0, null);
        assertFalse(command.build(0).environment().containsKey(RankCommand.NICS_PER_NODE_VARIABLE));
    }
}
