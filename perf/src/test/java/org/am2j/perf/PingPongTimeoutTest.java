package org.am2j.perf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The time limit {@link PingPong} gives each rank pair through the launcher's {@code --timeout}.
 */
class PingPongTimeoutTest
{
    @Test
    void twoMinutesPlusTwentyMicrosecondsPerRoundTripRoundedUp()
    {
        assertEquals(120, RankPairs.pairTimeoutSeconds(0));
        assertEquals(121, RankPairs.pairTimeoutSeconds(50_000));
        assertEquals(121, RankPairs.pairTimeoutSeconds(50_001));
        assertEquals(140, RankPairs.pairTimeoutSeconds(1_000_000));
        assertEquals(120 + 8_000, RankPairs.pairTimeoutSeconds(4L * 100_000_000));
    }
}
