package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.am2j.spi.PollScheduler;
import org.junit.jupiter.api.Test;

/**
 * {@code fractional:K}: the network on polls K, 2K, 3K, ... with K times the base budget.
 */
class FractionalPollSchedulerTest
{
    private final FractionalPollScheduler.Provider provider = new FractionalPollScheduler.Provider();

    @Test
    void fractionalFourPollsTheNetworkOnPolls4And8And12WithFourTimesTheBudget()
    {
        final PollScheduler scheduler = provider.create("4");
        final int[] budgets = new int[12];
        for (int i = 0; i < budgets.length; i++)
        {
            budgets[i] = scheduler.networkBudget(ScriptedPolls.BASE);
            if (budgets[i] > 0)
            {
                scheduler.networkPolled(i);
            }
        }
        final int four = 4 * ScriptedPolls.BASE;
        assertArrayEquals(new int[] {0, 0, 0, four, 0, 0, 0, four, 0, 0, 0, four}, budgets);
    }

    @Test
    void whatNetworkPollsFindChangesNothing()
    {
        final int[][] quiet = ScriptedPolls.networkPolls(provider.create("5"), 50, n -> 0);
        final int[][] busy = ScriptedPolls.networkPolls(provider.create("5"), 50, n -> 1000);
        assertArrayEquals(ScriptedPolls.repeat(50, 5), quiet[0]);
        assertArrayEquals(quiet[0], busy[0]);
        assertArrayEquals(ScriptedPolls.repeat(50, 5 * ScriptedPolls.BASE), busy[1]);
    }

    @Test
    void fractionalOneIsEveryPollWithTheBaseBudget()
    {
        final int[][] polls = ScriptedPolls.networkPolls(provider.create("1"), 10, n -> n);
        assertArrayEquals(ScriptedPolls.repeat(10, 1), polls[0]);
        assertArrayEquals(ScriptedPolls.repeat(10, ScriptedPolls.BASE), polls[1]);
    }

    @Test
    void withoutArgumentKIsEight()
    {
        final PollScheduler scheduler = provider.create(null);
        assertEquals(FractionalPollScheduler.DEFAULT_INTERVAL, ((FractionalPollScheduler)scheduler).interval());
        assertArrayEquals(ScriptedPolls.repeat(3, 8), ScriptedPolls.networkPolls(scheduler, 3, n -> 0)[0]);
        assertEquals("fractional[1/8, budget 8x]", scheduler.describe());
    }

    @Test
    void largestKIsAccepted()
    {
        final int[][] polls = ScriptedPolls.networkPolls(provider.create("4096"), 2, n -> 0);
        assertArrayEquals(new int[] {4096, 4096}, polls[0]);
        assertArrayEquals(ScriptedPolls.repeat(2, 4096 * ScriptedPolls.BASE), polls[1]);
    }

    @Test
    void budgetSaturatesInsteadOfOverflowing()
    {
        final PollScheduler scheduler = new FractionalPollScheduler(2);
        assertEquals(0, scheduler.networkBudget(Integer.MAX_VALUE));
        assertEquals(Integer.MAX_VALUE, scheduler.networkBudget(Integer.MAX_VALUE));
    }

    @Test
    void badArgumentsThrowBadArgNamingTheRule()
    {
        for (final String bad : new String[] {"0", "-1", "+4", " 4", "4 ", "x", "", "1.5", "4097", "99999999999"})
        {
            BadArguments.assertBadArg(() -> provider.create(bad), "fractional", "K must be an integer in [1, 4096]",
                "'" + bad + "'");
        }
        BadArguments.assertBadArg(() -> new FractionalPollScheduler(0), "fractional K = 0");
    }
}
