package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class StatsTest
{
    @Test
    void medianIndexNamesTheMiddleRunOrTheLowerMiddleOne()
    {
        assertEquals(0, Stats.medianIndex(List.of(2.0, 3.0, 1.0)));
        assertEquals(3, Stats.medianIndex(List.of(4.0, 1.0, 3.0, 2.0)), "lower of 2 and 3");
        assertEquals(1, Stats.medianIndex(List.of(2.0, 2.0, 2.0)), "equal ones keep their order");
        assertEquals(2, Stats.medianIndex(List.of(5.0, 1.0, 1.0)));
        assertEquals(-1, Stats.medianIndex(List.of()));
    }

    @Test
    void ratioOfPositiveTimesElseNaN()
    {
        assertEquals(1.05, Stats.ratio(2.1, 2.0), 1e-12);
        assertTrue(Double.isNaN(Stats.ratio(Double.NaN, 2.0)));
        assertTrue(Double.isNaN(Stats.ratio(1.0, 0.0)));
        assertTrue(Double.isNaN(Stats.ratio(0.0, 1.0)));
        assertTrue(Double.isNaN(Stats.ratio(Double.POSITIVE_INFINITY, 1.0)));
    }
}
