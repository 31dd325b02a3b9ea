package org.am2j.core;

import java.util.concurrent.locks.LockSupport;

/**
 * Exponential back-off for a sender waiting for queue space, between polls of its own bundle: spin, then yield, then
 * sleep for doubling times up to a millisecond. Stateless: the caller keeps the attempt count, so nothing is
 * allocated.
 */
final class Backoff
{
    private static final int SPINS = 256;
    private static final int YIELDS = 64;
    private static final long MAX_PARK_NANOS = 1_000_000L;

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
        if (attempt < SPINS)
        {
            Thread.onSpinWait();
        }
        else if (attempt < SPINS + YIELDS)
        {
            Thread.yield();
        }
        else
        {
            final int shift = Math.min(attempt - SPINS - YIELDS, 10);
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, 1_000L << shift));
        }
        return attempt + 1;
    }
}
