package org.am2j.polling;

import java.util.function.IntUnaryOperator;

import org.am2j.spi.PollScheduler;

/**
 * Drives a scheduler the way a bundle does, with a scripted history of found messages, and records which polls
 * included the network.
 */
final class ScriptedPolls
{
    /** The base budget the core passes (BundleCore.POLL_BUDGET). */
    static final int BASE = 32;

    private ScriptedPolls()
    {
    }

    /**
     * Poll until {@code count} network polls have happened.
     *
     * @param scheduler the scheduler under test.
     * @param count     network polls to make.
     * @param found     messages the n-th network poll (from 0) finds.
     * @return {@code [0][n]}: polls from network poll n-1 (or the start) to network poll n;
     * {@code [1][n]}: the budget of network poll n.
     */
    static int[][] networkPolls(final PollScheduler scheduler, final int count, final IntUnaryOperator found)
    {
        final int[] gaps = new int[count];
        final int[] budgets = new int[count];
        for (int n = 0; n < count; n++)
        {
            int gap = 0;
            int budget;
            do
            {
                gap++;
                budget = scheduler.networkBudget(BASE);
                if (gap > 1_000_000)
                {
                    throw new AssertionError("no network poll in a million polls");
                }
            }
            while (0 == budget);
            scheduler.networkPolled(found.applyAsInt(n));
            gaps[n] = gap;
            budgets[n] = budget;
        }
        return new int[][] {gaps, budgets};
    }

    /**
     * @param count how many.
     * @param value of each.
     * @return an array of {@code count} times {@code value}.
     */
    static int[] repeat(final int count, final int value)
    {
        final int[] values = new int[count];
        java.util.Arrays.fill(values, value);
        return values;
    }
}
