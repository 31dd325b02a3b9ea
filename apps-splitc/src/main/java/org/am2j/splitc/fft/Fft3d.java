package org.am2j.splitc.fft;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.splitc.CommCounts;
import org.am2j.splitc.GlobalPtr;
import org.am2j.splitc.SplitC;
import org.am2j.splitc.app.PhaseClock;
import org.am2j.splitc.app.RunReport;
import org.am2j.splitc.app.RunSpec;
import org.am2j.splitc.app.SplitCApp;

/**
 * The 3D FFT of the model paper: a forward complex FFT of nx x ny x nz doubles, distributed over the ranks in slabs,
 * with all-to-all transposes made of bulk stores.
 * <p>
 * <b>Layout.</b> The array {@code a[z][y][x]} (x fastest, complex interleaved) starts in z-slabs: rank r holds planes
 * z in [r nz/P, (r+1) nz/P). Each rank transforms its rows along x and its columns along y ({@link Fft}). The first
 * transpose sends every rank the y-slab it owns, as {@code b[y][z][x]} (all z): for each destination d and each y of
 * d's slab, the rank packs its nz/P rows {@code a[z][y][*]} and stores them with {@link SplitC#bulkStore} into d's
 * segment, where they are contiguous, in messages of {@code msg} bytes (4 KiB as in the paper), then
 * {@link SplitC#allStoreSync()}. Each rank then transforms along z and the second transpose brings the result back
 * to z-slabs the same way. Each rank's segment holds one slab (nx ny nz / P complex values): the receive area of both
 * transposes; the final result stays there, so rank 0 can fetch it for the full check.
 * <p>
 * <b>Verification.</b> (1) For sample frequencies ((0,0,0), the three unit frequencies, (nx/2, ny/2, nz/2) and four
 * drawn from the seed), every rank computes the direct DFT sum over its input slab (regenerated), the sums are added
 * in rank order and compared with the FFT output. The allowed error is {@code B_fft + B_dft}: {@code B_fft} is
 * Higham's bound ({@link Fft#relativeErrorBound(long)}) times {@code ||X||_2 = sqrt(N) ||x||_2}, which bounds the
 * error of every output element; {@code B_dft = 2 (nx + ny + nz/P + P + 20) u ||x||_1} bounds the rounding of the
 * direct sum (twiddle products, complex products, and nested sums of at most that many additions per term). (2) When
 * N is at most {@code fullcheck} points, rank 0 also computes the whole transform sequentially with the same
 * {@link Fft} and compares every element (bulk gets of every rank's result); the same line transforms in the same
 * order give the same bits, so the allowed difference {@code 2 B_fft} is never approached (the report shows it).
 */
public final class Fft3d implements SplitCApp
{
    /** Name on the command line. */
    public static final String NAME = "fft3d";

    private static final List<String> PARAMETERS = List.of("nx", "ny", "nz", "msg", "seed", "fullcheck");

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public List<String> parameterNames()
    {
        return PARAMETERS;
    }

    @Override
    public List<String> presets()
    {
        return List.of("paper", "small");
    }

    @Override
    public List<RunSpec> preset(final String preset)
    {
        return switch (preset)
        {
            case "paper" -> List.of(spec("3D FFT", 256));
            case "small" -> List.of(spec("3D FFT (small)", 64));
            default -> List.of();
        };
    }

    private static RunSpec spec(final String label, final int n)
    {
        return RunSpec.of(NAME, label, PARAMETERS, n, n, n, 4096, 1, 1 << 21);
    }

    @Override
    public void check(final RunSpec spec, final int procs, final int nodes)
    {
        for (final String dim : List.of("nx", "ny", "nz"))
        {
            final int n = spec.getInt(dim);
            if (n < 1 || Integer.bitCount(n) != 1)
            {
                throw new IllegalArgumentException("--" + dim + " " + n + " must be a power of two");
            }
        }
        if (spec.getInt("ny") % procs != 0 || spec.getInt("nz") % procs != 0)
        {
            throw new IllegalArgumentException("3D FFT slabs: " + procs + " ranks must divide --ny " +
                spec.getInt("ny") + " and --nz " + spec.getInt("nz"));
        }
        final long bytes = 16L * spec.getInt("nx") * spec.getInt("ny") * spec.getInt("nz") / procs;
        if (bytes > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("3D FFT: a slab of " + bytes + " bytes per rank is too large; use more " +
                "ranks");
        }
        final int msg = spec.getInt("msg");
        if (msg < 16 || msg > 8192 || msg % 16 != 0)
        {
            throw new IllegalArgumentException("--msg " + msg + " must be a multiple of 16 from 16 to 8192");
        }
    }

