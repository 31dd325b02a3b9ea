package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.am2j.splitc.app.Warmup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MatrixReportTest
{
    private static final String FFT = "3D FFT (small)";
    private static final String COMM = "CON/comm (small)";
    private static final String GOOD = "EM3D/good (small)";

    /** A matrix of 3 runs x 4 configurations x 2 poll schedulers, 3 repeats, with known totals. */
    static MatrixResult matrix()
    {
        final MatrixResult result = new MatrixResult("bin/am2j apps-matrix --repeat 3 --poll every --poll follow",
            "small", 4, 2, 3, Warmup.fixed(1), 1, List.of("every", "follow"), MatrixConfig.defaults("small", false),
            List.of(FFT, COMM, GOOD));
        put(result, "every", MatrixConfig.SHM_ONLY, FFT, 1.2, 1.0, 1.1);
        put(result, "every", MatrixConfig.MULTI, FFT, 1.133, 1.3, 1.0);
        put(result, "every", MatrixConfig.NET, FFT, 2.0, 2.2, 2.4);
        put(result, "every", MatrixConfig.CLUMP, FFT, 2.2, 2.2, 2.2);
        put(result, "every", MatrixConfig.SHM_ONLY, COMM, 0.5, 0.5, 0.5);
        put(result, "every", MatrixConfig.MULTI, COMM, 0.6, 0.6, 0.6);
        put(result, "every", MatrixConfig.NET, COMM, 1.0, 1.0, 1.0);
        result.cell("every", MatrixConfig.CLUMP, COMM).fail("repeat 1: the job exited with status 124 (time limit)");
        put(result, "every", MatrixConfig.SHM_ONLY, GOOD, 2.0, 2.0, 2.0);
        put(result, "every", MatrixConfig.MULTI, GOOD, 2.0, 2.0, 2.0);
        put(result, "every", MatrixConfig.NET, GOOD, 6.0, 6.0, 6.0);
        for (final MatrixConfig config : MatrixConfig.defaults("small", false))
        {
            result.cell("follow", config, FFT).add(Reports.parsed(FFT, 1.1));
            result.cell("follow", config, COMM).add(Reports.parsed(COMM, 0.55));
        }
        result.cell("every", MatrixConfig.CLUMP, GOOD).notHosted("layout good needs equal nodes");
        result.cell("follow", MatrixConfig.CLUMP, GOOD).notHosted("layout good needs equal nodes");
        result.run().loads.addAll(List.of(new double[] { 5.5, 6.0, 7.0 }, new double[] { 9.25, 7.0, 7.1 },
            new double[] { 4.0, 6.5, 7.2 }));
        result.run().java = "OpenJDK 17";
        result.run().started = "2026-11-22T10:00:00Z";
        result.run().wallSeconds = 95;
        return result;
    }

    private static void put(final MatrixResult result, final String poll, final MatrixConfig config,
        final String label, final double... totals)
    {
        for (final double total : totals)
        {
            result.cell(poll, config, label).add(Reports.parsed(label, total));
        }
    }

    @Test
    void saysHowItRanAndOnWhat()
    {
        final String md = MatrixReport.markdown(matrix(), "apps-matrix.png");
        assertTrue(md.contains("Produced by `bin/am2j apps-matrix --repeat 3 --poll every --poll follow`, started " +
            "2026-11-22T10:00:00Z, 95 s wall (1.6 min)."), md);
        assertTrue(md.contains("- **4 ranks on 2 cores**"), md);
        assertTrue(md.contains("`bin/am2j app APP --preset small --warmup 1 --timed 1 -n P --nodes N "), md);
        assertTrue(md.contains("first runs every run of its application 1 time(s) untimed"), md);
        assertFalse(md.contains("until the JIT compilers are quiet"), md);
        assertTrue(md.contains("sampled before the first job and after every job: 4.00 to 9.25; 1/5/15 min at the " +
            "start 5.50/6.00/7.00, at the end 4.00/6.50/7.20"), md);
        assertTrue(md.contains("**The machines differ**"), md);
        assertTrue(md.contains("Compare only the ratios"), md);
        assertTrue(md.contains("![median total time of every run in every configuration](apps-matrix.png)"), md);
        assertTrue(md.contains("| net (all network, one rank per node) | 4 | 4 | 1 | inproc,net | one NIC per process | " +
            "`-n 4 --nodes 4 --jvm-opt -Dam2j.transports=inproc,net` |"), md);
        assertTrue(md.contains("| clump (clump of 2 nodes, multi-protocol) | 4 | 2 | 2 | inproc,shm,net |"), md);
        assertFalse(md.contains("## Table 6"), md);
        assertTrue(md.contains("Not computed: Table 4 is about 32 ranks on 4 nodes of 8"), md);
    }

    @Test
    void timesAreMediansWithTheirRangeBesideThePapersFigures()
    {
        final String md = MatrixReport.markdown(matrix(), null);
        assertTrue(md.contains("| **3D FFT (small)**: total | 1.100 (1.000-1.200) | 1.133 (1.000-1.300) | " +
            "2.200 (2.000-2.400) | 2.200 (2.200-2.200) | 8.7 | 9.0 | 7.0 | 6.76 | 6.8 | 2.2 |\n"), md);
        assertTrue(md.contains("| 3D FFT (small): communicate | 0.825 | 0.850 | 1.650 | 1.650 | | | | | | |\n"), md);
        assertTrue(md.contains("| **CON/comm (small)**: total | 0.500 (0.500-0.500) | 0.600 (0.600-0.600) | " +
            "1.000 (1.000-1.000) | FAILED | 1.96 | 2.1 | 4.01 | 4.01 | 15 | 7.7 |\n"), md);
        assertTrue(md.contains("| **EM3D/good (small)**: total | 2.000 (2.000-2.000) | 2.000 (2.000-2.000) | " +
            "6.000 (6.000-6.000) | n/a | 7.7 | 8.6 | 33.9 | 33.8 | 38 | 52 |\n"), "Table 5 has one EM3D row: " + md);
        assertFalse(md.contains("![median"), "no chart named");
    }

    @Test
    void ratiosAgainstTheTargetAndThePapers()
    {
        final MatrixResult result = matrix();
        final String md = MatrixReport.markdown(result, null);
        assertTrue(md.contains("| 3D FFT (small) | 1.030 | 1.034 | yes | 2.000 | 0.777 | 1.000 | 3.091 |\n"), md);
        assertTrue(md.contains("| CON/comm (small) | 1.200 | 1.071 | **no** | 2.000 | 2.046 | | 1.948 |\n"), md);
        assertTrue(md.contains("in 2 of 3 runs."), md);
        assertTrue(md.contains("Per application (the sum of its runs' median totals), multi / shm-only: " +
            "3D FFT 1.030, CON 1.200 (**over**), EM3D 1.000.\n"), md);
        assertTrue(md.contains("| 3D FFT (small) | 1.030 | 1.000 | 1.200 | 1.300 |\n"), md);
        assertTrue(md.contains("| CON/comm (small) | 1.200 | 1.200 | 1.000 | 1.000 |\n"), md);
        assertEquals(Map.of("3D FFT", 1.133 / 1.1, "CON", 1.2, "EM3D", 1.0).keySet(),
            MatrixRatios.perApplication(result, "every").keySet());
        assertEquals(1.133 / 1.1, MatrixRatios.perApplication(result, "every").get("3D FFT"), 1e-12);
        assertEquals(1.2, MatrixRatios.configRatio(result, MatrixConfig.MULTI, MatrixConfig.SHM_ONLY, COMM), 1e-12);
        assertTrue(MatrixRatios.withinTarget(1.05));
        assertFalse(MatrixRatios.withinTarget(1.0501));
    }

    @Test
    void countsOfTheMedianRunAndTheSecondPollScheduler()
    {
        final String md = MatrixReport.markdown(matrix(), null);
        assertTrue(md.contains("| 3D FFT (small) | net | 7 | 256 x 4096 B | 3.5 | none | 33.3 |\n"), md);
        assertTrue(md.contains("| CON/comm (small) | clump | FAILED | | | | |\n"), md);
        assertTrue(md.contains("## Poll scheduler `follow` against `every`"), md);
        assertTrue(md.contains("| 3D FFT (small) | multi | 1.133 (1.000-1.300) | 1.100 (1.100-1.100) | 0.971 |\n"),
            md);
        assertTrue(md.contains("Multi / shm-only per run with `follow`: 3D FFT (small) 1.000, CON/comm (small) " +
            "1.000, EM3D/good (small) n/a; per application: 3D FFT 1.000, CON 1.000.\n"), md);
    }

    @Test
    void failuresAndTheCellsNotHostedAreListed()
    {
        final String md = MatrixReport.markdown(matrix(), null);
        assertTrue(md.contains("- CON/comm (small), clump, poll every: repeat 1: the job exited with status 124 " +
            "(time limit)\n"), md);
        assertTrue(md.contains("- EM3D/good (small), clump, poll every: not run: layout good needs equal nodes\n"),
            md);
        assertFalse(matrix().allVerified());
    }

    @Test
    void saysItWarmedUpUntilTheJitWasQuiet()
    {
        final MatrixResult result = new MatrixResult("bin/am2j apps-matrix", "small", 4, 2, 1, Warmup.untilQuiet(20), 1,
            List.of("every"), List.of(MatrixConfig.SHM_ONLY), List.of(FFT));
        result.cell(MatrixConfig.SHM_ONLY, FFT).add(Reports.parsed(FFT, 2.0));
        final String md = MatrixReport.markdown(result, "m.png");
        assertTrue(md.contains("`bin/am2j app APP --preset small --warmup auto:20 --timed 1 -n P --nodes N "), md);
        assertTrue(md.contains("until the JIT compilers are quiet, at most 20 times: a run is quiet when no rank " +
            "spent more than 2 % of its time (or 2 ms) compiling"), md);
        assertFalse(md.contains("time(s) untimed"), md);
    }

    @Test
    void countsEveryTimedRunOfEveryJobAsASample()
    {
        final MatrixResult result = new MatrixResult("bin/am2j apps-matrix --repeat 2 --timed 3", "small", 4, 2, 2,
            Warmup.fixed(0), 3, List.of("every"), List.of(MatrixConfig.SHM_ONLY), List.of(FFT));
        for (final double total : new double[] { 1.0, 1.1, 1.2, 2.0, 2.1, 9.0 })
        {
            result.cell(MatrixConfig.SHM_ONLY, FFT).add(Reports.parsed(FFT, total));
        }
        final String md = MatrixReport.markdown(result, "m.png");
        assertTrue(md.contains("Every cell ran in 2 job(s), the cycle of all cells 2 time(s) over, and each job timed " +
            "each run 3 time(s) after its warm-ups: 6 samples per cell."), md);
        assertTrue(md.contains("--warmup 0 --timed 3 -n P --nodes N "), md);
        assertTrue(md.contains("Ours: median of 6 runs"), md);
        assertTrue(md.contains("1.600 (1.000-9.000)"), md);
    }

    @Test
    void aMatrixOfSomeConfigurationsOnly()
    {
        final MatrixResult result = new MatrixResult("bin/am2j apps-matrix --configs net,clump", "small", 4, 2, 1,
            Warmup.fixed(0), 1, List.of("every"), List.of(MatrixConfig.NET, MatrixConfig.CLUMP), List.of(FFT));
        result.cell(MatrixConfig.NET, FFT).add(Reports.parsed(FFT, 2.0));
        result.cell(MatrixConfig.CLUMP, FFT).add(Reports.parsed(FFT, 1.0));
        final String md = MatrixReport.markdown(result, "m.png");
        assertTrue(md.contains("| **3D FFT (small)**: total | 2.000 | 1.000 | 8.7 | 9.0 | 7.0 | 6.76 | 6.8 | 2.2 |\n"),
            md);
        assertFalse(md.contains("## Ratios"), md);
        assertTrue(MatrixRatios.perApplication(result, "every").isEmpty());
        assertTrue(Double.isNaN(MatrixRatios.configRatio(result, MatrixConfig.MULTI, MatrixConfig.SHM_ONLY, FFT)));
        assertTrue(result.allVerified());
    }

    @Test
    void thePapersTablesAsPrinted()
    {
        final String md = MatrixReport.markdown(matrix(), null);
        assertTrue(md.contains("| 3D FFT | 8.7 | 9.0 | 7.0 | 6.76 |\n| CON/comm | 1.96 | 2.1 | 4.01 | 4.01 |\n" +
            "| CON/comp | 1.40 | 1.44 | 1.18 | 1.19 |\n| EM3D | 7.7 | 8.6 | 33.9 | 33.8 |\n"), md);
        assertTrue(md.contains("| EM3D/naive | 54 | 48 |\n| EM3D/good | 38 | 52 |\n" +
            "| EM3D/naive bal. | 28 to 52 | 25 to 47 |\n| EM3D/good bal. | 5.5 to 37 | 28 to 51 |\n"), md);
    }
}
