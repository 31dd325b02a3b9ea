package org.am2j.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.am2j.launch.HelloMain;

/**
 * Rank program of {@code am2j scale}: {@code am2j hello} ({@link HelloMain}: all-gather of the endpoint names, a
 * barrier, a line), then one measurement line ({@link ScaleLine.Hello}): the pid of this JVM, the time from its start
 * to the end of hello, its resident memory now and at its peak ({@code VmRSS}, {@code VmHWM} of
 * {@code /proc/self/status}) and its proportional set size now ({@code Pss} of {@code /proc/self/smaps_rollup}); -1
 * where unknown. With several ranks in the JVM ({@code --ranks-per-jvm}) each prints the figures of the JVM as it
 * reads them, so the JVM's figures are counted once by its pid.
 * <p>
 * The line is written by hand, not by Jackson as the other measurement lines are: a rank's program has a class loader
 * of its own in a JVM of several ranks, so Jackson would be loaded once per rank, and the siblings that print first
 * would add that to the memory measured by the others.
 */
public final class ScaleHelloMain
{
    private ScaleHelloMain()
    {
    }

    /**
     * @param args ignored.
     */
    public static void main(final String[] args)
    {
        HelloMain.main(args);
        final Instant start = ProcessHandle.current().info().startInstant().orElse(null);
        final long startupMs = null == start ? -1 : Duration.between(start, Instant.now()).toMillis();
        final String status = read("/proc/self/status");
        final String rollup = read("/proc/self/smaps_rollup");
        System.out.println(line(new ScaleLine.Hello(ProcessHandle.current().pid(), startupMs,
            statusKb(status, "VmRSS:"), statusKb(status, "VmHWM:"), statusKb(rollup, "Pss:"))));
    }

    /**
     * @param hello the measurement.
     * @return its line, as {@link ScaleLine#format} writes it.
     */
    static String line(final ScaleLine.Hello hello)
    {
        return ScaleLine.PREFIX + "hello {\"pid\":" + hello.pid() + ",\"startup_ms\":" + hello.startupMs() +
            ",\"rss_kb\":" + hello.rssKb() + ",\"hwm_kb\":" + hello.hwmKb() + ",\"pss_kb\":" + hello.pssKb() + "}";
    }

    /**
     * @return the text of the file, or "" when it cannot be read (not Linux, or a kernel without the file).
     */
    private static String read(final String file)
    {
        try
        {
            return Files.readString(Path.of(file), StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    /**
     * @param status the text of a {@code /proc/PID/status} or {@code /proc/PID/smaps_rollup}.
     * @param field  e.g. {@code VmRSS:}, {@code Pss:}.
     * @return its value in KiB, or -1 when it is not there.
     */
    static long statusKb(final String status, final String field)
    {
        for (final String line : status.split("\n"))
        {
            if (line.startsWith(field))
            {
                final String[] words = line.substring(field.length()).trim().split("\\s+");
                try
                {
                    return Long.parseLong(words[0]);
                }
                catch (final NumberFormatException ex)
                {
                    return -1;
                }
            }
        }
        return -1;
    }
}