    @Override
    public int segmentBytes(final RunSpec spec, final int procs)
    {
        return (int)(16L * spec.getInt("nx") * spec.getInt("ny") * spec.getInt("nz") / procs);
    }

    /**
     * @param x    coordinate.
     * @param y    coordinate.
     * @param z    coordinate.
     * @param seed of the input.
     * @param imag false for the real part, true for the imaginary part.
     * @return the input value at (x, y, z): uniform in [-1, 1), a hash of its coordinates and the seed.
     */
    public static double input(final int x, final int y, final int z, final long seed, final boolean imag)
    {
        long h = seed * 0x9E3779B97F4A7C15L + x * 0xBF58476D1CE4E5B9L + y * 0x94D049BB133111EBL +
            z * 0xD6E8FEB86659FD93L + (imag ? 0x632BE59BD9B4E019L : 0);
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        return (h >>> 11) * 0x1.0p-52 - 1.0;
    }

    /**
     * The sequential reference: the whole transform in one array {@code a[z][y][x]}, with the same line transforms
     * in the same order as the distributed one.
     *
     * @param a  nx ny nz complex values, interleaved, transformed in place.
     * @param nx length along x (fastest).
     * @param ny length along y.
     * @param nz length along z.
     */
    public static void sequential(final double[] a, final int nx, final int ny, final int nz)
    {
        forwardXY(new Fft(nx), new Fft(ny), a, nx, ny, nz);
        new Fft(nz).forward(a, 0, nx * ny, nx * ny);
    }

    /** Transform each of the first {@code planes} planes {@code a[z][y][x]} along x, then along y. */
    private static void forwardXY(final Fft fx, final Fft fy, final double[] a, final int nx, final int ny,
        final int planes)
    {
        for (int z = 0; z < planes; z++)
        {
            for (int y = 0; y < ny; y++)
            {
                fx.forward(a, 2 * (z * ny + y) * nx, 1, 1);
            }
            fy.forward(a, 2 * z * ny * nx, nx, nx);
        }
    }

    /** Fill {@code a[z - z0][y][x]} with the input of the planes [z0, z0 + planes). */
    private static void fillInput(final double[] a, final int nx, final int ny, final int z0, final int planes,
        final long seed)
    {
        for (int zl = 0; zl < planes; zl++)
        {
            for (int y = 0; y < ny; y++)
            {
                for (int x = 0; x < nx; x++)
                {
                    final int i = 2 * ((zl * ny + y) * nx + x);
                    a[i] = input(x, y, z0 + zl, seed, false);
                    a[i + 1] = input(x, y, z0 + zl, seed, true);
                }
            }
        }
    }

    @Override
    public RunReport run(final SplitC sc, final RunSpec spec, final PhaseClock clock)
    {
        final int nx = spec.getInt("nx");
        final int ny = spec.getInt("ny");
        final int nz = spec.getInt("nz");
        final long seed = spec.getLong("seed");
        final int p = sc.procs();
        final int me = sc.myProc();
        final int lz = nz / p;
        final int ly = ny / p;
        final int z0 = me * lz;
        final int y0 = me * ly;
        sc.bulkChunkBytes(spec.getInt("msg"));

        final double[] a = new double[2 * nx * ny * lz];
        final double[] pack = new double[2 * nx * Math.max(lz, ly)];
        final Fft fx = new Fft(nx);
        final Fft fy = new Fft(ny);
        final Fft fz = new Fft(nz);

        sc.barrier();
        final CommCounts before = sc.counts().copy();
        final long start = System.nanoTime();
        clock.begin();
        fillInput(a, nx, ny, z0, lz, seed);
        clock.end("init");

        forwardXY(fx, fy, a, nx, ny, lz);
        clock.end("fft x,y");

        // transpose 1: z-slabs a[zl][y][x] -> y-slabs b[yl][z][x] in the destinations' segments
        transpose(sc, a, pack, nx, ny, ly, lz, nz, z0);
        clock.end("transpose 1");

        for (int yl = 0; yl < ly; yl++)
        {
            fz.forward(a, 2 * yl * nz * nx, nx, nx);
        }
        clock.end("fft z");

        // transpose 2: y-slabs b[yl][z][x] -> z-slabs a[zl][y][x]; every rank has copied its segment out (barrier)
        sc.barrier();
        transpose(sc, a, pack, nx, nz, lz, ly, ny, y0);
        clock.end("transpose 2");
        // the counts of the timed phases, before the reductions of the report add their own messages
        final CommCounts counts = sc.counts().minus(before);
        final double total = sc.allReduceMax((System.nanoTime() - start) / 1e9);
        final Map<String, Double> phases = clock.maxOverRanks(sc);

        clock.begin();
        final Map<String, Object> verification = new LinkedHashMap<>();
        final boolean verified = verify(sc, spec, a, verification);
        clock.end("verification");

        final Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("points", (long)nx * ny * nz);
        extra.put("slab_bytes_per_rank", 16L * nx * ny * lz);
        return new RunReport(spec, phases, total, verified, verification, sc.summarize(counts), extra);
    }

