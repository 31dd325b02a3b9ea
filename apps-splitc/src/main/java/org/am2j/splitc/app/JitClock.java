package org.am2j.splitc.app;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's cumulative time compiling (its JIT compiler threads together), read around a timed run: compilation that
 * happens while a rank is timed competes with it for its CPU (all of it when the rank is pinned to one), so a run
 * that compiled for long is slower for a reason that is not the messaging's.
 */
final class JitClock
{
    private static final CompilationMXBean COMPILATION = ManagementFactory.getCompilationMXBean();
    private static final boolean SUPPORTED =
        null != COMPILATION && COMPILATION.isCompilationTimeMonitoringSupported();

    private JitClock()
    {
    }

    /**
     * @return milliseconds spent compiling so far by this JVM, or -1 when the JVM does not say.
     */
    static long millis()
    {
        return SUPPORTED ? COMPILATION.getTotalCompilationTime() : -1;
    }
}
