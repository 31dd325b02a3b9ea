package org.am2j.splitc;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The element kinds of the layer's typed operations (long, double and int arrays) and the copies between such an
 * array and a buffer (a segment, a staging area, a message's data), in the buffer's native byte order.
 */
final class Elements
{
    /** {@code long[]}, 8 bytes an element. */
    static final byte LONG = 1;
    /** {@code double[]}, 8 bytes an element. */
    static final byte DOUBLE = 2;
    /** {@code int[]}, 4 bytes an element. */
    static final byte INT = 3;

    private Elements()
    {
    }

    /**
     * Copy {@code n} elements of an array into a buffer.
     *
     * @param buffer destination buffer.
     * @param offset byte offset of the first element there.
     * @param src    a {@code long[]}, {@code double[]} or {@code int[]} as {@code kind} says.
     * @param kind   {@link #LONG}, {@link #DOUBLE} or {@link #INT}.
     * @param from   first source element.
     * @param n      number of elements.
     */
    static void copyIn(
        final MutableDirectBuffer buffer, final int offset, final Object src, final byte kind, final int from,
        final int n)
    {
        switch (kind)
        {
            case LONG ->
            {
                final long[] a = (long[])src;
                for (int i = 0; i < n; i++)
                {
                    buffer.putLong(offset + (i << 3), a[from + i]);
                }
            }
            case DOUBLE ->
            {
                final double[] a = (double[])src;
                for (int i = 0; i < n; i++)
                {
                    buffer.putDouble(offset + (i << 3), a[from + i]);
                }
            }
            default ->
            {
                final int[] a = (int[])src;
                for (int i = 0; i < n; i++)
                {
                    buffer.putInt(offset + (i << 2), a[from + i]);
                }
            }
        }
    }

    /**
     * Copy {@code n} elements of a buffer into an array.
     *
     * @param buffer source buffer.
     * @param offset byte offset of the first element there.
     * @param dst    a {@code long[]}, {@code double[]} or {@code int[]} as {@code kind} says.
     * @param kind   {@link #LONG}, {@link #DOUBLE} or {@link #INT}.
     * @param from   first destination element.
     * @param n      number of elements.
     */
    static void copyOut(
        final DirectBuffer buffer, final int offset, final Object dst, final byte kind, final int from, final int n)
    {
        switch (kind)
        {
            case LONG ->
            {
                final long[] a = (long[])dst;
                for (int i = 0; i < n; i++)
                {
                    a[from + i] = buffer.getLong(offset + (i << 3));
                }
            }
            case DOUBLE ->
            {
                final double[] a = (double[])dst;
                for (int i = 0; i < n; i++)
                {
                    a[from + i] = buffer.getDouble(offset + (i << 3));
                }
            }
            default ->
            {
                final int[] a = (int[])dst;
                for (int i = 0; i < n; i++)
                {
                    a[from + i] = buffer.getInt(offset + (i << 2));
                }
            }
        }
    }

    /**
     * @param kind {@link #LONG}, {@link #DOUBLE} or {@link #INT}.
     * @return log2 of its size in bytes.
     */
    static int shift(final byte kind)
    {
        return kind == INT ? 2 : 3;
    }
}
