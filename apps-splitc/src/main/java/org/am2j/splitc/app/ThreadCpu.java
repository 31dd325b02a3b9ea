package org.am2j.splitc.app;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.am2j.spi.RankScope;
import org.am2j.spi.VirtualThreads;

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
 * <p>
 * In a JVM that holds several ranks as threads ({@code --ranks-per-jvm K}, the reader bound to a {@link RankScope}),
 * the other ranks' threads are no more this rank's "other threads" than the ranks of other JVMs are: the Java threads
 * of the thread groups {@code rank-R} of the other ranks R (where {@code am2j run} starts each rank, and where the
 * threads a rank starts stay) are left out, their CPU times ({@link ThreadMXBean}) read just before and just after
 * the JVM's threads and the mean of the two taken away from the others' time. A reader of no scope (a JVM per rank)
 * counts every thread but itself. A virtual rank ({@code AM2J_RANK_THREADS=virtual}) runs on carrier threads shared by
 * every rank of the JVM, so its readings are unknown.
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
    /** The name of a rank's thread group without its rank: {@code rank-R}. */
    private static final String RANK_GROUP = "rank-";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

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
        final RankScope scope = RankScope.current();
        if (null == scope)
        {
            return jvmThreads();
        }
        if (VirtualThreads.isVirtual(Thread.currentThread()) || !THREADS.isThreadCpuTimeSupported() ||
            !THREADS.isThreadCpuTimeEnabled())
        {
            // the other ranks' time cannot be told from the others': a virtual rank runs on carrier threads that run
            // every rank, and has no thread group of its own
            return UNKNOWN;
        }
        final long siblingsBefore = siblingRanksNanos(scope.rank());
        final ThreadCpu jvm = jvmThreads();
        final long siblings = (siblingsBefore + siblingRanksNanos(scope.rank())) / 2;
        return jvm.known() ? new ThreadCpu(jvm.compilerNanos, Math.max(0, jvm.otherNanos - siblings)) : jvm;
    }

    /**
     * @return the times of every thread of the JVM but the reader.
     */
    private static ThreadCpu jvmThreads()
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
     * @param rank the reader's rank.
     * @return nanoseconds the live Java threads of the other ranks' thread groups have run.
     */
    private static long siblingRanksNanos(final int rank)
    {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (null != root.getParent())
        {
            root = root.getParent();
        }
        // room for threads started while enumerating; one that does not fit is left out, as one that ended
        final Thread[] threads = new Thread[root.activeCount() * 2 + 16];
        final int count = root.enumerate(threads, true);
        long nanos = 0;
        for (int i = 0; i < count; i++)
        {
            final int owner = rankOf(threads[i].getThreadGroup());
            if (owner >= 0 && owner != rank)
            {
                // -1 for a thread that ended since it was listed
                nanos += Math.max(0, THREADS.getThreadCpuTime(threads[i].getId()));
            }
        }
        return nanos;
    }

    /**
     * @param group a thread's group, {@code null} for a thread that has ended.
     * @return R of the nearest group {@code rank-R} among it and its parents, or -1 when there is none.
     */
    static int rankOf(final ThreadGroup group)
    {
        for (ThreadGroup g = group; null != g; g = g.getParent())
        {
            final String name = g.getName();
            if (name.startsWith(RANK_GROUP) && name.length() > RANK_GROUP.length() &&
                name.chars().skip(RANK_GROUP.length()).allMatch(c -> c >= '0' && c <= '9'))
            {
                try
                {
                    return Integer.parseInt(name.substring(RANK_GROUP.length()));
                }
                catch (final NumberFormatException ex)
                {
                    return -1;
                }
            }
        }
        return -1;
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
