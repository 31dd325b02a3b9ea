package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.am2j.spi.PollScheduler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hot path of every scheduler, {@code networkBudget} and {@code networkPolled}, allocates nothing in steady
 * state: a million polls allocate less than a kilobyte (the measurement's own noise).
 */
class ZeroAllocationTest
{
    private static final int POLLS = 1_000_000;
    private static com.sun.management.ThreadMXBean threads;

    @BeforeAll
    static void enableCounting()
    {
        threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
    }

    @Test
    @Timeout(60)
    void fractionalAllocatesNothing()
    {
        assertNoAllocation(new FractionalPollScheduler.Provider().create("4"));
    }

    @Test
    @Timeout(60)
    void adaptiveAllocatesNothing()
    {
        assertNoAllocation(new AdaptivePollScheduler.Provider().create(null));
    }

    @Test
    @Timeout(60)
    void calibratedMeasuringWithTheRealClockAllocatesNothing()
    {
        assertNoAllocation(new CalibratedPollScheduler.Provider().create(null));
    }

    @Test
    @Timeout(60)
    void calibratedWithAFixedRatioAllocatesNothing()
    {
        assertNoAllocation(new CalibratedPollScheduler.Provider().create("100"));
    }

    private static void assertNoAllocation(final PollScheduler scheduler)
    {
        long sink = polls(scheduler, POLLS);
        sink += polls(scheduler, POLLS);

        final long threadId = Thread.currentThread().getId();
        threads.getThreadAllocatedBytes(threadId);
        final long before = threads.getThreadAllocatedBytes(threadId);
        sink += polls(scheduler, POLLS);
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertTrue(sink > 0, "no network poll");
        assertTrue(allocated < 1024, scheduler.describe() + ": a million polls allocated " + allocated + " bytes");
    }

    private static long polls(final PollScheduler scheduler, final int count)
    {
        long networkPolls = 0;
        for (int i = 0; i < count; i++)
        {
            if (scheduler.networkBudget(ScriptedPolls.BASE) > 0)
            {
                // a varied history: bursts, silences, single messages
                scheduler.networkPolled((i >>> 10) % 3 == 0 ? (i & 7) : 0);
                networkPolls++;
            }
        }
        return networkPolls;
    }
}