    /**
     * Send every rank its block of the local slab {@code a[plane][row][x]}, transposed to {@code b[row][plane][x]}
     * in its segment (bulk stores of one row of planes each), wait for every rank's, and copy the segment into
     * {@code a}.
     *
     * @param rows      rows of a local plane; each rank receives {@code block} of them.
     * @param planes    local planes.
     * @param destRows  planes of all ranks together: the rows of a received plane.
     * @param first     the first of this rank's planes among them.
     */
    private static void transpose(final SplitC sc, final double[] a, final double[] pack, final int nx, final int rows,
        final int block, final int planes, final int destRows, final int first)
    {
        final int p = sc.procs();
        for (int k = 1; k <= p; k++)
        {
            final int d = (sc.myProc() + k) % p;
            for (int row = d * block; row < (d + 1) * block; row++)
            {
                for (int pl = 0; pl < planes; pl++)
                {
                    System.arraycopy(a, 2 * (pl * rows + row) * nx, pack, 2 * pl * nx, 2 * nx);
                }
                final long offset = 16L * (((long)(row - d * block) * destRows + first) * nx);
                sc.bulkStore(GlobalPtr.of(d, (int)offset), pack, 0, 2 * nx * planes);
            }
        }
        sc.allStoreSync();
        final AtomicBuffer segment = sc.segment();
        for (int i = 0; i < a.length; i++)
        {
            a[i] = segment.getDouble(8 * i);
        }
    }

    /**
     * Check a distributed result (a collective: every rank calls it with its slab of the output; the output must also
     * be in every rank's segment for the full check).
     *
     * @param sc           this rank's Split-C layer.
     * @param spec         the run.
     * @param out          this rank's z-slab of the result.
     * @param verification out: errors and bounds.
     * @return true when every check passed.
     */
    static boolean verify(
        final SplitC sc, final RunSpec spec, final double[] out, final Map<String, Object> verification)
    {
        final int nx = spec.getInt("nx");
        final int ny = spec.getInt("ny");
        final int nz = spec.getInt("nz");
        final long seed = spec.getLong("seed");
        final int p = sc.procs();
        final int lz = nz / p;
        final int z0 = sc.myProc() * lz;
        final long points = (long)nx * ny * nz;

        double norm1 = 0;
        double norm2sq = 0;
        for (int zl = 0; zl < lz; zl++)
        {
            for (int y = 0; y < ny; y++)
            {
                for (int x = 0; x < nx; x++)
                {
                    final double re = input(x, y, z0 + zl, seed, false);
                    final double im = input(x, y, z0 + zl, seed, true);
                    norm1 += Math.hypot(re, im);
                    norm2sq += re * re + im * im;
                }
            }
        }
        norm1 = sc.allReduceSum(norm1);
        norm2sq = sc.allReduceSum(norm2sq);
        final double u = Fft.UNIT_ROUNDOFF;
        // rounding in the norms themselves is far below the slack of the bounds (first-order bounds, factor 1.01)
        final double fftBound = 1.01 * Fft.relativeErrorBound(points) * Math.sqrt((double)points * norm2sq);
        final double dftBound = 1.01 * 2 * (nx + ny + lz + p + 20) * u * norm1;
        final double bound = fftBound + dftBound;

        final List<int[]> samples = samples(nx, ny, nz, seed);
        double maxError = 0;
        for (final int[] k : samples)
        {
            final double[] partial = dftPartial(nx, ny, nz, z0, lz, seed, k);
            final double re = sc.allReduceSum(partial[0]);
            final double im = sc.allReduceSum(partial[1]);
            final int owner = k[2] / lz;
            double fre = 0;
            double fim = 0;
            if (owner == sc.myProc())
            {
                final int i = 2 * (((k[2] - z0) * ny + k[1]) * nx + k[0]);
                fre = out[i];
                fim = out[i + 1];
            }
            fre = sc.broadcast(owner, fre);
            fim = sc.broadcast(owner, fim);
            maxError = Math.max(maxError, Math.hypot(fre - re, fim - im));
        }
        boolean verified = maxError <= bound;
        verification.put("sampled_frequencies", samples.size());
        verification.put("max_error_vs_direct_dft", maxError);
        verification.put("bound", bound);
        verification.put("bound_fft", fftBound);
        verification.put("bound_direct_dft", dftBound);

        final long fullCheck = spec.getLong("fullcheck");
        if (points <= fullCheck)
        {
            final double maxDiff = sc.broadcast(0, sc.myProc() == 0 ? maxDiffVsSequential(sc, nx, ny, nz, seed) : 0);
            verification.put("max_diff_vs_sequential_fft", maxDiff);
            verification.put("bound_vs_sequential_fft", 2 * fftBound);
            verified &= maxDiff <= 2 * fftBound;
        }
        else
        {
            verification.put("max_diff_vs_sequential_fft", "skipped: more than fullcheck = " + fullCheck + " points");
        }
        return sc.allReduceMin(verified ? 1L : 0L) == 1;
    }

