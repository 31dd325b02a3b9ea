package org.am2j.polling;

import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;

/**
 * A test scheduler, {@code scripted:K}: the network on every K-th poll with a budget of {@link #BUDGET}; it records
 * what the core tells it. The provider keeps the last instance it made, for the test to read.
 */
public final class ScriptedPollScheduler implements PollScheduler
{
    /** The scheduler's name. */
    public static final String NAME = "scripted";
    /** The network budget of a network poll. */
    static final int BUDGET = 7;

    static volatile ScriptedPollScheduler last;

    final int period;
    long budgetCalls;
    long networkPolls;
    long found;

    ScriptedPollScheduler(final int period)
    {
        this.period = period;
    }

    @Override
    public int networkBudget(final int baseBudget)
    {
        return 0 == budgetCalls++ % period ? BUDGET : 0;
    }

    @Override
    public void networkPolled(final int found)
    {
        networkPolls++;
        this.found += found;
    }

    @Override
    public String describe()
    {
        return NAME + ":" + period;
    }

    /** Makes {@code scripted:K} schedulers. */
    public static final class Provider implements PollSchedulerProvider
    {
        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public PollScheduler create(final String argument)
        {
            final ScriptedPollScheduler scheduler = new ScriptedPollScheduler(Integer.parseInt(argument));
            last = scheduler;
            return scheduler;
        }
    }
}
