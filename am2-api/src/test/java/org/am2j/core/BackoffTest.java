package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.am2j.idle.CpuShare;
import org.am2j.idle.IdleSteps;
import org.am2j.idle.RunnableProbe;
import org.junit.jupiter.api.Test;

/**
 * The senders' back-off with a scripted runnable count: which step each attempt takes, never how long.
 */
class BackoffTest
{
    private static IdleSteps steps(final CpuShare.Mode mode, final int runnable)
    {
        final RunnableProbe probe = RunnableProbe.fixed(runnable, 2);
        return new IdleSteps(Backoff.SPINS, Backoff.YIELDS, new CpuShare(mode, probe, () -> 0L, 1_000_000L));
    }

    @Test
    void aQuietMachineSpinsFirst()
    {
        final IdleSteps quiet = steps(CpuShare.Mode.ADAPTIVE, 1);
        int attempt = Backoff.idle(0, quiet);
        assertEquals(1, attempt);
        while (attempt < Backoff.SPINS + Backoff.YIELDS)
        {
            assertEquals(attempt + 1, Backoff.idle(attempt, quiet));
            attempt++;
        }
        assertEquals(IdleSteps.SLEEP, quiet.action(attempt));
    }

    @Test
    void anOversubscribedMachineParksFromTheFirstAttempt()
    {
        final IdleSteps crowded = steps(CpuShare.Mode.ADAPTIVE, 5);
        final int next = Backoff.idle(0, crowded);
        assertEquals(Backoff.SPINS + Backoff.YIELDS + 1, next);
        assertEquals(IdleSteps.SLEEP, crowded.action(next - 1));
    }

    @Test
    void anUnknownCountSpinsFirst()
    {
        assertEquals(1, Backoff.idle(0, steps(CpuShare.Mode.ADAPTIVE, RunnableProbe.UNKNOWN)));
        assertEquals(1, Backoff.idle(0, steps(CpuShare.Mode.SPIN, 5)));
        assertEquals(Backoff.SPINS + Backoff.YIELDS + 1, Backoff.idle(0, steps(CpuShare.Mode.SLEEP, 1)));
    }

    @Test
    void parksDoubleUpToAMillisecond()
    {
        assertEquals(1_000L, Backoff.parkNanos(0));
        assertEquals(2_000L, Backoff.parkNanos(1));
        assertEquals(512_000L, Backoff.parkNanos(9));
        assertEquals(1_000_000L, Backoff.parkNanos(10));
        assertEquals(1_000_000L, Backoff.parkNanos(1_000_000));
    }
}
