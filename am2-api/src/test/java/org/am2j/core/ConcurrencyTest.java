package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * PAR bundles take many threads at once and lose nothing; SEQ bundles refuse a second thread while one is inside,
 * and may be handed from thread to thread between calls.
 */
@Timeout(60)
class ConcurrencyTest
{
    @Test
    void manyThreadsSendToOneParEndpointAndEveryMessageArrivesOnce() throws Exception
    {
        final int senders = 4;
        final int perSender = 20_000;
        try (Bundle server = Am.allocateBundle(BundleKind.PAR);
            Bundle clients = Am.allocateBundle(BundleKind.PAR))
        {
            final Endpoint target = server.allocateEndpoint();
            target.tag(Tags.fresh());
            final AtomicReferenceArray<boolean[]> seen = new AtomicReferenceArray<>(senders);
            for (int i = 0; i < senders; i++)
            {
                seen.set(i, new boolean[perSender]);
            }
            final AtomicInteger duplicates = new AtomicInteger();
            final AtomicInteger received = new AtomicInteger();
            target.handler(1, (token, msg) ->
            {
                final boolean[] mine = seen.get(msg.arg(0));
                if (mine[msg.arg(1)])
                {
                    duplicates.incrementAndGet();
                }
                mine[msg.arg(1)] = true;
                received.incrementAndGet();
                token.reply(2);
            });

            final List<Thread> threads = new ArrayList<>();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final AtomicInteger replies = new AtomicInteger();
            final CountDownLatch sent = new CountDownLatch(senders);
            for (int s = 0; s < senders; s++)
            {
                final int sender = s;
                final Endpoint ep = clients.allocateEndpoint();
                ep.tag(Tags.fresh());
                ep.map(0, target.name(), target.tag());
                ep.handler(2, (token, msg) -> replies.incrementAndGet());
                threads.add(new Thread(() ->
                {
                    try
                    {
                        for (int i = 0; i < perSender; i++)
                        {
                            ep.request(0, 1, sender, i);
                            if (0 == (i & 63))
                            {
                                clients.poll();
                            }
                        }
                    }
                    catch (final Throwable t)
                    {
                        failure.set(t);
                    }
                    finally
                    {
                        sent.countDown();
                    }
                }, "sender-" + s));
            }
            final Thread[] pollers = new Thread[2];
            for (int p = 0; p < pollers.length; p++)
            {
                pollers[p] = new Thread(() ->
                {
                    while (received.get() < senders * perSender && null == failure.get())
                    {
                        server.poll();
                    }
                }, "server-poller-" + p);
                pollers[p].start();
            }
            threads.forEach(Thread::start);
            assertTrue(sent.await(50, TimeUnit.SECONDS), "senders did not finish");
            while (replies.get() < senders * perSender && null == failure.get())
            {
                clients.poll();
            }
            for (final Thread poller : pollers)
            {
                poller.join(10_000);
            }
            if (null != failure.get())
            {
                throw new AssertionError(failure.get());
            }
            assertEquals(senders * perSender, received.get());
            assertEquals(0, duplicates.get());
            for (int s = 0; s < senders; s++)
            {
                for (int i = 0; i < perSender; i++)
                {
                    assertTrue(seen.get(s)[i], "lost message " + s + "/" + i);
                }
            }
        }
    }

    @Test
    void aSeqBundleRefusesASecondThreadWhileTheFirstIsInside() throws Exception
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final CountDownLatch inside = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            pair.b.handler(1, (token, msg) ->
            {
                inside.countDown();
                try
                {
                    release.await(20, TimeUnit.SECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            });
            pair.a.request(0, 1);
            final Thread poller = new Thread(pair.bundleA::poll, "owner");
            poller.start();
            assertTrue(inside.await(20, TimeUnit.SECONDS));

            final AmException error = org.junit.jupiter.api.Assertions.assertThrows(AmException.class,
                () -> pair.a.request(0, 1));
            assertEquals(AmError.IN_USE, error.error());
            assertTrue(error.getMessage().contains("PAR"), error.getMessage());
            org.junit.jupiter.api.Assertions.assertThrows(AmException.class, pair.bundleA::poll);

            release.countDown();
            poller.join(20_000);

            // Between calls the bundle may change hands.
            final int[] got = new int[1];
            pair.b.handler(2, (token, msg) -> got[0]++);
            pair.a.request(0, 2);
            pair.pollUntil(() -> got[0] == 1, 100);
        }
    }
}
