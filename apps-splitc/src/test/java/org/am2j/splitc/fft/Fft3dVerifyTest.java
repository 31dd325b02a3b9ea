package org.am2j.splitc.fft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.am2j.splitc.SplitCOptions;
import org.am2j.splitc.ThreadTeam;
import org.am2j.splitc.app.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The FFT's verification refuses wrong results: an error at a sampled frequency, and (with the full check) an error
 * anywhere; an error far below the bound passes.
 */
class Fft3dVerifyTest
{
    private static final int N = 8;

    private static boolean verify(final int element, final double delta, final int fullCheck) throws Exception
    {
        final Map<String, String> p = new LinkedHashMap<>();
        p.put("nx", "" + N);
        p.put("ny", "" + N);
        p.put("nz", "" + N);
        p.put("msg", "4096");
        p.put("seed", "2");
        p.put("fullcheck", "" + fullCheck);
        final RunSpec spec = new RunSpec(Fft3d.NAME, "test", p);
        final AtomicBoolean verified = new AtomicBoolean();
        ThreadTeam.run(1, () -> new SplitCOptions().segmentBytes(16 * N * N * N), sc ->
        {
            final double[] a = new double[2 * N * N * N];
            for (int z = 0; z < N; z++)
            {
                for (int y = 0; y < N; y++)
                {
                    for (int x = 0; x < N; x++)
                    {
                        a[2 * ((z * N + y) * N + x)] = Fft3d.input(x, y, z, 2, false);
                        a[2 * ((z * N + y) * N + x) + 1] = Fft3d.input(x, y, z, 2, true);
                    }
                }
            }
            Fft3d.sequential(a, N, N, N);
            a[element] += delta;
            for (int i = 0; i < a.length; i++)
            {
                sc.segment().putDouble(8 * i, a[i]);
            }
            verified.set(Fft3d.verify(sc, spec, a, new LinkedHashMap<>()));
        });
        return verified.get();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void wrongResultsAreRefused() throws Exception
    {
        final int sampled = 0;                                     // frequency (0, 0, 0) is always sampled
        final int notSampled = 2 * ((3 * N + 5) * N + 6) + 1;      // (6, 5, 3), imaginary part: not a sample here
        assertTrue(verify(sampled, 0, 1 << 20), "the right result passes");
        assertTrue(verify(sampled, 1e-12, 1 << 20), "an error far below the bound passes");
        assertEquals(false, verify(sampled, 1e-3, 0), "a wrong sampled frequency fails the sampled check");
        assertEquals(false, verify(notSampled, 1e-3, 1 << 20), "any wrong element fails the full check");
        assertTrue(verify(notSampled, 1e-3, 0), "without the full check only the sampled frequencies are checked");
    }
}
