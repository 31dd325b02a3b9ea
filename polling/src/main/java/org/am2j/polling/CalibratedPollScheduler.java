package org.am2j.polling;

import java.util.Locale;
import java.util.function.LongSupplier;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;

/**
 * The scheduler {@code calibrated} or {@code calibrated:R}: the {@link AdaptivePollScheduler adaptive} rule with
 * bounds that follow r, the cost of a network poll in local (shared-memory) polls.
 * <p>
 * The paper's bounds, 1-in-8 to 1-in-32, came from a machine where r was about 10. Today a non-blocking network
 * receive is a system call, hundreds of local polls, so the bounds are scaled with r:
 * <pre>
 *   MIN = clamp(round(0.8 r), 2, 4096)      8 when r = 10
 *   MAX = clamp(round(3.2 r), MIN, 4096)   32 when r = 10
 * </pre>
 * MIN is at least 2 so that some polls stay local and can still be measured; 4096 is the largest interval of this
 * package.
 * <ul>
 * <li>{@code calibrated}: r is measured on the running machine by a {@link PollCostSampler} (the minimum interval
 * between consecutive polls with and without the network, over windows of sampled polls; r = (network - local) /
 * local). Until the first window closes the bounds are the paper's 8..32; each closed window re-derives them; the
 * history of found messages is kept across changes.</li>
 * <li>{@code calibrated:R}: r is fixed at R (a positive decimal number) and nothing is measured.</li>
 * </ul>
 * Not thread-safe: the bundle calls it under the scheduler's monitor, one poll at a time. Primitive state only; the
 * hot path allocates nothing (a sampled poll reads the clock).
 */
public final class CalibratedPollScheduler implements PollScheduler
{
    /** The scheduler's name. */
    public static final String NAME = "calibrated";

    /** MIN = this times r, rounded; the paper's 8 for r = 10. */
    public static final double MIN_PER_RATIO = 0.8;

    /** MAX = this times r, rounded; the paper's 32 for r = 10. */
    public static final double MAX_PER_RATIO = 3.2;

    /** The smallest MIN derived from r: one poll in two at most includes the network. */
    public static final int MIN_INTERVAL_FLOOR = 2;

    private final AdaptivePollScheduler adaptive = new AdaptivePollScheduler();
    private final PollCostSampler sampler;
    private double ratio;

    /**
     * Measure r on this machine with {@link System#nanoTime()}.
     */
    public CalibratedPollScheduler()
    {
        this(System::nanoTime);
    }

    /**
     * Measure r with the given clock.
     *
     * @param nanoClock read on sampled polls; scripted in tests.
     */
    CalibratedPollScheduler(final LongSupplier nanoClock)
    {
        this.sampler = new PollCostSampler(nanoClock);
        this.ratio = Double.NaN;
    }

    /**
     * Fix r instead of measuring it.
     *
     * @param ratio r, the cost of a network poll in local polls; greater than zero.
     * @throws AmException {@link AmError#BAD_ARG} when the ratio is not positive.
     */
    public CalibratedPollScheduler(final double ratio)
    {
        if (!(ratio > 0.0) || Double.isInfinite(ratio))
        {
            throw new AmException(AmError.BAD_ARG,
                "calibrated ratio = " + ratio + " must be a positive finite number");
        }
        this.sampler = null;
        this.ratio = ratio;
        applyRatio(ratio);
    }

    /**
     * @param ratio r, the cost of a network poll in local polls.
     * @return MIN for that ratio: {@code clamp(round(0.8 r), 2, 4096)}.
     */
    static int minIntervalFor(final double ratio)
    {
        return clamp(Math.round(MIN_PER_RATIO * ratio), MIN_INTERVAL_FLOOR);
    }

    /**
     * @param ratio r, the cost of a network poll in local polls.
     * @return MAX for that ratio: {@code clamp(round(3.2 r), MIN, 4096)}.
     */
    static int maxIntervalFor(final double ratio)
    {
        return clamp(Math.round(MAX_PER_RATIO * ratio), minIntervalFor(ratio));
    }

    /**
     * @return r, measured or fixed; NaN while the first measurement is pending.
     */
    public double ratio()
    {
        return ratio;
    }

    /**
     * @return true when r was given rather than measured.
     */
    public boolean isFixed()
    {
        return null == sampler;
    }

    /**
     * @return MIN, the fewest polls from one network poll to the next.
     */
    public int minInterval()
    {
        return adaptive.minInterval();
    }

    /**
     * @return MAX, the most polls from one network poll to the next.
     */
    public int maxInterval()
    {
        return adaptive.maxInterval();
    }

    /**
     * @return I, the current number of polls from one network poll to the next.
     */
    public int interval()
    {
        return adaptive.interval();
    }

    @Override
    public int networkBudget(final int baseBudget)
    {
        final int budget = adaptive.networkBudget(baseBudget);
        if (null != sampler && sampler.onPoll(budget > 0))
        {
            ratio = sampler.ratio();
            applyRatio(ratio);
        }
        return budget;
    }

    @Override
    public void networkPolled(final int found)
    {
        adaptive.networkPolled(found);
    }

    @Override
    public String describe()
    {
        final double r = ratio;
        final String source = null == sampler ? "fixed" : "measured";
        final String ratioText = Double.isNaN(r) ? "ratio pending, paper's" : "ratio " + format(r) + " " + source + ",";
        return NAME + "[" + ratioText + " " + adaptive.minInterval() + ".." + adaptive.maxInterval() +
            ", rate 1/" + adaptive.interval() + "]";
    }

    private void applyRatio(final double r)
    {
        adaptive.bounds(minIntervalFor(r), maxIntervalFor(r));
    }

    private static int clamp(final long value, final int floor)
    {
        return (int)Math.max(floor, Math.min(value, PollArguments.INTERVAL_LIMIT));
    }

    private static String format(final double r)
    {
        return Math.abs(r - Math.rint(r)) < 0.05 ?
            Long.toString(Math.round(r)) : String.format(Locale.ROOT, "%.1f", r);
    }

    /**
     * The provider of {@code calibrated} (measured) and {@code calibrated:R} (fixed ratio R).
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
            return NAME + "[:R]";
        }

        @Override
        public PollScheduler create(final String argument)
        {
            return null == argument ? new CalibratedPollScheduler() :
                new CalibratedPollScheduler(PollArguments.positiveDecimal(NAME, "R", NAME + ":240", argument));
        }
    }
}
