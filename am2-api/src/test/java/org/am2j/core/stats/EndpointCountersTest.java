package org.am2j.core.stats;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.ReturnStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(120)
class EndpointCountersTest
{
    private static final int ENDPOINT_COUNTERS = 1 + ReturnStatus.values().length;
    private static final int TRANSPORT_COUNTERS = Counter.values().length;

    @TempDir
    Path tempDir;

    @Test
    void countsPerTransportWithTotals()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 3, "rank0"))
        {
            final ProtocolCounters inproc = endpoint.transport("inproc");
            final ProtocolCounters shm = endpoint.transport("shm");

            inproc.onSent(true, 10);
            inproc.onReplySent();
            inproc.onReceived(true, 20);
            inproc.onReceived(false, 0);
            inproc.onPoll();
            inproc.queueFullBackoff();
            inproc.retransmit();
            inproc.drop();
            inproc.unsettled();
            shm.onRequestSent();
            shm.onSent(true, 5);

            for (final Counter counter : Counter.values())
            {
                final long expected = Counter.BYTES_SENT == counter ? 10 : Counter.BYTES_RECEIVED == counter ? 20 : 1;
                assertEquals(expected, inproc.get(counter), counter.name());
                assertEquals(expected, endpoint.get("inproc", counter), counter.name());
            }
            assertEquals(2, endpoint.get("shm", Counter.REQUESTS_SENT));
            assertEquals(0, endpoint.get("shm", Counter.POLLS));
            assertEquals(0, endpoint.get("net", Counter.REQUESTS_SENT), "a transport that does not serve the endpoint");
            assertEquals(3, endpoint.total(Counter.REQUESTS_SENT));
            assertEquals(15, endpoint.total(Counter.BYTES_SENT));
            assertEquals(1, endpoint.total(Counter.POLLS));
            assertEquals(3, endpoint.endpointId());
            assertEquals("rank0", endpoint.label());
        }
    }

    @Test
    void transportIsCreatedOnceAndNamesAreChecked()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 0, ""))
        {
            final int available = file.countersManager().available();
            final ProtocolCounters inproc = endpoint.transport("inproc");
            assertSame(inproc, endpoint.transport("inproc"));
            assertEquals("inproc", inproc.transport());
            assertEquals(available - TRANSPORT_COUNTERS, file.countersManager().available());

            for (final String bad : new String[]{ "", "has space", "x".repeat(65), "ünï" })
            {
                final AmException ex = assertThrows(AmException.class, () -> endpoint.transport(bad));
                assertEquals(AmError.BAD_ARG, ex.error());
                assertTrue(ex.getMessage().contains("transport name"), ex.getMessage());
            }
            assertEquals(AmError.BAD_ARG, assertThrows(AmException.class, () -> endpoint.transport(null)).error());
            assertNotNull(endpoint.transport("a-b_c.1"));
        }
    }

    @Test
    void returnedMessagesAreCountedPerStatus()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 3, "rank0"))
        {
            endpoint.onReturned(ReturnStatus.EBADTAG);
            endpoint.onReturned(ReturnStatus.EBADTAG);
            endpoint.onReturned(ReturnStatus.EREPLYREJECTED);
            endpoint.onReturned(null);

            for (final ReturnStatus status : ReturnStatus.values())
            {
                final long expected =
                    ReturnStatus.EBADTAG == status ? 2 : ReturnStatus.EREPLYREJECTED == status ? 1 : 0;
                assertEquals(expected, endpoint.returned(status), status.name());
            }
        }
    }

    @Test
    void badArgumentsAreRefused()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 3, "rank0"))
        {
            assertEquals(AmError.BAD_ARG, assertThrows(AmException.class, () -> endpoint.returned(null)).error());
            assertEquals(AmError.BAD_ARG, assertThrows(AmException.class, () -> endpoint.total(null)).error());
            assertEquals(
                AmError.BAD_ARG, assertThrows(AmException.class, () -> endpoint.get(null, Counter.POLLS)).error());
            assertEquals(AmError.BAD_ARG, assertThrows(AmException.class, () -> endpoint.get("inproc", null)).error());

            final AmException negative = assertThrows(AmException.class, () -> new EndpointCounters(file, -1, "x"));
            assertEquals(AmError.BAD_ARG, negative.error());
            assertTrue(negative.getMessage().contains("endpointId"), negative.getMessage());
            assertEquals(
                AmError.BAD_ARG, assertThrows(AmException.class, () -> new EndpointCounters(file, 1, null)).error());
            assertEquals(AmError.BAD_ARG,
                assertThrows(AmException.class, () -> new EndpointCounters((CountersFile)null, 1, "x")).error());
        }
    }

    @Test
    void singleWriterAppliesToEveryTransportIncludingLaterOnes()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 3, "rank0"))
        {
            final ProtocolCounters inproc = endpoint.transport("inproc");
            assertFalse(endpoint.isSingleWriter());
            assertFalse(inproc.isSingleWriter());

            endpoint.singleWriter(true);
            assertTrue(inproc.isSingleWriter());
            final ProtocolCounters shm = endpoint.transport("shm");
            assertTrue(shm.isSingleWriter());

            shm.onSent(true, 7);
            endpoint.onReturned(ReturnStatus.EBADARGS);
            assertEquals(1, shm.get(Counter.REQUESTS_SENT));
            assertEquals(7, shm.get(Counter.BYTES_SENT));
            assertEquals(1, endpoint.returned(ReturnStatus.EBADARGS));

            endpoint.singleWriter(false);
            assertFalse(inproc.isSingleWriter());
            assertFalse(shm.isSingleWriter());
        }
    }

    @Test
    void manyWritersCountExactly() throws InterruptedException
    {
        final int threads = 4;
        final int increments = 50_000;
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 3, "par"))
        {
            final ProtocolCounters inproc = endpoint.transport("inproc");
            endpoint.singleWriter(false);

            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final Thread writer = new Thread(() ->
                {
                    awaitQuietly(start);
                    for (int i = 0; i < increments; i++)
                    {
                        inproc.onSent(true, 2);
                        inproc.drop();
                        endpoint.onReturned(ReturnStatus.ECONGESTION);
                    }
                });
                writer.setDaemon(true);
                writer.start();
                writers.add(writer);
            }

            start.countDown();
            for (final Thread writer : writers)
            {
                writer.join(TimeUnit.SECONDS.toMillis(60));
                assertFalse(writer.isAlive(), "writer did not finish");
            }

            assertEquals((long)threads * increments, inproc.get(Counter.REQUESTS_SENT));
            assertEquals(2L * threads * increments, inproc.get(Counter.BYTES_SENT));
            assertEquals((long)threads * increments, inproc.get(Counter.DROPS));
            assertEquals((long)threads * increments, endpoint.returned(ReturnStatus.ECONGESTION));
        }
    }

    @Test
    void closeFreesEveryCounterKeepsLastValuesAndIsIdempotent()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64))
        {
            final int available = file.countersManager().available();
            final EndpointCounters endpoint = new EndpointCounters(file, 3, "rank0");
            final ProtocolCounters inproc = endpoint.transport("inproc");
            endpoint.transport("shm");
            assertEquals(available - ENDPOINT_COUNTERS - 2 * TRANSPORT_COUNTERS, file.countersManager().available());

            inproc.onRequestSent();
            endpoint.onReturned(ReturnStatus.EBADTAG);
            endpoint.close();

            assertTrue(endpoint.isClosed());
            assertEquals(available, file.countersManager().available());
            assertEquals(1, endpoint.get("inproc", Counter.REQUESTS_SENT));
            assertEquals(1, endpoint.total(Counter.REQUESTS_SENT));
            assertEquals(1, endpoint.returned(ReturnStatus.EBADTAG));

            inproc.onRequestSent();
            inproc.drop();
            endpoint.onReturned(ReturnStatus.EBADTAG);
            assertEquals(1, inproc.get(Counter.REQUESTS_SENT), "counting after close is ignored");
            assertEquals(0, inproc.get(Counter.DROPS));
            assertEquals(1, endpoint.returned(ReturnStatus.EBADTAG));

            endpoint.close();
            assertEquals(available, file.countersManager().available());
            assertEquals(AmError.NOT_INIT, assertThrows(AmException.class, () -> endpoint.transport("inproc")).error());
            assertEquals(AmError.NOT_INIT, assertThrows(AmException.class, () -> endpoint.transport("net")).error());

            final EndpointCounters reused = new EndpointCounters(file, 4, "reused");
            assertEquals(0, reused.returned(ReturnStatus.EBADTAG), "a reused counter starts at zero");
            assertEquals(0, reused.transport("inproc").get(Counter.REQUESTS_SENT));
            reused.close();
        }
    }

    @Test
    void aFullFileFreesWhatAFailedAllocationTook()
    {
        try (CountersFile file = CountersFile.create(tempDir, ENDPOINT_COUNTERS + TRANSPORT_COUNTERS - 1))
        {
            final EndpointCounters endpoint = new EndpointCounters(file, 1, "tight");
            final int available = file.countersManager().available();

            final AmException ex = assertThrows(AmException.class, () -> endpoint.transport("inproc"));
            assertEquals(AmError.RESOURCE, ex.error());
            assertTrue(ex.getMessage().contains(file.path().toString()), ex.getMessage());
            assertEquals(available, file.countersManager().available());
            assertEquals(0, endpoint.get("inproc", Counter.POLLS));

            endpoint.close();
            assertEquals(file.maxCounters(), file.countersManager().available());
        }

        try (CountersFile file = CountersFile.create(tempDir.resolve("smaller"), ENDPOINT_COUNTERS - 1))
        {
            final AmException ex = assertThrows(AmException.class, () -> new EndpointCounters(file, 2, "x"));
            assertEquals(AmError.RESOURCE, ex.error());
            assertEquals(file.maxCounters(), file.countersManager().available());
        }
    }

    @Test
    void inMemoryCountersWorkWithoutAFile()
    {
        final EndpointCounters endpoint = new EndpointCounters(SynchronizedCountersManager.inMemory(32), 5, "private");
        endpoint.transport("inproc").onPoll();
        assertEquals(1, endpoint.total(Counter.POLLS));
        endpoint.close();
    }

    @Test
    void steadyStateCountingAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threadBean =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threadBean.isThreadAllocatedMemorySupported());
        threadBean.setThreadAllocatedMemoryEnabled(true);

        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 3, "alloc"))
        {
            final ProtocolCounters inproc = endpoint.transport("inproc");
            final long threadId = Thread.currentThread().getId();

            for (final boolean singleWriter : new boolean[]{ true, false })
            {
                endpoint.singleWriter(singleWriter);
                countEverything(endpoint, inproc, 100_000);

                final long before = threadBean.getThreadAllocatedBytes(threadId);
                countEverything(endpoint, inproc, 100_000);
                final long allocated = threadBean.getThreadAllocatedBytes(threadId) - before;

                assertTrue(allocated < 1024, "singleWriter=" + singleWriter + " allocated " + allocated + " bytes");
            }

            assertEquals(400_000, inproc.get(Counter.REQUESTS_SENT));
            assertEquals(400_000 * 64L, inproc.get(Counter.BYTES_RECEIVED));
            assertEquals(400_000, endpoint.returned(ReturnStatus.EUNREACHABLE));
        }
    }

    private static void countEverything(
        final EndpointCounters endpoint, final ProtocolCounters counters, final int iterations)
    {
        for (int i = 0; i < iterations; i++)
        {
            counters.onSent(true, 64);
            counters.onReplySent();
            counters.onReceived(true, 64);
            counters.onReceived(false, 0);
            counters.onPoll();
            counters.queueFullBackoff();
            counters.retransmit();
            counters.drop();
            endpoint.onReturned(ReturnStatus.EUNREACHABLE);
        }
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
}
