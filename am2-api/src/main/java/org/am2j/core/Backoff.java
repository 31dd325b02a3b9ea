package org.am2j.core;

import java.util.concurrent.locks.LockSupport;

import org.am2j.idle.CpuShare;
import org.am2j.idle.IdleSteps;

/**
 * Exponential back-off for a sender waiting for queue space, between polls of its own bundle: spin, then yield, then
 * sleep for doubling times up to a millisecond. When the CPUs are oversubscribed as the wait starts
 * ({@link CpuShare}), it sleeps from the first attempt: a spin would keep the receiver that must make space off a
 * CPU. Stateless: the caller keeps the attempt count, so nothing is allocated.
 */
final class Backoff
{
    static final int SPINS = 256;
    static final int YIELDS = 64;
    static final long MAX_PARK_NANOS = 1_000_000L;

    private static final IdleSteps STEPS = new IdleSteps(SPINS, YIELDS, CpuShare.process());

    private Backoff()
    {
    }

    /**
     * Wait a little.
     *
     * @param attempt number of waits so far for this send, from 0.
     * @return the next attempt number.
     */
    static int idle(final int attempt)
    {
        return idle(attempt, STEPS);
    }

    /**
     * Wait a little, by the given steps.
     *
     * @param attempt 0 for the first wait of a send, else what the previous call returned.
     * @param steps the spins and yields, and whether the CPUs are oversubscribed.
     * @return the next attempt number: at least {@link IdleSteps#sleepStep()} + 1 once this call slept.
     */
    static int idle(final int attempt, final IdleSteps steps)
    {
        final int step = 0 == attempt ? steps.firstStep() : attempt;
        switch (steps.action(step))
        {
            case IdleSteps.SPIN:
                Thread.onSpinWait();
                break;
            case IdleSteps.YIELD:
                Thread.yield();
                break;
            default:
                LockSupport.parkNanos(parkNanos(step - steps.sleepStep()));
                break;
        }
        return step + 1;
    }

    /**
     * @param sleep the number of the sleep within the wait, from 0.
     * @return 1 us doubling with each sleep, at most {@link #MAX_PARK_NANOS}.
     */
    static long parkNanos(final int sleep)
    {
        return Math.min(MAX_PARK_NANOS, 1_000L << Math.min(sleep, 10));
    }
}
