package org.am2j.splitc.fft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The radix-2 FFT against the direct DFT, within Higham's bound; batched columns against single transforms; the
 * sequential 3D FFT against the direct 3D DFT; the direct-sum verifier of {@link Fft3d} against a plain sum.
 */
class FftTest
{
    /** Direct DFT of length n, twiddles from the exact residue j k mod n, summed in extended care (Kahan). */
    static double[] dft(final double[] x)
    {
        final int n = x.length / 2;
        final double[] y = new double[2 * n];
        for (int k = 0; k < n; k++)
        {
            double re = 0;
            double im = 0;
            double cr = 0;
            double ci = 0;
            for (int j = 0; j < n; j++)
            {
                final double angle = 2 * Math.PI * ((long)j * k % n) / n;
                final double wr = Math.cos(angle);
                final double wi = -Math.sin(angle);
                final double tr = x[2 * j] * wr - x[2 * j + 1] * wi - cr;
                final double ti = x[2 * j] * wi + x[2 * j + 1] * wr - ci;
                final double sr = re + tr;
                final double si = im + ti;
                cr = (sr - re) - tr;
                ci = (si - im) - ti;
                re = sr;
                im = si;
            }
            y[2 * k] = re;
            y[2 * k + 1] = im;
        }
        return y;
    }

    static double[] random(final int complexCount, final long seed)
    {
        final Random random = new Random(seed);
        final double[] x = new double[2 * complexCount];
        for (int i = 0; i < x.length; i++)
        {
            x[i] = random.nextDouble() * 2 - 1;
        }
        return x;
    }

    static double norm2(final double[] x)
    {
        double s = 0;
        for (final double v : x)
        {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 2, 4, 8, 16, 64, 256, 1024 })
    void matchesTheDirectDftWithinHighamsBound(final int n)
    {
        final double[] x = random(n, n);
        final double[] expected = dft(x);
        final double[] y = x.clone();
        new Fft(n).forward(y, 0, 1, 1);
        double error = 0;
        for (int i = 0; i < y.length; i++)
        {
            error = Math.max(error, Math.abs(y[i] - expected[i]));
        }
        // the direct DFT's own error (Kahan sums, twiddles within 1 ulp) is a few u ||x||_1 at most
        final double bound = Fft.relativeErrorBound(n) * norm2(expected) + 8 * n * Fft.UNIT_ROUNDOFF * norm2(x) *
            Math.sqrt(2 * n);
        assertTrue(error <= bound, "n " + n + ": error " + error + " > bound " + bound);
    }

    @Test
    void knownTransforms()
    {
        final double[] impulse = new double[16];
        impulse[0] = 1;
        new Fft(8).forward(impulse, 0, 1, 1);
        for (int k = 0; k < 8; k++)
        {
            assertEquals(1, impulse[2 * k]);
            assertEquals(0, impulse[2 * k + 1]);
        }
        final double[] constant = new double[16];
        for (int j = 0; j < 8; j++)
        {
            constant[2 * j] = 1;
        }
        new Fft(8).forward(constant, 0, 1, 1);
        assertEquals(8, constant[0]);
        for (int k = 1; k < 8; k++)
        {
            assertEquals(0, constant[2 * k], 1e-15);
            assertEquals(0, constant[2 * k + 1], 1e-15);
        }
        // a single frequency: x[j] = exp(2 pi i 3 j / 8) -> 8 at k = 3
        final double[] wave = new double[16];
        for (int j = 0; j < 8; j++)
        {
            wave[2 * j] = Math.cos(2 * Math.PI * 3 * j / 8);
            wave[2 * j + 1] = Math.sin(2 * Math.PI * 3 * j / 8);
        }
        new Fft(8).forward(wave, 0, 1, 1);
        for (int k = 0; k < 8; k++)
        {
            assertEquals(k == 3 ? 8 : 0, wave[2 * k], 1e-14);
            assertEquals(0, wave[2 * k + 1], 1e-14);
        }
    }

