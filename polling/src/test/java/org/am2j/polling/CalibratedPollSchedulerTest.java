package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.am2j.spi.PollScheduler;
import org.junit.jupiter.api.Test;

/**
 * {@code calibrated}: the adaptive rule with bounds [round(0.8 r), round(3.2 r)], r measured with a scripted clock or
 * given.
 */
class CalibratedPollSchedulerTest
{
    private final CalibratedPollScheduler.Provider provider = new CalibratedPollScheduler.Provider();
    private final ScriptedClock clock = new ScriptedClock();

    @Test
    void usesThePapersBoundsUntilEnoughSamplesExist()
    {
        final CalibratedPollScheduler scheduler = new CalibratedPollScheduler(clock);
        assertEquals("calibrated[ratio pending, paper's 8..32, rate 1/32]", scheduler.describe());
        // 1000 polls: about 31 network polls, 7 network samples, fewer than a window's 16
        clock.poll(scheduler, 1000, 10, 1000, i -> 0, 0);
        assertTrue(Double.isNaN(scheduler.ratio()));
        assertEquals(8, scheduler.minInterval());
        assertEquals(32, scheduler.maxInterval());
        assertFalse(scheduler.isFixed());
    }

    @Test
    void networkPollCostingAHundredLocalPollsGivesBounds80To320()
    {
        final CalibratedPollScheduler scheduler = new CalibratedPollScheduler(clock);
        // a local poll takes 10 units; a poll that includes the network takes 10 + 100 * 10
        clock.poll(scheduler, 100_000, 10, 1000, i -> 0, 0);
        assertEquals(100.0, scheduler.ratio());
        assertEquals(80, scheduler.minInterval());
        assertEquals(320, scheduler.maxInterval());
        assertEquals("calibrated[ratio 100 measured, 80..320, rate 1/320]", scheduler.describe());
        final int[] gaps = ScriptedPolls.networkPolls(scheduler, 40, n -> 1)[0];
        assertEquals(320 - 240 / 32, gaps[1]);
        assertArrayEquals(ScriptedPolls.repeat(8, 80), Arrays.copyOfRange(gaps, 32, 40));
    }

    @Test
    void userWorkBetweenPollsDoesNotMoveTheMeasuredRatio()
    {
        final CalibratedPollScheduler scheduler = new CalibratedPollScheduler(clock);
        // two polls in three are followed by user work of up to 20 network polls; the others are back to back
        clock.poll(scheduler, 200_000, 10, 1000, i -> 0 == i % 3 ? 0 : (i * 7919L) % 20_000, 0);
        assertEquals(100.0, scheduler.ratio());
        assertEquals(80, scheduler.minInterval());
        assertEquals(320, scheduler.maxInterval());
    }

    @Test
    void boundsFollowTheMachineWhenItsCostsChange()
    {
        final CalibratedPollScheduler scheduler = new CalibratedPollScheduler(clock);
        clock.poll(scheduler, 100_000, 10, 1000, i -> 0, 0);
        assertEquals(320, scheduler.maxInterval());
        // now the network poll costs 20 local polls: bounds 16..64 once a window has only the new samples
        clock.poll(scheduler, 100_000, 10, 200, i -> 0, 0);
        assertEquals(20.0, scheduler.ratio());
        assertEquals(16, scheduler.minInterval());
        assertEquals(64, scheduler.maxInterval());
        assertEquals("calibrated[ratio 20 measured, 16..64, rate 1/64]", scheduler.describe());
    }

    @Test
    void theHistoryOfFoundMessagesSurvivesNewBounds()
    {
        final CalibratedPollScheduler scheduler = new CalibratedPollScheduler(clock);
        // every network poll finds a message: the history stays at MIN, first the paper's 8, then the measured 80
        clock.poll(scheduler, 1000, 10, 1000, i -> 0, 1);
        assertEquals(8, scheduler.interval());
        clock.poll(scheduler, 100_000, 10, 1000, i -> 0, 1);
        assertEquals(80, scheduler.minInterval());
        assertEquals(80, scheduler.interval());
        assertEquals("calibrated[ratio 100 measured, 80..320, rate 1/80]", scheduler.describe());
    }

