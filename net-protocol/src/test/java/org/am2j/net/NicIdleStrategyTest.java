package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.am2j.idle.CpuShare;
import org.am2j.idle.RunnableProbe;
import org.junit.jupiter.api.Test;

/**
 * The NIC thread's idle strategy with a scripted runnable count: after how many idle calls it first sleeps in the
 * selector, never how long.
 */
class NicIdleStrategyTest
{
    private int sleeps;

    private NicIdleStrategy strategy(final CpuShare.Mode mode, final int runnable)
    {
        final RunnableProbe probe = RunnableProbe.fixed(runnable, 2);
        return new NicIdleStrategy(nanos ->
        {
            assertEquals(NicIdleStrategy.SLEEP_NANOS, nanos);
            sleeps++;
        }, new CpuShare(mode, probe, () -> 0L, 1_000_000L));
    }

    /**
     * @return the number of the idle call (from 1) that first slept, after a reset.
     */
    private int firstSleep(final NicIdleStrategy strategy)
    {
        strategy.idle(1);
        sleeps = 0;
        int calls = 0;
        while (0 == sleeps)
        {
            strategy.idle(0);
            calls++;
        }
        return calls;
    }

    @Test
    void aQuietMachineSpinsAndYieldsBeforeTheSelector()
    {
        final NicIdleStrategy strategy = strategy(CpuShare.Mode.ADAPTIVE, 1);
        assertEquals(NicIdleStrategy.SPINS + NicIdleStrategy.YIELDS + 1, firstSleep(strategy));
        // after work, the next idle spell spins again
        assertEquals(NicIdleStrategy.SPINS + NicIdleStrategy.YIELDS + 1, firstSleep(strategy));
    }

    @Test
    void anOversubscribedMachineGoesToTheSelectorAtOnce()
    {
        final NicIdleStrategy strategy = strategy(CpuShare.Mode.ADAPTIVE, 4);
        assertEquals(1, firstSleep(strategy));
        strategy.idle();
        assertEquals(2, sleeps);
    }

    @Test
    void anUnknownCountOrTheSpinSwitchSpinFirst()
    {
        assertEquals(NicIdleStrategy.SPINS + NicIdleStrategy.YIELDS + 1,
            firstSleep(strategy(CpuShare.Mode.ADAPTIVE, RunnableProbe.UNKNOWN)));
        assertEquals(NicIdleStrategy.SPINS + NicIdleStrategy.YIELDS + 1,
            firstSleep(strategy(CpuShare.Mode.SPIN, 40)));
        assertEquals(1, firstSleep(strategy(CpuShare.Mode.SLEEP, 1)));
    }
}
