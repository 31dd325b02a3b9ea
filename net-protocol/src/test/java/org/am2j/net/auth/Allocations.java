package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

/**
 * The JVM's count of bytes a thread allocated, for tests that the per-datagram work allocates nothing.
 */
final class Allocations
{
    private Allocations()
    {
    }

    static com.sun.management.ThreadMXBean threads()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        return threads;
    }
}
