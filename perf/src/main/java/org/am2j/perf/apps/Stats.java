package org.am2j.perf.apps;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The median run and the ratios of the matrix (the medians themselves: {@link org.am2j.perf.Medians}).
 */
final class Stats
{
    private Stats()
    {
    }

    /**
     * @param values some numbers.
     * @return the index in {@code values} of the median one (of an even count, of the lower of the two middle ones;
     * equal values ranked in their order in the list); -1 when there are none.
     */
    static int medianIndex(final List<Double> values)
    {
        if (values.isEmpty())
        {
            return -1;
        }
        // a stable sort: equal values keep their order
        return IntStream.range(0, values.size()).boxed().sorted(Comparator.comparingDouble(values::get)).toList()
            .get((values.size() - 1) / 2);
    }

    /**
     * @param numerator   a time.
     * @param denominator another.
     * @return their ratio, NaN when either is not a positive finite number.
     */
    static double ratio(final double numerator, final double denominator)
    {
        if (!(numerator > 0) || !(denominator > 0) || Double.isInfinite(numerator) || Double.isInfinite(denominator))
        {
            return Double.NaN;
        }
        return numerator / denominator;
    }
}
