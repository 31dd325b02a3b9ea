package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.am2j.spi.RankScope;
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

    /**
     * A rank of a JVM that holds several: a thread its rank started counts among its others, a thread of another rank
     * of the JVM does not.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRankOfAJvmOfSeveralCountsItsOwnThreadsButNotTheOtherRanks() throws Exception
    {
        assumeTrue(ThreadCpu.now().known(), "no Linux per-thread CPU files (/proc/self/task) to read here");
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadCpuTimeSupported(), "this JVM cannot measure a thread's CPU time");
        final long[] othersMillis = new long[2];
        final Throwable[] failure = new Throwable[1];
        final Thread rank0 = new Thread(new ThreadGroup("rank-0"), () ->
        {
            RankScope.bind(new RankScope(0, Map.of()));
            try
            {
                othersMillis[0] = othersWhile(new ThreadGroup("rank-1"), threads);
                othersMillis[1] = othersWhile(Thread.currentThread().getThreadGroup(), threads);
            }
            catch (final Throwable t)
            {
                failure[0] = t;
            }
        }, "rank-0");
        rank0.start();
        rank0.join();
        assertNull(failure[0]);
        assertTrue(othersMillis[0] >= 0 && othersMillis[0] < 100, "rank 1's 200 ms counted: " + othersMillis[0]);
        assertTrue(othersMillis[1] >= 150, "rank 0's own thread's 200 ms not counted: " + othersMillis[1]);
    }

    /**
     * @return the others' milliseconds, as rank 0 reads them, while a thread of the group runs 200 ms of CPU.
     */
    private static long othersWhile(final ThreadGroup group, final ThreadMXBean threads) throws Exception
    {
        final CountDownLatch go = new CountDownLatch(1);
        final CountDownLatch spun = new CountDownLatch(1);
        final CountDownLatch read = new CountDownLatch(1);
        final Thread spinner = new Thread(group, () ->
        {
            awaitQuietly(go);
            final long until = threads.getCurrentThreadCpuTime() + 200_000_000L;
            long x = 0;
            while (threads.getCurrentThreadCpuTime() < until)
            {
                x += System.nanoTime() & 1;
            }
            spun.countDown();
            awaitQuietly(read);
            if (x == 42)
            {
                System.out.print("");
            }
        }, "spinner-of-" + group.getName());
        spinner.start();
        try
        {
            final ThreadCpu before = ThreadCpu.now();
            go.countDown();
            spun.await();
            final ThreadCpu after = ThreadCpu.now();
            return after.otherMillisSince(before);
        }
        finally
        {
            read.countDown();
            spinner.join();
        }
    }

    @Test
    void aThreadsRankIsThatOfItsNearestRankGroup()
    {
        final ThreadGroup rank3 = new ThreadGroup("rank-3");
        assertEquals(3, ThreadCpu.rankOf(rank3));
        assertEquals(3, ThreadCpu.rankOf(new ThreadGroup(rank3, "pool")));
        assertEquals(-1, ThreadCpu.rankOf(new ThreadGroup("rank-x")));
        assertEquals(-1, ThreadCpu.rankOf(new ThreadGroup("rank-")));
        assertEquals(-1, ThreadCpu.rankOf(Thread.currentThread().getThreadGroup()));
        assertEquals(-1, ThreadCpu.rankOf(null), "a thread that ended");
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
