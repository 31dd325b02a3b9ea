package org.am2j.splitc.fft;

/**
 * Forward complex FFT of one power-of-two length: iterative radix-2 decimation in time (bit-reversal permutation,
 * then log2 n stages of butterflies), with twiddle factors {@code exp(-2 pi i k / n)} computed once by
 * {@link Math#cos}/{@link Math#sin} (each within 1 ulp) and kept in a table. No normalisation:
 * {@code X[k] = sum_j x[j] exp(-2 pi i j k / n)}.
 * <p>
 * Data is complex interleaved in a {@code double[]} (real, imaginary). One call transforms {@code width} independent
 * sequences ("columns") at once: element j of column c is at {@code base + 2 * (j * stride + c)}. With width 1 and
 * stride 1 that is one contiguous sequence; with {@code stride = width = nx} it transforms every column of a plane of
 * rows of length nx, with the innermost loop running along a row (contiguous memory). Every column goes through exactly
 * the same floating-point operations whatever width and stride it is transformed with, so a distributed and a
 * sequential 3D FFT built on this class give the same bits.
 * <p>
 * Accuracy (Higham, <i>Accuracy and Stability of Numerical Algorithms</i>, 2nd ed., Thm. 24.2): the computed
 * {@code y^} satisfies {@code ||y^ - y||_2 / ||y||_2 <= log2(n) eta / (1 - log2(n) eta)} with
 * {@code eta = mu + gamma4 (sqrt 2 + mu)}, {@code gamma4 = 4u / (1 - 4u)}, {@code u = 2^-53} and mu the error of the
 * twiddle factors ({@link #relativeErrorBound(int)}).
 */
public final class Fft
{
    /** Unit roundoff of double precision. */
    public static final double UNIT_ROUNDOFF = 0x1.0p-53;
    /** Bound on the relative error of a twiddle factor from {@link Math#cos}/{@link Math#sin}: 1 ulp each part. */
    public static final double TWIDDLE_ERROR = 2 * UNIT_ROUNDOFF;

    private final int n;
    private final int log2n;
    private final double[] twiddleRe;
    private final double[] twiddleIm;
    private final int[] reversed;

    /**
     * @param n the length, a power of two from 1.
     * @throws IllegalArgumentException when n is not a power of two.
     */
    public Fft(final int n)
    {
        if (n < 1 || Integer.bitCount(n) != 1)
        {
            throw new IllegalArgumentException("FFT length " + n + " is not a power of two");
        }
        this.n = n;
        this.log2n = Integer.numberOfTrailingZeros(n);
        this.twiddleRe = new double[Math.max(1, n / 2)];
        this.twiddleIm = new double[Math.max(1, n / 2)];
        for (int k = 0; k < n / 2; k++)
        {
            final double angle = 2 * Math.PI * k / n;
            twiddleRe[k] = Math.cos(angle);
            twiddleIm[k] = -Math.sin(angle);
        }
        this.reversed = new int[n];
        for (int j = 0; j < n; j++)
        {
            reversed[j] = log2n == 0 ? 0 : Integer.reverse(j) >>> (32 - log2n);
        }
    }

    /**
     * @return the length.
     */
    public int length()
    {
        return n;
    }

    /**
     * Transform {@code width} sequences in place.
     *
     * @param a      interleaved complex data.
     * @param base   index in {@code a} of element 0 of column 0.
     * @param stride distance in complex elements between elements j and j + 1 of a column, at least {@code width}.
     * @param width  number of columns, adjacent in memory (column c + 1 starts one complex element after column c).
     */
    public void forward(final double[] a, final int base, final int stride, final int width)
    {
        if (width < 1 || stride < width)
        {
            throw new IllegalArgumentException("width " + width + " and stride " + stride + ": need 1 <= width <= stride");
        }
        final long last = base + 2L * ((long)(n - 1) * stride + width) - 1;
        if (base < 0 || last >= a.length)
        {
            throw new IndexOutOfBoundsException("FFT of " + n + " x " + width + " at " + base + " with stride " + stride +
                " needs indices up to " + last + " of an array of " + a.length);
        }
        final int rowDoubles = 2 * width;
        for (int j = 0; j < n; j++)
        {
            final int k = reversed[j];
            if (j < k)
            {
                final int p = base + 2 * j * stride;
                final int q = base + 2 * k * stride;
                for (int c = 0; c < rowDoubles; c++)
                {
                    final double t = a[p + c];
                    a[p + c] = a[q + c];
                    a[q + c] = t;
                }
            }
        }
        for (int len = 2; len <= n; len <<= 1)
        {
            final int half = len >> 1;
            final int step = n / len;
            for (int i = 0; i < n; i += len)
            {
                for (int j = 0; j < half; j++)
                {
                    final double wr = twiddleRe[j * step];
                    final double wi = twiddleIm[j * step];
                    int p = base + 2 * (i + j) * stride;
                    int q = p + 2 * half * stride;
                    for (int c = 0; c < width; c++, p += 2, q += 2)
                    {
                        final double xr = a[q];
                        final double xi = a[q + 1];
                        final double tr = wr * xr - wi * xi;
                        final double ti = wr * xi + wi * xr;
                        final double pr = a[p];
                        final double pi = a[p + 1];
                        a[q] = pr - tr;
                        a[q + 1] = pi - ti;
                        a[p] = pr + tr;
                        a[p + 1] = pi + ti;
                    }
                }
            }
        }
    }

    /**
     * The bound of Higham's Theorem 24.2 for a transform of {@code points} points in total (a multidimensional FFT
     * of N points is a product of one-dimensional ones with log2 N stages in all).
     *
     * @param points total number of points, a power of two.
     * @return a bound on {@code ||y^ - y||_2 / ||y||_2}.
     */
    public static double relativeErrorBound(final long points)
    {
        final double u = UNIT_ROUNDOFF;
        final double gamma4 = 4 * u / (1 - 4 * u);
        final double eta = TWIDDLE_ERROR + gamma4 * (Math.sqrt(2) + TWIDDLE_ERROR);
        final int stages = 63 - Long.numberOfLeadingZeros(Math.max(1, points));
        return stages * eta / (1 - stages * eta);
    }
}
