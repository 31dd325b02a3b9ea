package org.am2j.perf;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line of {@code am2j logp}, and the small helpers of its rank program.
 */
@Timeout(30)
class LogPOptionsTest
{
    @Test
    void theDefaultIsTheFullScaleWithNoFiles()
    {
        final LogPOptions options = LogPOptions.parse(new String[0]);
        assertFalse(options.help());
        assertFalse(options.quick());
        assertEquals(LogPOptions.FULL, options.scale());
        assertNull(options.json());
        assertNull(options.plots());
    }

    @Test
    void quickJsonPlotsAndRoundsInAnyOrder()
    {
        final LogPOptions options = LogPOptions.parse(new String[]{
            "--rounds", "5000", "--json", "/tmp/x.json", "--quick", "--plots", "/tmp/p" });
        assertTrue(options.quick());
        assertEquals(5_000, options.scale().rounds());
        assertEquals(1_000, options.scale().warmup());
        assertEquals(LogPOptions.QUICK.longestBurst(), options.scale().longestBurst());
        assertEquals(Path.of("/tmp/x.json"), options.json());
        assertEquals(Path.of("/tmp/p"), options.plots());
    }

    @Test
    void helpAndBadArguments()
    {
        assertEquals(1, LogPOptions.parse(new String[0], Map.of()).ranksPerJvm());
        assertEquals(2, LogPOptions.parse(new String[]{ "--ranks-per-jvm", "2" }, Map.of()).ranksPerJvm());
        assertEquals("--ranks-per-jvm 4 does not divide the 2 rank(s) of node 0 (-n 2 over --nodes 1): a JVM holds " +
            "ranks of one node only; K may be 1 or 2", assertThrows(IllegalArgumentException.class, () ->
            LogPOptions.parse(new String[]{ "--ranks-per-jvm", "4" }, Map.of())).getMessage());
        assertTrue(LogPOptions.parse(new String[]{ "--quick", "--help" }).help());
        assertThrows(IllegalArgumentException.class, () -> LogPOptions.parse(new String[]{ "--fast" }));
        assertThrows(IllegalArgumentException.class, () -> LogPOptions.parse(new String[]{ "--json" }));
        assertThrows(IllegalArgumentException.class, () -> LogPOptions.parse(new String[]{ "--rounds", "0" }));
        assertThrows(IllegalArgumentException.class, () -> LogPOptions.parse(new String[]{ "--rounds", "x" }));
        assertThrows(IllegalArgumentException.class, () -> LogPOptions.parse(new String[]{ "--plots", "" }));
    }

    @Test
    void theScalesFitTheRankProgram()
    {
        for (final LogPOptions.Scale scale : new LogPOptions.Scale[]{ LogPOptions.QUICK, LogPOptions.FULL })
        {
            assertEquals(Integer.highestOneBit(scale.longestBurst()), scale.longestBurst());
            assertEquals(Integer.highestOneBit(scale.largestTransfer()), scale.largestTransfer());
            assertTrue(scale.largestTransfer() <= AmMessaging.TRANSFER_BUFFER_BYTES);
            assertTrue(scale.longestBurst() >= 2 * LogPParameters.SMALL_BURST);
            assertTrue(scale.longestBurst() <= LogPOptions.LONGEST_BURST, "within the shm request depth");
            assertEquals(Integer.highestOneBit(scale.longestNetBurst()), scale.longestNetBurst());
            assertEquals(scale.longestNetBurst(), scale.longestBurst(Protocol.MULTI_NET));
            assertEquals(scale.longestBurst(), scale.longestBurst(Protocol.MULTI_SHM));
        }
    }

    @Test
    void powersOfTwoAndTransferReps()
    {
        assertArrayEquals(new int[]{ 1, 2, 4, 8 }, LogPRank.powersOfTwo(1, 8));
        assertArrayEquals(new int[]{ 1, 2, 4, 8 }, LogPRank.powersOfTwo(1, 15));
        assertArrayEquals(new int[]{ 64, 128 }, LogPRank.powersOfTwo(64, 64));
        assertEquals(15, LogPRank.powersOfTwo(64, 1 << 20).length);
        assertEquals(8, LogPRank.transferReps(1 << 20, 1 << 20, 8));
        assertEquals(16, LogPRank.transferReps(1 << 19, 1 << 20, 8));
        assertEquals(200, LogPRank.transferReps(64, 1 << 20, 8));
    }

    @Test
    void theDelayCostsAtLeastTheDelay()
    {
        assertTrue(LogPRank.delayCostNs(2_000) >= 2_000);
        assertTrue(LogPRank.clockNs() >= 0);
    }
}
