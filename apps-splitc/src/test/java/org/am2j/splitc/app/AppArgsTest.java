package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The application options and the front end's checks before it launches anything.
 */
class AppArgsTest
{
    @Test
    void presetsAndExplicitParameters()
    {
        final AppArgs args = AppArgs.parse(List.of("con", "--preset", "paper", "--seed", "9", "--json", "out.json"));
        final List<RunSpec> runs = args.runs();
        assertEquals(2, runs.size());
        assertEquals("CON/comm", runs.get(0).label());
        assertEquals(3, runs.get(0).getInt("dim"));
        assertEquals(80, runs.get(0).getInt("side"));
        assertEquals(0.25, runs.get(0).getDouble("fraction"));
        assertEquals(9, runs.get(0).getLong("seed"));
        assertEquals("CON/comp", runs.get(1).label());
        assertEquals(800, runs.get(1).getInt("side"));
        assertEquals(9, runs.get(1).getLong("seed"));
        assertTrue(args.toArgs().contains("--json"));
        assertTrue(args.toArgs().get(args.toArgs().indexOf("--json") + 1).startsWith("/"), "made absolute");
        assertEquals(args.runs().get(1).parameters(), AppArgs.parse(args.toArgs()).runs().get(1).parameters());

        assertEquals(256, AppArgs.parse(List.of("fft3d", "--preset", "paper")).runs().get(0).getInt("nz"));
        assertEquals("small", AppArgs.parse(List.of("em3d")).preset());
        final RunSpec good = AppArgs.parse(List.of("em3d", "--preset", "paper-good")).runs().get(0);
        assertEquals("good", good.get("layout"));
        assertEquals(2500, good.getInt("nodes"));
        assertEquals(20, good.getInt("degree"));
        assertEquals(0.4, good.getDouble("remote"));
    }

