package org.am2j.perf;

import java.util.Arrays;
import java.util.List;

/**
 * The one median of the harness: the middle value of an odd count, the mean of the two middle values of an even
 * count. Every report's medians (LogP's fits and samples, the ping-pong runs, the one-way phases, the application
 * matrix) come from here, so the same numbers give the same median wherever they are summarised.
 */
public final class Medians
{
    private Medians()
    {
    }

    /**
     * @param values any, in any order; not changed.
     * @return their median; NaN when there are none.
     */
    public static double of(final double[] values)
    {
        if (0 == values.length)
        {
            return Double.NaN;
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return 1 == (n & 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /**
     * @param values any, in any order; not changed.
     * @return their median; NaN when there are none.
     */
    public static double of(final long[] values)
    {
        return of(Arrays.stream(values).asDoubleStream().toArray());
    }

    /**
     * @param values any, in any order; not changed.
     * @return their median; NaN when there are none.
     */
    public static double of(final List<Double> values)
    {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
