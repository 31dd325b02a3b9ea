package org.am2j.perf.apps;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The bar chart of a matrix (XChart, PNG): for every run, one bar per configuration with its median total time under
 * the main poll scheduler. A cell without verified numbers gets a bar of 0 (the Markdown says why). The legend sits
 * below the plot, where it covers no bar, and the value axis reaches {@link #HEADROOM} times the tallest bar, so the
 * value written above each bar stays inside the plot.
 */
final class MatrixChart
{
    /** Width of the picture, pixels. */
    static final int WIDTH = 1100;
    /** Height of the picture, pixels. */
    static final int HEIGHT = 720;
    /** The value axis's top over the tallest bar: room for the bar's label, written upwards from its top. */
    static final double HEADROOM = 1.25;

    private MatrixChart()
    {
    }

    /**
     * @param result the matrix.
     * @return the chart.
     */
    static CategoryChart chart(final MatrixResult result)
    {
        System.setProperty("java.awt.headless", "true");
        final CategoryChart chart = new CategoryChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(String.format(Locale.ROOT, "Split-C applications, preset %s: %s on %d cores " +
                "(median of %d, poll %s)", result.preset(), MatrixReport.rankCounts(result), result.cores(),
                result.samples(),
                result.polls().get(0)))
            .xAxisTitle("application run")
            .yAxisTitle("time (s), slowest rank, timed phases")
            .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setLabelsRotation(90);
        chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
        chart.getStyler().setLabelsPosition(1.0);
        chart.getStyler().setLabelsFont(chart.getStyler().getLabelsFont().deriveFont(10f));
        chart.getStyler().setDecimalPattern("0.00");
        chart.getStyler().setAvailableSpaceFill(0.8);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        final List<String> runs = new ArrayList<>(result.labels());
        double tallest = 0;
        for (final MatrixConfig config : result.configs())
        {
            final List<Double> seconds = new ArrayList<>();
            for (final String label : runs)
            {
                final double s = result.cell(config, label).medianTotal();
                seconds.add(Double.isNaN(s) ? 0.0 : s);
                tallest = Double.isNaN(s) ? tallest : Math.max(tallest, s);
            }
            chart.addSeries(config.cliName() + " (" + config.description() + ")", runs, seconds);
        }
        if (tallest > 0)
        {
            chart.getStyler().setYAxisMax(HEADROOM * tallest);
        }
        return chart;
    }

    /**
     * @param result the matrix.
     * @param png    where to write the chart.
     * @throws IOException when it cannot be written.
     */
    static void write(final MatrixResult result, final Path png) throws IOException
    {
        final CategoryChart chart = chart(result);
        try (OutputStream out = Files.newOutputStream(png))
        {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