    @Test
    void warmupRunsAreCountedAndPassedOn()
    {
        assertEquals(Warmup.fixed(0), AppArgs.parse(List.of("em3d")).warmup());
        final AppArgs args = AppArgs.parse(List.of("em3d", "--warmup", "2", "--preset", "paper-good"));
        assertEquals(Warmup.fixed(2), args.warmup());
        assertEquals(Warmup.fixed(2), AppArgs.parse(args.toArgs()).warmup());
        final AppArgs auto = AppArgs.parse(List.of("em3d", "--warmup", "auto"));
        assertEquals(Warmup.untilQuiet(Warmup.DEFAULT_AUTO_MAX), auto.warmup());
        assertEquals(auto.warmup(), AppArgs.parse(auto.toArgs()).warmup());
        assertEquals(List.of("em3d", "--preset", "paper-good"), AppArgs.parse(List.of("em3d", "--preset",
            "paper-good", "--warmup", "0")).toArgs(), "no warm-up, no option");
        for (final String bad : List.of("-1", "x", "101", "", "auto:0", "auto:101", "auto:", "auto:x", "Auto"))
        {
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> AppArgs.parse(List.of("con", "--warmup", bad))).getMessage().contains("--warmup"), bad);
        }
    }

    @Test
    void timedRunsAreCountedAndPassedOn()
    {
        assertEquals(1, AppArgs.parse(List.of("con")).timed());
        final AppArgs args = AppArgs.parse(List.of("con", "--timed", "5", "--preset", "paper"));
        assertEquals(5, args.timed());
        assertEquals(5, AppArgs.parse(args.toArgs()).timed());
        assertEquals(List.of("con", "--preset", "paper"), AppArgs.parse(List.of("con", "--preset", "paper", "--timed",
            "1")).toArgs(), "one timed run, no option");
        assertEquals(AppArgs.MAX_TIMED, AppArgs.parse(List.of("con", "--timed", "1000")).timed());
        for (final String bad : List.of("0", "-2", "1001", "x", "", "2.5"))
        {
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> AppArgs.parse(List.of("con", "--timed", bad))).getMessage().contains("--timed"), bad);
        }
    }

    @Test
    void badOptionsNameWhatIsWrong()
    {
        assertThrows(IllegalArgumentException.class, () -> AppArgs.parse(List.of()));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AppArgs.parse(List.of("lu")))
            .getMessage().contains("fft3d, con, em3d"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> AppArgs.parse(List.of("con", "--preset", "huge"))).getMessage().contains("paper-comm"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> AppArgs.parse(List.of("em3d", "--side", "3"))).getMessage().contains("--graph-nodes, --degree"));
        assertThrows(IllegalArgumentException.class, () -> AppArgs.parse(List.of("em3d", "--graph-nodes")));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> AppArgs.parse(List.of("em3d", "--graph-nodes", "x")).runs().get(0).getInt("nodes")).getMessage()
            .contains("--graph-nodes x"));
    }

    /**
     * EM3D's graph size has an option of its own, since {@code --nodes} is the launcher's; the run's parameter (and
     * so its JSON) keeps the name {@code nodes}, and the options given back to the ranks use the option's name.
     */
    @Test
    void em3dsGraphSizeIsSetWithGraphNodes()
    {
        final AppArgs args = AppArgs.parse(List.of("em3d", "--preset", "small", "--graph-nodes", "120"));
        assertTrue(args.runs().stream().allMatch((run) -> "120".equals(run.get("nodes"))), args.runs().toString());
        assertTrue(args.toArgs().containsAll(List.of("--graph-nodes", "120")), args.toArgs().toString());
        assertEquals(args.runs().toString(), AppArgs.parse(args.toArgs()).runs().toString());
        assertThrows(IllegalArgumentException.class, () -> AppArgs.parse(List.of("em3d", "--nodes", "120")),
            "--nodes is the launcher's, not EM3D's");
    }

    private static int command(final String... args)
    {
        return new AppCommand(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(args);
    }

    @Test
    void theFrontEndRefusesWhatDoesNotFitBeforeLaunching()
    {
        assertEquals(AppMain.USAGE, command("fft3d", "-n", "3"), "3 ranks do not divide 64");
        assertEquals(AppMain.USAGE, command("fft3d", "-n", "2", "--nx", "48"), "not a power of two");
        assertEquals(AppMain.USAGE, command("em3d", "-n", "6", "--nodes", "4", "--layout", "good"));
        assertEquals(AppMain.USAGE, command("con", "-n", "2", "--nodes", "3"));
        assertEquals(AppMain.USAGE, command("con", "-n", "zero"));
        assertEquals(AppMain.USAGE, command("con", "-n", "2", "--json", "/nonexistent-dir/x.json"));
        assertEquals(AppMain.USAGE, command("con", "--dim", "4"));
        assertEquals(0, command("--help"));
    }

    /**
     * The front end hands the launcher's options on as given, in the order first given, each value of a repeated one
     * too, and {@code -n} always; everything else is the application's.
     */
    @Test
    void theFrontEndHandsTheLaunchersOptionsOnAsGiven()
    {
        assertEquals(List.of("-n", "2", "--pin", "--jvm-opt", "-Da=1", "--jvm-opt", "-Db=2", "--nodes", "2", "--poll",
            "every", "--nics-per-node", "1", "--cp", System.getProperty("java.class.path"), "--",
            AppMain.class.getName(), "con", "--preset", "small", "--seed", "9"),
            AppCommand.launchArguments(new String[]{ "con", "--pin", "-n", "2", "--jvm-opt", "-Da=1", "--seed", "9",
                "--nodes", "2", "--jvm-opt", "-Db=2", "--pin", "--poll", "every", "--nics-per-node", "1" }));
        assertEquals(List.of("-n", "1", "--cp", System.getProperty("java.class.path"), "--", AppMain.class.getName(),
            "em3d", "--preset", "paper-good", "--seed", "-5"),
            AppCommand.launchArguments(new String[]{ "em3d", "--preset", "paper-good", "--seed", "-5" }));
        assertNull(AppCommand.launchArguments(new String[]{ "con", "--help" }), "help, no launch");
    }

    /** {@code --ranks-per-jvm K} goes to the launcher; a K that does not divide a node's ranks is refused first. */
    @Test
    void ranksPerJvmIsHandedOnAndCheckedAsTheLauncherChecksIt()
    {
        assertEquals(List.of("-n", "8", "--nodes", "2", "--ranks-per-jvm", "4", "--cp",
            System.getProperty("java.class.path"), "--", AppMain.class.getName(), "em3d", "--preset", "small"),
            AppCommand.launchArguments(new String[]{ "em3d", "-n", "8", "--nodes", "2", "--ranks-per-jvm", "4" }));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () ->
            AppCommand.launchArguments(new String[]{ "em3d", "-n", "8", "--nodes", "2", "--ranks-per-jvm", "3" }));
        assertEquals("--ranks-per-jvm 3 does not divide the 4 rank(s) of node 0 (-n 8 over --nodes 2): a JVM holds " +
            "ranks of one node only; K may be 1, 2 or 4", ex.getMessage());
        assertEquals(AppMain.USAGE, command("em3d", "-n", "8", "--nodes", "2", "--ranks-per-jvm", "0"));
    }
}
