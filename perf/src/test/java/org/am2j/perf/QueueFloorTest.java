package org.am2j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every variant of the queue floor runs its queues through several laps (1,000 round trips, nearly 4 laps of 256) without breaking their states (a send or
 * a receive that found a state the ping-pong does not leave would throw in the thread that made it).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class QueueFloorTest
{
    @Test
    void everyVariantGoesRoundItsQueuesAndTimesEveryRoundTripAfterTheWarmUp() throws InterruptedException
    {
        for (final String variant : QueueFloor.VARIANTS)
        {
            final long[] rtt = QueueFloor.measure(variant, 1_000);
            assertEquals(800, rtt.length, variant);
            assertTrue(rtt[0] > 0, variant + ": a round trip takes time");
            for (int i = 1; i < rtt.length; i++)
            {
                assertTrue(rtt[i - 1] <= rtt[i], variant + ": sorted");
            }
            assertTrue(QueueFloor.percentile(rtt, 50) <= QueueFloor.percentile(rtt, 99), variant);
        }
    }
}
