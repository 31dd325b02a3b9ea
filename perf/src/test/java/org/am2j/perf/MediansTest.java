package org.am2j.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class MediansTest
{
    @Test
    void theMiddleOfAnOddCountAndTheMeanOfTheMiddleTwoOfAnEvenOne()
    {
        assertEquals(2.5, Medians.of(new long[] { 4, 1, 3, 2 }));
        assertEquals(3, Medians.of(new long[] { 5, 3, 1 }));
        assertEquals(-1.5, Medians.of(new double[] { -1, -2 }));
        assertEquals(2.0, Medians.of(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, Medians.of(List.of(4.0, 1.0, 3.0, 2.0)));
        assertEquals(7.0, Medians.of(List.of(7.0)));
    }

    @Test
    void noneHaveNoMedian()
    {
        assertTrue(Double.isNaN(Medians.of(new long[0])));
        assertTrue(Double.isNaN(Medians.of(List.of())));
    }

    @Test
    void theValuesAreLeftInTheirOrder()
    {
        final long[] values = { 3, 1, 2 };
        Medians.of(values);
        assertArrayEquals(new long[] { 3, 1, 2 }, values);
        final double[] doubles = { 3, 1, 2 };
        Medians.of(doubles);
        assertArrayEquals(new double[] { 3, 1, 2 }, doubles);
    }
}
