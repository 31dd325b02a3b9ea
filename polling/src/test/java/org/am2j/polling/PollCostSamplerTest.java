package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The sampler attributes each sampled interval to the poll that began it and keeps the minimum per class.
 */
class PollCostSamplerTest
{
    private final ScriptedClock clock = new ScriptedClock();
    private final PollCostSampler sampler = new PollCostSampler(clock);

    @Test
    void noRatioBeforeAWindowHasSixteenSamplesOfEachClass()
    {
        assertTrue(Double.isNaN(sampler.ratio()));
        // 16 local samples need 16 * 64 local polls; 15 network samples need 15 * 4 network polls
        for (int i = 0; i < 16 * PollCostSampler.LOCAL_SAMPLE_PERIOD; i++)
        {
            assertFalse(poll(false, 10));
        }
        for (int i = 0; i < 15 * PollCostSampler.NETWORK_SAMPLE_PERIOD; i++)
        {
            assertFalse(poll(true, 1010));
        }
        assertEquals(0, sampler.windows());
        assertTrue(Double.isNaN(sampler.ratio()));
    }

    @Test
    void ratioIsTheExtraCostOfTheNetworkPollOverTheLocalPoll()
    {
        int closedAt = -1;
        for (int i = 0; i < 100_000 && closedAt < 0; i++)
        {
            // one poll in eight includes the network: the poll itself costs 10 units, the network 1000 more
            final boolean network = 7 == (i & 7);
            if (poll(network, network ? 1010 : 10))
            {
                closedAt = i;
            }
        }
        assertTrue(closedAt > 0);
        assertEquals(1, sampler.windows());
        assertEquals(10, sampler.localCost());
        assertEquals(1010, sampler.networkCost());
        assertEquals(100.0, sampler.ratio());
    }

    @Test
    void theMinimumIgnoresWorkBetweenPolls()
    {
        for (int i = 0; i < 200_000 && 0 == sampler.windows(); i++)
        {
            final boolean network = 0 == i % 5;
            // most polls are followed by some user work; some are back to back
            final long work = 0 == i % 7 ? 0 : 500 + (i * 37L) % 1000;
            poll(network, (network ? 310 : 10) + work);
        }
        assertEquals(10, sampler.localCost());
        assertEquals(310, sampler.networkCost());
        assertEquals(30.0, sampler.ratio());
    }

    @Test
    void intervalsOfAClockThatDidNotMoveAreDropped()
    {
        for (int i = 0; i < 100_000; i++)
        {
            final boolean network = 3 == (i & 3);
            poll(network, 0);
        }
        assertEquals(0, sampler.windows());
    }

    @Test
    void eachWindowStartsAfresh()
    {
        for (int i = 0; i < 200_000 && sampler.windows() < 1; i++)
        {
            final boolean network = 7 == (i & 7);
            poll(network, network ? 1010 : 10);
        }
        for (int i = 0; i < 200_000 && sampler.windows() < 2; i++)
        {
            final boolean network = 7 == (i & 7);
            poll(network, network ? 220 : 20);
        }
        assertEquals(2, sampler.windows());
        assertEquals(20, sampler.localCost());
        assertEquals(220, sampler.networkCost());
        assertEquals(10.0, sampler.ratio());
    }

    private boolean poll(final boolean network, final long duration)
    {
        final boolean closed = sampler.onPoll(network);
        clock.advance(duration);
        return closed;
    }
}
