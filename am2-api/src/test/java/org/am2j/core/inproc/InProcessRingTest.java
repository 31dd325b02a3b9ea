package org.am2j.core.inproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.am2j.api.Am;
import org.am2j.spi.MessageSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The many-to-one ring under the in-process queues: records come out in order and whole, across the end of the
 * buffer (padding), past aborted claims, never past an uncommitted one, and none is lost or duplicated when several
 * threads send at once.
 */
@Timeout(60)
class InProcessRingTest
{
    private static final int CAPACITY = 1024;

    /** What {@link Reader#deliver} saw: the first int of each body. */
    private static final class Reader implements InProcessRing.RecordReader
    {
        final List<Integer> bodies = new ArrayList<>();
        final InProcessRing ring;

        Reader(final InProcessRing ring)
        {
            this.ring = ring;
        }

        @Override
        public void deliver(
            final InProcessInbound inbound, final MessageSink sink, final int msgTypeId, final int index,
            final int length)
        {
            bodies.add(ring.buffer().getInt(index));
        }
    }

    @Test
    void recordsComeOutInOrderAcrossTheEndOfTheBuffer()
    {
        final InProcessRing ring = new InProcessRing(CAPACITY);
        final Reader reader = new Reader(ring);
        int next = 0;
        // 100-byte bodies (112-byte records) do not divide 1 KiB: the claims wrap with padding many times over.
        for (int round = 0; round < 50; round++)
        {
            final int first = next;
            for (int i = 0; i < 5; i++)
            {
                final int index = ring.tryClaim(1, 100);
                assertTrue(index >= 0, "space for record " + next);
                ring.buffer().putInt(index, next++);
                ring.commit(index);
            }
            reader.bodies.clear();
            assertEquals(5, readAll(ring, reader), "round " + round);
            for (int i = 0; i < 5; i++)
            {
                assertEquals(first + i, reader.bodies.get(i));
            }
            assertEquals(ring.producerPosition(), ring.consumerPosition());
            assertTrue(!ring.hasCommitted());
        }
    }

    @Test
    void theReaderStopsAtAnUncommittedRecordAndSkipsAnAbortedOne()
    {
        final InProcessRing ring = new InProcessRing(CAPACITY);
        final Reader reader = new Reader(ring);
        final int a = claim(ring, 1);
        final int b = claim(ring, 2);
        final int c = claim(ring, 3);
        ring.commit(a);
        ring.commit(c);
        assertEquals(1, readAll(ring, reader), "b is claimed, not committed: the reader stops there");
        ring.abort(b);
        assertTrue(ring.hasCommitted());
        assertEquals(1, readAll(ring, reader), "the aborted record is skipped as padding");
        assertEquals(List.of(1, 3), reader.bodies);
        assertEquals(ring.producerPosition(), ring.consumerPosition());
    }

    @Test
    void aFullRingRefusesAClaimUntilTheReaderFreesSpace()
    {
        final InProcessRing ring = new InProcessRing(CAPACITY);
        final Reader reader = new Reader(ring);
        int claimed = 0;
        while (ring.tryClaim(1, 120) >= 0)
        {
            claimed++;
        }
        assertEquals(CAPACITY / 128, claimed);
        assertEquals(0, readAll(ring, reader), "nothing committed");
        assertThrows(IllegalArgumentException.class, () -> ring.tryClaim(1, ring.maxLength() + 1));
    }

    @Test
    void concurrentSendersLoseAndDuplicateNothing() throws InterruptedException
    {
        final int senders = 3;
        final int perSender = 20_000;
        final InProcessRing ring = new InProcessRing(CAPACITY);
        final Reader reader = new Reader(ring);
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++)
        {
            final int sender = s;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    start.await();
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                for (int i = 0; i < perSender; i++)
                {
                    int index;
                    while ((index = ring.tryClaim(1, 8 + 8 * (i % 5))) < 0)
                    {
                        Thread.onSpinWait();
                    }
                    ring.buffer().putInt(index, sender * perSender + i);
                    ring.commit(index);
                }
            });
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        while (reader.bodies.size() < senders * perSender && System.nanoTime() < deadline)
        {
            ring.read(reader, null, null, 100);
        }
        for (final Thread thread : threads)
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        assertEquals(senders * perSender, reader.bodies.size());
        final int[] nextOf = new int[senders];
        for (final int body : reader.bodies)
        {
            final int sender = body / perSender;
            assertEquals(nextOf[sender]++, body % perSender, "each sender's records arrive once, in order");
        }
    }

    @Test
    void aMediumMessageOfTheLargestSizeFitsTheSmallestQueue()
    {
        assertTrue(new InProcessRing(InProcessTransport.MIN_QUEUE_BYTES).maxLength() >=
            InProcessRecordDescriptor.HEADER_LENGTH + Am.MAX_MEDIUM);
    }

    private static int claim(final InProcessRing ring, final int body)
    {
        final int index = ring.tryClaim(1, 16);
        ring.buffer().putInt(index, body);
        return index;
    }

    private static int readAll(final InProcessRing ring, final Reader reader)
    {
        // A read ends at the end of the buffer, and one that meets only padding hands over nothing: read until a read
        // makes no progress.
        int total = 0;
        long before;
        do
        {
            before = ring.consumerPosition();
            total += ring.read(reader, null, null, Integer.MAX_VALUE);
        }
        while (ring.consumerPosition() != before);
        return total;
    }
}
