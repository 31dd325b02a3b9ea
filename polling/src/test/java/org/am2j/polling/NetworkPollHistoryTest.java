package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The ring of the last 32 found counts and its running sum.
 */
class NetworkPollHistoryTest
{
    @Test
    void sumsTheLastThirtyTwoCountsAndForgetsOlderOnes()
    {
        final NetworkPollHistory history = new NetworkPollHistory();
        assertEquals(0, history.sum());
        for (int i = 1; i <= 32; i++)
        {
            history.add(1);
            assertEquals(i, history.sum());
        }
        history.add(3);
        assertEquals(34, history.sum());
        for (int i = 0; i < 31; i++)
        {
            history.add(0);
        }
        assertEquals(3, history.sum());
        history.add(0);
        assertEquals(0, history.sum());
    }

    @Test
    void clampsEachCountToThirtyTwoAndNegativesToZero()
    {
        final NetworkPollHistory history = new NetworkPollHistory();
        history.add(Integer.MAX_VALUE);
        history.add(-5);
        history.add(32);
        assertEquals(64, history.sum());
        for (int i = 0; i < 1000; i++)
        {
            history.add(Integer.MAX_VALUE);
        }
        assertEquals(32 * 32, history.sum());
    }
}
