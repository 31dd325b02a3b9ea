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
 * barrier, a line), then one measurement line: the time from this JVM's start to the end of hello, and the resident
 * memory of the process now and at its peak ({@code VmRSS}, {@code VmHWM} of {@code /proc/self/status}; -1 where
 * unknown).
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
        final String status = readStatus();
        System.out.println(ScaleLine.format("hello", new ScaleLine.Hello(startupMs, statusKb(status, "VmRSS:"),
            statusKb(status, "VmHWM:"))));
    }

    private static String readStatus()
    {
        try
        {
            return Files.readString(Path.of("/proc/self/status"), StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    /**
     * @param status the text of a {@code /proc/PID/status}.
     * @param field  e.g. {@code VmRSS:}.
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