    @Test
    void aFixedRatioSetsTheBoundsAtOnce()
    {
        assertFixed("100", 80, 320, "calibrated[ratio 100 fixed, 80..320, rate 1/320]");
        assertFixed("10", 8, 32, "calibrated[ratio 10 fixed, 8..32, rate 1/32]");
        assertFixed("12.5", 10, 40, "calibrated[ratio 12.5 fixed, 10..40, rate 1/40]");
        assertFixed("240", 192, 768, "calibrated[ratio 240 fixed, 192..768, rate 1/768]");
    }

    @Test
    void boundsAreClampedToTwoAnd4096()
    {
        assertFixed("0.1", 2, 2, "calibrated[ratio 0.1 fixed, 2..2, rate 1/2]");
        assertFixed("1", 2, 3, "calibrated[ratio 1 fixed, 2..3, rate 1/3]");
        assertFixed("2000", 1600, 4096, "calibrated[ratio 2000 fixed, 1600..4096, rate 1/4096]");
        assertFixed("1000000", 4096, 4096, "calibrated[ratio 1000000 fixed, 4096..4096, rate 1/4096]");
        assertEquals(2, CalibratedPollScheduler.minIntervalFor(-3.0));
        assertEquals(2, CalibratedPollScheduler.maxIntervalFor(-3.0));
    }

    @Test
    void aMeasuredNetworkNoDearerThanALocalPollGivesTheSmallestBounds()
    {
        final CalibratedPollScheduler scheduler = new CalibratedPollScheduler(clock);
        clock.poll(scheduler, 100_000, 10, 0, i -> 0, 0);
        assertEquals(0.0, scheduler.ratio());
        assertEquals(2, scheduler.minInterval());
        assertEquals(2, scheduler.maxInterval());
    }

    @Test
    void aFixedRatioMeasuresNothing()
    {
        final CalibratedPollScheduler scheduler = (CalibratedPollScheduler)provider.create("100");
        ScriptedPolls.networkPolls(scheduler, 100, n -> 0);
        assertEquals(100.0, scheduler.ratio());
        assertTrue(scheduler.isFixed());
    }

    @Test
    void withoutArgumentItMeasures()
    {
        final CalibratedPollScheduler scheduler = (CalibratedPollScheduler)provider.create(null);
        assertFalse(scheduler.isFixed());
        assertTrue(scheduler.describe().startsWith("calibrated[ratio pending, paper's 8..32"));
    }

    @Test
    void badArgumentsThrowBadArgNamingTheRule()
    {
        for (final String bad : new String[] {"0", "0.0", "-1", "+5", "abc", "", "1e3", "NaN", "Infinity", "10.", ".5",
            "1.2.3", "2000000", " 10", "10x"})
        {
            BadArguments.assertBadArg(() -> provider.create(bad), "poll scheduler 'calibrated'",
                "R must be a positive decimal number", "calibrated:240", "'" + bad + "'");
        }
        BadArguments.assertBadArg(() -> new CalibratedPollScheduler(0.0), "calibrated ratio");
        BadArguments.assertBadArg(() -> new CalibratedPollScheduler(Double.NaN), "calibrated ratio");
        BadArguments.assertBadArg(() -> new CalibratedPollScheduler(Double.POSITIVE_INFINITY), "calibrated ratio");
    }

    private void assertFixed(final String argument, final int min, final int max, final String description)
    {
        final PollScheduler scheduler = provider.create(argument);
        final CalibratedPollScheduler calibrated = (CalibratedPollScheduler)scheduler;
        assertEquals(min, calibrated.minInterval(), argument);
        assertEquals(max, calibrated.maxInterval(), argument);
        assertEquals(description, scheduler.describe());
    }
}
