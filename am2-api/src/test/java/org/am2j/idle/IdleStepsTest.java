package org.am2j.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.am2j.api.AmException;
import org.am2j.spi.Settings;
import org.junit.jupiter.api.Test;

/**
 * The idle strategy driven by a scripted clock and a scripted runnable count: which steps a wait takes (spins,
 * yields, sleeps) and when the probe is read, never how long anything takes.
 */
class IdleStepsTest
{
    private static final int SPINS = 256;
    private static final int YIELDS = 64;
    private static final long PERIOD = 2_000_000L;

    private long now = 1_000_000_000L;

    /** Counts of the actions of one wait of a given number of idle steps. */
    private static final class Counts
    {
        int spins;
        int yields;
        int sleeps;
        int firstSleep = -1;
    }

    private Counts waitOf(final IdleSteps steps, final int idleSteps)
    {
        final Counts counts = new Counts();
        int step = steps.firstStep();
        for (int i = 0; i < idleSteps; i++)
        {
            switch (steps.action(step++))
            {
                case IdleSteps.SPIN:
                    counts.spins++;
                    break;
                case IdleSteps.YIELD:
                    counts.yields++;
                    break;
                default:
                    if (counts.firstSleep < 0)
                    {
                        counts.firstSleep = i;
                    }
                    counts.sleeps++;
                    break;
            }
        }
        return counts;
    }

    private CpuShare share(final CpuShare.Mode mode, final RunnableProbe probe)
    {
        return new CpuShare(mode, probe, () -> now, PERIOD);
    }

    @Test
    void notOversubscribedSpinsThenYieldsThenSleeps()
    {
        final ScriptedProbe probe = new ScriptedProbe(2, 2);
        final Counts counts = waitOf(new IdleSteps(SPINS, YIELDS, share(CpuShare.Mode.ADAPTIVE, probe)), 400);
        assertEquals(SPINS, counts.spins);
        assertEquals(YIELDS, counts.yields);
        assertEquals(400 - SPINS - YIELDS, counts.sleeps);
        assertEquals(SPINS + YIELDS, counts.firstSleep);
        assertEquals(1, probe.reads);
    }

    @Test
    void oversubscribedGoesToSleepAtOnce()
    {
        final ScriptedProbe probe = new ScriptedProbe(4, 2);
        final Counts counts = waitOf(new IdleSteps(SPINS, YIELDS, share(CpuShare.Mode.ADAPTIVE, probe)), 400);
        assertEquals(0, counts.spins);
        assertEquals(0, counts.yields);
        assertEquals(400, counts.sleeps);
        assertEquals(0, counts.firstSleep);
    }

    @Test
    void theProbeIsReadAgainOnlyAfterItsPeriod()
    {
        final ScriptedProbe probe = new ScriptedProbe(1, 2);
        final CpuShare share = share(CpuShare.Mode.ADAPTIVE, probe);
        final IdleSteps steps = new IdleSteps(SPINS, YIELDS, share);
        assertEquals(SPINS, waitOf(steps, 400).spins);
        assertEquals(1, probe.reads);

        // The machine fills up, but within the period every wait keeps the cached answer.
        probe.runnable = 40;
        now += PERIOD - 1;
        for (int i = 0; i < 10; i++)
        {
            assertEquals(SPINS, waitOf(steps, 400).spins);
        }
        assertEquals(1, probe.reads);

        // A period after the first read, the next wait reads again and sleeps at once.
        now += 1;
        final Counts crowded = waitOf(steps, 400);
        assertEquals(0, crowded.spins);
        assertEquals(0, crowded.yields);
        assertEquals(2, probe.reads);
        assertEquals(40, share.lastRunnable());
        assertEquals(2, share.reads());

        // Quiet again: spinning comes back after the next period, not before.
        probe.runnable = 2;
        now += PERIOD / 2;
        assertEquals(0, waitOf(steps, 400).spins);
        now += PERIOD / 2;
        assertEquals(SPINS, waitOf(steps, 400).spins);
        assertEquals(3, probe.reads);
    }