    @Test
    void batchedColumnsGiveTheSameBitsAsSingleTransforms()
    {
        final int n = 32;
        final int width = 5;
        final int stride = 7;
        final double[] plane = random(n * stride + 3, 42);
        final double[] batched = plane.clone();
        new Fft(n).forward(batched, 6, stride, width);
        for (int c = 0; c < width; c++)
        {
            final double[] column = new double[2 * n];
            for (int j = 0; j < n; j++)
            {
                column[2 * j] = plane[6 + 2 * (j * stride + c)];
                column[2 * j + 1] = plane[6 + 2 * (j * stride + c) + 1];
            }
            new Fft(n).forward(column, 0, 1, 1);
            for (int j = 0; j < n; j++)
            {
                assertEquals(Double.doubleToRawLongBits(column[2 * j]),
                    Double.doubleToRawLongBits(batched[6 + 2 * (j * stride + c)]));
                assertEquals(Double.doubleToRawLongBits(column[2 * j + 1]),
                    Double.doubleToRawLongBits(batched[6 + 2 * (j * stride + c) + 1]));
            }
        }
        // elements outside the columns are untouched
        for (int j = 0; j < n; j++)
        {
            for (int c = width; c < stride; c++)
            {
                assertEquals(plane[6 + 2 * (j * stride + c)], batched[6 + 2 * (j * stride + c)]);
            }
        }
        assertArrayEquals(java.util.Arrays.copyOf(plane, 6), java.util.Arrays.copyOf(batched, 6));
    }

    @Test
    void sequential3dMatchesTheDirect3dDft()
    {
        final int nx = 8;
        final int ny = 4;
        final int nz = 2;
        final double[] a = new double[2 * nx * ny * nz];
        for (int z = 0; z < nz; z++)
        {
            for (int y = 0; y < ny; y++)
            {
                for (int x = 0; x < nx; x++)
                {
                    a[2 * ((z * ny + y) * nx + x)] = Fft3d.input(x, y, z, 9, false);
                    a[2 * ((z * ny + y) * nx + x) + 1] = Fft3d.input(x, y, z, 9, true);
                }
            }
        }
        final double[] input = a.clone();
        Fft3d.sequential(a, nx, ny, nz);
        for (int kz = 0; kz < nz; kz++)
        {
            for (int ky = 0; ky < ny; ky++)
            {
                for (int kx = 0; kx < nx; kx++)
                {
                    double re = 0;
                    double im = 0;
                    for (int z = 0; z < nz; z++)
                    {
                        for (int y = 0; y < ny; y++)
                        {
                            for (int x = 0; x < nx; x++)
                            {
                                final double angle = -2 * Math.PI * ((double)kx * x / nx + (double)ky * y / ny +
                                    (double)kz * z / nz);
                                final int i = 2 * ((z * ny + y) * nx + x);
                                re += input[i] * Math.cos(angle) - input[i + 1] * Math.sin(angle);
                                im += input[i] * Math.sin(angle) + input[i + 1] * Math.cos(angle);
                            }
                        }
                    }
                    final int k = 2 * ((kz * ny + ky) * nx + kx);
                    assertEquals(re, a[k], 1e-12);
                    assertEquals(im, a[k + 1], 1e-12);
                    // the verifier's direct sum over all planes gives the same value
                    final double[] partial = Fft3d.dftPartial(nx, ny, nz, 0, nz, 9, new int[]{ kx, ky, kz });
                    assertEquals(re, partial[0], 1e-12);
                    assertEquals(im, partial[1], 1e-12);
                }
            }
        }
    }

    @Test
    void theBoundGrowsWithTheNumberOfStages()
    {
        assertEquals(0, Fft.relativeErrorBound(1));
        assertTrue(Fft.relativeErrorBound(1L << 24) > Fft.relativeErrorBound(1L << 12));
        // 24 stages: about 24 * 7.7 u
        assertEquals(24 * 7.66 * Fft.UNIT_ROUNDOFF, Fft.relativeErrorBound(1L << 24), 0.05 * 24 * 7.66 *
            Fft.UNIT_ROUNDOFF);
        assertThrows(IllegalArgumentException.class, () -> new Fft(12));
        assertThrows(IllegalArgumentException.class, () -> new Fft(0));
        assertThrows(IndexOutOfBoundsException.class, () -> new Fft(8).forward(new double[15], 0, 1, 1));
    }
}
