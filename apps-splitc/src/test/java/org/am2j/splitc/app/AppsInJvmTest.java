package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.am2j.splitc.CommSummary;
import org.am2j.splitc.SplitCOptions;
import org.am2j.splitc.ThreadTeam;
import org.am2j.splitc.con.Con;
import org.am2j.splitc.con.SequentialConTest;
import org.am2j.splitc.em3d.Em3d;
import org.am2j.splitc.fft.Fft3d;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The three applications with ranks as threads of one JVM, over many shapes the presets do not cover (odd rank counts,
 * flat and one-node-wide blocks, all or no edges, tiny messages), each verified by its own check.
 */
class AppsInJvmTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    static RunReport run(final SplitCApp app, final int ranks, final Map<String, String> parameters) throws Exception
    {
        final RunSpec spec = new RunSpec(app.name(), "test", parameters);
        app.check(spec, ranks, 1);
        final AtomicReference<RunReport> report = new AtomicReference<>();
        ThreadTeam.run(ranks, () -> new SplitCOptions().segmentBytes(app.segmentBytes(spec, ranks))
            .stallMillis(20_000), sc ->
            {
                final RunReport mine = app.run(sc, spec, new PhaseClock(QUIET, "test", sc.myProc() == 0));
                if (sc.myProc() == 0)
                {
                    report.set(mine);
                }
            });
        return report.get();
    }

    static Map<String, String> parameters(final String... keyValues)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2)
        {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    @ParameterizedTest(name = "{0} ranks, {1} x {2} x {3}, {4} B messages, full check up to {5} points")
    @CsvSource({ "1, 8, 4, 16, 4096, 100000", "2, 16, 8, 4, 64, 100000", "4, 4, 16, 8, 16, 100000",
        "4, 32, 32, 32, 4096, 0", "8, 8, 8, 8, 8192, 100000" })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fft3d(final int ranks, final int nx, final int ny, final int nz, final int msg, final int fullCheck)
        throws Exception
    {
        final RunReport report = run(new Fft3d(), ranks, parameters("nx", "" + nx, "ny", "" + ny, "nz", "" + nz,
            "msg", "" + msg, "seed", "5", "fullcheck", "" + fullCheck));
        assertTrue(report.verified(), report.verification().toString());
        final double error = (Double)report.verification().get("max_error_vs_direct_dft");
        assertTrue(error > 0 && error <= (Double)report.verification().get("bound"), report.verification().toString());
        if (fullCheck > 0)
        {
            assertEquals(0.0, report.verification().get("max_diff_vs_sequential_fft"), "same operations, same bits");
        }
        // two transposes: every rank stores its slab to the others in messages of at most msg bytes
        final long slabBytes = 16L * nx * ny * nz / ranks;
        final long perDestination = slabBytes / ranks;
        final long expected = ranks == 1 ? 0 : 2L * (ranks - 1) * (ny / ranks) *
            ((perDestination / (ny / ranks) + msg - 1) / msg);
        assertEquals(expected, report.counts().max(CommSummary.LOCAL_BULK), "bulk stores per rank");
        assertEquals(expected, report.counts().min(CommSummary.LOCAL_BULK));
    }

    @ParameterizedTest(name = "{0} ranks, {1}D, side {2}, fraction {3}")
    @CsvSource({ "1, 2, 10, 0.5", "2, 3, 5, 0.3", "3, 2, 7, 0.45", "4, 3, 4, 0.25", "6, 2, 5, 0.6", "4, 2, 1, 0.7",
        "8, 3, 1, 0.9", "4, 2, 6, 0.0", "4, 3, 3, 1.0", "5, 2, 9, 0.5" })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void con(final int ranks, final int dim, final int side, final double fraction) throws Exception
    {
        final RunReport report = run(new Con(), ranks, parameters("dim", "" + dim, "side", "" + side, "fraction",
            "" + fraction, "seed", "3"));
        assertTrue(report.verified(), report.verification().toString());
        assertEquals(0L, report.verification().get("label_mismatches"));
        final long nodes = (long)Math.pow(side, dim) * ranks;
        final long components = (Long)report.verification().get("components");
        if (fraction == 0.0)
        {
            assertEquals(nodes, components, "no edges: every node alone");
        }
        if (fraction == 1.0)
        {
            assertEquals(1, components, "all edges: one component");
        }
        assertEquals(SequentialConTest.bfsComponents(ranks, dim, side, fraction, 3), components);
    }

    @ParameterizedTest(name = "{0} ranks, {1} nodes, degree {2}, remote {3}, {4}")
    @CsvSource({ "1, 50, 5, 0.4, naive", "2, 40, 4, 1.0, good", "3, 30, 6, 0.4, naive", "4, 60, 8, 0.0, good",
        "8, 25, 7, 0.5, good", "6, 20, 3, 0.9, naive" })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void em3d(final int ranks, final int nodes, final int degree, final double remote, final String layout)
        throws Exception
    {
        final RunReport report = run(new Em3d(), ranks, parameters("nodes", "" + nodes, "degree", "" + degree,
            "remote", "" + remote, "layout", layout, "iterations", "6", "seed", "7"));
        assertTrue(report.verified(), report.verification().toString());
        assertEquals(0L, report.verification().get("bitwise_mismatches"));
        if (remote == 0.0 || ranks == 1)
        {
            assertEquals(0, report.counts().max(CommSummary.LOCAL_SHORT) - barrierMessages(report, ranks),
                "no remote edges, no gets");
        }
        else
        {
            assertTrue(report.counts().min(CommSummary.LOCAL_SHORT) > 12L * 2 * ranks, "gets were sent");
        }
    }

    /**
     * @return the most short messages a rank sends for the barriers of the timed phases (rank 0: ranks - 1 per
     * barrier), when nothing else is sent.
     */
    private static long barrierMessages(final RunReport report, final int ranks)
    {
        final long iterations = (Long)report.extra().get("iterations");
        return (2 * iterations + 1) * (ranks - 1);
    }
}
