package org.am2j.splitc.app;

import java.util.Arrays;

/**
 * Balanced processor grids: P ranks arranged as a 1D, 2D or 3D block of virtual processors, as cube-like as possible
 * (smallest sum of sides; among equal sums, the longest first side), largest dimension first (x). For example 32
 * ranks in 3D are 4 x 4 x 2 (the model paper's EM3D layout), 8 are 2 x 2 x 2, 4 are 2 x 2 x 1; 8 ranks in 2D are
 * 4 x 2.
 */
public final class Grid
{
    private Grid()
    {
    }

    /**
     * @param procs number of ranks, 1 or more.
     * @param dims  number of dimensions, 1 to 3.
     * @return the sides, x first, whose product is {@code procs}.
     */
    public static int[] balanced(final int procs, final int dims)
    {
        if (procs < 1 || dims < 1 || dims > 3)
        {
            throw new IllegalArgumentException("grid of " + procs + " ranks in " + dims + " dimensions");
        }
        int[] best = null;
        for (int a = 1; a <= procs; a++)
        {
            if (procs % a != 0)
            {
                continue;
            }
            for (int b = 1; b <= procs / a; b++)
            {
                if ((procs / a) % b != 0)
                {
                    continue;
                }
                final int c = procs / a / b;
                if ((dims < 3 && c != 1) || (dims < 2 && b != 1))
                {
                    continue;
                }
                final int[] sides = { a, b, c };
                Arrays.sort(sides);
                final int[] candidate = { sides[2], sides[1], sides[0] };
                if (null == best || sum(candidate) < sum(best) ||
                    (sum(candidate) == sum(best) && candidate[0] > best[0]))
                {
                    best = candidate;
                }
            }
        }
        return Arrays.copyOf(best, dims);
    }

    private static int sum(final int[] sides)
    {
        return sides[0] + sides[1] + sides[2];
    }
}
