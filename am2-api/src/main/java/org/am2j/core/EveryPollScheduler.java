package org.am2j.core;

import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;

/**
 * The built-in scheduler {@code every}: the network is polled on every poll, with the same budget as a local queue.
 * The {@code polling} module adds the fractional, adaptive and calibrated schedulers.
 */
public final class EveryPollScheduler implements PollScheduler
{
    /** The scheduler's name. */
    public static final String NAME = "every";

    @Override
    public int networkBudget(final int baseBudget)
    {
        return baseBudget;
    }

    @Override
    public void networkPolled(final int found)
    {
    }

    @Override
    public String describe()
    {
        return NAME;
    }

    /**
     * The provider of {@code every}.
     */
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
            if (null != argument)
            {
                throw new org.am2j.api.AmException(org.am2j.api.AmError.BAD_ARG,
                    "poll scheduler 'every' takes no argument, got '" + argument + "'");
            }
            return new EveryPollScheduler();
        }
    }
}