    /**
     * @return the largest difference between the whole transform computed sequentially and the distributed result in
     * every rank's segment (bulk gets of them all).
     */
    private static double maxDiffVsSequential(final SplitC sc, final int nx, final int ny, final int nz,
        final long seed)
    {
        final double[] all = new double[2 * nx * ny * nz];
        fillInput(all, nx, ny, 0, nz, seed);
        sequential(all, nx, ny, nz);
        final double[] theirs = new double[2 * nx * ny * (nz / sc.procs())];
        double maxDiff = 0;
        for (int r = 0; r < sc.procs(); r++)
        {
            sc.bulkGet(theirs, 0, GlobalPtr.of(r, 0), theirs.length);
            sc.sync();
            final int base = r * theirs.length;
            for (int i = 0; i < theirs.length; i++)
            {
                maxDiff = Math.max(maxDiff, Math.abs(theirs[i] - all[base + i]));
            }
        }
        return maxDiff;
    }

    private static List<int[]> samples(final int nx, final int ny, final int nz, final long seed)
    {
        final List<int[]> samples = new ArrayList<>();
        samples.add(new int[]{ 0, 0, 0 });
        samples.add(new int[]{ 1 % nx, 0, 0 });
        samples.add(new int[]{ 0, 1 % ny, 0 });
        samples.add(new int[]{ 0, 0, 1 % nz });
        samples.add(new int[]{ nx / 2, ny / 2, nz / 2 });
        for (int i = 0; i < 4; i++)
        {
            final double rx = (input(i, 7, 11, seed + 1, false) + 1) / 2;
            final double ry = (input(i, 7, 11, seed + 1, true) + 1) / 2;
            final double rz = (input(i, 13, 17, seed + 1, false) + 1) / 2;
            samples.add(new int[]{ (int)(rx * nx), (int)(ry * ny), (int)(rz * nz) });
        }
        return samples;
    }

    /**
     * @return the direct DFT sum at frequency k over the planes [z0, z0 + lz) of the input, real and imaginary part:
     * row sums over x, times the y twiddle, summed over y, times the z twiddle, summed over the planes.
     */
    static double[] dftPartial(
        final int nx, final int ny, final int nz, final int z0, final int lz, final long seed, final int[] k)
    {
        final double[] wx = twiddles(nx, k[0]);
        final double[] wy = twiddles(ny, k[1]);
        final double[] wz = twiddles(nz, k[2]);
        double sr = 0;
        double si = 0;
        for (int zl = 0; zl < lz; zl++)
        {
            final int z = z0 + zl;
            double pr = 0;
            double pi = 0;
            for (int y = 0; y < ny; y++)
            {
                double rr = 0;
                double ri = 0;
                for (int x = 0; x < nx; x++)
                {
                    final double xr = input(x, y, z, seed, false);
                    final double xi = input(x, y, z, seed, true);
                    rr += xr * wx[2 * x] - xi * wx[2 * x + 1];
                    ri += xr * wx[2 * x + 1] + xi * wx[2 * x];
                }
                pr += rr * wy[2 * y] - ri * wy[2 * y + 1];
                pi += rr * wy[2 * y + 1] + ri * wy[2 * y];
            }
            sr += pr * wz[2 * z] - pi * wz[2 * z + 1];
            si += pr * wz[2 * z + 1] + pi * wz[2 * z];
        }
        return new double[]{ sr, si };
    }

    /**
     * @return exp(-2 pi i k j / n) for j in [0, n), interleaved, from the exact residue (k j mod n).
     */
    static double[] twiddles(final int n, final int k)
    {
        final double[] w = new double[2 * n];
        for (int j = 0; j < n; j++)
        {
            final long m = (long)k * j % n;
            final double angle = 2 * Math.PI * m / n;
            w[2 * j] = Math.cos(angle);
            w[2 * j + 1] = -Math.sin(angle);
        }
        return w;
    }
}
