package org.am2j.splitc.app;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's cumulative time compiling (its JIT compiler threads together), read around a timed run: compilation that
 * happens while a rank is timed competes with it for its CPU (all of it when the rank is pinned to one), so a run
 * that compiled for long is slower for a reason that is not the messaging's. Public for the benchmarks' warm-ups
 * ({@code org.am2j.perf.WarmUp}), which have the same problem.
 */
public final class JitClock
{
    private static final CompilationMXBean COMPILATION = ManagementFactory.getCompilationMXBean();
    private static final boolean SUPPORTED =
        null != COMPILATION && COMPILATION.isCompilationTimeMonitoringSupported();

    private JitClock()
    {
    }

    /** Length of one look at the compiler threads while settling, ms. */
    static final long SETTLE_STEP_MS = 5;
    /** Looks in a row in which the compiler threads ran less than a tenth of the time before they count as idle. */
    static final int SETTLE_QUIET_STEPS = 2;
    /** Longest settle, ms: a JVM that compiles all along (or cannot be watched) does not hold the job up longer. */
    public static final long SETTLE_MAX_MS = 2_000;

    /**
     * Let the compilers finish what the last run queued, with this thread asleep: on a rank pinned to one CPU, the
     * compiler threads otherwise get its CPU only in slices of the next run, which they slow down. Sleeps in steps of
     * {@value #SETTLE_STEP_MS} ms until the compiler threads ({@link ThreadCpu}) have run for less than a tenth of
     * {@value #SETTLE_QUIET_STEPS} steps in a row (where they cannot be watched: until the JVM's compilation time has
     * not grown for {@value #SETTLE_QUIET_STEPS} steps of 4 times that), at most {@value #SETTLE_MAX_MS} ms.
     *
     * @return milliseconds slept.
     */
    public static long settle()
    {
        final ThreadCpu first = ThreadCpu.now();
        final boolean threads = first.known();
        if (!threads && !SUPPORTED)
        {
            return 0;
        }
        final long step = threads ? SETTLE_STEP_MS : 4 * SETTLE_STEP_MS;
        final long start = System.nanoTime();
        long before = threads ? first.compilerNanos() : millis() * 1_000_000L;
        int quiet = 0;
        while (quiet < SETTLE_QUIET_STEPS && System.nanoTime() - start < SETTLE_MAX_MS * 1_000_000L)
        {
            try
            {
                Thread.sleep(step);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                break;
            }
            final long now = compilingNanos(threads);
            // Threads: less than a tenth of the step run. Total compilation time: not grown at all. A compiler thread
            // that ended between two looks makes the sum go down, which says nothing of the others: not quiet.
            final long grown = now - before;
            quiet = grown >= 0 && grown < (threads ? step * 100_000L : 1) ? quiet + 1 : 0;
            before = now;
        }
        return (System.nanoTime() - start) / 1_000_000L;
    }

    private static long compilingNanos(final boolean threads)
    {
        return threads ? ThreadCpu.now().compilerNanos() : millis() * 1_000_000L;
    }

    /**
     * @return milliseconds spent compiling so far by this JVM, or -1 when the JVM does not say.
     */
    public static long millis()
    {
        return SUPPORTED ? COMPILATION.getTotalCompilationTime() : -1;
    }
}
