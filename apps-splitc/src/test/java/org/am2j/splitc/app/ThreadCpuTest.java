package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ThreadCpuTest
{
    @Test
    void readsTheRunTimeFieldOfSchedstat()
    {
        assertEquals(123456789L, ThreadCpu.runNanos("123456789 5000 17\n"));
        assertEquals(42L, ThreadCpu.runNanos("42"));
        assertThrows(NumberFormatException.class, () -> ThreadCpu.runNanos("x 1 2"));
    }

    @Test
    void unknownReadingsGiveUnknownDifferences()
    {
        final ThreadCpu unknown = new ThreadCpu(-1, -1);
        final ThreadCpu known = new ThreadCpu(5_000_000, 9_000_000);
        assertEquals(-1, known.compilerMillisSince(unknown));
        assertEquals(-1, unknown.otherMillisSince(known));
        assertEquals(4, new ThreadCpu(9_000_000, 1).compilerMillisSince(known));
        assertEquals(0, new ThreadCpu(1_000_000, 1).compilerMillisSince(known), "a compiler thread that ended");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void countsAnotherThreadsCpuTimeAmongTheOthers() throws Exception
    {
        final ThreadCpu before = ThreadCpu.now();
        assumeTrue(before.known(), "no Linux per-thread CPU files (/proc/self/task) to read here");
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isCurrentThreadCpuTimeSupported(), "this JVM cannot measure a thread's CPU time");
        final CountDownLatch spun = new CountDownLatch(1);
        final CountDownLatch read = new CountDownLatch(1);
        final Thread spinner = new Thread(() ->
        {
            long x = 0;
            while (threads.getCurrentThreadCpuTime() < 40_000_000L)
            {
                x += System.nanoTime() & 1;
            }
            spun.countDown();
            // Alive until read: a thread that has ended takes its time out of /proc/self/task.
            awaitQuietly(read);
            if (x == 42)
            {
                System.out.print("");
            }
        }, "spinner");
        spinner.start();
        spun.await();
        final ThreadCpu after = ThreadCpu.now();
        read.countDown();
        spinner.join();
        assertTrue(after.otherMillisSince(before) >= 30, before + " -> " + after);
        assertTrue(after.compilerMillisSince(before) >= 0, before + " -> " + after);
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void settlingEndsWithinItsLimit()
    {
        final long slept = JitClock.settle();
        assertTrue(slept >= 0 && slept <= JitClock.SETTLE_MAX_MS + 1_000, "slept " + slept + " ms");
    }
}
