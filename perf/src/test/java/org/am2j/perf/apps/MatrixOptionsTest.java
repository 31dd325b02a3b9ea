package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

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
        assertEquals(List.of(MatrixConfig.values()), options.configs);
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
            new String[] { "stray" }))
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
        assertEquals("CON", MatrixReport.application("CON/comm (small)"));
        assertEquals("3D FFT", MatrixReport.application("3D FFT (small)"));
    }
}
