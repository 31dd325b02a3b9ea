package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.am2j.api.Am;
import org.am2j.api.BundleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The send and dispatch path of the in-process transport allocates nothing in steady state.
 */
class ZeroAllocationTest
{
    private static final int ROUND_TRIPS = 100_000;

    private final int[] replies = new int[1];
    private final long[] sum = new long[1];

    @Test
    @Timeout(120)
    void shortRequestsWithRepliesAllocateNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);

        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.b.handler(1, (token, msg) -> token.reply(2, msg.arg(0), msg.arg(1) + 1));
            pair.a.handler(2, (token, msg) ->
            {
                replies[0]++;
                sum[0] += msg.arg(1);
            });

            roundTrips(pair, ROUND_TRIPS);
            roundTrips(pair, ROUND_TRIPS);

            final long threadId = Thread.currentThread().getId();
            threads.getThreadAllocatedBytes(threadId);
            final long before = threads.getThreadAllocatedBytes(threadId);
            replies[0] = 0;
            sum[0] = 0;
            roundTrips(pair, ROUND_TRIPS);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

            assertEquals(ROUND_TRIPS, replies[0]);
            assertEquals((long)ROUND_TRIPS * (ROUND_TRIPS + 1) / 2, sum[0]);
            assertTrue(allocated < 1024, "steady-state loop allocated " + allocated + " bytes");
        }
    }

    private void roundTrips(final Pair pair, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int expected = replies[0] + 1;
            assertEquals(Am.OK, pair.a.request(0, 1, 7, i));
            while (replies[0] != expected)
            {
                pair.bundleA.poll();
            }
        }
    }
}
