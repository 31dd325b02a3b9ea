package org.am2j.polling;

import java.util.function.LongSupplier;

import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;

/**
 * The scheduler {@code follow} or {@code follow:Q}: the network is polled on every poll while network traffic is
 * recent, and once every Q polls while it is quiet. Traffic is recent when a network poll found a message within the
 * last Q polls.
 * <p>
 * Why: a poll of today's network is a system call, r times a shared-memory poll (r is 15 to 30 on this project's
 * machine). A message that arrives while a network poll is under way waits for it, so a fixed rate costs shared-memory
 * traffic about {@code r / (interval + r)} of a network poll per message, which is more than the whole shared-memory
 * round trip at the paper's 1-in-8..32. Two such waits per round trip cost about {@code r * T_net / Q}; with
 * {@code Q = 100 r} that is 1% of a network poll per poll, a few percent of a shared-memory round trip; while network messages flow, the network is polled every time, and the local polls it
 * adds (tens of nanoseconds) are small against a network round trip (microseconds). The first message after a quiet
 * spell waits for up to Q polls (about a hundred microseconds here).
 * <ul>
 * <li>{@code follow}: r is measured on the running machine by a {@link PollCostSampler} while the network is quiet;
 * Q = clamp(100 r, 64, 65536), {@value #DEFAULT_QUIET_INTERVAL} until the first measurement.</li>
 * <li>{@code follow:Q}: Q fixed, an integer in [1, 65536].</li>
 * </ul>
 * Not thread-safe: a bundle calls it one poll at a time. Primitive state only; the hot path allocates nothing.
 */
public final class FollowPollScheduler implements PollScheduler
{
    /** The scheduler's name. */
    public static final String NAME = "follow";

    /** Q before the first measurement. */
    public static final int DEFAULT_QUIET_INTERVAL = 1024;

    /** Q = this times r. */
    public static final int QUIET_INTERVAL_PER_RATIO = 100;

    /** Smallest measured Q. */
    public static final int MIN_QUIET_INTERVAL = 64;

    /** Largest Q, measured or given. */
    public static final int MAX_QUIET_INTERVAL = 65536;

    private final PollCostSampler sampler;
    private int quietInterval;
    private int pollsSinceNetworkPoll;
    private long pollsSinceNetworkMessage = Long.MAX_VALUE / 2;
    /** Polls left until the next one that takes the full path: 1 means the next poll does. */
    private int countdown = 1;
    /** What {@link #countdown} was set to: the polls it covers, the last of them the full one. */
    private int span = 1;

    /**
     * Measure r with {@link System#nanoTime()}.
     */
    public FollowPollScheduler()
    {
        this(System::nanoTime);
    }

    /**
     * Measure r with the given clock.
     *
     * @param nanoClock read on sampled polls; scripted in tests.
     */
    FollowPollScheduler(final LongSupplier nanoClock)
    {
        this.sampler = new PollCostSampler(nanoClock);
        this.quietInterval = DEFAULT_QUIET_INTERVAL;
    }

    /**
     * Fix Q.
     *
     * @param quietInterval polls from one network poll to the next while the network is quiet, in [1, 65536].
     * @throws org.am2j.api.AmException {@link org.am2j.api.AmError#BAD_ARG} outside that range.
     */
    public FollowPollScheduler(final int quietInterval)
    {
        PollArguments.interval(NAME, "Q", NAME + ":1024", Integer.toString(quietInterval), MAX_QUIET_INTERVAL);
        this.sampler = null;
        this.quietInterval = quietInterval;
    }

    /**
     * @param ratio r, the extra cost of a network poll in local polls.
     * @return Q for that ratio: {@code clamp(round(100 r), 64, 65536)}.
     */
    static int quietIntervalFor(final double ratio)
    {
        final long q = Math.round(QUIET_INTERVAL_PER_RATIO * ratio);
        return (int)Math.max(MIN_QUIET_INTERVAL, Math.min(q, MAX_QUIET_INTERVAL));
    }

    /**
     * @return Q, the polls from one network poll to the next while the network is quiet.
     */
    public int quietInterval()
    {
        return quietInterval;
    }

    /**
     * @return true while network traffic is recent (every poll includes the network).
     */
    public boolean following()
    {
        return pollsSinceNetworkMessage < quietInterval;
    }

    @Override
    public int networkBudget(final int baseBudget)
    {
        // The common poll while the network is quiet, counted down: no network poll is due and no cost sample starts
        // or ends. Its counts are added at the next full poll, which then decides exactly as if every poll had
        // taken the full path.
        if (--countdown > 0)
        {
            return 0;
        }
        return fullPoll(baseBudget);
    }

    private int fullPoll(final int baseBudget)
    {
        final int skipped = span - 1;
        pollsSinceNetworkPoll += skipped;
        pollsSinceNetworkMessage += skipped;
        if (null != sampler)
        {
            sampler.skipLocal(skipped);
        }
        pollsSinceNetworkPoll++;
        pollsSinceNetworkMessage++;
        final boolean network = following() || pollsSinceNetworkPoll >= quietInterval;
        final int budget = network ? NetworkBudget.scaled(baseBudget, pollsSinceNetworkPoll) : 0;
        if (network)
        {
            pollsSinceNetworkPoll = 0;
        }
        if (null != sampler && sampler.onPoll(network))
        {
            quietInterval = quietIntervalFor(sampler.ratio());
        }
        span = pollsToNextFullPoll();
        countdown = span;
        return budget;
    }

    /**
     * @return how many polls from now, the next counted as 1, the first that must take the full path: every poll
     * while following the network; else the next network poll or the next sample's start or end, whichever is first.
     */
    private int pollsToNextFullPoll()
    {
        if (following())
        {
            return 1;
        }
        final int toNetworkPoll = Math.max(1, quietInterval - pollsSinceNetworkPoll);
        return null == sampler ? toNetworkPoll : Math.min(toNetworkPoll, sampler.localPollsUntilEvent());
    }

    @Override
    public void networkPolled(final int found)
    {
        if (found > 0)
        {
            pollsSinceNetworkMessage = 0;
            // Following the network now: every poll takes the full path.
            span = 1;
            countdown = 1;
        }
    }

    @Override
    public String describe()
    {
        return NAME + "[quiet 1/" + quietInterval + (null == sampler ? " fixed" :
            0 == sampler.windows() ? " until measured" : " from ratio " + Math.round(sampler.ratio())) +
            (following() ? ", following the network" : ", network quiet") + "]";
    }

    /** Provides {@code follow} and {@code follow:Q}. */
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
            return NAME + "[:Q]";
        }

        @Override
        public PollScheduler create(final String argument)
        {
            if (null == argument)
            {
                return new FollowPollScheduler();
            }
            return new FollowPollScheduler(
                PollArguments.interval(NAME, "Q", NAME + ":1024", argument, MAX_QUIET_INTERVAL));
        }
    }
}
