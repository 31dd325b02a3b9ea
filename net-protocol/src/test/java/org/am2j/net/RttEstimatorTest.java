package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RttEstimatorTest
{
    private static final long MS = 1_000_000L;

    @Test
    void firstSampleSetsTheTimeoutToThreeTimesTheRoundTripWithinTheBounds()
    {
        final RttEstimator rtt = new RttEstimator(100 * MS, 2 * MS, 200 * MS);
        assertEquals(100 * MS, rtt.rto());
        rtt.sample(10 * MS);
        assertEquals(10 * MS + 4 * 5 * MS, rtt.rto());

        final RttEstimator fast = new RttEstimator(100 * MS, 2 * MS, 200 * MS);
        fast.sample(1_000);
        assertEquals(2 * MS, fast.rto(), "a round trip of 1 us: the minimum");
    }

    @Test
    void aTimeoutDoublesTheTimeoutOncePerTimeoutUpToTheMaximumUntilTheNextSample()
    {
        final RttEstimator rtt = new RttEstimator(100 * MS, 2 * MS, 200 * MS);
        rtt.sample(1 * MS);
        final long measured = rtt.rto();
        assertEquals(3 * MS, measured);

        long now = 1_000 * MS;
        rtt.timedOut(now);
        assertEquals(2 * measured, rtt.rto());
        // the rest of the window times out at the same moment: one back-off for all of them
        rtt.timedOut(now);
        rtt.timedOut(now + MS);
        assertEquals(2 * measured, rtt.rto());
        // a timeout later than one (backed-off) timeout doubles again
        now += rtt.rto();
        rtt.timedOut(now);
        assertEquals(4 * measured, rtt.rto());
        for (int i = 0; i < 20; i++)
        {
            now += rtt.rto();
            rtt.timedOut(now);
        }
        assertEquals(200 * MS, rtt.rto());
        // a retransmitted message's own timer backs off further, still within the maximum
        assertEquals(200 * MS, rtt.backedOff(3));

        // a fresh measurement ends the back-off
        rtt.sample(1 * MS);
        assertEquals(true, rtt.rto() < 200 * MS, "rto " + rtt.rto());
    }
}
