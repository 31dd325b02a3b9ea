package org.am2j.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What the operating system says about the machine at one instant: the load averages of {@code /proc/loadavg} and
 * the mean clock of {@code cpu MHz} lines of {@code /proc/cpuinfo}. A value the machine does not report is NaN (and
 * {@code null} in JSON).
 *
 * @param load1  1-minute load average.
 * @param load5  5-minute load average.
 * @param load15 15-minute load average.
 * @param cpuMhz mean CPU clock, MHz, to three decimals.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MachineState(
    @JsonProperty("load_avg_1m") double load1,
    @JsonProperty("load_avg_5m") double load5,
    @JsonProperty("load_avg_15m") double load15,
    @JsonProperty("cpu_mhz") double cpuMhz)
{
    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");

    /**
     * @return the state now; NaN for what cannot be read.
     */
    public static MachineState read()
    {
        return parse(readLines(LOADAVG).stream().findFirst().orElse(null), readLines(CPUINFO));
    }

    /**
     * @param loadavg the line of {@code /proc/loadavg}, or {@code null}.
     * @param cpuinfo the lines of {@code /proc/cpuinfo}, possibly none.
     * @return the state they describe.
     */
    static MachineState parse(final String loadavg, final List<String> cpuinfo)
    {
        double load1 = Double.NaN;
        double load5 = Double.NaN;
        double load15 = Double.NaN;
        if (null != loadavg)
        {
            final String[] fields = loadavg.trim().split("\\s+");
            if (fields.length >= 3)
            {
                load1 = number(fields[0]);
                load5 = number(fields[1]);
                load15 = number(fields[2]);
            }
        }
        double sum = 0;
        int count = 0;
        for (final String line : cpuinfo)
        {
            if (line.startsWith("cpu MHz"))
            {
                final int colon = line.indexOf(':');
                final double mhz = colon < 0 ? Double.NaN : number(line.substring(colon + 1).trim());
                if (!Double.isNaN(mhz))
                {
                    sum += mhz;
                    count++;
                }
            }
        }
        return new MachineState(load1, load5, load15,
            count > 0 ? MachineReport.round(sum / count, 1000) : Double.NaN);
    }

    private static double number(final String text)
    {
        try
        {
            return Double.parseDouble(text);
        }
        catch (final NumberFormatException ex)
        {
            return Double.NaN;
        }
    }

    private static List<String> readLines(final Path file)
    {
        try
        {
            return Files.readAllLines(file, StandardCharsets.US_ASCII);
        }
        catch (final IOException | RuntimeException ex)
        {
            return Collections.emptyList();
        }
    }
}
