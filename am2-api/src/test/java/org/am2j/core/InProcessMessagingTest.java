package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every message kind between endpoints of one process, in one bundle and in two, with contents checked.
 */
@Timeout(60)
class InProcessMessagingTest
{
    /** What a handler saw, copied out of the flyweights. */
    static final class Seen
    {
        Opcode opcode;
        int handler;
        int[] args;
        byte[] data;
        long segmentOffset;
        long tag;
        Object source;
        Object destination;
    }

    private final List<Seen> seen = new ArrayList<>();

    private void record(final org.am2j.api.Token token, final Message msg)
    {
        final Seen s = new Seen();
        s.opcode = msg.opcode();
        s.handler = msg.handlerIndex();
        s.args = new int[msg.argCount()];
        for (int i = 0; i < s.args.length; i++)
        {
            s.args[i] = msg.arg(i);
        }
        s.data = new byte[msg.dataLength()];
        msg.data().getBytes(0, s.data);
        s.segmentOffset = msg.segmentOffset();
        s.tag = token.messageTag();
        s.source = token.sourceName();
        s.destination = token.destination();
        seen.add(s);
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 2, 3, 4, 5, 6, 7, 8 })
    void shortRequestAndReplyCarryEveryArgumentCount(final int argCount)
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            pair.b.handler(5, (token, msg) ->
            {
                record(token, msg);
                final int[] a = new int[8];
                for (int i = 0; i < msg.argCount(); i++)
                {
                    a[i] = msg.arg(i) * 2;
                }
                token.replyN(MessageCategory.SHORT, 6, null, 0, 0, -1, msg.argCount(),
                    a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
            });
            pair.a.handler(6, this::record);

            final int[] args = { 11, 22, 33, 44, 55, 66, 77, 88 };
            assertEquals(Am.OK, pair.a.requestN(0, MessageCategory.SHORT, 5, null, 0, 0, -1, false, argCount,
                args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7]));
            pair.pollUntil(() -> seen.size() == 2, 1000);

            final Seen request = seen.get(0);
            assertEquals(Opcode.REQUEST_SHORT, request.opcode);
            assertEquals(5, request.handler);
            assertArrayEquals(java.util.Arrays.copyOf(args, argCount), request.args);
            assertEquals(pair.b.name().equals(pair.a.translationName(0)), true);
            assertEquals(pair.a.name(), request.source);
            assertSame(pair.b, request.destination);
            assertEquals(pair.b.tag(), request.tag);

            final Seen reply = seen.get(1);
            assertEquals(Opcode.REPLY_SHORT, reply.opcode);
            assertEquals(argCount, reply.args.length);
            for (int i = 0; i < argCount; i++)
            {
                assertEquals(args[i] * 2, reply.args[i]);
            }
            assertEquals(pair.b.name(), reply.source);
            assertEquals(-1, reply.segmentOffset);
        }
    }

    @Test
    void overloadsCarryTheirArguments()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.b.handler(1, this::record);
            pair.a.request(0, 1);
            pair.a.request(0, 1, 1);
            pair.a.request(0, 1, 1, 2);
            pair.a.request(0, 1, 1, 2, 3);
            pair.a.request(0, 1, 1, 2, 3, 4);
            pair.a.request(0, 1, 1, 2, 3, 4, 5);
            pair.a.request(0, 1, 1, 2, 3, 4, 5, 6);
            pair.a.request(0, 1, 1, 2, 3, 4, 5, 6, 7);
            pair.a.request(0, 1, 1, 2, 3, 4, 5, 6, 7, 8);
            pair.pollUntil(() -> seen.size() == 9, 100);
            for (int n = 0; n <= 8; n++)
            {
                assertEquals(n, seen.get(n).args.length);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(i + 1, seen.get(n).args[i]);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 63, 64, 1000, 4096, Am.MAX_MEDIUM })
    void mediumRequestAndReplyCarryTheirData(final int length)
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.PAR))
        {
            final byte[] bytes = randomBytes(length);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[length + 10]);
            src.putBytes(10, bytes);
            pair.b.handler(1, (token, msg) ->
            {
                record(token, msg);
                token.replyMedium(2, msg.data(), 0, msg.dataLength(), msg.dataLength());
            });
            pair.a.handler(2, this::record);

            assertEquals(Am.OK, pair.a.requestMedium(0, 1, src, 10, length, 42, 43));
            pair.pollUntil(() -> seen.size() == 2, 1000);

            assertEquals(Opcode.REQUEST_MEDIUM, seen.get(0).opcode);
            assertArrayEquals(bytes, seen.get(0).data);
            assertArrayEquals(new int[] { 42, 43 }, seen.get(0).args);
            assertEquals(Opcode.REPLY_MEDIUM, seen.get(1).opcode);
            assertArrayEquals(bytes, seen.get(1).data);
            assertArrayEquals(new int[] { length }, seen.get(1).args);
            assertEquals(length, pair.a.statistics().get("inproc", Counter.BYTES_SENT));
            assertEquals(length, pair.a.statistics().get("inproc", Counter.BYTES_RECEIVED));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 100, Am.MAX_LONG })
    void longRequestAndReplyWriteIntoTheSegment(final int length)
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final AtomicBuffer segB = pair.b.allocateSegment(3 * Am.MAX_LONG);
            final AtomicBuffer segA = pair.a.allocateSegment(2 * Am.MAX_LONG);
            assertSame(segB, pair.b.segment());
            final byte[] bytes = randomBytes(length);
            final UnsafeBuffer src = new UnsafeBuffer(bytes);
            pair.b.handler(1, (token, msg) ->
            {
                record(token, msg);
                token.replyLong(2, msg.data(), 0, msg.dataLength(), 5, msg.arg(0));
            });
            pair.a.handler(2, this::record);

            assertEquals(Am.OK, pair.a.requestLong(0, 1, src, 0, length, Am.MAX_LONG + 3, 9));
            pair.pollUntil(() -> seen.size() == 2, 1000);

            final Seen request = seen.get(0);
            assertEquals(Opcode.REQUEST_LONG, request.opcode);
            assertEquals(Am.MAX_LONG + 3, request.segmentOffset);
            assertArrayEquals(bytes, request.data);
            final byte[] inSegment = new byte[length];
            segB.getBytes(Am.MAX_LONG + 3, inSegment);
            assertArrayEquals(bytes, inSegment);

            assertEquals(Opcode.REPLY_LONG, seen.get(1).opcode);
            assertEquals(5, seen.get(1).segmentOffset);
            segA.getBytes(5, inSegment);
            assertArrayEquals(bytes, inSegment);
            assertArrayEquals(new int[] { 9 }, seen.get(1).args);
        }
    }

    @Test
    void longRequestIntoAUserSegment()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final UnsafeBuffer segment = new UnsafeBuffer(new byte[256]);
            pair.b.segment(segment);
            assertSame(segment, pair.b.segment());
            pair.b.handler(1, this::record);
            pair.a.requestLong(0, 1, new UnsafeBuffer(new byte[] { 1, 2, 3 }), 0, 3, 253);
            pair.pollUntil(() -> seen.size() == 1, 100);
            assertEquals(3, segment.getByte(255));
        }
    }

    @Test
    void bulkTransferPipelinesChunksIntoTheSegment()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            final int length = 5 * Am.MAX_LONG + 123;
            final AtomicBuffer segment = pair.b.allocateSegment(length + 7);
            final byte[] bytes = randomBytes(length);
            final long[] received = new long[1];
            pair.b.handler(3, (token, msg) ->
            {
                assertEquals(77, msg.arg(0));
                assertEquals(78, msg.arg(1));
                received[0] += msg.dataLength();
            });
            final int chunks = pair.a.requestBulk(0, 3, new UnsafeBuffer(bytes), 0, length, 7, 77, 78);
            assertEquals(6, chunks);
            pair.pollUntil(() -> received[0] == length, 1000);
            final byte[] copy = new byte[length];
            segment.getBytes(7, copy);
            assertArrayEquals(bytes, copy);
        }
    }

    @Test
    void asyncLongRequestReturnsInUseWhenTheQueueIsFull()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            pair.b.allocateSegment(Am.MAX_LONG);
            pair.b.handler(1, this::record);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[16]);
            int sent = 0;
            int result;
            while ((result = pair.a.requestLongAsync(0, 1, src, 0, 16, 0, sent)) == Am.OK)
            {
                sent++;
                assertTrue(sent < 1_000_000, "the queue never filled");
            }
            assertEquals(AmError.IN_USE.code(), result);
            assertTrue(sent > 0);
            final int total = sent;
            pair.pollUntil(() -> seen.size() == total, 10_000);
            for (int i = 0; i < total; i++)
            {
                assertEquals(i, seen.get(i).args[0]);
            }
        }
    }

    @Test
    void aFullQueueIsWaitedOutAndNothingIsLost()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final int count = 50_000;
            final int[] next = new int[1];
            final int[] replies = new int[1];
            pair.b.handler(1, (token, msg) ->
            {
                assertEquals(next[0]++, msg.arg(0));
                token.reply(2);
            });
            pair.a.handler(2, (token, msg) -> replies[0]++);
            for (int i = 0; i < count; i++)
            {
                pair.a.request(0, 1, i);
            }
            pair.pollUntil(() -> replies[0] == count, 100_000);
            assertEquals(count, next[0]);
            assertTrue(pair.a.statistics().get("inproc", Counter.QUEUE_FULL_BACKOFFS) > 0,
                "the flood never filled the queue");
            assertEquals(count, pair.a.statistics().get("inproc", Counter.REQUESTS_SENT));
            assertEquals(count, pair.b.statistics().get("inproc", Counter.REPLIES_SENT));
            assertEquals(count, pair.a.statistics().get("inproc", Counter.REPLIES_RECEIVED));
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aMessageReturnedWhileASendWaitsForSpaceDoesNotReplaceTheMessageBeingSent() throws InterruptedException
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            // a's request to b waits for space in b's full queue, polling a's bundle, where more requests naming a
            // handler a lacks than one poll takes are waiting: a returns them while its own request waits. The
            // waiting send must still deliver its own message, and only that.
            final Endpoint c = pair.bundleA.allocateEndpoint();
            final int toA = c.mapAny(pair.a.name(), pair.a.tag());
            final int[] returnedAtB = new int[1];
            final java.util.concurrent.atomic.AtomicInteger returnedAtC = new java.util.concurrent.atomic.AtomicInteger();
            pair.b.handler(0, (token, msg) -> returnedAtB[0]++);
            c.handler(0, (token, msg) -> returnedAtC.incrementAndGet());
            pair.b.handler(1, this::record);
            int filled = 0;
            while (Am.OK == pair.a.requestN(0, MessageCategory.SHORT, 1, null, 0, 0, -1, true, 1, filled, 0, 0, 0, 0,
                0, 0, 0))
            {
                filled++;
                assertTrue(filled < 1_000_000, "b's queue never filled");
            }
            final int bad = 3 * BundleCore.POLL_BUDGET;
            for (int i = 0; i < bad; i++)
            {
                assertEquals(Am.OK, c.request(toA, 9, i));
            }
            final int expected = filled + 1;
            final Throwable[] drainerFailure = new Throwable[1];
            final Thread drainer = new Thread(() ->
            {
                try
                {
                    // b's queue stays full until a's send is waiting and has returned c's messages in its polls.
                    while (0 == returnedAtC.get())
                    {
                        Thread.sleep(1);
                    }
                    final long deadline = System.nanoTime() + 10_000_000_000L;
                    while (System.nanoTime() < deadline && seen.size() < expected)
                    {
                        pair.bundleB.poll();
                    }
                    for (int i = 0; i < 1_000; i++)
                    {
                        pair.bundleB.poll();
                    }
                }
                catch (final Throwable ex)
                {
                    drainerFailure[0] = ex;
                }
            });
            drainer.start();
            assertEquals(Am.OK, pair.a.request(0, 1, -1, 5, 6));
            // No poll before a send by default: c's returned messages were handled by the polls of the waiting send.
            assertTrue(returnedAtC.get() > 0, "a's request never waited: b's queue was emptied first");
            drainer.join();
            assertNull(drainerFailure[0]);

            assertEquals(expected, seen.size(), "b got something else, or not a's last request");
            assertArrayEquals(new int[] { -1, 5, 6 }, seen.get(filled).args);
            assertEquals(0, returnedAtB[0], "b got a returned message it never sent");
            for (int i = 0; i < 1_000 && returnedAtC.get() < bad; i++)
            {
                pair.bundleA.poll();
            }
            assertEquals(bad, returnedAtC.get());
        }
    }

    @Test
    void anEndpointCanMessageItself()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final int self = pair.a.mapAny(pair.a.name(), pair.a.tag());
            pair.a.handler(1, (token, msg) -> token.reply(2, msg.arg(0)));
            pair.a.handler(2, this::record);
            pair.a.request(self, 1, 99);
            pair.pollUntil(() -> seen.size() == 1, 100);
            assertEquals(99, seen.get(0).args[0]);
            assertEquals(pair.a.name(), seen.get(0).source);
        }
    }

    @Test
    void movingAnEndpointChangesTheBundleThatPollsIt()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            pair.b.handler(1, this::record);
            pair.bundleA.moveEndpoint(pair.b);
            assertSame(pair.bundleA, pair.b.bundle());
            assertFalse(pair.bundleB.endpoints().contains(pair.b));
            assertTrue(pair.bundleA.endpoints().contains(pair.b));
            pair.a.request(0, 1, 5);
            assertEquals(0, pair.bundleB.poll());
            assertEquals(1, pair.bundleA.poll());
            assertNotNull(seen.get(0));
        }
    }

    static byte[] randomBytes(final int length)
    {
        final byte[] bytes = new byte[length];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
