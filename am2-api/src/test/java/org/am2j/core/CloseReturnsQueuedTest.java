package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Freeing an endpoint loses nothing queued for it, in-process: with senders on other threads flooding it while it is
 * freed, every request comes out exactly once, either delivered (its handler ran) or returned to its sender's handler
 * 0 with EBADENDPOINT; every reply queued for it goes back to its replier with EREPLYREJECTED; and what it sent to
 * itself comes back to its own handler 0 during the free. Per sender: sent = delivered + returned, nothing both,
 * nothing twice.
 */
@Timeout(60)
class CloseReturnsQueuedTest
{
    private static final int SENDERS = 4;
    private static final int PER_SENDER = 4_000;
    /** Requests the receiver delivers before it stops polling and is freed. */
    private static final int DELIVERED_BEFORE_CLOSE = 1_000;
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;

    /** What one sender saw: per sequence number, how often it was delivered at the receiver and returned to it. */
    private static final class Ledger
    {
        final AtomicIntegerArray delivered = new AtomicIntegerArray(PER_SENDER);
        final AtomicIntegerArray returned = new AtomicIntegerArray(PER_SENDER);
        final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

        int total()
        {
            int total = 0;
            for (int seq = 0; seq < PER_SENDER; seq++)
            {
                total += delivered.get(seq) + returned.get(seq);
            }
            return total;
        }

        int count(final AtomicIntegerArray array)
        {
            int count = 0;
            for (int seq = 0; seq < PER_SENDER; seq++)
            {
                count += array.get(seq);
            }
            return count;
        }

