package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.am2j.spi.PollScheduler;
import org.junit.jupiter.api.Test;

/**
 * {@code adaptive}: interval {@code I = MAX - floor((MAX - MIN) * min(S, 32) / 32)} from S, the messages found by the
 * last 32 network polls.
 */
class AdaptivePollSchedulerTest
{
    private final AdaptivePollScheduler.Provider provider = new AdaptivePollScheduler.Provider();

    @Test
    void noMessagesSettlesAtOneInThirtyTwo()
    {
        final PollScheduler scheduler = provider.create(null);
        final int[][] polls = ScriptedPolls.networkPolls(scheduler, 100, n -> 0);
        assertArrayEquals(ScriptedPolls.repeat(100, 32), polls[0]);
        assertArrayEquals(ScriptedPolls.repeat(100, 32 * ScriptedPolls.BASE), polls[1]);
        assertEquals("adaptive[8..32, rate 1/32]", scheduler.describe());
    }

    @Test
    void aMessageOnEveryNetworkPollRisesStepByStepToOneInEight()
    {
        final PollScheduler scheduler = provider.create(null);
        final int[] gaps = ScriptedPolls.networkPolls(scheduler, 40, n -> 1)[0];
        final int[] expected = new int[40];
        for (int n = 0; n < 40; n++)
        {
            // network poll n comes after n network polls that each found one message: S = min(n, 32)
            expected[n] = 32 - 24 * Math.min(n, 32) / 32;
        }
        assertArrayEquals(expected, gaps);
        assertEquals(32, gaps[0]);
        assertEquals(20, gaps[16]);
        assertArrayEquals(ScriptedPolls.repeat(8, 8), Arrays.copyOfRange(gaps, 32, 40));
        assertEquals("adaptive[8..32, rate 1/8]", scheduler.describe());
    }

    @Test
    void fallsBackToOneInThirtyTwoAsMessagesAgeOutOfTheHistory()
    {
        final PollScheduler scheduler = provider.create(null);
        ScriptedPolls.networkPolls(scheduler, 32, n -> 1);
        final int[] gaps = ScriptedPolls.networkPolls(scheduler, 40, n -> 0)[0];
        final int[] expected = new int[40];
        for (int n = 0; n < 40; n++)
        {
            // network poll n comes after n empty network polls: S = max(32 - n, 0)
            expected[n] = 32 - 24 * Math.max(32 - n, 0) / 32;
        }
        assertArrayEquals(expected, gaps);
        assertEquals(8, gaps[0]);
        assertEquals(20, gaps[16]);
        assertEquals(32, gaps[32]);
    }

    @Test
    void halfTheNetworkPollsFindingAMessageSettlesHalfWay()
    {
        final int[] gaps = ScriptedPolls.networkPolls(provider.create(null), 100, n -> n & 1)[0];
        assertArrayEquals(ScriptedPolls.repeat(50, 20), Arrays.copyOfRange(gaps, 50, 100));
    }

    @Test
    void aBurstCountsAsManyMessagesUntilItLeavesTheHistory()
    {
        final PollScheduler scheduler = provider.create(null);
        final int[] gaps = ScriptedPolls.networkPolls(scheduler, 40, n -> 0 == n ? 1000 : 0)[0];
        assertEquals(32, gaps[0]);
        // the burst, clamped to 32 messages (the most the rule looks at), sets the rate for the next 32 network polls
        assertArrayEquals(ScriptedPolls.repeat(32, 8), Arrays.copyOfRange(gaps, 1, 33));
        assertArrayEquals(ScriptedPolls.repeat(7, 32), Arrays.copyOfRange(gaps, 33, 40));
    }

    @Test
    void budgetIsThePollsSinceTheLastNetworkPollTimesTheBase()
    {
        final int[][] polls = ScriptedPolls.networkPolls(provider.create(null), 40, n -> 1);
        for (int n = 0; n < 40; n++)
        {
            assertEquals(polls[0][n] * ScriptedPolls.BASE, polls[1][n]);
        }
    }

    @Test
    void aRateRaisedBetweenNetworkPollsTakesEffectAtTheNextPoll()
    {
        final AdaptivePollScheduler scheduler = new AdaptivePollScheduler();
        for (int i = 0; i < 31; i++)
        {
            assertEquals(0, scheduler.networkBudget(ScriptedPolls.BASE));
        }
        scheduler.bounds(4, 16);
        assertEquals(32 * ScriptedPolls.BASE, scheduler.networkBudget(ScriptedPolls.BASE));
        assertEquals(16, scheduler.interval());
    }

    @Test
    void boundsFromTheArgument()
    {
        final PollScheduler scheduler = provider.create("4-16");
        assertEquals("adaptive[4..16, rate 1/16]", scheduler.describe());
        final int[] gaps = ScriptedPolls.networkPolls(scheduler, 40, n -> 1)[0];
        assertEquals(16, gaps[0]);
        assertEquals(10, gaps[16]);
        assertArrayEquals(ScriptedPolls.repeat(8, 4), Arrays.copyOfRange(gaps, 32, 40));
    }

    @Test
    void equalBoundsAreAFixedRate()
    {
        final int[][] polls = ScriptedPolls.networkPolls(provider.create("12-12"), 50, n -> n % 3);
        assertArrayEquals(ScriptedPolls.repeat(50, 12), polls[0]);
    }

    @Test
    void badArgumentsThrowBadArgNamingTheRule()
    {
        for (final String bad : new String[] {"8", "", "-", "8-", "-32", "8-32-64", "8--32", "0-8", "a-32", "8.5-32",
            " 8-32", "8-5000", "8-b", "8-32 ", "32-8", "8-0"})
        {
            BadArguments.assertBadArg(() -> provider.create(bad), "poll scheduler 'adaptive'",
                "bounds must be MIN-MAX, integers with 1 <= MIN <= MAX <= 4096", "adaptive:8-32", "'" + bad + "'");
        }
        BadArguments.assertBadArg(() -> new AdaptivePollScheduler(9, 8), "adaptive MAX = 8");
    }
}
