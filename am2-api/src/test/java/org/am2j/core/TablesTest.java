package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Handler;
import org.am2j.api.Tags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Translation tables, handler tables, tags and names behave as AM-II says.
 */
@Timeout(30)
class TablesTest
{
    @Test
    void aNewEndpointHasTagNoneAnEmptyTableAndTheDefaultReturnedHandler()
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint ep = bundle.allocateEndpoint();
            assertEquals(Tags.NONE, ep.tag());
            assertEquals(Am.DEFAULT_TRANSLATIONS, ep.numTranslations());
            for (int i = 0; i < ep.numTranslations(); i++)
            {
                assertFalse(ep.isMapped(i));
            }
            assertNotNull(ep.handler(0));
            assertEquals(null, ep.handler(1));
            assertSame(bundle, ep.bundle());
            assertEquals(Am.node(), ep.name().node());
            assertEquals(ProcessHandle.current().pid(), ep.name().pid());
        }
    }

    @Test
    void namesAreUniqueAndSurviveTheirBinaryForm()
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint a = bundle.allocateEndpoint();
            final Endpoint b = bundle.allocateEndpoint();
            assertNotEquals(a.name(), b.name());
            final EndpointName copy = EndpointName.fromBytes(a.name().toBytes());
            assertEquals(a.name(), copy);
            assertEquals(a.name().hashCode(), copy.hashCode());
            assertTrue(a.name().sameNode(b.name()));
        }
    }

    @Test
    void freshTagsAreNeitherNoneNorAllAndDiffer()
    {
        final long t1 = Tags.fresh();
        final long t2 = Tags.fresh();
        assertNotEquals(Tags.NONE, t1);
        assertNotEquals(Tags.ALL, t1);
        assertNotEquals(t1, t2);
        assertTrue(Tags.accepts(Tags.ALL, 5));
        assertFalse(Tags.accepts(Tags.NONE, Tags.NONE));
        assertTrue(Tags.accepts(t1, t1));
        assertFalse(Tags.accepts(t1, t2));
    }

    @Test
    void mapQueryUnmapAndRemap()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.a.map(7, pair.b.name(), 99);
            assertTrue(pair.a.isMapped(7));
            assertEquals(99, pair.a.translationTag(7));
            assertEquals(pair.b.name(), pair.a.translationName(7));
            assertEquals("inproc", pair.a.translationTransport(7));

            final AmException inUse = assertThrows(AmException.class, () -> pair.a.map(7, pair.b.name(), 1));
            assertEquals(AmError.RESOURCE, inUse.error());

            pair.a.unmap(7);
            assertFalse(pair.a.isMapped(7));
            assertThrows(AmException.class, () -> pair.a.translationTag(7));
            assertThrows(AmException.class, () -> pair.a.request(7, 1));
            pair.a.map(7, pair.b.name(), 100);
            assertEquals(100, pair.a.translationTag(7));
        }
    }

    @Test
    void mapAnyFillsTheTableInOrderAndReportsWhenFull()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.a.numTranslations(4);
            assertEquals(4, pair.a.numTranslations());
            assertEquals(1, pair.a.mapAny(pair.b.name(), 1));
            assertEquals(2, pair.a.mapAny(pair.b.name(), 2));
            assertEquals(3, pair.a.mapAny(pair.b.name(), 3));
            final AmException full = assertThrows(AmException.class, () -> pair.a.mapAny(pair.b.name(), 4));
            assertEquals(AmError.RESOURCE, full.error());
            pair.a.unmap(2);
            assertEquals(2, pair.a.mapAny(pair.b.name(), 5));
        }
    }

    @Test
    void resizingKeepsEntriesAndRefusesToDropMappedOnes()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.a.map(10, pair.b.name(), 1);
            final AmException error = assertThrows(AmException.class, () -> pair.a.numTranslations(10));
            assertEquals(AmError.RESOURCE, error.error());
            assertTrue(error.getMessage().contains("10"), error.getMessage());
            pair.a.numTranslations(Am.MAX_TRANSLATIONS);
            assertTrue(pair.a.isMapped(10));
            assertTrue(pair.a.isMapped(0));
            pair.a.map(Am.MAX_TRANSLATIONS - 1, pair.b.name(), 1);
            pair.a.unmap(Am.MAX_TRANSLATIONS - 1);
            pair.a.numTranslations(11);
            assertTrue(pair.a.isMapped(10));
            pair.a.expectedResources(300, 16);
            assertEquals(300, pair.a.numTranslations());
        }
    }

    @Test
    void handlerAnyFillsFromOneAndReportsWhenFull()
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint ep = bundle.allocateEndpoint();
            final Handler h = (token, msg) -> { };
            ep.handler(1, h);
            assertSame(h, ep.handler(1));
            for (int expected = 2; expected < Am.NUM_HANDLERS; expected++)
            {
                assertEquals(expected, ep.handlerAny(h));
            }
            final AmException full = assertThrows(AmException.class, () -> ep.handlerAny(h));
            assertEquals(AmError.RESOURCE, full.error());
            ep.handler(5, null);
            assertEquals(5, ep.handlerAny(h));
        }
    }

    @Test
    void closingABundleClosesItsEndpoints()
    {
        final Bundle bundle = Am.allocateBundle(BundleKind.SEQ);
        final Endpoint ep = bundle.allocateEndpoint();
        bundle.close();
        assertTrue(bundle.isClosed());
        assertTrue(ep.isClosed());
        assertEquals(AmError.NOT_INIT, assertThrows(AmException.class, () -> ep.tag(1)).error());
        assertEquals(AmError.NOT_INIT, assertThrows(AmException.class, bundle::poll).error());
        assertEquals(AmError.NOT_INIT, assertThrows(AmException.class, bundle::allocateEndpoint).error());
        bundle.close();
        ep.close();
    }

    @Test
    void handlersInstalledByConcurrentThreadsAreAllKept() throws Exception
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.PAR))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            final int threads = 4;
            final int perThread = (Am.NUM_HANDLERS - 1) / threads;
            final Handler[][] installed = new Handler[threads][perThread];
            final java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
            final Thread[] workers = new Thread[threads];
            final Throwable[] failures = new Throwable[threads];
            for (int t = 0; t < threads; t++)
            {
                final int thread = t;
                workers[t] = new Thread(() ->
                {
                    try
                    {
                        start.await();
                        for (int i = 0; i < perThread; i++)
                        {
                            final Handler handler = (token, msg) -> { };
                            installed[thread][i] = handler;
                            // every thread on its own indices, interleaved with the others'
                            endpoint.handler(1 + i * threads + thread, handler);
                        }
                    }
                    catch (final Throwable ex)
                    {
                        failures[thread] = ex;
                    }
                });
                workers[t].start();
            }
            for (int t = 0; t < threads; t++)
            {
                workers[t].join(10_000);
                assertFalse(workers[t].isAlive());
                assertEquals(null, failures[t]);
            }
            for (int t = 0; t < threads; t++)
            {
                for (int i = 0; i < perThread; i++)
                {
                    assertSame(installed[t][i], endpoint.handler(1 + i * threads + t), "index " + (1 + i * threads + t));
                }
            }
        }
    }
}