        /** Nothing both, nothing twice, nothing missing. */
        void check(final String who)
        {
            assertTrue(errors.isEmpty(), who + ": " + errors.size() + " errors, the first: " + errors.peek());
            for (int seq = 0; seq < PER_SENDER; seq++)
            {
                assertEquals(1, delivered.get(seq) + returned.get(seq), who + " message " + seq + " delivered " +
                    delivered.get(seq) + " times and returned " + returned.get(seq) + " times");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(BundleKind.class)
    void anEndpointFreedWhileFourSendersFloodItReturnsEveryRequestItDidNotDeliver(final BundleKind kind)
        throws Exception
    {
        final Ledger[] ledgers = new Ledger[SENDERS];
        for (int i = 0; i < SENDERS; i++)
        {
            ledgers[i] = new Ledger();
        }
        final AtomicInteger deliveredTotal = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch mapped = new CountDownLatch(SENDERS);
        final AtomicBoolean closed = new AtomicBoolean();

        try (Bundle receiverBundle = Am.allocateBundle(kind))
        {
            final Endpoint receiver = receiverBundle.allocateEndpoint();
            receiver.tag(Tags.fresh());
            receiver.handler(H_REQUEST, (token, msg) ->
            {
                final int sender = msg.arg(0);
                final int seq = msg.arg(1);
                ledgers[sender].delivered.incrementAndGet(seq);
                if (msg.dataLength() != seq % 64)
                {
                    ledgers[sender].errors.add("request " + seq + " arrived with " + msg.dataLength() + " bytes");
                }
                deliveredTotal.incrementAndGet();
            });

            final List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < SENDERS; i++)
            {
                final int id = i;
                threads.add(start("sender-" + id, failure, () -> send(id, receiver, ledgers[id], mapped)));
            }
            assertTrue(mapped.await(20, TimeUnit.SECONDS), "senders did not start");

            final Runnable receive = () ->
            {
                while (deliveredTotal.get() < DELIVERED_BEFORE_CLOSE && null == failure.get())
                {
                    receiverBundle.poll();
                }
            };
            if (BundleKind.SEQ == kind)
            {
                // The owner thread receives for a while, stops (the senders fill its queues), then frees it.
                final Thread owner = start("receiver", failure, () ->
                {
                    receive.run();
                    pause();
                    receiver.close();
                    closed.set(true);
                });
                owner.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NS));
            }
            else
            {
                // Two threads poll the PAR bundle, then slow down (the senders fill its queues), and a third frees
                // the endpoint while they may be polling it.
                final List<Thread> pollers = new ArrayList<>();
                for (int p = 0; p < 2; p++)
                {
                    pollers.add(start("poller-" + p, failure, () ->
                    {
                        while (!closed.get() && null == failure.get())
                        {
                            receiverBundle.poll();
                            if (deliveredTotal.get() >= DELIVERED_BEFORE_CLOSE)
                            {
                                LockSupport.parkNanos(1_000_000L);
                            }
                        }
                    }));
                }
                final long deadline = System.nanoTime() + WAIT_NS;
                while (deliveredTotal.get() < DELIVERED_BEFORE_CLOSE && System.nanoTime() < deadline &&
                    null == failure.get())
                {
                    Thread.onSpinWait();
                }
                pause();
                receiver.close();
                closed.set(true);
                for (final Thread poller : pollers)
                {
                    poller.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NS));
                }
            }
            for (final Thread thread : threads)
            {
                thread.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NS));
                assertTrue(!thread.isAlive(), thread.getName() + " did not finish");
            }
        }
        if (null != failure.get())
        {
            fail("a thread failed", failure.get());
        }
        assertTrue(closed.get(), "the receiver was not freed");

        int returned = 0;
        for (int i = 0; i < SENDERS; i++)
        {
            ledgers[i].check("sender " + i);
            returned += ledgers[i].count(ledgers[i].returned);
        }
        assertTrue(deliveredTotal.get() >= DELIVERED_BEFORE_CLOSE, "delivered " + deliveredTotal.get());
        assertTrue(returned > 0, "nothing was returned");
    }

    /**
     * One sender: floods the receiver with short and medium requests, polling its own bundle for the returned ones,
     * until it has sent them all; then polls until each is accounted for.
     */
    private static void send(final int id, final Endpoint receiver, final Ledger ledger, final CountDownLatch mapped)
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.handler(0, (token, msg) ->
            {
                if (ReturnStatus.EBADENDPOINT != msg.returnStatus())
                {
                    ledger.errors.add("returned with " + msg.returnStatus());
                }
                ledger.returned.incrementAndGet(msg.arg(1));
            });
            endpoint.map(0, receiver.name(), receiver.tag());
            mapped.countDown();
            final UnsafeBuffer data = new UnsafeBuffer(new byte[64]);
            for (int seq = 0; seq < PER_SENDER; seq++)
            {
                final int length = seq % 64;
                if (0 == length)
                {
                    endpoint.request(0, H_REQUEST, id, seq);
                }
                else
                {
                    endpoint.requestMedium(0, H_REQUEST, data, 0, length, id, seq);
                }
                if (0 == seq % 16)
                {
                    bundle.poll();
                }
            }
            final long deadline = System.nanoTime() + WAIT_NS;
            while (ledger.total() < PER_SENDER && System.nanoTime() < deadline)
            {
                bundle.poll();
                Thread.yield();
            }
            assertEquals(PER_SENDER, ledger.total(), "sender " + id + ": delivered + returned");
            assertEquals(ledger.count(ledger.returned), endpoint.statistics().returned(ReturnStatus.EBADENDPOINT),
                "sender " + id + ": returned-message statistics");
        }
    }

    /**
     * Replies queued for an endpoint when it is freed go back to their replier with EREPLYREJECTED; the replies it
     * had already run are not returned.
     */
    @Test
    void repliesQueuedForAFreedEndpointGoBackToTheirReplier() throws Exception
    {
        final int requests = 600;
        final int deliveredBeforeClose = 200;
        final AtomicIntegerArray repliesDelivered = new AtomicIntegerArray(requests);
        final AtomicIntegerArray repliesReturned = new AtomicIntegerArray(requests);
        final AtomicInteger replied = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicBoolean requesterClosed = new AtomicBoolean();
        final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

        try (Bundle replierBundle = Am.allocateBundle(BundleKind.SEQ);
            Bundle requesterBundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint replier = replierBundle.allocateEndpoint();
            final Endpoint requester = requesterBundle.allocateEndpoint();
            replier.tag(Tags.fresh());
            replier.handler(H_REQUEST, (token, msg) ->
            {
                token.reply(H_REPLY, msg.arg(0));
                replied.incrementAndGet();
            });
            replier.handler(0, (token, msg) ->
            {
                if (ReturnStatus.EREPLYREJECTED != msg.returnStatus() || msg.opcode().isRequest())
                {
                    errors.add("replier got back " + msg.opcode() + " " + msg.returnStatus());
                }
                repliesReturned.incrementAndGet(msg.arg(0));
            });
            requester.handler(H_REPLY, (token, msg) -> repliesDelivered.incrementAndGet(msg.arg(0)));
            requester.handler(0, (token, msg) -> errors.add("requester got back " + msg.returnStatus()));
            requester.map(0, replier.name(), replier.tag());

            // The replier answers everything, concurrently with the requester's polls and its free.
            final Thread replying = start("replier", failure, () ->
            {
                final long deadline = System.nanoTime() + WAIT_NS;
                while ((!requesterClosed.get() || replied.get() < requests) && System.nanoTime() < deadline)
                {
                    replierBundle.poll();
                }
                while (sum(repliesDelivered) + sum(repliesReturned) < requests && System.nanoTime() < deadline)
                {
                    replierBundle.poll();
                }
            });
            for (int seq = 0; seq < requests; seq++)
            {
                requester.request(0, H_REQUEST, seq);
            }
            final long deadline = System.nanoTime() + WAIT_NS;
            while (sum(repliesDelivered) < deliveredBeforeClose && System.nanoTime() < deadline)
            {
                requesterBundle.poll();
            }
            // Let replies pile up in the requester's reply queue, then free it.
            while (replied.get() < requests / 2 + deliveredBeforeClose && System.nanoTime() < deadline)
            {
                Thread.yield();
            }
            requester.close();
            requesterClosed.set(true);
            replying.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NS));
            assertTrue(!replying.isAlive(), "the replier did not finish");
        }
        if (null != failure.get())
        {
            fail("a thread failed", failure.get());
        }
        assertTrue(errors.isEmpty(), errors.size() + " errors, the first: " + errors.peek());
        assertEquals(requests, replied.get(), "requests answered");
        for (int seq = 0; seq < requests; seq++)
        {
            assertEquals(1, repliesDelivered.get(seq) + repliesReturned.get(seq), "reply " + seq + " delivered " +
                repliesDelivered.get(seq) + " times and returned " + repliesReturned.get(seq) + " times");
        }
        assertTrue(sum(repliesReturned) > 0, "no reply was returned");
    }

    /**
     * What an endpoint sent itself and had not delivered, and its own returned messages still queued, reach its
     * handler 0 while it is freed.
     */
    @Test
    void messagesAnEndpointSentItselfComeBackToItsOwnHandlerZero()
    {
        final int requests = 50;
        final List<String> returned = new ArrayList<>();
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(H_REQUEST, (token, msg) -> fail("delivered after the free began"));
            endpoint.handler(0, (token, msg) -> returned.add(msg.returnStatus() + " " + msg.arg(0)));
            final int self = endpoint.mapAny(endpoint.name(), endpoint.tag());
            final int wrongTag = endpoint.mapAny(endpoint.name(), endpoint.tag() + 1);
            // Refused at the send (a tag mismatch): returned into this endpoint's own reply queue, not yet polled.
            endpoint.request(wrongTag, H_REQUEST, -1);
            for (int seq = 0; seq < requests; seq++)
            {
                endpoint.request(self, H_REQUEST, seq);
            }
            assertEquals(0, returned.size());
            endpoint.close();
            assertEquals(requests + 1, returned.size(), returned.toString());
            assertEquals(ReturnStatus.EBADTAG + " -1", returned.get(0));
            for (int seq = 0; seq < requests; seq++)
            {
                assertEquals(ReturnStatus.EBADENDPOINT + " " + seq, returned.get(seq + 1));
            }
        }
    }

    /**
     * A handler 0 that throws while the endpoint is freed (it runs for the endpoint's own messages) does not stop the
     * free: the failure is logged and the rest still come back.
     */
    @Test
    void aThrowingHandlerZeroDoesNotStopTheFree()
    {
        final int requests = 20;
        final List<Integer> returned = new ArrayList<>();
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(H_REQUEST, (token, msg) -> fail("delivered after the free began"));
            endpoint.handler(0, (token, msg) ->
            {
                returned.add(msg.arg(0));
                if (0 == msg.arg(0) % 5)
                {
                    throw new IllegalStateException("handler 0 fails on " + msg.arg(0) + " (expected by the test)");
                }
            });
            final int self = endpoint.mapAny(endpoint.name(), endpoint.tag());
            for (int seq = 0; seq < requests; seq++)
            {
                endpoint.request(self, H_REQUEST, seq);
            }
            endpoint.close();
            assertTrue(endpoint.isClosed());
            assertEquals(requests, returned.size(), returned.toString());
            for (int seq = 0; seq < requests; seq++)
            {
                assertEquals(seq, returned.get(seq));
            }
        }
    }

    private static int sum(final AtomicIntegerArray array)
    {
        int sum = 0;
        for (int i = 0; i < array.length(); i++)
        {
            sum += array.get(i);
        }
        return sum;
    }

    private static void pause()
    {
        try
        {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread start(final String name, final AtomicReference<Throwable> failure, final Runnable body)
    {
        final Thread thread = new Thread(() ->
        {
            try
            {
                body.run();
            }
            catch (final Throwable ex)
            {
                failure.compareAndSet(null, ex);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