    @Test
    void asManyRunnableAsCpusAndAPassingThreadIsNotOversubscribed()
    {
        final ScriptedProbe probe = new ScriptedProbe(4, 4);
        final CpuShare share = share(CpuShare.Mode.ADAPTIVE, probe);
        assertFalse(share.oversubscribed());
        probe.runnable = 4 + CpuShare.VISITORS;
        now += PERIOD;
        assertFalse(share.oversubscribed(), "two ranks pinned to two CPUs and a compiler thread");
        probe.runnable = 5 + CpuShare.VISITORS;
        now += PERIOD;
        assertTrue(share.oversubscribed());
    }

    @Test
    void anUnreadableProbeBehavesAsWithoutOne()
    {
        final ScriptedProbe probe = new ScriptedProbe(RunnableProbe.UNKNOWN, 2);
        final Counts counts = waitOf(new IdleSteps(SPINS, YIELDS, share(CpuShare.Mode.ADAPTIVE, probe)), 400);
        assertEquals(SPINS, counts.spins);
        assertEquals(YIELDS, counts.yields);
        assertEquals(400 - SPINS - YIELDS, counts.sleeps);
    }

    @Test
    void anUnreadableLoadFileBehavesAsWithoutOne(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
    {
        try (LoadavgProbe missing = LoadavgProbe.open(dir.resolve("no-loadavg"), dir.resolve("no-online")))
        {
            assertEquals(RunnableProbe.UNKNOWN, missing.runnable());
            assertEquals(Runtime.getRuntime().availableProcessors(), missing.cpus());
            final Counts counts = waitOf(new IdleSteps(SPINS, YIELDS, share(CpuShare.Mode.ADAPTIVE, missing)), 400);
            assertEquals(SPINS, counts.spins);
            assertEquals(YIELDS, counts.yields);
        }
    }

    @Test
    void theSwitchForcesEitherWayWithoutReadingTheProbe()
    {
        final ScriptedProbe crowded = new ScriptedProbe(100, 2);
        final Counts spinning = waitOf(new IdleSteps(SPINS, YIELDS, share(CpuShare.Mode.SPIN, crowded)), 400);
        assertEquals(SPINS, spinning.spins);
        assertEquals(YIELDS, spinning.yields);

        final ScriptedProbe quiet = new ScriptedProbe(1, 2);
        final Counts sleeping = waitOf(new IdleSteps(SPINS, YIELDS, share(CpuShare.Mode.SLEEP, quiet)), 400);
        assertEquals(0, sleeping.spins);
        assertEquals(0, sleeping.yields);
        assertEquals(400, sleeping.sleeps);

        assertEquals(0, crowded.reads);
        assertEquals(0, quiet.reads);
    }

    @Test
    void zeroSpinsAndYieldsSleepsFromTheStart()
    {
        final Counts counts = waitOf(new IdleSteps(0, 0, share(CpuShare.Mode.ADAPTIVE, new ScriptedProbe(1, 2))), 5);
        assertEquals(5, counts.sleeps);
    }

    @Test
    void theModeSettingIsParsedWithItsName()
    {
        assertEquals(CpuShare.Mode.ADAPTIVE, CpuShare.modeSetting(Settings.of(Map.of(), Map.of())));
        assertEquals(CpuShare.Mode.SPIN, CpuShare.modeSetting(Settings.of(Map.of("am2j.idle", " Spin "), Map.of())));
        assertEquals(CpuShare.Mode.SLEEP, CpuShare.modeSetting(Settings.of(Map.of(), Map.of("AM2J_IDLE", "sleep"))));
        final AmException ex = assertThrows(AmException.class,
            () -> CpuShare.modeSetting(Settings.of(Map.of(), Map.of("AM2J_IDLE", "never"))));
        assertTrue(ex.getMessage().contains("AM2J_IDLE = 'never' must be adaptive, spin or sleep"), ex.getMessage());
    }

    @Test
    void badArgumentsAreRefused()
    {
        final ScriptedProbe probe = new ScriptedProbe(1, 1);
        assertThrows(IllegalArgumentException.class, () -> new CpuShare(CpuShare.Mode.ADAPTIVE, probe, () -> 0, 0));
        final CpuShare share = share(CpuShare.Mode.ADAPTIVE, probe);
        assertThrows(IllegalArgumentException.class, () -> new IdleSteps(-1, 0, share));
        assertThrows(IllegalArgumentException.class, () -> new IdleSteps(0, -1, share));
    }
}
