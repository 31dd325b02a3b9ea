package org.am2j.perf.apps;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

import org.am2j.perf.apps.PaperTable4.Group;

/**
 * Why a figure of ours differs from the paper's Table 4 by more than the tolerance ({@link Table4}): what am2j's
 * applications send (read from {@code Fft3d}, {@code Con}, {@code Em3d} and the Split-C layer's {@code Stores},
 * {@code BulkStaging} and {@code Collectives}) against what the paper's counts imply. Each text explains a column group
 * of one run; a preset other than the paper's inputs is said first, since it changes every count.
 */
final class Table4Explanations
{
    private static final Properties TEXTS = new Properties();

    static
    {
        try (InputStream in = Table4Explanations.class.getResourceAsStream("table4-explanations.properties"))
        {
            TEXTS.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new ExceptionInInitializerError("no table4-explanations.properties beside " +
                Table4Explanations.class.getName() + ": " + ex);
        }
    }

    private Table4Explanations()
    {
    }

    /**
     * @param preset   the preset the run used.
     * @param paperRun the paper's run label.
     * @param group    a column group with a flagged figure.
     * @return why ours differs from the paper's.
     */
    static String explain(final String preset, final String paperRun, final Group group)
    {
        final String inputs = MatrixConfig.PAPER_PRESET.equals(preset) ? "" : "Preset `" + preset + "` is not the " +
            "paper's inputs, and counts follow the inputs: only % local compares. ";
        return inputs + TEXTS.getProperty(perRun(paperRun, group));
    }

    private static String perRun(final String paperRun, final Group group)
    {
        final boolean shortMessages = group == Group.NETWORK_SHORT || group == Group.LOCAL_SHORT;
        final boolean local = group == Group.PERCENT_LOCAL;
        return switch (paperRun)
        {
            case "3D FFT" -> shortMessages ? "FFT_SHORT" : local ? "FFT_LOCAL" : "FFT_BULK";
            case "CON/comm" -> local ? "CON_COMM_LOCAL" : shortMessages ? "CON_SHORT" : "CON_BULK";
            case "CON/comp" -> local ? "CON_COMP_LOCAL" : shortMessages ? "CON_SHORT" : "CON_BULK";
            case "EM3D/naive", "EM3D/good" -> local ? "EM3D_LOCAL" : shortMessages ? "EM3D_SHORT" : "EM3D_BULK";
            default -> "UNKNOWN";
        };
    }
}
