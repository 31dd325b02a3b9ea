package org.am2j.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import org.am2j.api.AmException;
import org.am2j.spi.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class EpochGuardTest
{
    private final List<Long> pauses = new ArrayList<>();
    private int measured;

    @Test
    void thresholdIsTwiceTheFastestProbeOrTheAbsoluteBound()
    {
        assertEquals(EpochGuard.ABSOLUTE_SLOW_NS, EpochGuard.thresholdNs(EpochGuard.NO_PROBE));
        assertEquals(260, EpochGuard.thresholdNs(130));
        assertEquals(EpochGuard.ABSOLUTE_SLOW_NS, EpochGuard.thresholdNs(175));
        assertEquals(EpochGuard.ABSOLUTE_SLOW_NS, EpochGuard.thresholdNs(400));
        assertFalse(EpochGuard.isSlow(260, 130));
        assertTrue(EpochGuard.isSlow(261, 130));
        assertTrue(EpochGuard.isSlow(351, 300));
        assertFalse(EpochGuard.isSlow(350, EpochGuard.NO_PROBE));
    }

    @Test
    void aFastMachineIsMeasuredOnce()
    {
        final Results results = new Results();
        final EpochGuard guard = guard(probes(140, 141), EpochGuard.NO_PROBE);
        assertFalse(guard.measure("rtt", () -> measured++, results));
        assertEquals(1, measured);
        assertEquals(List.of(), pauses);
        assertEquals(140, results.getLong("machine.rtt.probe_p50_ns"));
        assertEquals(141, results.getLong("machine.rtt.probe_after_p50_ns"));
        assertEquals(1, results.getLong("machine.rtt.attempts"));
        assertFalse(results.get("machine.rtt.slow_epoch").booleanValue());
        assertTrue(results.has("machine.rtt.load_avg_1m"));
        assertTrue(results.has("machine.rtt.cpu_mhz"));
        assertEquals(140, guard.fastestNs());
    }

    @Test
    void aSlowProbeBeforeIsWaitedOutWithoutMeasuring()
    {
        final Results results = new Results();
        final EpochGuard guard = guard(probes(520, 510, 150, 150), 140);
        assertFalse(guard.measure("os", () -> measured++, results));
        assertEquals(1, measured);
        assertEquals(List.of(EpochGuard.RETRY_PAUSE_MS, EpochGuard.RETRY_PAUSE_MS), pauses);
        assertEquals(3, results.getLong("machine.os.attempts"));
        assertEquals(150, results.getLong("machine.os.probe_p50_ns"));
    }

    @Test
    void aSlowProbeAfterTakesTheMeasurementAgain()
    {
        final Results results = new Results();
        final EpochGuard guard = guard(probes(140, 600, 140, 145), EpochGuard.NO_PROBE);
        assertFalse(guard.measure("bw_8k", () -> measured++, results));
        assertEquals(2, measured);
        assertEquals(2, results.getLong("machine.bw_8k.attempts"));
        assertEquals(145, results.getLong("machine.bw_8k.probe_after_p50_ns"));
    }

    @Test
    void aMachineThatStaysSlowIsMeasuredOnceAndFlagged()
    {
        final Results results = new Results();
        final EpochGuard guard = guard(probes(500, 500, 500, 500, 500), 140);
        assertTrue(guard.measure("limit_rtt", () -> measured++, results));
        assertEquals(1, measured);
        assertEquals(EpochGuard.MAX_RETRIES, pauses.size());
        assertEquals(EpochGuard.MAX_RETRIES + 1, results.getLong("machine.limit_rtt.attempts"));
        assertTrue(results.get("machine.limit_rtt.slow_epoch").booleanValue());
    }

    @Test
    void withNoRetriesASlowMachineIsMeasuredOnceWithoutPausingAndFlagged()
    {
        final Results results = new Results();
        final EpochGuard guard = new EpochGuard(probes(500, 500), 140, pauses::add, 0);
        assertTrue(guard.measure("rtt", () -> measured++, results));
        assertEquals(1, measured);
        assertEquals(List.of(), pauses);
        assertEquals(1, results.getLong("machine.rtt.attempts"));
        assertTrue(results.get("machine.rtt.slow_epoch").booleanValue());
    }

    @Test
    void theRetriesAreSetByPropertyOrVariableAndAreThreeOtherwise()
    {
        assertEquals(EpochGuard.MAX_RETRIES, EpochGuard.maxRetries(Settings.of(Map.of(), Map.of())));
        assertEquals(0, EpochGuard.maxRetries(Settings.of(Map.of(), Map.of("AM2J_PERF_EPOCHRETRIES", "0"))));
        assertEquals(5, EpochGuard.maxRetries(
            Settings.of(Map.of("am2j.perf.epochRetries", "5"), Map.of("AM2J_PERF_EPOCHRETRIES", "0"))));
        final AmException bad = assertThrows(AmException.class,
            () -> EpochGuard.maxRetries(Settings.of(Map.of("am2j.perf.epochRetries", "-1"), Map.of())));
        assertTrue(bad.getMessage().contains("am2j.perf.epochRetries"), bad.getMessage());
    }

    @Test
    void theFirstProbeOfARunIsJudgedByTheAbsoluteBoundAndLaterOnesByTheFastest()
    {
        final Results results = new Results();
        final EpochGuard guard = guard(probes(300, 300, 120, 300, 130, 125), EpochGuard.NO_PROBE);
        assertFalse(guard.measure("rtt", () -> measured++, results));
        assertEquals(1, measured);
        assertEquals(300, guard.fastestNs());
        assertFalse(guard.measure("os", () -> measured++, results));
        assertEquals(3, measured);
        assertEquals(2, results.getLong("machine.os.attempts"));
        assertEquals(120, guard.fastestNs());
        assertTrue(EpochGuard.isSlow(results.getLong("machine.rtt.probe_p50_ns"), guard.fastestNs()));
    }

    private EpochGuard guard(final LongSupplier probe, final long fastestNs)
    {
        return new EpochGuard(probe, fastestNs, pauses::add, EpochGuard.MAX_RETRIES);
    }

    private static LongSupplier probes(final long... values)
    {
        final int[] next = { 0 };
        return () -> values[next[0]++];
    }
}
