package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.am2j.splitc.app.Apps;
import org.am2j.splitc.app.SplitCApp;
import org.am2j.splitc.app.Warmup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MatrixOptionsTest
{
    @Test
    void defaults()
    {
        final MatrixOptions options = MatrixOptions.parse(new String[0]);
        assertEquals("small", options.preset);
        assertEquals(Path.of("apps-matrix.md"), options.out);
        assertEquals(Path.of("apps-matrix.png"), options.chart);
        assertEquals(4, options.ranks);
        assertEquals(1, options.repeat);
        assertEquals(Warmup.untilQuiet(20), options.warmup);
        assertEquals(MatrixOptions.DEFAULT_TIMED, options.timed);
        assertEquals(List.of("follow"), options.polls);
        assertFalse(options.pollGiven);
        assertEquals(List.of("fft3d", "con", "em3d"), options.apps.stream().map(SplitCApp::name).toList());
        assertEquals(List.of(MatrixConfig.SHM_ONLY, MatrixConfig.MULTI, MatrixConfig.NET, MatrixConfig.CLUMP),
            options.configs);
        assertEquals(MatrixOptions.DEFAULT_TIMEOUT_S, options.timeoutSeconds);
        assertEquals(MatrixOptions.DEFAULT_TIME_LIMIT_S, options.timeLimitSeconds);
        assertEquals(0, options.em3dIterations);
        assertFalse(options.pin);
        assertFalse(options.help);
    }

    @Test
    void everyOption()
    {
        final MatrixOptions options = MatrixOptions.parse(new String[] { "--preset", "paper", "--out",
            "perf/results/m.md", "--ranks", "8", "--repeat", "3", "--warmup", "0", "--timed", "7", "--poll", "every", "--poll",
            "follow", "--apps",
            "em3d,con", "--configs", "multi,shm-only", "--timeout", "60", "--pin", "--keep", "/tmp/x" });
        assertEquals("paper", options.preset);
        assertEquals(Path.of("perf/results/m.png"), options.chart);
        assertEquals(8, options.ranks);
        assertEquals(3, options.repeat);
        assertEquals(Warmup.fixed(0), options.warmup);
        assertEquals(7, options.timed);
        assertEquals(Warmup.untilQuiet(5), MatrixOptions.parse(new String[] { "--warmup", "auto:5" }).warmup);
        assertEquals(List.of("every", "follow"), options.polls);
        assertTrue(options.pollGiven);
        assertEquals(List.of("em3d", "con"), options.apps.stream().map(SplitCApp::name).toList());
        assertEquals(List.of(MatrixConfig.MULTI, MatrixConfig.SHM_ONLY), options.configs);
        assertEquals(60, options.timeoutSeconds);
        assertTrue(options.pin);
        assertEquals(Path.of("/tmp/x"), options.keep);
        assertEquals(Path.of("c.png"), MatrixOptions.parse(new String[] { "--chart", "c.png" }).chart);
    }

    @Test
    void refusesBadOptions()
    {
        for (final String[] bad : List.of(
            new String[] { "--ranks", "0" }, new String[] { "--repeat" }, new String[] { "--warmup", "-1" },
            new String[] { "--warmup", "auto:0" }, new String[] { "--warmup", "auto:" },
            new String[] { "--timed", "0" }, new String[] { "--timed", "1001" }, new String[] { "--timed", "x" },
            new String[] { "--apps", "lu" },
            new String[] { "--configs", "numa" }, new String[] { "--preset", "huge" }, new String[] { "--what", "1" },
            new String[] { "--poll", "every", "--poll", "every" }, new String[] { "--apps", "con,,em3d" },
            new String[] { "stray" }, new String[] { "--time-limit", "0" }, new String[] { "--em3d-iterations", "0" },
            new String[] { "--em3d-iterations", "x" }, new String[] { "--apps", "con", "--em3d-iterations", "5" },
            new String[] { "--configs", "clump32,clump32" }))
        {
            assertThrows(IllegalArgumentException.class, () -> MatrixOptions.parse(bad), String.join(" ", bad));
        }
    }

    @Test
    void configurationsPlaceTheRanks()
    {
        assertEquals(1, MatrixConfig.SHM_ONLY.nodes(4));
        assertEquals(1, MatrixConfig.MULTI.nodes(4));
        assertEquals(4, MatrixConfig.NET.nodes(4));
        assertEquals(2, MatrixConfig.CLUMP.nodes(4));
        assertEquals(List.of("inproc", "shm"), MatrixConfig.SHM_ONLY.transportList());
        assertEquals(List.of("inproc", "shm", "net"), MatrixConfig.MULTI.transportList());
        assertEquals(List.of("inproc", "net"), MatrixConfig.NET.transportList());
        assertEquals(List.of("inproc", "shm", "net"), MatrixConfig.CLUMP.transportList());
        assertEquals(MatrixConfig.CLUMP, MatrixConfig.byName("clump"));
    }

    @Test
    void paperFiguresByRun()
    {
        assertEquals("EM3D/good", PaperFigures.paperRun("EM3D/good (small)"));
        assertEquals("3D FFT", PaperFigures.paperRun("3D FFT"));
        assertEquals(8.7, PaperFigures.seconds("3D FFT (small)", PaperFigures.Column.SMP_SHM));
        assertEquals(8.6, PaperFigures.seconds("EM3D/naive", PaperFigures.Column.SMP_MULTI));
        assertEquals(54.0, PaperFigures.seconds("EM3D/naive", PaperFigures.Column.CLUMP32));
        assertEquals("1.40", PaperFigures.figures("CON/comp").get(PaperFigures.Column.SMP_SHM));
        assertTrue(PaperFigures.figures("LU").isEmpty());
        assertTrue(Double.isNaN(PaperFigures.seconds("LU", PaperFigures.Column.NOW32)));
        assertEquals("CON", MatrixRatios.application("CON/comm (small)"));
        assertEquals("3D FFT", MatrixRatios.application("3D FFT (small)"));
    }

    @Test
    void thePaperPresetRunsAtThePapersScale()
    {
        final MatrixOptions options = MatrixOptions.parse(new String[] { "--preset", "paper" });
        assertEquals(List.of(MatrixConfig.SMP_SHM, MatrixConfig.SMP_MULTI, MatrixConfig.CLUMP32,
            MatrixConfig.CLUMP32_3NIC, MatrixConfig.NOW32), options.configs);
        assertEquals(MatrixOptions.PAPER_SCALE_WARMUP, options.warmup);
        assertEquals(MatrixOptions.PAPER_SCALE_TIMED, options.timed);
        assertEquals(MatrixOptions.PAPER_SCALE_TIMEOUT_S, options.timeoutSeconds);
        assertEquals(MatrixOptions.DEFAULT_TIME_LIMIT_S, options.timeLimitSeconds);

        final MatrixOptions scaleFree = MatrixOptions.parse(new String[] { "--preset", "paper", "--ranks", "2" });
        assertEquals(MatrixConfig.defaults("small", false), scaleFree.configs);
        assertEquals(MatrixOptions.DEFAULT_WARMUP, scaleFree.warmup);
        assertEquals(MatrixOptions.DEFAULT_TIMEOUT_S, scaleFree.timeoutSeconds);

        final MatrixOptions chosen = MatrixOptions.parse(new String[] { "--preset", "paper", "--configs",
            "clump-3nic,now32", "--timeout", "90", "--time-limit", "600", "--warmup", "0", "--timed", "2",
            "--em3d-iterations", "5" });
        assertEquals(List.of(MatrixConfig.CLUMP32_3NIC, MatrixConfig.NOW32), chosen.configs);
        assertEquals(90, chosen.timeoutSeconds);
        assertEquals(600, chosen.timeLimitSeconds);
        assertEquals(Warmup.fixed(0), chosen.warmup);
        assertEquals(2, chosen.timed);
        assertEquals(5, chosen.em3dIterations);
        assertEquals(List.of("--iterations", "5"), chosen.appOverrides(Apps.byName("em3d")));
        assertEquals(List.of(), chosen.appOverrides(Apps.byName("con")));
    }

    @Test
    void configurationsAtThePapersScaleFixTheirRanks()
    {
        assertEquals(List.of("-n", "8", "--nodes", "1", "--jvm-opt", "-Dam2j.transports=inproc,shm"),
            MatrixConfig.SMP_SHM.runOptions(4));
        assertEquals(List.of("-n", "8", "--nodes", "1", "--jvm-opt", "-Dam2j.transports=inproc,shm,net"),
            MatrixConfig.SMP_MULTI.runOptions(4));
        assertEquals(List.of("-n", "32", "--nodes", "4", "--jvm-opt", "-Dam2j.transports=inproc,shm,net"),
            MatrixConfig.CLUMP32.runOptions(4));
        assertEquals(List.of("-n", "32", "--nodes", "32", "--jvm-opt", "-Dam2j.transports=inproc,net"),
            MatrixConfig.NOW32.runOptions(2));
        assertEquals(List.of("-n", "32", "--nodes", "4", "--nics-per-node", "3", "--jvm-opt",
            "-Dam2j.transports=inproc,shm,net", "--jvm-opt", "-Dam2j.net.linkRateMBps=160"),
            MatrixConfig.CLUMP32_3NIC.runOptions(4));
        assertEquals(List.of("-n", "6", "--nodes", "2", "--jvm-opt", "-Dam2j.transports=inproc,shm,net"),
            MatrixConfig.CLUMP.runOptions(6));
        assertTrue(MatrixConfig.CLUMP32.fixesRanks());
        assertFalse(MatrixConfig.CLUMP.fixesRanks());
        assertEquals(32, MatrixConfig.NOW32.ranks(4));
        assertEquals(4, MatrixConfig.NET.ranks(4));
        assertEquals("one NIC per process", MatrixConfig.CLUMP32.nics());
        assertEquals("3 NICs per node shared by its 8 ranks, 160 MB/s links", MatrixConfig.CLUMP32_3NIC.nics());
        assertEquals("no network", MatrixConfig.SMP_SHM.nics());
        assertEquals(MatrixConfig.CLUMP32_3NIC, MatrixConfig.byName("clump-3nic"));
    }

    @Test
    void aJobsCommandLine()
    {
        final MatrixOptions options = MatrixOptions.parse(new String[] { "--preset", "paper", "--configs",
            "clump-3nic", "--em3d-iterations", "4", "--poll", "every", "--pin", "--warmup", "0" });
        assertEquals(List.of("-n", "32", "--nodes", "4", "--nics-per-node", "3",
            "--jvm-opt", "-Dam2j.transports=inproc,shm,net", "--jvm-opt", "-Dam2j.net.linkRateMBps=160",
            "--poll", "every", "--pin", "--timeout", "100", "--jvm-opt", "-Dam2j.splitc.stallSeconds=50",
            "--cp", "a.jar", "--", "org.am2j.splitc.app.AppMain", "em3d", "--preset", "paper", "--warmup", "0",
            "--timed", "1", "--json", "/tmp/j.json", "--iterations", "4"),
            AppsMatrix.jobArguments(options, MatrixConfig.CLUMP32_3NIC, Apps.byName("em3d"), "every",
                Path.of("/tmp/j.json"), 100, "a.jar"));
        assertEquals(List.of("-n", "8", "--nodes", "1", "--jvm-opt", "-Dam2j.transports=inproc,shm",
            "--pin", "--timeout", "20", "--jvm-opt", "-Dam2j.splitc.stallSeconds=30",
            "--cp", "a.jar", "--", "org.am2j.splitc.app.AppMain", "fft3d", "--preset", "paper", "--warmup", "0",
            "--timed", "1", "--json", "f.json"),
            AppsMatrix.jobArguments(MatrixOptions.parse(new String[] { "--preset", "paper", "--pin", "--warmup",
                "0" }), MatrixConfig.SMP_SHM, Apps.byName("fft3d"), "follow", Path.of("f.json"), 20, "a.jar"));
    }

    /** Ranks as threads: the configurations that hold a node in one JVM, and the matrix's --ranks-per-jvm. */
    @Test
    void ranksPerJvm()
    {
        assertEquals(List.of("-n", "8", "--nodes", "2", "--ranks-per-jvm", "4", "--jvm-opt",
            "-Dam2j.transports=inproc,shm,net"), MatrixConfig.CLUMP_THREADS.runOptions(8));
        assertEquals(List.of("-n", "32", "--nodes", "4", "--ranks-per-jvm", "8", "--jvm-opt",
            "-Dam2j.transports=inproc,shm,net"), MatrixConfig.CLUMP32_THREADS.runOptions(4));
        assertEquals("one NIC per JVM (a node's)", MatrixConfig.CLUMP_THREADS.nics());
        assertEquals(List.of("-n", "8", "--nodes", "2", "--ranks-per-jvm", "2", "--jvm-opt",
            "-Dam2j.transports=inproc,shm,net"), MatrixConfig.CLUMP.runOptions(8, 2));
        assertEquals(MatrixConfig.CLUMP.runOptions(8), MatrixConfig.CLUMP.runOptions(8, 0), "1 per JVM: no option");

        final MatrixOptions options = MatrixOptions.parse(new String[] { "--configs", "shm-only,clump",
            "--ranks", "8", "--ranks-per-jvm", "2" });
        assertEquals(2, options.ranksPerJvm);
        assertTrue(String.join(" ", AppsMatrix.jobArguments(options, MatrixConfig.CLUMP, Apps.byName("con"),
            "every", Path.of("c.json"), 20, "a.jar")).startsWith("-n 8 --nodes 2 --ranks-per-jvm 2 --jvm-opt"));
        assertEquals(0, MatrixOptions.parse(new String[] { "--configs", "clump-threads" }).ranksPerJvm,
            "each configuration's own");
        assertEquals(2, MatrixOptions.ranksPerJvm(0, Map.of("AM2J_RANKS_PER_JVM", "2"),
            List.of(MatrixConfig.SHM_ONLY, MatrixConfig.CLUMP_THREADS), 4), "the launcher's variable");

        assertEquals("configuration net: --ranks-per-jvm 2 does not divide the 1 rank(s) of node 0 (-n 4 over " +
            "--nodes 4): a JVM holds ranks of one node only; K may be 1", assertThrows(IllegalArgumentException.class,
            () -> MatrixOptions.parse(new String[] { "--ranks-per-jvm", "2" })).getMessage());
        assertEquals("configuration clump-threads: --ranks-per-jvm 2 does not apply: the configuration holds each " +
            "node's ranks in one JVM", assertThrows(IllegalArgumentException.class, () -> MatrixOptions.parse(
            new String[] { "--configs", "clump-threads", "--ranks-per-jvm", "2" })).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MatrixOptions.parse(new String[] {
            "--configs", "clump-threads", "--ranks", "5" })).getMessage().startsWith(
            "configuration clump-threads: --ranks-per-jvm 2 does not divide the 3 rank(s) of node 0"));
    }
}
