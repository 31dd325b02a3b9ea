package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.am2j.perf.apps.PaperTable4.Group;
import org.am2j.perf.apps.PaperTable4.Quantity;
import org.am2j.splitc.app.Warmup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Table 4 beside the paper's from canned JSON reports shaped like those of {@code bin/am2j app --json} on 32 ranks
 * over 4 nodes: the counts are those the applications give there (3D FFT's worked out from its transposes, stores and
 * barriers; EM3D's from its graph and layouts, per iteration times 4).
 */
@Timeout(30)
class Table4Test
{
    private static final String FFT = "3D FFT";
    private static final String NAIVE = "EM3D/naive";
    private static final String GOOD = "EM3D/good";

    /** 3D FFT, paper preset, 32 ranks on 4 nodes: 2 transposes of 64 x 4 KiB to each peer, 3 barriers. */
    static AppRun fft(final double percentLocal)
    {
        final Map<String, double[]> counts = new LinkedHashMap<>();
        counts.put("network_short", new double[] { 52.5, 48, 120 });
        counts.put("network_bulk", new double[] { 3072, 3072, 3072 });
        counts.put("network_bulk_bytes", new double[] { 3072 * 4096.0, 3072 * 4096.0, 3072 * 4096.0 });
        counts.put("local_short", new double[] { 15.3125, 14, 35 });
        counts.put("local_bulk", new double[] { 896, 896, 896 });
        counts.put("local_bulk_bytes", new double[] { 896 * 4096.0, 896 * 4096.0, 896 * 4096.0 });
        return parse("fft3d", Reports.countedRun(FFT, List.of("nx", "256", "msg", "4096"), 6.0, counts,
            percentLocal));
    }

    /** EM3D, paper inputs, 4 iterations: the graph's gets per rank and iteration, a request and a reply each. */
    static AppRun em3d(final String label, final double[] network, final double[] local, final double percentLocal)
    {
        final Map<String, double[]> counts = new LinkedHashMap<>();
        counts.put("network_short", network);
        counts.put("local_short", local);
        return parse("em3d", Reports.countedRun(label, List.of("nodes", "2500", "iterations", "4"), 3.0, counts,
            percentLocal));
    }

    static AppRun naive()
    {
        return em3d(NAIVE, new double[] { 12808.4 * 4, 8640 * 4, 17327 * 4 },
            new double[] { 21451.7 * 4, 17213 * 4, 26017 * 4 }, 62.6);
    }

    private static AppRun parse(final String app, final Map<String, Object> run)
    {
        @SuppressWarnings("unchecked")
        final AppReport report = AppReport.parse(Reports.report(app, 4, List.of("inproc", "shm", "net"), run));
        return report.runs().get(0);
    }

    @Test
    void theReportsRangesAreRead()
    {
        final AppRun run = fft(22.58);
        assertEquals(52.5, run.mean("network_short"));
        assertEquals(48.0, run.min("network_short"));
        assertEquals(120.0, run.max("network_short"));
        assertEquals(4096.0, run.meanBulkSize("local_bulk"));
        assertEquals(256, run.parameter("nx", 0));
        assertEquals(7, run.parameter("iterations", 7));
    }

    @Test
    void aDifferenceOverTenPercentIsFlagged()
    {
        assertFalse(Table4.differs(110, 100));
        assertTrue(Table4.differs(111, 100));
        assertTrue(Table4.differs(89, 100));
        assertFalse(Table4.differs(0, 0));
        assertFalse(Table4.differs(0.4, 0));
        assertTrue(Table4.differs(1, 0));
        assertTrue(Table4.differs(0, 16));
    }

    @Test
    void fftShortMessagesDifferAndItsBulkAndShareMatch()
    {
        final Table4 row = Table4.of(fft(22.58));
        assertNotNull(row);
        assertEquals(1.0, row.scale());
        assertEquals(3, row.flagged(Group.NETWORK_SHORT).size());
        assertEquals(3, row.flagged(Group.LOCAL_SHORT).size());
        assertTrue(row.flagged(Group.NETWORK_BULK).isEmpty());
        assertTrue(row.flagged(Group.LOCAL_BULK).isEmpty());
        assertTrue(row.flagged(Group.PERCENT_LOCAL).isEmpty());
        assertEquals(3270.0, row.figure(Quantity.NETWORK_SHORT_MEAN).paperScaled());
        assertEquals("-98 %", row.figure(Quantity.NETWORK_SHORT_MEAN).difference());
        assertTrue(row.check().met());
        assertEquals("= 22.6", row.check().target());
        assertFalse(Table4.of(fft(22.5)).check().met(), "3D FFT's % local must be 22.6");
    }

    @Test
    void em3dCountsAreComparedPerTheIterationsRun()
    {
        final Table4 row = Table4.of(naive());
        assertEquals(4, row.iterations());
        assertEquals(4.0 / 47, row.scale(), 1e-12);
        assertEquals(608_817 * 4.0 / 47, row.figure(Quantity.NETWORK_SHORT_MEAN).paperScaled(), 1e-9);
        assertEquals(62.5, row.figure(Quantity.PERCENT_LOCAL).paperScaled(), "a share is not scaled");
        // the means agree, the naive layout's network range is narrower than the paper's
        assertEquals(List.of(Quantity.NETWORK_SHORT_MIN, Quantity.NETWORK_SHORT_MAX),
            row.flagged(Group.NETWORK_SHORT).stream().map(Table4.Figure::quantity).toList());
        assertTrue(row.flagged(Group.LOCAL_SHORT).isEmpty());
        assertTrue(row.flagged(Group.NETWORK_BULK).isEmpty(), "none against none");
        assertTrue(row.check().met());
        assertEquals("62.5 +- 5", row.check().target());

        final Table4 good = Table4.of(em3d(GOOD, new double[] { 1000, 0, 2000 }, new double[] { 1000, 900, 1100 },
            65.0));
        assertFalse(good.check().met(), "9.9 points from 74.9");
        assertNull(Table4.check("CON/comm", 59.2));
        assertNull(Table4.of(Reports.parsed("LU", 1.0)), "no such run in Table 4");
    }

    @Test
    void theTableBesideThePapersWithItsExplanations()
    {
        final String md = Table4Report.table(List.of(Table4.of(fft(22.58)), Table4.of(naive())), "paper",
            MatrixConfig.CLUMP32);
        assertTrue(md.contains("| 3D FFT | ours | 52.5 [1] | 48 [1] | 120 [1] | 3,072 x 4096 B | 15.3 [2] | 14 [2] | " +
            "35 [2] | 896 x 4096 B | 22.6 | yes (= 22.6) |\n"), md);
        assertTrue(md.contains("| | paper | 3,270 | 3,072 | 3,468 | 3,072 x 4096 B | 954 | 896 | 1,292 | " +
            "896 x 4096 B | 22.6 | |\n"), md);
        assertTrue(md.contains("| EM3D/naive | ours | 51,233.6 | 34,560 [3] | 69,308 [3] | none | 85,806.8 | 68,852 | " +
            "104,068 | none | 62.6 | yes (62.5 +- 5) |\n"), md);
        assertTrue(md.contains("| | paper x 4/47 | 51,814.2 | 16,987.2 | 86,425.5 | none | 86,220.8 | 68,431.1 | " +
            "104,042.6 | none | 62.5 | |\n"), md);
        assertTrue(md.contains("EM3D/naive ran 4 iterations: its counts are per those, and the paper's counts beside " +
            "them are scaled by 4 / 47"), md);
        assertTrue(md.contains("1. **3D FFT, network short**: mean ours 52.5, paper 3,270 (-98 %); min ours 48, " +
            "paper 3,072 (-98 %); max ours 120, paper 3,468 (-97 %). The paper counts about one short message per " +
            "bulk message more"), md);
        assertTrue(md.contains("2. **3D FFT, local short**: mean ours 15.3, paper 954 (-98 %); min ours 14, paper 896 " +
            "(-98 %); max ours 35, paper 1,292 (-97 %). As 1.\n"), md);
        assertTrue(md.contains("3. **EM3D/naive, network short**: min ours 34,560, paper 16,987.2 (+103 %); max " +
            "ours 69,308, paper 86,425.5 (-20 %). Each EM3D count is a short request and a short reply"), md);
        assertFalse(md.contains("4. "), md);
        assertFalse(md.contains("Preset `"), md);
    }

    @Test
    void anotherPresetIsSaidFirst()
    {
        final String text = Table4Explanations.explain("small", "CON/comm", Group.NETWORK_BULK);
        assertTrue(text.startsWith("Preset `small` is not the paper's inputs"), text);
        assertTrue(text.contains("sends no bulk messages"), text);
        assertTrue(Table4Explanations.explain("paper", "CON/comm", Group.PERCENT_LOCAL).contains("4x2x1"));
        assertTrue(Table4Explanations.explain("paper", "CON/comp", Group.PERCENT_LOCAL).contains("8x4"));
        assertTrue(Table4Explanations.explain("paper", "LU", Group.NETWORK_SHORT).startsWith("No explanation"));
    }

    @Test
    void theMatrixPrintsTable4FromTheClumpAndTable6sShape()
    {
        final MatrixResult result = new MatrixResult("bin/am2j apps-matrix --preset paper", "paper", 4, 2, 1,
            Warmup.fixed(1), 1, List.of("follow"), List.of(MatrixConfig.SMP_SHM, MatrixConfig.SMP_MULTI,
            MatrixConfig.CLUMP32, MatrixConfig.NOW32), List.of(FFT, NAIVE));
        result.run().timeLimitSeconds = 7200;
        result.run().timeoutSeconds = 1200;
        result.run().em3dIterations = 4;
        result.cell(MatrixConfig.CLUMP32, FFT).add(fft(22.58));
        result.cell(MatrixConfig.CLUMP32, NAIVE).add(naive());
        result.cell(MatrixConfig.NOW32, FFT).add(Reports.parsed(FFT, 2.0));
        result.cell(MatrixConfig.NOW32, NAIVE).add(Reports.parsed(NAIVE, 4.0));
        result.cell(MatrixConfig.SMP_SHM, FFT).add(Reports.parsed(FFT, 1.0));
        result.cell(MatrixConfig.SMP_MULTI, FFT).add(Reports.parsed(FFT, 1.02));
        final String md = MatrixReport.markdown(result, null);
        assertTrue(md.contains("- **8 to 32 ranks (per configuration) on 2 cores**"), md);
        assertTrue(md.contains("| clump32 (the Clump: 32 ranks on 4 nodes of 8, multi-protocol, one NIC per process) " +
            "| 32 | 4 | 8 | inproc,shm,net | one NIC per process | `-n 32 --nodes 4 --jvm-opt " +
            "-Dam2j.transports=inproc,shm,net` |"), md);
        assertTrue(md.contains("and for EM3D `--iterations 4`"), md);
        assertTrue(md.contains("A job may take 1200 s (`--timeout`); no job starts after 7200 s"), md);
        assertTrue(md.contains("## Table 4: messages per rank on the Clump, beside the paper's"), md);
        assertTrue(md.contains("From the JSON reports of `clump32`"), md);
        assertTrue(md.contains("| 3D FFT | ours | 52.5 [1] |"), md);
        assertTrue(md.contains("## Table 6's shape: the Clump against the NOW of 32"), md);
        assertTrue(md.contains("`clump32` with one NIC per process"), md);
        assertTrue(md.contains("| 3D FFT | 6.000 | 2.000 | 3.000 | 3.091 | 6.8 | 2.2 |\n"), md);
        assertTrue(md.contains("| EM3D/naive | 3.000 | 4.000 | 0.750 | 1.125 | 54 | 48 |\n"), md);
        assertTrue(md.contains("Per application (the sum of its runs' median totals), clump32 / now32: 3D FFT 3.000 " +
            "(paper 3.091), EM3D 0.750 (paper 1.125)."), md);
        assertTrue(md.contains("| 3D FFT | 1.020 | 1.034 | yes |"), md);
    }
}
