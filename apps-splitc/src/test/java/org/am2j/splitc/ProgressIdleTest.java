package org.am2j.splitc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.idle.CpuShare;
import org.am2j.idle.RunnableProbe;
import org.junit.jupiter.api.Test;

/**
 * A Split-C wait with nothing to handle, on a bundle no one sends to, with a scripted runnable count: how many of its
 * steps sleep in {@code waitSema} (each times out after {@code sleepMicros}), never how long they take.
 */
class ProgressIdleTest
{
    private static final int SPINS = 20;
    private static final int YIELDS = 5;

    private static long sleepsAfter(final int steps, final CpuShare.Mode mode, final int runnable)
    {
        final RunnableProbe probe = RunnableProbe.fixed(runnable, 2);
        final CpuShare share = new CpuShare(mode, probe, () -> 0L, 1_000_000L);
        final SplitCOptions options = new SplitCOptions().spins(SPINS).yields(YIELDS).sleepMicros(50).stallMillis(0);
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            bundle.allocateEndpoint();
            final Progress progress = new Progress(bundle, 0, options, share);
            progress.beginWait();
            for (int i = 0; i < steps; i++)
            {
                progress.waitStep("nothing");
            }
            return progress.sleeps();
        }
    }

    @Test
    void aQuietMachineSpinsAndYieldsBeforeTheFirstSleep()
    {
        assertEquals(0, sleepsAfter(SPINS + YIELDS, CpuShare.Mode.ADAPTIVE, 1));
        assertEquals(3, sleepsAfter(SPINS + YIELDS + 3, CpuShare.Mode.ADAPTIVE, 1));
    }

    @Test
    void anOversubscribedMachineSleepsFromTheFirstStep()
    {
        assertEquals(1, sleepsAfter(1, CpuShare.Mode.ADAPTIVE, 4));
        assertEquals(SPINS + YIELDS, sleepsAfter(SPINS + YIELDS, CpuShare.Mode.ADAPTIVE, 4));
    }

    @Test
    void anUnknownCountAndTheSwitchBehaveAsTheyShould()
    {
        assertEquals(0, sleepsAfter(SPINS + YIELDS, CpuShare.Mode.ADAPTIVE, RunnableProbe.UNKNOWN));
        assertEquals(0, sleepsAfter(SPINS + YIELDS, CpuShare.Mode.SPIN, 30));
        assertEquals(4, sleepsAfter(4, CpuShare.Mode.SLEEP, 1));
    }
}
