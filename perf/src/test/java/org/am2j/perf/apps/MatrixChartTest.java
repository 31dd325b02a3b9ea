package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.style.Styler;

@Timeout(60)
class MatrixChartTest
{
    @TempDir
    Path dir;

    @Test
    void writesAPngWithTitleAxesAndOneSeriesPerConfiguration() throws Exception
    {
        final MatrixResult result = MatrixReportTest.matrix();
        final CategoryChart chart = MatrixChart.chart(result);
        assertEquals("Split-C applications, preset small: 4 ranks on 2 cores (median of 3, poll every)",
            chart.getTitle());
        assertEquals("application run", chart.getXAxisTitle());
        assertTrue(chart.getYAxisTitle().startsWith("time (s)"), chart.getYAxisTitle());
        assertTrue(chart.getStyler().isLegendVisible());
        assertEquals(Styler.LegendPosition.OutsideS, chart.getStyler().getLegendPosition(), "the legend covers no bar");
        final double tallest = chart.getSeriesMap().values().stream()
            .flatMap((series) -> series.getYData().stream()).mapToDouble(Number::doubleValue).max().orElseThrow();
        assertEquals(MatrixChart.HEADROOM * tallest, chart.getStyler().getYAxisMax(), 1e-9,
            "the axis reaches above the tallest bar (" + tallest + " s), so its label is not clipped");
        assertEquals(List.of("shm-only (one node, shared memory only)", "multi (one node, multi-protocol)",
            "net (all network, one rank per node)", "clump (clump of 2 nodes, multi-protocol)"),
            List.copyOf(chart.getSeriesMap().keySet()));
        assertEquals(List.of(1.1, 0.5, 2.0), chart.getSeriesMap().get("shm-only (one node, shared memory only)")
            .getYData().stream().map(Number::doubleValue).toList());
        assertEquals(List.of(2.2, 0.0, 0.0), chart.getSeriesMap().get("clump (clump of 2 nodes, multi-protocol)")
            .getYData().stream().map(Number::doubleValue).toList(), "failed and not hosted cells are 0");

        final Path png = dir.resolve("matrix.png");
        MatrixChart.write(result, png);
        final byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(new byte[] { (byte)0x89, 'P', 'N', 'G' }, Arrays.copyOf(bytes, 4));
        final BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertEquals(MatrixChart.WIDTH, image.getWidth());
        assertEquals(MatrixChart.HEIGHT, image.getHeight());
    }
}
