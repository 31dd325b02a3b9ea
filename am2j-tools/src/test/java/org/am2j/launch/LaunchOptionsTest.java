package org.am2j.launch;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchOptionsTest
{
    @Test
    void parsesEveryOption()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{
            "run", "-n", "6", "--nodes", "3", "--poll", "adaptive", "--nic", "thread", "--nics-per-node", "3",
            "--jvm-opt", "-Xmx64m",
            "--jvm-opt", "-Dx=y", "--pin", "--timeout", "30", "--cp", "a.jar:b.jar", "--", "com.example.Main",
            "--flag", "1" });

        assertFalse(options.help());
        assertEquals(6, options.ranks());
        assertEquals(3, options.nodes());
        assertEquals("adaptive", options.poll());
        assertEquals("thread", options.nic());
        assertEquals(3, options.nicsPerNode());
        assertEquals(List.of("-Xmx64m", "-Dx=y"), options.jvmOptions());
        assertTrue(options.pin());
        assertEquals(30, options.timeoutSeconds());
        assertEquals("a.jar:b.jar", options.classPath());
        assertEquals("com.example.Main", options.mainClass());
        assertEquals(List.of("--flag", "1"), options.mainArgs());
    }

    @Test
    void runWordAndDashDashAreOptional()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "2", "Main", "x" });

        assertEquals(2, options.ranks());
        assertEquals(1, options.nodes());
        assertNull(options.poll());
        assertNull(options.nic());
        assertNull(options.classPath());
        assertFalse(options.pin());
        assertEquals(LaunchOptions.NO_TIMEOUT, options.timeoutSeconds());
        assertEquals("Main", options.mainClass());
        assertEquals(List.of("x"), options.mainArgs());
    }

    @Test
    void pinTakesNoValueAndMayComeAnywhereAmongTheOptions()
    {
        final LaunchOptions first = LaunchOptions.parse(new String[]{ "--pin", "-n", "2", "Main", "--pin" });
        assertTrue(first.pin());
        assertEquals(2, first.ranks());
        assertEquals("Main", first.mainClass());
        assertEquals(List.of("--pin"), first.mainArgs(), "after MAINCLASS, --pin belongs to the rank program");

        final LaunchOptions last = LaunchOptions.parse(new String[]{ "-n", "2", "--timeout", "1", "--pin", "--",
            "Main" });
        assertTrue(last.pin());
        assertEquals(1, last.timeoutSeconds());
        assertEquals(List.of(), last.mainArgs());
    }

    @Test
    void jvmOptionsAreTakenAsTheyAreEvenWhenTheyLookLikeTheLaunchersOptions()
    {
        final LaunchOptions options = LaunchOptions.parse(new String[]{ "-n", "2", "--jvm-opt", "-cp",
            "--jvm-opt", "-h", "--jvm-opt", "--pin", "--jvm-opt", "-XX:+UseSerialGC", "--", "Main" });

        assertEquals(List.of("-cp", "-h", "--pin", "-XX:+UseSerialGC"), options.jvmOptions());
        assertFalse(options.pin());
    }

    @Test
    void theClassPathHasTheNamesOfJava()
    {
        assertEquals("a", LaunchOptions.parse(new String[]{ "-n", "1", "-cp", "a", "Main" }).classPath());
        assertEquals("b", LaunchOptions.parse(new String[]{ "-n", "1", "--class-path", "b", "Main" }).classPath());
        assertEquals("c", LaunchOptions.parse(new String[]{ "-n", "1", "--cp", "a", "--cp", "c", "Main" }).classPath(),
            "the last one given wins");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> LaunchOptions.parse(new String[]{ "-n", "1", "--cp", "", "Main" }));
        assertEquals("--cp must not be empty", ex.getMessage());
    }

    @Test
    void theHelpNamesEveryOptionUnderTheUsageLine()
    {
        assertEquals("usage: am2j run -n P [--nodes N] [--poll NAME] [--nic inline|thread] [--nics-per-node K]" +
            " [--ranks-per-jvm K] [--pin] [--timeout SECONDS] [--jvm-opt OPT]... [--cp CLASSPATH] -- MAINCLASS [ARGS]", LaunchOptions.USAGE);
        assertTrue(LaunchOptions.HELP.startsWith(LaunchOptions.USAGE + System.lineSeparator()), LaunchOptions.HELP);
        for (final String option : List.of("-n P", "--nodes N", "--poll NAME", "--nic MODE", "--nics-per-node K",
            "--ranks-per-jvm K", "--pin", "--timeout S", "--jvm-opt OPT", "--cp CLASSPATH", "MAINCLASS ARGS"))
        {
            assertTrue(LaunchOptions.HELP.contains(option), option + " in " + LaunchOptions.HELP);
        }
    }

    @Test
    void helpIsRecognised()
    {
        assertTrue(LaunchOptions.parse(new String[]{ "run", "--help" }).help());
        assertTrue(LaunchOptions.parse(new String[]{ "-h" }).help());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "run|missing -n P",
        "-n|-n needs a value",
        "-n x -- Main|-n 'x' is not a number",
        "-n 0 -- Main|-n 0 is outside [1, 4096]",
        "-n 4097 -- Main|-n 4097 is outside [1, 4096]",
        "-n 2|missing MAINCLASS",
        "-n 2 --|missing MAINCLASS",
        "-n 2 --nodes 3 -- Main|--nodes 3 is more than -n 2",
        "-n 2 --nodes 0 -- Main|--nodes 0 is outside",
        "-n 2 --nic fast -- Main|--nic 'fast' must be inline or thread",
        "-n 2 --timeout|--timeout needs a value",
        "-n 2 --timeout -- Main|--timeout needs a value",
        "-n 2 --timeout --pin Main|--timeout '--pin' is not a number (seconds, at least 1)",
        "-n 2 --timeout 0 -- Main|--timeout 0 must be at least 1 (seconds)",
        "-n 2 --timeout -5 -- Main|--timeout -5 must be at least 1 (seconds)",
        "-n 2 --timeout 1.5 -- Main|--timeout '1.5' is not a number (seconds, at least 1)",
        "-n 2 --timeout 2147483648 -- Main|--timeout '2147483648' is not a number (seconds, at least 1)",
        "-n 2 --pin=yes -- Main|unknown argument '--pin=yes'",
        "-n 2 --frobnicate -- Main|unknown argument '--frobnicate'",
        "-n 2 --nics-per-node 65 -- Main|--nics-per-node 65 is outside [0, 64]",
        "-n 2 --poll -- Main|--poll needs a value",
        "-n 2 --jvm-opt|--jvm-opt needs a value",
        "-n 2 --cp|--cp needs a value",
        "-n 2 -- 1Main|MAINCLASS '1Main' is not a class name",
        "-n 2 -- --help|MAINCLASS '--help' is not a class name" })
    void usageErrorsNameTheProblem(final String commandLine, final String message)
    {
        final String[] args = commandLine.split(" ");

        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> LaunchOptions.parse(args));

        assertTrue(ex.getMessage().contains(message), ex.getMessage());
    }

    @Test
    void pollNameWithSpaceIsRejected()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class,
            () -> LaunchOptions.parse(new String[]{ "-n", "2", "--poll", "a b", "--", "Main" }));

        assertTrue(ex.getMessage().contains("--poll 'a b' is not a poll scheduler name"), ex.getMessage());
    }

    @Test
    void ranksArePlacedInBlocksWithTheFirstNodesTakingTheRemainder()
    {
        assertEquals("[0, 0, 1, 1]", placement(4, 2));
        assertEquals("[0, 0, 0, 1, 1]", placement(5, 2));
        assertEquals("[0, 1, 2]", placement(3, 3));
        assertEquals("[0, 0, 0, 1, 1, 2, 2]", placement(7, 3));
        assertEquals("[0, 0, 0]", placement(3, 1));
    }

    private static String placement(final int ranks, final int nodes)
    {
        final int[] node = new int[ranks];
        for (int r = 0; r < ranks; r++)
        {
            node[r] = RankPlacement.nodeOf(r, ranks, nodes);
        }
        return java.util.Arrays.toString(node);
    }

    @Test
    void exitsAreDescribed()
    {
        assertEquals("rank 1 exited with status 3", Am2Run.describeExit(1, 3));
        assertEquals("rank 2 was killed by signal 9 (SIGKILL)", Am2Run.describeExit(2, 137));
        assertEquals("rank 0 was killed by signal 15 (SIGTERM)", Am2Run.describeExit(0, 143));
    }
}
