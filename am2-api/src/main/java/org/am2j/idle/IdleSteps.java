package org.am2j.idle;

/**
 * What a waiter does after each attempt that found nothing to do: {@link #SPIN} ({@link Thread#onSpinWait()}) for the
 * first {@code spins} steps, {@link #YIELD} ({@link Thread#yield()}) for the next {@code yields}, then {@link #SLEEP}
 * (the waiter's own sleep: {@code waitSema}, a park, a selector) — unless the CPUs are oversubscribed when the wait
 * starts ({@link CpuShare#oversubscribed()}): then the wait starts at the first sleep step, for a spin or a yield
 * there would only keep the thread it waits for off a CPU.
 * <p>
 * Stateless and immutable: the waiter keeps its step number, starting each wait at {@link #firstStep()}, so one
 * instance serves every thread and nothing is allocated.
 * <pre>
 * int step = steps.firstStep();
 * while (!done()) {
 *     if (0 == poll()) {
 *         switch (steps.action(step++)) { case SPIN: ...; case YIELD: ...; default: sleep(); }
 *     }
 * }
 * </pre>
 */
public final class IdleSteps
{
    /** Spin once: {@link Thread#onSpinWait()}. */
    public static final int SPIN = 0;
    /** Give up the CPU once: {@link Thread#yield()}. */
    public static final int YIELD = 1;
    /** Sleep until woken or a short time passed. */
    public static final int SLEEP = 2;

    private final int spins;
    private final int yields;
    private final CpuShare share;

    /**
     * @param spins spin steps before the first yield, at least 0.
     * @param yields yield steps before the first sleep, at least 0.
     * @param share whether the CPUs are oversubscribed.
     */
    public IdleSteps(final int spins, final int yields, final CpuShare share)
    {
        if (spins < 0 || yields < 0 || (long)spins + yields > Integer.MAX_VALUE / 2)
        {
            throw new IllegalArgumentException("spins and yields must be in [0, 2^30]: " + spins + ", " + yields);
        }
        this.spins = spins;
        this.yields = yields;
        this.share = share;
    }

    /**
     * @return the step a new wait starts at: 0, or {@link #sleepStep()} when the CPUs are oversubscribed.
     */
    public int firstStep()
    {
        return share.oversubscribed() ? spins + yields : 0;
    }

    /**
     * @return the first step that sleeps.
     */
    public int sleepStep()
    {
        return spins + yields;
    }

    /**
     * @param step the step number within the wait, from {@link #firstStep()}.
     * @return {@link #SPIN}, {@link #YIELD} or {@link #SLEEP}.
     */
    public int action(final int step)
    {
        if (step < spins)
        {
            return SPIN;
        }
        return step < spins + yields ? YIELD : SLEEP;
    }

    /**
     * @return spin steps of a wait on CPUs that are not oversubscribed.
     */
    public int spins()
    {
        return spins;
    }

    /**
     * @return yield steps of a wait on CPUs that are not oversubscribed.
     */
    public int yields()
    {
        return yields;
    }
}
