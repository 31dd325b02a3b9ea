package org.am2j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * More ranks than CPUs: the rank JVMs compile with C1 only and collect with the serial collector, unless the user's
 * options choose otherwise; with a CPU per rank nothing is added.
 */
class OversubscribedJvmTest
{
    @Test
    void aCpuPerRankAddsNothing()
    {
        assertTrue(OversubscribedJvm.options(2, 2, List.of()).isEmpty());
        assertTrue(OversubscribedJvm.options(1, 8, List.of("-Xmx1g")).isEmpty());
    }

    @Test
    void moreRanksThanCpusCompileWithC1AndCollectSerially()
    {
        assertEquals(List.of(OversubscribedJvm.C1_ONLY, OversubscribedJvm.SERIAL_GC),
            OversubscribedJvm.options(32, 2, List.of("-Xmx1g")));
    }

    @Test
    void theUsersCompilerAndCollectorChoicesWin()
    {
        assertEquals(List.of(OversubscribedJvm.SERIAL_GC),
            OversubscribedJvm.options(32, 2, List.of("-XX:TieredStopAtLevel=4")));
        assertEquals(List.of(OversubscribedJvm.SERIAL_GC),
            OversubscribedJvm.options(32, 2, List.of("-XX:-TieredCompilation")));
        assertEquals(List.of(OversubscribedJvm.C1_ONLY),
            OversubscribedJvm.options(32, 2, List.of("-XX:+UseG1GC")));
        assertTrue(OversubscribedJvm.options(32, 2, List.of("-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1"))
            .isEmpty());
    }

    @Test
    void theLauncherPutsThemBeforeTheUsersOptions()
    {
        final int ranks = Runtime.getRuntime().availableProcessors() + 1;
        final LaunchOptions options = LaunchOptions.parse(new String[]{
            "-n", Integer.toString(ranks), "--jvm-opt", "-XX:TieredStopAtLevel=4", "--", "Main" });
        final List<String> words = new RankCommand(options, "j1", "127.0.0.1:1", java.nio.file.Path.of("/dev/shm/x"),
            1, 0, null).build(0).command();
        final int serial = words.indexOf(OversubscribedJvm.SERIAL_GC);
        assertTrue(serial > 0 && serial < words.indexOf("-XX:TieredStopAtLevel=4"), words.toString());
        assertEquals(-1, words.indexOf(OversubscribedJvm.C1_ONLY), words.toString());
    }
}
