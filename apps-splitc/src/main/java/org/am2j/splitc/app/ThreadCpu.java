package org.am2j.splitc.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time of this JVM's threads besides the one reading, from Linux's per-thread files, split into the JIT
 * compiler threads and all others (garbage collector, the network transport's keeper, the JVM's service threads):
 * on a rank pinned to one CPU, every nanosecond they run is taken from the rank's thread.
 * <p>
 * {@code /proc/self/task/TID/comm} names a HotSpot compiler thread {@code C1 CompilerThre} or
 * {@code C2 CompilerThre} (cut to 15 bytes); the first field of {@code schedstat} is the nanoseconds a thread has
 * run. The compiler threads are not Java threads a {@link java.lang.management.ThreadMXBean} lists, and the JVM's
 * cumulative compilation time grows only when a compilation ends, so it cannot show one in progress. HotSpot starts
 * and stops compiler threads as its queues grow and shrink, so every reading lists the threads again; a thread that
 * ended between two readings takes its time with it.
 *
 * @param compilerNanos nanoseconds the compiler threads have run, -1 when unknown.
 * @param otherNanos    nanoseconds every other thread but the reader has run, -1 when unknown.
 */
record ThreadCpu(long compilerNanos, long otherNanos)
{
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    private static final String COMPILER_THREAD = "CompilerThre";
    private static final ThreadCpu UNKNOWN = new ThreadCpu(-1, -1);

    /**
     * @return true when this reading has the times.
     */
    boolean known()
    {
        return compilerNanos >= 0;
    }

    /**
     * @return the threads' times now, {@link #known()} false where the files cannot be read.
     */
    static ThreadCpu now()
    {
        if (!Files.isDirectory(TASKS))
        {
            return UNKNOWN;
        }
        final String self;
        try
        {
            self = THREAD_SELF.toRealPath().getFileName().toString();
        }
        catch (final IOException | RuntimeException ex)
        {
            return UNKNOWN;
        }
        long compilers = 0;
        long others = 0;
        int read = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS))
        {
            for (final Path task : tasks)
            {
                if (self.equals(task.getFileName().toString()))
                {
                    continue;
                }
                try
                {
                    final long run = runNanos(Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII));
                    read++;
                    if (Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).contains(COMPILER_THREAD))
                    {
                        compilers += run;
                    }
                    else
                    {
                        others += run;
                    }
                }
                catch (final IOException | RuntimeException ex)
                {
                    // The thread ended while being read: its time went with it.
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return UNKNOWN;
        }
        // Nothing read, or nothing ever run (a kernel without scheduler statistics writes zeros): unknown, not idle.
        return 0 == read || 0 == compilers + others ? UNKNOWN : new ThreadCpu(compilers, others);
    }

    /**
     * @param earlier a reading taken before this one.
     * @return milliseconds the compiler threads ran between the two, -1 when either is unknown (0 when threads that
     * ended in between make the difference negative).
     */
    long compilerMillisSince(final ThreadCpu earlier)
    {
        return known() && earlier.known() ? Math.max(0, compilerNanos - earlier.compilerNanos) / 1_000_000L : -1;
    }

    /**
     * @param earlier a reading taken before this one.
     * @return milliseconds the other threads ran between the two, -1 when either is unknown.
     */
    long otherMillisSince(final ThreadCpu earlier)
    {
        return known() && earlier.known() ? Math.max(0, otherNanos - earlier.otherNanos) / 1_000_000L : -1;
    }

    /**
     * @param schedstat the contents of a thread's {@code schedstat}: run ns, wait ns, time slices.
     * @return the run nanoseconds.
     * @throws NumberFormatException when it does not start with a number.
     */
    static long runNanos(final String schedstat)
    {
        final String trimmed = schedstat.trim();
        final int space = trimmed.indexOf(' ');
        return Long.parseLong(space < 0 ? trimmed : trimmed.substring(0, space));
    }
}
