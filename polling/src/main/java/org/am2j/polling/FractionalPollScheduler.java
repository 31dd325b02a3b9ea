package org.am2j.polling;

import org.am2j.api.AmException;
import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;

/**
 * The scheduler {@code fractional:K}: the network is polled on every K-th poll (polls K, 2K, 3K, ... counting from 1)
 * and that poll accepts up to K times the base budget of network messages. What the network polls find does not
 * change anything. {@code fractional:1} is {@code every}.
 * <p>
 * K is an integer in [1, 4096]. Without an argument K is {@value #DEFAULT_INTERVAL}: the fastest rate of the paper's
 * adaptive scheduler, the one the paper found best under traffic for a network poll costing about ten local polls.
 * <p>
 * Not thread-safe: the bundle calls it under the scheduler's monitor, one poll at a time. Primitive state only; the
 * hot path allocates nothing.
 */
public final class FractionalPollScheduler implements PollScheduler
{
    /** The scheduler's name. */
    public static final String NAME = "fractional";

    /** K when the setting gives no argument. */
    public static final int DEFAULT_INTERVAL = 8;

    private final int interval;
    private int pollsSinceNetwork;

    /**
     * @param interval K: the network is polled once every K polls; in [1, 4096].
     * @throws AmException {@link org.am2j.api.AmError#BAD_ARG} when K is out of range.
     */
    public FractionalPollScheduler(final int interval)
    {
        AmException.checkRange("fractional K", interval, 1, PollArguments.INTERVAL_LIMIT + 1L);
        this.interval = interval;
    }

    /**
     * @return K, the number of polls from one network poll to the next.
     */
    public int interval()
    {
        return interval;
    }

    @Override
    public int networkBudget(final int baseBudget)
    {
        if (++pollsSinceNetwork < interval)
        {
            return 0;
        }
        pollsSinceNetwork = 0;
        return NetworkBudget.scaled(baseBudget, interval);
    }

    @Override
    public void networkPolled(final int found)
    {
    }

    @Override
    public String describe()
    {
        return NAME + "[1/" + interval + ", budget " + interval + "x]";
    }

    /**
     * The provider of {@code fractional} and {@code fractional:K}.
     */
    public static final class Provider implements PollSchedulerProvider
    {
        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public String usage()
        {
            return NAME + "[:K]";
        }

        @Override
        public PollScheduler create(final String argument)
        {
            return new FractionalPollScheduler(null == argument ?
                DEFAULT_INTERVAL : PollArguments.interval(NAME, "K", NAME + ":8", argument));
        }
    }
}
