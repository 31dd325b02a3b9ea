package org.am2j.spmd;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The command line of a rank JVM, without starting it.
 */
class RankCommandTest
{
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @Test
    void pinnedRanksStartUnderTasksetOnTheirCpu()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "3", "--pin", "--", "Main" });
        final RankCommand command = new RankCommand(
            options, "j1", "127.0.0.1:1", "host", 1, 0, CpuPinning.of("/usr/bin/taskset", "4-5"));

        assertEquals(List.of("/usr/bin/taskset", "-c", "4", JAVA), command.build(0).command().subList(0, 4));
        assertEquals(List.of("/usr/bin/taskset", "-c", "5", JAVA), command.build(1).command().subList(0, 4));
        assertEquals(List.of("/usr/bin/taskset", "-c", "4", JAVA), command.build(2).command().subList(0, 4));
    }

    @Test
    void unpinnedRanksStartWithJava()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "2", "--", "Main", "a" });
        final RankCommand command = new RankCommand(options, "j1", "127.0.0.1:1", "host", 1, 0, null);

        final List<String> words = command.build(1).command();
        assertEquals(JAVA, words.get(0));
        assertEquals(List.of(RankMain.class.getName(), "Main", "a"), words.subList(words.size() - 3, words.size()));
        assertEquals("1", command.build(1).environment().get(SpmdEnvironment.AM2J_RANK));
    }
}
