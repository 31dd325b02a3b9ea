package org.am2j.polling;

import org.am2j.api.AmException;
import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;

/**
 * The paper's adaptive scheduler, {@code adaptive} or {@code adaptive:MIN-MAX}: a network polling rate between
 * 1-in-MAX and 1-in-MIN (the paper's 1-in-32 and 1-in-8 by default), set from the number of messages found by the
 * last 32 network polls.
 * <p>
 * The paper (Lumetta, Mainwaring and Culler, multi-protocol Active Messages on Clumps; the paragraphs on polling
 * strategy) gives the bounds, the history length and that the history counts messages, but no formula. The rule implemented here, with H = 32:
 * <ol>
 * <li>S = the sum of the message counts found by the last H network polls, each count clamped to [0, H] (counts
 * before the first network poll are 0).</li>
 * <li>The interval, in polls from one network poll to the next, is
 * {@code I = MAX - floor((MAX - MIN) * min(S, H) / H)}: MAX when the history holds no message, MIN when it holds at
 * least one message per network poll on average (S &gt;= H), linear between, rounded towards MAX (the cheaper
 * side).</li>
 * <li>A poll includes the network when p, the number of polls since the previous network poll counting this one,
 * reaches I; that poll accepts up to {@code p * baseBudget} network messages and p restarts from 0. The first
 * network poll is poll number MAX.</li>
 * <li>I is recomputed after every network poll (from the new history) and whenever the bounds change; a smaller I
 * takes effect on the next poll.</li>
 * </ol>
 * This is how "within the bounds it polls whenever the history predicts a message" is read here: S/H is the history's
 * prediction of the messages the next network poll will find, and the rate rises with it until the history predicts
 * a message on every network poll. The other reading, polling after the number of polls the history's arrival rate
 * predicts for one message ({@code p * S >= polls spanned by the history}), was not taken: it holds any rate at which
 * each network poll finds one message, so it never moves towards the faster bound under steady traffic, and its rate
 * depends on the history's time span as well as on its message count.
 * <p>
 * Not thread-safe: the bundle calls it under the scheduler's monitor, one poll at a time. Primitive state only; the
 * hot path allocates nothing. {@link #describe()} may be called from another thread and then reads a recent rate.
 */
public final class AdaptivePollScheduler implements PollScheduler
{
    /** The scheduler's name. */
    public static final String NAME = "adaptive";

    /** The paper's smallest interval: at most 1 network poll in 8. */
    public static final int DEFAULT_MIN_INTERVAL = 8;

    /** The paper's largest interval: at least 1 network poll in 32. */
    public static final int DEFAULT_MAX_INTERVAL = 32;

    private final NetworkPollHistory history = new NetworkPollHistory();
    private int minInterval;
    private int maxInterval;
    private int interval;
    private int pollsSinceNetwork;

    /**
     * The paper's scheduler: between 1-in-32 and 1-in-8.
     */
    public AdaptivePollScheduler()
    {
        this(DEFAULT_MIN_INTERVAL, DEFAULT_MAX_INTERVAL);
    }

    /**
     * @param minInterval MIN, the fewest polls from one network poll to the next; at least 1.
     * @param maxInterval MAX, the most polls from one network poll to the next; in [MIN, 4096].
     * @throws AmException {@link org.am2j.api.AmError#BAD_ARG} when the bounds are out of range.
     */
    public AdaptivePollScheduler(final int minInterval, final int maxInterval)
    {
        bounds(minInterval, maxInterval);
    }

    /**
     * Change the bounds, keeping the history; the interval is recomputed at once.
     *
     * @param minInterval MIN, at least 1.
     * @param maxInterval MAX, in [MIN, 4096].
     * @throws AmException {@link org.am2j.api.AmError#BAD_ARG} when the bounds are out of range.
     */
    void bounds(final int minInterval, final int maxInterval)
    {
        AmException.checkRange("adaptive MIN", minInterval, 1, PollArguments.INTERVAL_LIMIT + 1L);
        AmException.checkRange("adaptive MAX", maxInterval, minInterval, PollArguments.INTERVAL_LIMIT + 1L);
        this.minInterval = minInterval;
        this.maxInterval = maxInterval;
        this.interval = intervalFor(history.sum());
    }

    /**
     * @return MIN, the fewest polls from one network poll to the next.
     */
    public int minInterval()
    {
        return minInterval;
    }

    /**
     * @return MAX, the most polls from one network poll to the next.
     */
    public int maxInterval()
    {
        return maxInterval;
    }

    /**
     * @return I, the current number of polls from one network poll to the next: the rate is 1-in-I.
     */
    public int interval()
    {
        return interval;
    }

    @Override
    public int networkBudget(final int baseBudget)
    {
        final int polls = ++pollsSinceNetwork;
        if (polls < interval)
        {
            return 0;
        }
        pollsSinceNetwork = 0;
        return NetworkBudget.scaled(baseBudget, polls);
    }

    @Override
    public void networkPolled(final int found)
    {
        history.add(found);
        interval = intervalFor(history.sum());
    }

    @Override
    public String describe()
    {
        return NAME + "[" + minInterval + ".." + maxInterval + ", rate 1/" + interval + "]";
    }

    private int intervalFor(final int messages)
    {
        final int saturated = Math.min(messages, NetworkPollHistory.LENGTH);
        return maxInterval - (maxInterval - minInterval) * saturated / NetworkPollHistory.LENGTH;
    }

    /**
     * The provider of {@code adaptive} and {@code adaptive:MIN-MAX}.
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
            return NAME + "[:L-H]";
        }

        @Override
        public PollScheduler create(final String argument)
        {
            if (null == argument)
            {
                return new AdaptivePollScheduler();
            }
            final long bounds = PollArguments.bounds(NAME, NAME + ":8-32", argument);
            return new AdaptivePollScheduler(PollArguments.low(bounds), PollArguments.high(bounds));
        }
    }
}
