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
        assertEquals(120, PingPong.pairTimeoutSeconds(0));
        assertEquals(121, PingPong.pairTimeoutSeconds(50_000));
        assertEquals(121, PingPong.pairTimeoutSeconds(50_001));
        assertEquals(140, PingPong.pairTimeoutSeconds(1_000_000));
        assertEquals(120 + 8_000, PingPong.pairTimeoutSeconds(4L * 100_000_000));
    }
}
