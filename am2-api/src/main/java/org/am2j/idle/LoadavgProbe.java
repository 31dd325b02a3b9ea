package org.am2j.idle;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.CloseHelper;

/**
 * The runnable count of Linux: field 4 of {@code /proc/loadavg} is {@code R/T}, R the threads running or waiting for
 * a CPU on the whole machine at the moment of the read (the kernel's {@code nr_running}, the same number as
 * {@code procs_running} of {@code /proc/stat}, in a file of a few dozen bytes instead of several kilobytes), T all
 * threads.
 * <p>
 * The CPUs are the machine's online CPUs ({@code /sys/devices/system/cpu/online}), not the ones this JVM may use: the
 * count is machine-wide, and a rank pinned to one CPU ({@code taskset}, {@code am2j run --pin}) that compared it with
 * its single CPU would find every pinned pair oversubscribed. Without that file:
 * {@link Runtime#availableProcessors()}.
 * <p>
 * The file stays open; each {@link #runnable()} seeks to its start and reads it again into a buffer of its own, and
 * parses the bytes: nothing is allocated. Where the file cannot be opened or read (not Linux, a restricted
 * {@code /proc}), {@link #runnable()} answers {@link RunnableProbe#UNKNOWN}. Thread-safe.
 */
public final class LoadavgProbe implements RunnableProbe, AutoCloseable
{
    /** The kernel's load file. */
    public static final Path LOADAVG = Path.of("/proc/loadavg");
    /** The list of online CPUs, e.g. {@code 0-3} or {@code 0,2-5}. */
    public static final Path ONLINE_CPUS = Path.of("/sys/devices/system/cpu/online");

    private final RandomAccessFile file;
    private final byte[] buffer = new byte[128];
    private final int cpus;
    private boolean failed;

    private LoadavgProbe(final RandomAccessFile file, final int cpus)
    {
        this.file = file;
        this.cpus = cpus;
    }

    /**
     * @return a probe of {@link #LOADAVG} and {@link #ONLINE_CPUS}; one that answers {@link RunnableProbe#UNKNOWN}
     * where the load file cannot be opened.
     */
    public static LoadavgProbe open()
    {
        return open(LOADAVG, ONLINE_CPUS);
    }

    /**
     * @param loadavg a file in the format of {@code /proc/loadavg}.
     * @param onlineCpus a file in the format of {@code /sys/devices/system/cpu/online}.
     * @return a probe of those files.
     */
    public static LoadavgProbe open(final Path loadavg, final Path onlineCpus)
    {
        RandomAccessFile file;
        try
        {
            file = new RandomAccessFile(loadavg.toFile(), "r");
        }
        catch (final IOException | SecurityException ex)
        {
            file = null;
        }
        return new LoadavgProbe(file, onlineCpus(onlineCpus));
    }

    @Override
    public synchronized int runnable()
    {
        if (null == file || failed)
        {
            return UNKNOWN;
        }
        try
        {
            file.seek(0);
            int length = 0;
            int n;
            while (length < buffer.length && (n = file.read(buffer, length, buffer.length - length)) > 0)
            {
                length += n;
            }
            final int running = parseRunning(buffer, length);
            if (UNKNOWN == running)
            {
                failed = true;
            }
            return running;
        }
        catch (final IOException ex)
        {
            // A file that failed once is not read again: the answer stays "unknown" (spin as without a probe).
            failed = true;
            return UNKNOWN;
        }
    }

    @Override
    public int cpus()
    {
        return cpus;
    }

    @Override
    public synchronized void close()
    {
        failed = true;
        // a read-only file: nothing was written that a failure to close could lose
        CloseHelper.quietClose(file);
    }

    /**
     * @param bytes the content of a {@code /proc/loadavg}, e.g. {@code 1.27 2.17 3.17 4/147 1494}.
     * @param length how many bytes of it were read.
     * @return the running count of field 4 (the number before its {@code /}), or {@link RunnableProbe#UNKNOWN} when
     * the bytes are not in that format.
     */
    static int parseRunning(final byte[] bytes, final int length)
    {
        int i = 0;
        for (int field = 0; field < 3; field++)
        {
            while (i < length && ' ' != bytes[i])
            {
                i++;
            }
            while (i < length && ' ' == bytes[i])
            {
                i++;
            }
        }
        long running = 0;
        final int start = i;
        while (i < length && bytes[i] >= '0' && bytes[i] <= '9')
        {
            running = running * 10 + (bytes[i] - '0');
            if (running > Integer.MAX_VALUE)
            {
                return UNKNOWN;
            }
            i++;
        }
        if (i == start || i >= length || '/' != bytes[i])
        {
            return UNKNOWN;
        }
        return (int)running;
    }

    /**
     * @return the number of CPUs in the list file, or {@link Runtime#availableProcessors()} when it cannot be read.
     */
    static int onlineCpus(final Path onlineCpus)
    {
        try
        {
            final int count = countCpuList(Files.readString(onlineCpus, StandardCharsets.US_ASCII).trim());
            if (count > 0)
            {
                return count;
            }
        }
        catch (final IOException | SecurityException | IllegalArgumentException ex)
        {
            // fall back below
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * @param list a CPU list in the kernel's format: ranges and single CPUs separated by commas, e.g. {@code 0-3,6}.
     * @return how many CPUs it names.
     * @throws IllegalArgumentException when it is not in that format.
     */
    static int countCpuList(final String list)
    {
        if (list.isEmpty())
        {
            throw new IllegalArgumentException("empty CPU list");
        }
        int count = 0;
        for (final String part : list.split(","))
        {
            final int dash = part.indexOf('-');
            try
            {
                if (dash < 0)
                {
                    Integer.parseInt(part.trim());
                    count++;
                }
                else
                {
                    final int first = Integer.parseInt(part.substring(0, dash).trim());
                    final int last = Integer.parseInt(part.substring(dash + 1).trim());
                    if (last < first)
                    {
                        throw new IllegalArgumentException("CPU range " + part + " runs backwards");
                    }
                    count += last - first + 1;
                }
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("not a CPU list: " + list, ex);
            }
        }
        return count;
    }
}
