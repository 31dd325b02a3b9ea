package org.am2j.perf;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG plots of {@link LogP}, drawn with XChart (headless):
 * <ul>
 * <li>{@code signature-CONFIG.png} for each configuration: the signature of Culler et al., the time per message
 * (burst time / M, microseconds) against the burst length M (log scale), one line per delay Delta, with the
 * levels o_s, g and o_s + d(Delta) + o_r read off it as dashed lines;</li>
 * <li>{@code bandwidth.png}: the bandwidth n / T(n) (MB/s, log scale) of one pipelined transfer against its size n
 * (bytes, log scale) for the four configurations, each labelled with its 1/G, its half-power point marked with a
 * diamond at half of 1/G.</li>
 * </ul>
 */
final class LogPPlots
{
    /** Width of every plot, pixels. */
    static final int WIDTH = 1100;
    /** Height of every plot, pixels. */
    static final int HEIGHT = 850;
    /** File of the bandwidth plot. */
    static final String BANDWIDTH_FILE = "bandwidth.png";

    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e),
        new Color(0x8c564b) };
    private static final BasicStroke DASHED = new BasicStroke(
        2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[]{ 8f, 6f }, 0f);
    private static final BasicStroke SOLID = new BasicStroke(2.5f);

    private LogPPlots()
    {
    }

    /**
     * @param protocol one of {@link LogPReport#CONFIGS}.
     * @return the file name of its signature plot.
     */
    static String signatureFile(final Protocol protocol)
    {
        return "signature-" + LogPReport.key(protocol) + ".png";
    }

    /**
     * Draw every plot of a run into a directory (made if missing).
     *
     * @param report of the run.
     * @param dir    where.
     * @return the files written.
     * @throws IOException when a file cannot be written.
     */
    static List<Path> write(final LogPReport report, final Path dir) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        final List<Path> files = new ArrayList<>();
        for (final Protocol protocol : LogPReport.CONFIGS)
        {
            final Path file = dir.resolve(signatureFile(protocol));
            save(signature(protocol, report.signature(protocol), report.parameters(protocol)), file);
            files.add(file);
        }
        final Path file = dir.resolve(BANDWIDTH_FILE);
        save(bandwidth(report), file);
        files.add(file);
        return files;
    }

    /**
     * @param protocol  the configuration.
     * @param signature its signature.
     * @param p         its parameters.
     * @return the signature's chart.
     */
    static XYChart signature(
        final Protocol protocol, final LogPParameters.Signature signature, final LogPParameters p)
    {
        final XYChart chart = chart(
            "LogP signature, " + LogPReport.key(protocol) + " (" + protocol.transports() + "): time per message",
            "burst length M (requests sent one after another, log scale)", "time per message (us)", false);
        final int[] bursts = signature.bursts();
        final double[] x = Arrays.stream(bursts).asDoubleStream().toArray();
        final double rttUs = p.rttNs() / 1000;
        for (int k = 0; k < signature.delaysNs().length; k++)
        {
            final int row = k;
            final double[] y = IntStream.range(0, bursts.length).mapToDouble(i -> signature.perMessageNs(row, i) / 1000)
                .toArray();
            final double delayUs = signature.delaysNs()[k] / 1000.0;
            final String name = 0 == k ? "delay 0" : String.format(Locale.ROOT, "delay %.2f RTT = %.3f us",
                delayUs / rttUs, delayUs);
            line(chart, name, x, y, COLORS[k % COLORS.length], SOLID, true);
        }
        final int last = signature.delaysNs().length - 1;
        level(chart, String.format(Locale.ROOT, "o_s = %.3f us", p.osNs() / 1000), x, p.osNs() / 1000,
            Color.DARK_GRAY);
        level(chart, String.format(Locale.ROOT, "g = %.3f us", p.gNs() / 1000), x, p.gNs() / 1000, Color.BLACK);
        level(chart, String.format(Locale.ROOT, "o_s + delay + o_r = %.3f us (o_r = %.3f us)",
            (p.osNs() + signature.delayCostNs()[last] + p.orNs()) / 1000, p.orNs() / 1000), x,
            (p.osNs() + signature.delayCostNs()[last] + p.orNs()) / 1000, COLORS[last % COLORS.length]);
        return chart;
    }

    /**
     * @param report of the run.
     * @return the bandwidth chart of all four configurations.
     */
    static XYChart bandwidth(final LogPReport report)
    {
        final XYChart chart = chart("Bandwidth of one transfer (8 KiB chunks pipelined through the AM layer)",
            "transfer size (bytes, log scale)", "bandwidth (MB/s, log scale)", true);
        int c = 0;
        for (final Protocol protocol : LogPReport.CONFIGS)
        {
            final LogPParameters.TransferCurve curve = report.transferCurve(protocol);
            final LogPParameters p = report.parameters(protocol);
            final int[] sizes = curve.sizes();
            final double[] x = Arrays.stream(sizes).asDoubleStream().toArray();
            final double[] y = IntStream.range(0, sizes.length).mapToDouble(i -> curve.bytesPerNs(i) * 1000).toArray();
            final Color color = COLORS[c++ % COLORS.length];
            line(chart, String.format(Locale.ROOT, "%s: 1/G = %s, half-power point %s (diamond)",
                LogPReport.key(protocol), Double.isNaN(p.bandwidthMBps()) ? "? (no fit)" :
                    String.format(Locale.ROOT, "%,.0f MB/s", p.bandwidthMBps()),
                Double.isNaN(p.halfPowerBytes()) ? "not reached" :
                    String.format(Locale.ROOT, "%.1f kB", p.halfPowerBytes() / LogPReport.KB)), x, y,
                color, SOLID, true);
            if (!Double.isNaN(p.halfPowerBytes()))
            {
                final XYSeries half = line(chart, LogPReport.key(protocol) + " half-power point",
                    new double[]{ p.halfPowerBytes() }, new double[]{ p.bandwidthMBps() / 2 }, color, SOLID, true);
                if (null != half)
                {
                    half.setMarker(SeriesMarkers.DIAMOND);
                    half.setShowInLegend(false);
                }
            }
        }
        return chart;
    }

    private static XYChart chart(final String title, final String xTitle, final String yTitle, final boolean logY)
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
            .yAxisTitle(yTitle).build();
        final XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setYAxisLogarithmic(logY);
        // plain numbers on the axes (no 1E4); a formatting function would undo the log axes' decade ticks
        styler.setXAxisDecimalPattern("#,##0.###");
        styler.setYAxisDecimalPattern("#,##0.###");
        if (!logY)
        {
            styler.setYAxisMin(0.0);
        }
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 17));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
        styler.setPlotGridLinesColor(new Color(0xdddddd));
        styler.setMarkerSize(8);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
        styler.setLegendBackgroundColor(new Color(255, 255, 255, 220));
        styler.setAntiAlias(true);
        return chart;
    }

    private static XYSeries line(
        final XYChart chart,
        final String name,
        final double[] x,
        final double[] y,
        final Color color,
        final BasicStroke stroke,
        final boolean markers)
    {
        // a log axis takes positive values only: a point at or below 0 (a cost lost in the clock's noise) is left out
        final List<Double> xs = new ArrayList<>();
        final List<Double> ys = new ArrayList<>();
        for (int i = 0; i < x.length; i++)
        {
            if (x[i] > 0 && y[i] > 0 && Double.isFinite(y[i]))
            {
                xs.add(x[i]);
                ys.add(y[i]);
            }
        }
        if (xs.isEmpty())
        {
            return null;
        }
        final XYSeries series = chart.addSeries(name, xs, ys);
        series.setLineColor(color);
        series.setLineStyle(stroke);
        series.setMarkerColor(color);
        series.setMarker(markers ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
        return series;
    }

    private static void level(final XYChart chart, final String name, final double[] x, final double y,
        final Color color)
    {
        line(chart, name, new double[]{ x[0], x[x.length - 1] }, new double[]{ y, y }, color, DASHED, false);
    }

    private static void save(final XYChart chart, final Path file) throws IOException
    {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
