package org.am2j.core;

import static org.am2j.core.BadArguments.COUNT;
import static org.am2j.core.BadArguments.NOOP;
import static org.am2j.core.BadArguments.assertAmException;
import static org.am2j.core.BadArguments.catching;
import static org.am2j.core.SendForms.senders;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.EventMask;
import org.am2j.api.MessageCategory;
import org.am2j.api.Tags;
import org.am2j.core.BadArguments.Fixture;
import org.am2j.core.BadArguments.Snapshot;
import org.am2j.core.SendForms.Sender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The other half of issue 2's "Bad input": every call on a closed endpoint or bundle throws {@link AmError#NOT_INIT};
 * every call into a SEQ bundle from a second thread while the first is inside it throws {@link AmError#IN_USE} (and
 * the same calls on a PAR bundle succeed); calls a handler may not make throw {@link AmError#BAD_ARG}. In each case
 * nothing is sent, nothing changes, and the other endpoints go on working.
 */
@Timeout(60)
class ClosedAndForeignThreadTest
{
    /** Handler of b that blocks the thread polling it until released. */
    private static final int BLOCK = 20;

    // ================================================================================================================
    // Closed endpoints
    // ================================================================================================================

    /** A call on an endpoint; callName is the name the error message gives the call, or null when it gives none. */
    record OnEndpoint(String name, String callName, BiConsumer<Fixture, Endpoint> call)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    /** Every public Endpoint call that takes part in AM-II, with valid arguments. */
    static List<OnEndpoint> endpointCalls()
    {
        final List<OnEndpoint> calls = new ArrayList<>(List.of(
            new OnEndpoint("tag(long)", "tag", (f, e) -> e.tag(Tags.fresh())),
            new OnEndpoint("map", "map", (f, e) -> e.map(1, f.b.name(), f.b.tag())),
            new OnEndpoint("mapAny", "mapAny", (f, e) -> e.mapAny(f.b.name(), f.b.tag())),
            new OnEndpoint("unmap", "unmap", (f, e) -> e.unmap(0)),
            new OnEndpoint("isMapped", "isMapped", (f, e) -> e.isMapped(0)),
            new OnEndpoint("translationTag", "translationTag", (f, e) -> e.translationTag(0)),
            new OnEndpoint("translationName", "translationName", (f, e) -> e.translationName(0)),
            new OnEndpoint("translationTransport", "translationTransport", (f, e) -> e.translationTransport(0)),
            new OnEndpoint("numTranslations()", null, (f, e) -> e.numTranslations()),
            new OnEndpoint("numTranslations(int)", "numTranslations", (f, e) -> e.numTranslations(300)),
            new OnEndpoint("expectedResources", "expectedResources", (f, e) -> e.expectedResources(4, 4)),
            new OnEndpoint("handler(int, Handler)", "handler", (f, e) -> e.handler(30, NOOP)),
            new OnEndpoint("handlerAny", "handlerAny", (f, e) -> e.handlerAny(NOOP)),
            new OnEndpoint("handler(int)", null, (f, e) -> e.handler(1)),
            new OnEndpoint("segment(AtomicBuffer)", "segment", (f, e) -> e.segment(null)),
            new OnEndpoint("allocateSegment", "allocateSegment", (f, e) -> e.allocateSegment(64))));
        for (final Sender sender : senders())
        {
            calls.add(new OnEndpoint(sender.name(), callOf(sender), (f, e) -> sender.send().send(e, f.valid())));
        }
        return calls;
    }

    enum HowClosed
    {
        /** Endpoint.close() (AM_FreeEndpoint); its bundle stays open. */
        ENDPOINT_CLOSED,
        /** Its bundle's close() (AM_FreeBundle). */
        BUNDLE_CLOSED
    }

    static Stream<Arguments> closedEndpointCalls()
    {
        return Stream.of(HowClosed.values())
            .flatMap(how -> endpointCalls().stream().map(call -> Arguments.of(how, call)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("closedEndpointCalls")
    void aCallOnAClosedEndpointThrowsNotInitAndTheOthersGoOn(final HowClosed how, final OnEndpoint call)
    {
        try (Fixture f = Fixture.twoBundles();
            Bundle own = Am.allocateBundle(BundleKind.SEQ))
        {
            final Bundle home = HowClosed.ENDPOINT_CLOSED == how ? f.pair.bundleA : own;
            final Endpoint closed = home.allocateEndpoint();
            closed.tag(Tags.fresh());
            closed.map(0, f.b.name(), f.b.tag());
            closed.handler(1, NOOP);
            if (HowClosed.ENDPOINT_CLOSED == how)
            {
                closed.close();
            }
            else
            {
                own.close();
            }
            assertTrue(closed.isClosed());
            final Snapshot before = f.snapshot();

            final AmException ex = assertAmException(AmError.NOT_INIT, catching(() -> call.call().accept(f, closed)),
                List.of("endpoint", "closed"));
            if (null != call.callName())
            {
                assertTrue(ex.getMessage().contains("(" + call.callName() + ")"),
                    () -> "message \"" + ex.getMessage() + "\" does not name the call " + call.callName());
            }

            assertTrue(closed.isClosed());
            f.assertUnchangedSince(before);
            f.assertRoundTrip();
        }
    }

    @ParameterizedTest
    @EnumSource(HowClosed.class)
    void aClosedEndpointClosesAgainHarmlesslyAndStillAnswersWhatItWas(final HowClosed how)
    {
        try (Fixture f = Fixture.twoBundles();
            Bundle own = Am.allocateBundle(BundleKind.PAR))
        {
            final Endpoint closed = own.allocateEndpoint();
            final var name = closed.name();
            if (HowClosed.ENDPOINT_CLOSED == how)
            {
                closed.close();
            }
            else
            {
                own.close();
            }
            assertDoesNotThrow(closed::close);
            assertDoesNotThrow(own::close);
            assertTrue(closed.isClosed());
            assertTrue(own.isClosed());
            assertEquals(name, closed.name());
            assertSame(own, closed.bundle());
            assertEquals(0, closed.statistics().total(Counter.REQUESTS_SENT));
            assertTrue(own.endpoints().isEmpty());
            assertEquals(BundleKind.PAR, own.kind());
            assertNotNull(own.eventMask());
            f.assertRoundTrip();
        }
    }

    @Test
    void aRequestToAClosedEndpointComesBackInsteadOfThrowing()
    {
        // The destination's being closed is not a bad argument of the sender: it is a returned message (EBADENDPOINT).
        try (Fixture f = Fixture.twoBundles())
        {
            final Endpoint doomed = f.pair.bundleB.allocateEndpoint();
            doomed.tag(Tags.ALL);
            f.a.map(1, doomed.name(), Tags.ALL);
            doomed.close();
            assertEquals(Am.OK, f.a.request(1, COUNT));
            f.pollUntil(() -> f.returnedToA.get() == 1);
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // Closed bundles
    // ================================================================================================================

    record OnBundle(String name, BiConsumer<Fixture, Bundle> call)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static Stream<OnBundle> closedBundleCalls()
    {
        return Stream.of(
            new OnBundle("allocateEndpoint()", (f, x) -> x.allocateEndpoint()),
            new OnBundle("moveEndpoint(an open endpoint)", (f, x) -> x.moveEndpoint(f.a)),
            new OnBundle("poll()", (f, x) -> x.poll()),
            new OnBundle("eventMask(NOTEMPTY)", (f, x) -> x.eventMask(EventMask.NOTEMPTY)),
            new OnBundle("waitSema()", (f, x) -> x.waitSema()),
            new OnBundle("waitSema(0, ms)", (f, x) -> x.waitSema(0, TimeUnit.MILLISECONDS)),
            new OnBundle("waitSema(1, s)", (f, x) -> x.waitSema(1, TimeUnit.SECONDS)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("closedBundleCalls")
    void aCallOnAClosedBundleThrowsNotInitAndTheOthersGoOn(final OnBundle call)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final Bundle closed = Am.allocateBundle(BundleKind.SEQ);
            closed.allocateEndpoint();
            closed.close();
            final Snapshot before = f.snapshot();
            assertAmException(AmError.NOT_INIT, () -> call.call().accept(f, closed), "bundle is closed");
            assertTrue(closed.isClosed());
            assertTrue(closed.endpoints().isEmpty());
            assertSame(f.pair.bundleA, f.a.bundle());
            f.assertUnchangedSince(before);
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // A second thread while the first is inside the bundle: SEQ refuses with IN_USE, PAR lets it in
    // ================================================================================================================

    /**
     * A {@link Fixture} in one bundle whose poller thread is held inside handler {@link #BLOCK} of b until released.
     */
    static final class Blocked implements AutoCloseable
    {
        final Fixture f;
        final Bundle bundle;
        final Bundle spareBundle;
        final Endpoint spare;
        final Snapshot before;
        final Thread poller;
        private final CountDownLatch inside = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicReference<Throwable> pollerFailure = new AtomicReference<>();
        private volatile boolean blockHandled;

        Blocked(final BundleKind kind) throws InterruptedException
        {
            f = new Fixture(Pair.inOneBundle(kind));
            bundle = f.pair.bundleA;
            f.a.map(1, f.b.name(), f.b.tag());
            spareBundle = Am.allocateBundle(kind);
            spare = spareBundle.allocateEndpoint();
            f.b.handler(BLOCK, (token, msg) ->
            {
                inside.countDown();
                try
                {
                    release.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
                blockHandled = true;
            });
            f.a.request(0, BLOCK);
            before = f.snapshot();
            poller = new Thread(() ->
            {
                try
                {
                    while (!blockHandled)
                    {
                        bundle.poll();
                    }
                }
                catch (final Throwable t)
                {
                    pollerFailure.set(t);
                    inside.countDown();
                }
            }, "poller-inside-" + kind);
            poller.start();
            inside.await();
            assertEquals(null, pollerFailure.get(), "the poller failed before entering the handler");
        }

        /** Let the poller leave the handler and the bundle; the calling thread may then take the bundle over. */
        void release() throws InterruptedException
        {
            release.countDown();
            poller.join();
            final Throwable failure = pollerFailure.get();
            if (null != failure)
            {
                throw new AssertionError("the poller thread failed", failure);
            }
        }

        @Override
        public void close() throws InterruptedException
        {
            release.countDown();
            poller.join();
            f.close();
            spareBundle.close();
        }
    }

    /**
     * A call into the bundle from a second thread. callName is the name the IN_USE message gives it; par says whether
     * the call also runs (and must succeed) on a PAR bundle; countedOnPar is how many requests it delivers to b.
     */
    record Foreign(String name, String callName, Consumer<Blocked> call, boolean par, int countedOnPar)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static Foreign both(final String name, final String callName, final Consumer<Blocked> call)
    {
        return new Foreign(name, callName, call, true, 0);
    }

    static Foreign seqOnly(final String name, final String callName, final Consumer<Blocked> call)
    {
        return new Foreign(name, callName, call, false, 0);
    }

    static List<Foreign> foreignCalls()
    {
        final List<Foreign> calls = new ArrayList<>(List.of(
            both("Endpoint.tag(long)", "tag", x -> x.f.a.tag(x.f.a.tag())),
            both("Endpoint.map", "map", x -> x.f.a.map(5, x.f.b.name(), x.f.b.tag())),
            both("Endpoint.mapAny", "mapAny", x -> x.f.a.mapAny(x.f.b.name(), x.f.b.tag())),
            both("Endpoint.unmap", "unmap", x -> x.f.a.unmap(1)),
            both("Endpoint.isMapped", "isMapped", x -> x.f.a.isMapped(0)),
            both("Endpoint.translationTag", "translationTag", x -> x.f.a.translationTag(0)),
            both("Endpoint.translationName", "translationName", x -> x.f.a.translationName(0)),
            both("Endpoint.translationTransport", "translationTransport", x -> x.f.a.translationTransport(0)),
            both("Endpoint.numTranslations(int)", "numTranslations", x -> x.f.a.numTranslations(300)),
            both("Endpoint.expectedResources", "expectedResources", x -> x.f.a.expectedResources(4, 4)),
            both("Endpoint.handler(int, Handler)", "handler", x -> x.f.a.handler(50, NOOP)),
            both("Endpoint.handlerAny", "handlerAny", x -> x.f.a.handlerAny(NOOP)),
            both("Endpoint.segment(AtomicBuffer)", "segment", x -> x.f.a.segment(x.f.a.segment())),
            both("Endpoint.allocateSegment", "allocateSegment", x -> x.f.a.allocateSegment(64)),
            seqOnly("Endpoint.close (of another endpoint of the bundle)", "Endpoint.close", x -> x.f.a.close()),
            seqOnly("Endpoint.close (of the endpoint whose handler runs)", "Endpoint.close", x -> x.f.b.close()),
            both("Bundle.allocateEndpoint", "allocateEndpoint", x -> x.bundle.allocateEndpoint()),
            both("Bundle.moveEndpoint (into the busy bundle)", "moveEndpoint", x -> x.bundle.moveEndpoint(x.spare)),
            both("Bundle.poll", "poll", x -> x.bundle.poll()),
            both("Bundle.eventMask(NOTEMPTY)", "eventMask", x -> x.bundle.eventMask(EventMask.NOTEMPTY)),
            seqOnly("Bundle.waitSema()", "waitSema", x -> x.bundle.waitSema()),
            seqOnly("Bundle.waitSema(0, ms)", "waitSema", x -> x.bundle.waitSema(0, TimeUnit.MILLISECONDS)),
            seqOnly("Bundle.close", "Bundle.close", x -> x.bundle.close())));
        for (final Sender sender : senders())
        {
            calls.add(new Foreign("Endpoint." + sender.name(), callOf(sender),
                x -> sender.send().send(x.f.a, x.f.valid()), true, 1));
        }
        return calls;
    }

    static Stream<Foreign> foreignCallsOnPar()
    {
        return foreignCalls().stream().filter(Foreign::par);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("foreignCalls")
    void aSeqBundleRefusesASecondThreadWhileTheFirstIsInside(final Foreign call) throws InterruptedException
    {
        try (Blocked x = new Blocked(BundleKind.SEQ))
        {
            final String self = Thread.currentThread().getName();
            assertAmException(AmError.IN_USE, () -> call.call().accept(x),
                "SEQ bundle", "thread '" + self + "' called " + call.callName() + " while thread '" +
                x.poller.getName() + "' is inside the bundle", "BundleKind.PAR");

            x.release();
            // Between calls the bundle may change hands: this thread takes it over again.
            assertFalse(x.bundle.isClosed());
            assertFalse(x.f.a.isClosed());
            assertFalse(x.f.b.isClosed());
            assertSame(x.spareBundle, x.spare.bundle());
            x.f.assertUnchangedSince(x.before);
            x.f.assertRoundTrip();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("foreignCallsOnPar")
    void aParBundleLetsASecondThreadInWhileTheFirstIsInside(final Foreign call) throws InterruptedException
    {
        try (Blocked x = new Blocked(BundleKind.PAR))
        {
            assertDoesNotThrow(() -> call.call().accept(x));
            x.release();
            x.f.settle();
            assertEquals(call.countedOnPar(), x.f.counted.get());
            assertEquals(0, x.f.returnedToA.get() + x.f.returnedToB.get(), "a message came back");
            x.f.assertRoundTrip();
        }
    }

    @Test
    void movingAnEndpointOutOfASeqBundleAnotherThreadIsInsideIsRefused() throws InterruptedException
    {
        try (Blocked x = new Blocked(BundleKind.SEQ);
            Bundle target = Am.allocateBundle(BundleKind.SEQ))
        {
            assertAmException(AmError.IN_USE, () -> target.moveEndpoint(x.f.a), "SEQ bundle", "moveEndpoint",
                "BundleKind.PAR");
            assertSame(x.bundle, x.f.a.bundle());
            assertTrue(target.endpoints().isEmpty());
            x.release();
            x.f.assertUnchangedSince(x.before);
            x.f.assertRoundTrip();
        }
    }

    @Test
    void aSeqBundleChangesHandsBetweenCalls() throws Exception
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread other = new Thread(() -> failure.set(catching(f::assertRoundTrip)), "second-owner");
            other.start();
            other.join();
            assertEquals(null, failure.get());
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // Calls a handler may not make
    // ================================================================================================================

    record InHandler(String name, BiConsumer<Fixture, Bundle> call, String fragment)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static Stream<InHandler> inHandlerCalls()
    {
        final List<InHandler> calls = new ArrayList<>(List.of(
            new InHandler("Bundle.poll() of its own bundle", (f, spare) -> f.pair.bundleB.poll(),
                "poll() may not be called from inside a handler"),
            new InHandler("Bundle.poll() of another bundle", (f, spare) -> f.pair.bundleA.poll(),
                "poll() may not be called from inside a handler"),
            new InHandler("Bundle.waitSema()", (f, spare) ->
            {
                f.pair.bundleB.eventMask(EventMask.NOTEMPTY);
                try
                {
                    f.pair.bundleB.waitSema();
                }
                finally
                {
                    f.pair.bundleB.eventMask(EventMask.NOEVENTS);
                }
            }, "waitSema() may not be called from inside a handler"),
            new InHandler("Bundle.waitSema(0, ms)", (f, spare) ->
            {
                f.pair.bundleB.eventMask(EventMask.NOTEMPTY);
                try
                {
                    f.pair.bundleB.waitSema(0, TimeUnit.MILLISECONDS);
                }
                finally
                {
                    f.pair.bundleB.eventMask(EventMask.NOEVENTS);
                }
            }, "waitSema() may not be called from inside a handler"),
            new InHandler("Bundle.moveEndpoint", (f, spare) -> f.pair.bundleB.moveEndpoint(
                spare.endpoints().get(0)), "may not be moved from inside a handler"),
            new InHandler("Bundle.close() of its own bundle", (f, spare) -> f.pair.bundleB.close(),
                "may not be freed from inside a handler"),
            new InHandler("Endpoint.close() of its own endpoint", (f, spare) -> f.b.close(),
                "may not be made from inside a handler"),
            new InHandler("Endpoint.close() of another endpoint", (f, spare) -> f.a.close(),
                "may not be made from inside a handler")));
        for (final Sender sender : senders())
        {
            calls.add(new InHandler("Endpoint." + sender.name() + " (a handler may only reply)",
                (f, spare) -> sender.send().send(f.b, f.valid()), "a request may not be made from inside a handler"));
        }
        return calls.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inHandlerCalls")
    void aCallAHandlerMayNotMakeThrowsAndTheHandlerCanStillReply(final InHandler call)
    {
        try (Fixture f = Fixture.twoBundles();
            Bundle spare = Am.allocateBundle(BundleKind.SEQ))
        {
            spare.allocateEndpoint();
            final AtomicReference<Throwable> thrown = new AtomicReference<>();
            final Snapshot before = f.snapshot();
            f.probe(0, (token, msg) -> thrown.set(catching(() -> call.call().accept(f, spare))));
            assertAmException(AmError.BAD_ARG, thrown.get(), List.of(call.fragment()));
            assertFalse(f.pair.bundleA.isClosed());
            assertFalse(f.pair.bundleB.isClosed());
            assertFalse(f.a.isClosed());
            assertFalse(f.b.isClosed());
            assertEquals(1, spare.endpoints().size());
            f.settle();
            assertEquals(before.probed() + 1, f.probed.get());
            assertEquals(0, f.counted.get() + f.returnedToA.get() + f.returnedToB.get(), "something was sent");
            assertEquals(EventMask.NOEVENTS, f.pair.bundleB.eventMask());
            f.assertRoundTrip();
        }
    }

    @Test
    void everySenderOfTheTablesDeliversExactlyOneRequestWithValidArguments()
    {
        // Sanity check of the tables: with valid arguments every overload works, so only the bad argument can fail it.
        try (Fixture f = Fixture.twoBundles())
        {
            int expected = 0;
            for (final Sender sender : senders())
            {
                sender.send().send(f.a, f.valid());
                expected++;
                final int target = expected;
                f.pollUntil(() -> f.counted.get() == target);
            }
            assertEquals(senders().size(), f.counted.get());
            assertEquals(MessageCategory.values().length + 1 + 4 * (Am.MAX_SHORT + 1) + 1, senders().size());
        }
    }

    /**
     * @param sender a request overload family.
     * @return the call its errors name: requestBulk names itself, every other overload is a "request".
     */
    private static String callOf(final Sender sender)
    {
        return "requestBulk".equals(sender.name()) ? "requestBulk" : "request";
    }
}
