package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.BundleKind;
import org.am2j.api.EventMask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * waitSema() sleeps without using the CPU and wakes when a message arrives.
 */
@Timeout(60)
class WaitSemaTest
{
    @Test
    void waitingWithoutAnEventMaskIsAnError()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            assertEquals(EventMask.NOEVENTS, pair.bundleB.eventMask());
            final AmException error = assertThrows(AmException.class, pair.bundleB::waitSema);
            assertEquals(AmError.BAD_ARG, error.error());
            assertTrue(error.getMessage().contains("NOTEMPTY"), error.getMessage());
        }
    }

    @Test
    void aTimedWaitWithNoMessageTimesOutAndKeepsTheMask()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            pair.bundleB.eventMask(EventMask.NOTEMPTY);
            assertFalse(pair.bundleB.waitSema(20, TimeUnit.MILLISECONDS));
            assertEquals(EventMask.NOTEMPTY, pair.bundleB.eventMask());
        }
    }

    @Test
    void aWaitingThreadSleepsAndIsWokenByAMessage() throws Exception
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            final int[] handled = new int[1];
            pair.b.handler(1, (token, msg) -> handled[0]++);
            pair.bundleB.eventMask(EventMask.NOTEMPTY);
            final CountDownLatch woke = new CountDownLatch(1);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final AtomicBoolean waiting = new AtomicBoolean();
            final Thread sleeper = new Thread(() ->
            {
                try
                {
                    waiting.set(true);
                    pair.bundleB.waitSema();
                    assertEquals(EventMask.NOEVENTS, pair.bundleB.eventMask());
                    assertEquals(1, pair.bundleB.poll());
                    woke.countDown();
                }
                catch (final Throwable t)
                {
                    failure.set(t);
                }
            }, "sleeper");
            sleeper.start();
            final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            while (!waiting.get() || Thread.State.TIMED_WAITING != sleeper.getState())
            {
                Thread.onSpinWait();
            }
            final long cpuBefore = threads.getThreadCpuTime(sleeper.getId());
            Thread.sleep(300);
            final long cpuWhileAsleep = threads.getThreadCpuTime(sleeper.getId()) - cpuBefore;
            assertEquals(1, woke.getCount(), "woke with no message");

            pair.a.request(0, 1);
            assertTrue(woke.await(10, TimeUnit.SECONDS), "not woken by the message");
            sleeper.join(10_000);
            if (null != failure.get())
            {
                throw new AssertionError(failure.get());
            }
            assertEquals(1, handled[0]);
            assertTrue(cpuWhileAsleep < TimeUnit.MILLISECONDS.toNanos(150),
                "the sleeper used " + cpuWhileAsleep + " ns of CPU in 300 ms of sleep");
        }
    }

    @Test
    void aMessageAlreadyWaitingReturnsAtOnce()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.PAR))
        {
            pair.b.handler(1, (token, msg) -> { });
            pair.a.request(0, 1);
            pair.bundleB.eventMask(EventMask.NOTEMPTY);
            assertTrue(pair.bundleB.waitSema(10, TimeUnit.SECONDS));
            assertEquals(EventMask.NOEVENTS, pair.bundleB.eventMask());
            assertEquals(1, pair.bundleB.poll());
        }
    }
}
