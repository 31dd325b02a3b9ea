package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.EventMask;
import org.am2j.api.Handler;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad arguments to every public call of the AM-II interface (issue 2, "Bad input"): each throws {@link AmException}
 * with the right {@link AmError}, a message that names the argument and, for a range, its bounds; sends nothing; and
 * leaves the endpoints usable (their tables, segment and tag are unchanged and a request/reply round trip still
 * works).
 * <p>
 * The cases are tables: one row per call and kind of bad argument. Closed endpoints and bundles, and SEQ bundles used
 * from a second thread, are in {@link ClosedAndForeignThreadTest}, which shares the fixture and tables defined here.
 */
@Timeout(60)
class BadArgumentsTest
{
    /** Handler of b that counts the requests it gets. */
    static final int COUNT = 10;
    /** Handler of b that replies to {@link #ECHOED} with its argument plus one. */
    static final int ECHO = 11;
    /** Handler of a that records the echo. */
    static final int ECHOED = 12;
    /** Handler of b that runs the test's probe, then replies to {@link #PROBED} unless the probe replied. */
    static final int PROBE = 13;
    /** Handler of a that counts the replies to {@link #PROBE}. */
    static final int PROBED = 14;
    /** Capacity of the fixture's source buffer. */
    static final int SRC_BYTES = 64;
    /** Capacity of both endpoints' segments. */
    static final int SEGMENT_BYTES = 64 * 1024;
    /** Length of the data of a valid medium or long message. */
    static final int LENGTH = 16;
    /** A translation index no fixture maps. */
    static final int UNMAPPED = 7;

    static final String TRANSLATION_RANGE = "[0, " + Am.DEFAULT_TRANSLATIONS + ")";
    static final String HANDLER_TABLE_RANGE = "[0, " + Am.NUM_HANDLERS + ")";
    static final String SEND_HANDLER_RANGE = "[1, " + Am.NUM_HANDLERS + ")";
    static final String ARG_COUNT_RANGE = "[0, " + Am.MAX_SHORT + "]";
    static final String SRC_RANGE = "[0, " + SRC_BYTES + ")";

    static final Handler NOOP = (token, msg) ->
    {
    };

    // ================================================================================================================
    // Vocabulary shared with ClosedAndForeignThreadTest
    // ================================================================================================================

    /**
     * A call that must fail: how to prepare the fixture, the call, the error and the message fragments it must give.
     */
    record Case(String name, Consumer<Fixture> setup, Consumer<Fixture> call, AmError error, List<String> fragments)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static Case bad(final String name, final Consumer<Fixture> call, final String... fragments)
    {
        return new Case(name, f -> { }, call, AmError.BAD_ARG, List.of(fragments));
    }

    static Case failing(
        final String name, final Consumer<Fixture> setup, final Consumer<Fixture> call, final AmError error,
        final String... fragments)
    {
        return new Case(name, setup, call, error, List.of(fragments));
    }

    /**
     * A call that must succeed: an in-range extreme value.
     */
    record Good(String name, Consumer<Fixture> call)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    /**
     * Assert that the call throws {@link AmException} with the error, and a message holding every fragment.
     */
    static AmException assertAmException(final AmError error, final Executable call, final String... fragments)
    {
        return assertAmException(error, catching(call), List.of(fragments));
    }

    static AmException assertAmException(final AmError error, final Throwable thrown, final List<String> fragments)
    {
        assertNotNull(thrown, "expected AmException " + error + " naming " + fragments + ", but nothing was thrown");
        if (!(thrown instanceof AmException))
        {
            throw new AssertionError("expected AmException " + error + " naming " + fragments + ", got " + thrown,
                thrown);
        }
        final AmException ex = (AmException)thrown;
        assertEquals(error, ex.error(), ex::getMessage);
        for (final String fragment : fragments)
        {
            assertTrue(ex.getMessage().contains(fragment),
                () -> "message \"" + ex.getMessage() + "\" does not contain \"" + fragment + "\"");
        }
        return ex;
    }

    static Throwable catching(final Executable call)
    {
        try
        {
            call.execute();
            return null;
        }
        catch (final Throwable t)
        {
            return t;
        }
    }

    /** The arguments of a request or reply, valid until a bad case changes one. */
    record Args(int destination, int handler, DirectBuffer src, int srcOffset, int length, long segmentOffset)
    {
        Args destination(final int d)
        {
            return new Args(d, handler, src, srcOffset, length, segmentOffset);
        }

        Args handler(final int h)
        {
            return new Args(destination, h, src, srcOffset, length, segmentOffset);
        }

        Args src(final DirectBuffer s)
        {
            return new Args(destination, handler, s, srcOffset, length, segmentOffset);
        }

        Args data(final int offset, final int len)
        {
            return new Args(destination, handler, src, offset, len, segmentOffset);
        }

        Args segmentOffset(final long offset)
        {
            return new Args(destination, handler, src, srcOffset, length, offset);
        }
    }

    /** A request or reply method family: what data it carries. */
    interface Form
    {
        MessageCategory category();

        boolean bulk();

        boolean isReply();

        default boolean hasData()
        {
            return MessageCategory.SHORT != category();
        }

        default boolean isLong()
        {
            return MessageCategory.LONG == category();
        }

        default int maxLength()
        {
            return isLong() ? Am.MAX_LONG : Am.MAX_MEDIUM;
        }
    }

    @FunctionalInterface
    interface Send
    {
        void send(Endpoint endpoint, Args x);
    }

    /** One public request method (one overload). */
    record Sender(String name, MessageCategory category, boolean bulk, Send send) implements Form
    {
        @Override
        public boolean isReply()
        {
            return false;
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    @FunctionalInterface
    interface Reply
    {
        void reply(Token token, Args x);
    }

    /** One public reply method (one overload). */
    record Replier(String name, MessageCategory category, Reply reply) implements Form
    {
        @Override
        public boolean bulk()
        {
            return false;
        }

        @Override
        public boolean isReply()
        {
            return true;
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    /** A kind of bad request or reply argument. */
    record BadSend(
        String name, Predicate<Form> appliesTo, UnaryOperator<Args> change, Function<Form, List<String>> fragments)
    {
    }

    /**
     * @return every request overload: request, requestMedium, requestLong and requestLongAsync with 0 to 8 arguments,
     * requestN for each category, requestBulk.
     */
    static List<Sender> senders()
    {
        final List<Sender> senders = new ArrayList<>();
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("request/" + n, MessageCategory.SHORT, false, (ep, x) -> request(ep, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("requestMedium/" + n, MessageCategory.MEDIUM, false,
                (ep, x) -> requestMedium(ep, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("requestLong/" + n, MessageCategory.LONG, false, (ep, x) -> requestLong(ep, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("requestLongAsync/" + n, MessageCategory.LONG, false,
                (ep, x) -> requestLongAsync(ep, n, x)));
        }
        for (final MessageCategory category : MessageCategory.values())
        {
            senders.add(new Sender("requestN(" + category + ")", category, false,
                (ep, x) -> requestN(ep, category, false, Am.MAX_SHORT, x)));
        }
        senders.add(new Sender("requestN(LONG, async)", MessageCategory.LONG, false,
            (ep, x) -> requestN(ep, MessageCategory.LONG, true, Am.MAX_SHORT, x)));
        senders.add(new Sender("requestBulk", MessageCategory.LONG, true, (ep, x) ->
            ep.requestBulk(x.destination(), x.handler(), x.src(), x.srcOffset(), x.length(), x.segmentOffset(), 1, 2)));
        return senders;
    }

    /**
     * @return every reply overload: reply, replyMedium and replyLong with 0 to 8 arguments, replyN for each category.
     */
    static List<Replier> repliers()
    {
        final List<Replier> repliers = new ArrayList<>();
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            repliers.add(new Replier("reply/" + n, MessageCategory.SHORT, (t, x) -> reply(t, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            repliers.add(new Replier("replyMedium/" + n, MessageCategory.MEDIUM, (t, x) -> replyMedium(t, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            repliers.add(new Replier("replyLong/" + n, MessageCategory.LONG, (t, x) -> replyLong(t, n, x)));
        }
        for (final MessageCategory category : MessageCategory.values())
        {
            repliers.add(new Replier("replyN(" + category + ")", category,
                (t, x) -> replyN(t, category, Am.MAX_SHORT, x)));
        }
        return repliers;
    }

    /**
     * @return every kind of bad request or reply argument, each with the forms it applies to.
     */
    static List<BadSend> badSends()
    {
        final Predicate<Form> all = form -> true;
        final Predicate<Form> requests = form -> !form.isReply();
        final Predicate<Form> data = Form::hasData;
        final Predicate<Form> boundedData = form -> form.hasData() && !form.bulk();
        return List.of(
            new BadSend("destination -1", requests, x -> x.destination(-1),
                form -> List.of("destination index = -1", TRANSLATION_RANGE)),
            new BadSend("destination 256 (the table size)", requests, x -> x.destination(Am.DEFAULT_TRANSLATIONS),
                form -> List.of("destination index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE)),
            new BadSend("destination MIN_VALUE", requests, x -> x.destination(Integer.MIN_VALUE),
                form -> List.of("destination index = " + Integer.MIN_VALUE, TRANSLATION_RANGE)),
            new BadSend("unmapped destination", requests, x -> x.destination(UNMAPPED),
                form -> List.of("destination index = " + UNMAPPED + " is not mapped")),
            new BadSend("handler 0 (returned messages)", all, x -> x.handler(0),
                form -> List.of("handler = 0", SEND_HANDLER_RANGE)),
            new BadSend("handler -1", all, x -> x.handler(-1), form -> List.of("handler = -1", SEND_HANDLER_RANGE)),
            new BadSend("handler 256", all, x -> x.handler(Am.NUM_HANDLERS),
                form -> List.of("handler = " + Am.NUM_HANDLERS, SEND_HANDLER_RANGE)),
            new BadSend("length -1", data, x -> x.data(0, -1),
                form -> form.bulk() ? List.of("length = -1") : List.of("length = -1", "[0, " + form.maxLength() + "]")),
            new BadSend("length MAX + 1", boundedData, x -> x.data(0, Am.MAX_MEDIUM + 1),
                form -> List.of("length = " + (form.maxLength() + 1), "[0, " + form.maxLength() + "]")),
            new BadSend("null src", data, x -> x.src(null), form -> List.of("src must not be null")),
            new BadSend("srcOffset -1", data, x -> x.data(-1, LENGTH),
                form -> List.of("srcOffset = -1", "length = " + LENGTH, SRC_RANGE)),
            new BadSend("srcOffset + length past the end of src", data, x -> x.data(SRC_BYTES - 8, LENGTH),
                form -> List.of("srcOffset = " + (SRC_BYTES - 8), "length = " + LENGTH, SRC_RANGE)),
            new BadSend("length past the end of src", data, x -> x.data(0, SRC_BYTES + 1),
                form -> List.of("srcOffset = 0", "length = " + (SRC_BYTES + 1), SRC_RANGE)),
            new BadSend("segmentOffset -1", Form::isLong, x -> x.segmentOffset(-1),
                form -> List.of("segmentOffset = -1", "[0, " + (Am.MAX_SEGMENT_LENGTH - LENGTH) + "]")),
            new BadSend("segmentOffset past MAX_SEGMENT_LENGTH", Form::isLong,
                x -> x.segmentOffset(Am.MAX_SEGMENT_LENGTH),
                form -> List.of("segmentOffset = " + Am.MAX_SEGMENT_LENGTH,
                    "[0, " + (Am.MAX_SEGMENT_LENGTH - LENGTH) + "]")));
    }

    // ================================================================================================================
    // The fixture
    // ================================================================================================================

    /**
     * A {@link Pair} with counting handlers, segments, a source buffer, and the means to prove that a failed call
     * changed nothing and sent nothing.
     */
    static final class Fixture implements AutoCloseable
    {
        final Pair pair;
        final Endpoint a;
        final Endpoint b;
        final UnsafeBuffer src = new UnsafeBuffer(new byte[SRC_BYTES]);
        final AtomicInteger counted = new AtomicInteger();
        final AtomicInteger probed = new AtomicInteger();
        final AtomicInteger echoes = new AtomicInteger();
        final AtomicInteger lastEcho = new AtomicInteger();
        final AtomicInteger returnedToA = new AtomicInteger();
        final AtomicInteger returnedToB = new AtomicInteger();
        volatile BiConsumer<Token, Message> probe = (token, msg) -> { };
        private int nextValue = 1000;

        Fixture(final Pair pair)
        {
            this.pair = pair;
            this.a = pair.a;
            this.b = pair.b;
            a.handler(0, (token, msg) -> returnedToA.incrementAndGet());
            b.handler(0, (token, msg) -> returnedToB.incrementAndGet());
            b.handler(COUNT, (token, msg) -> counted.incrementAndGet());
            b.handler(ECHO, (token, msg) -> token.reply(ECHOED, msg.arg(0) + 1));
            b.handler(PROBE, (token, msg) ->
            {
                probe.accept(token, msg);
                if (!token.hasReplied())
                {
                    token.reply(PROBED);
                }
            });
            a.handler(ECHOED, (token, msg) ->
            {
                lastEcho.set(msg.arg(0));
                echoes.incrementAndGet();
            });
            a.handler(PROBED, (token, msg) -> probed.incrementAndGet());
            a.allocateSegment(SEGMENT_BYTES);
            b.allocateSegment(SEGMENT_BYTES);
        }

        static Fixture twoBundles()
        {
            return new Fixture(Pair.inTwoBundles(BundleKind.SEQ));
        }

        /** Valid request arguments: a to b, handler {@link #COUNT}, 16 bytes at offset 0. */
        Args valid()
        {
            return new Args(0, COUNT, src, 0, LENGTH, 0);
        }

        /** Valid reply arguments: to handler {@link #PROBED}, 16 bytes at offset 0. */
        Args validReply()
        {
            return new Args(-1, PROBED, src, 0, LENGTH, 0);
        }

        /** Poll both bundles enough for anything sent to be handled and answered. */
        void settle()
        {
            for (int i = 0; i < 4; i++)
            {
                pair.bundleA.poll();
                if (pair.bundleB != pair.bundleA)
                {
                    pair.bundleB.poll();
                }
            }
        }

        void pollUntil(final BooleanSupplier condition)
        {
            pair.pollUntil(condition, 10_000);
        }

        Snapshot snapshot()
        {
            return new Snapshot(EndpointState.of(a), EndpointState.of(b), pair.bundleA.eventMask(),
                pair.bundleA.endpoints().size(), pair.bundleB.endpoints().size(), counted.get(), probed.get(),
                echoes.get(), returnedToA.get(), returnedToB.get());
        }

        /** Nothing was sent and nothing changed since the snapshot. */
        void assertUnchangedSince(final Snapshot before)
        {
            settle();
            assertEquals(before, snapshot(), "the failed call changed an endpoint or sent something");
        }

        /** A request and its reply still go through. */
        void assertRoundTrip()
        {
            final int value = nextValue++;
            final int echoesBefore = echoes.get();
            a.request(0, ECHO, value);
            pollUntil(() -> echoes.get() == echoesBefore + 1);
            assertEquals(value + 1, lastEcho.get());
        }

        /** Send a request to {@link #PROBE} and wait for the reply the probe handler sends. */
        void probe(final int argCount, final BiConsumer<Token, Message> probe)
        {
            this.probe = probe;
            final int before = probed.get();
            a.requestN(0, MessageCategory.SHORT, PROBE, null, 0, 0, -1, false, argCount, 1, 2, 3, 4, 5, 6, 7, 8);
            pollUntil(() -> probed.get() == before + 1);
            this.probe = (token, msg) -> { };
        }

        @Override
        public void close()
        {
            pair.close();
        }
    }

    /** What a failed call must leave as it was. */
    record Snapshot(
        EndpointState a, EndpointState b, EventMask maskA, int endpointsA, int endpointsB, int counted, int probed,
        int echoes, int returnedToA, int returnedToB)
    {
    }

    record EndpointState(
        boolean closed, long tag, int numTranslations, BitSet mapped, BitSet handlers, int segmentIdentity,
        long requestsSent, long repliesSent, long bytesSent)
    {
        static EndpointState of(final Endpoint e)
        {
            final BitSet mapped = new BitSet();
            final BitSet handlers = new BitSet();
            for (int i = 0, n = e.numTranslations(); i < n; i++)
            {
                if (e.isMapped(i))
                {
                    mapped.set(i);
                }
            }
            for (int i = 0; i < Am.NUM_HANDLERS; i++)
            {
                if (null != e.handler(i))
                {
                    handlers.set(i);
                }
            }
            return new EndpointState(e.isClosed(), e.tag(), e.numTranslations(), mapped, handlers,
                System.identityHashCode(e.segment()), e.statistics().total(Counter.REQUESTS_SENT),
                e.statistics().total(Counter.REPLIES_SENT), e.statistics().total(Counter.BYTES_SENT));
        }
    }

    /** Run a failing case: set up, snapshot, fail as expected, prove nothing changed, prove the pair still works. */
    static void run(final Case c)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            c.setup().accept(f);
            final Snapshot before = f.snapshot();
            assertAmException(c.error(), catching(() -> c.call().accept(f)), c.fragments());
            f.assertUnchangedSince(before);
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // Endpoint: translation table, handler table, segment, statistics; Bundle and Am arguments
    // ================================================================================================================

    static Stream<Case> endpointCalls()
    {
        return Stream.of(
            // map
            bad("map(-1, ..)", f -> f.a.map(-1, f.b.name(), f.b.tag()), "translation index = -1", TRANSLATION_RANGE),
            bad("map(256, ..) = table size", f -> f.a.map(Am.DEFAULT_TRANSLATIONS, f.b.name(), f.b.tag()),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("map(MIN_VALUE, ..)", f -> f.a.map(Integer.MIN_VALUE, f.b.name(), f.b.tag()),
                "translation index = " + Integer.MIN_VALUE, TRANSLATION_RANGE),
            bad("map(.., null name, ..)", f -> f.a.map(5, null, f.b.tag()), "name must not be null"),
            bad("map(.., unreachable name, ..)", f -> f.a.map(5, unreachable(f), f.b.tag()), "no transport reaches"),
            failing("map(index in use, ..)", f -> { }, f -> f.a.map(0, f.b.name(), f.b.tag()), AmError.RESOURCE,
                "translation index = 0 is already mapped"),
            // mapAny
            bad("mapAny(null name, ..)", f -> f.a.mapAny(null, f.b.tag()), "name must not be null"),
            bad("mapAny(unreachable name, ..)", f -> f.a.mapAny(unreachable(f), f.b.tag()), "no transport reaches"),
            failing("mapAny(..) with a full table", f -> f.a.numTranslations(1), f -> f.a.mapAny(f.b.name(), 1),
                AmError.RESOURCE, "translation table full", "numTranslations", "" + Am.MAX_TRANSLATIONS),
            // unmap, isMapped, translation queries
            bad("unmap(-1)", f -> f.a.unmap(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("unmap(256)", f -> f.a.unmap(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("unmap(unmapped)", f -> f.a.unmap(UNMAPPED), "translation index = " + UNMAPPED + " is not mapped"),
            bad("isMapped(-1)", f -> f.a.isMapped(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("isMapped(256)", f -> f.a.isMapped(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationTag(-1)", f -> f.a.translationTag(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("translationTag(256)", f -> f.a.translationTag(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationTag(unmapped)", f -> f.a.translationTag(UNMAPPED),
                "translation index = " + UNMAPPED + " is not mapped"),
            bad("translationName(-1)", f -> f.a.translationName(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("translationName(256)", f -> f.a.translationName(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationName(unmapped)", f -> f.a.translationName(UNMAPPED),
                "translation index = " + UNMAPPED + " is not mapped"),
            bad("translationTransport(-1)", f -> f.a.translationTransport(-1), "translation index = -1",
                TRANSLATION_RANGE),
            bad("translationTransport(256)", f -> f.a.translationTransport(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationTransport(unmapped)", f -> f.a.translationTransport(UNMAPPED),
                "translation index = " + UNMAPPED + " is not mapped"),
            // numTranslations(int), expectedResources
            bad("numTranslations(0)", f -> f.a.numTranslations(0), "numTranslations = 0",
                "[1, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("numTranslations(-1)", f -> f.a.numTranslations(-1), "numTranslations = -1",
                "[1, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("numTranslations(MAX + 1)", f -> f.a.numTranslations(Am.MAX_TRANSLATIONS + 1),
                "numTranslations = " + (Am.MAX_TRANSLATIONS + 1), "[1, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            failing("numTranslations(n) below a mapped index", f -> f.a.map(200, f.b.name(), f.b.tag()),
                f -> f.a.numTranslations(100), AmError.RESOURCE, "numTranslations = 100", "mapped index 200"),
            bad("expectedResources(-1, 0)", f -> f.a.expectedResources(-1, 0), "endpoints = -1",
                "[0, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("expectedResources(MAX + 1, 0)", f -> f.a.expectedResources(Am.MAX_TRANSLATIONS + 1, 0),
                "endpoints = " + (Am.MAX_TRANSLATIONS + 1), "[0, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("expectedResources(0, -1)", f -> f.a.expectedResources(0, -1), "outstandingRequests = -1", "[0, "),
            // handler table
            bad("handler(-1, h)", f -> f.a.handler(-1, NOOP), "handler index = -1", HANDLER_TABLE_RANGE),
            bad("handler(256, h)", f -> f.a.handler(Am.NUM_HANDLERS, NOOP),
                "handler index = " + Am.NUM_HANDLERS, HANDLER_TABLE_RANGE),
            bad("handler(MIN_VALUE, h)", f -> f.a.handler(Integer.MIN_VALUE, NOOP),
                "handler index = " + Integer.MIN_VALUE, HANDLER_TABLE_RANGE),
            bad("handler(-1)", f -> f.a.handler(-1), "handler index = -1", HANDLER_TABLE_RANGE),
            bad("handler(256)", f -> f.a.handler(Am.NUM_HANDLERS), "handler index = " + Am.NUM_HANDLERS,
                HANDLER_TABLE_RANGE),
            bad("handlerAny(null)", f -> f.a.handlerAny(null), "handler must not be null"),
            failing("handlerAny(h) with a full table", BadArgumentsTest::fillHandlerTable, f -> f.a.handlerAny(NOOP),
                AmError.RESOURCE, "handler table full", "1 to " + (Am.NUM_HANDLERS - 1)),
            // segment
            bad("segment(buffer larger than MAX_SEGMENT_LENGTH)", f -> f.a.segment(hugeBuffer()),
                "segment capacity = " + Integer.MAX_VALUE, "[0, " + Am.MAX_SEGMENT_LENGTH + "]"),
            bad("allocateSegment(0)", f -> f.a.allocateSegment(0), "segment length = 0",
                "[1, " + ((long)Am.MAX_SEGMENT_LENGTH + 1) + ")"),
            bad("allocateSegment(-1)", f -> f.a.allocateSegment(-1), "segment length = -1",
                "[1, " + ((long)Am.MAX_SEGMENT_LENGTH + 1) + ")"),
            bad("allocateSegment(MAX_VALUE)", f -> f.a.allocateSegment(Integer.MAX_VALUE),
                "segment length = " + Integer.MAX_VALUE, "[1, " + ((long)Am.MAX_SEGMENT_LENGTH + 1) + ")"),
            // statistics
            bad("statistics().get(null, counter)", f -> f.a.statistics().get(null, Counter.REQUESTS_SENT),
                "transport must not be null"),
            bad("statistics().get(transport, null)", f -> f.a.statistics().get("inproc", null),
                "counter must not be null"),
            bad("statistics().total(null)", f -> f.a.statistics().total(null), "counter must not be null"),
            bad("statistics().returned(null)", f -> f.a.statistics().returned(null), "status must not be null"),
            // Bundle
            bad("Bundle.eventMask(null)", f -> f.pair.bundleA.eventMask(null), "mask must not be null"),
            bad("Bundle.waitSema() with NOEVENTS", f -> f.pair.bundleA.waitSema(), "event mask NOEVENTS",
                "NOTEMPTY"),
            bad("Bundle.waitSema(0, ms) with NOEVENTS", f -> f.pair.bundleA.waitSema(0, TimeUnit.MILLISECONDS),
                "event mask NOEVENTS", "NOTEMPTY"),
            bad("Bundle.waitSema(-1, ms)", f -> f.pair.bundleA.waitSema(-1, TimeUnit.MILLISECONDS), "timeout = -1",
                "[0, "),
            bad("Bundle.waitSema(1, null)", f -> f.pair.bundleA.waitSema(1, null), "unit must not be null"),
            bad("Bundle.moveEndpoint(null)", f -> f.pair.bundleA.moveEndpoint(null), "endpoint must not be null"),
            bad("Bundle.moveEndpoint(closed endpoint)", f -> f.pair.bundleA.moveEndpoint(closedEndpoint()),
                "endpoint must be an open endpoint"),
            bad("Bundle.moveEndpoint(endpoint not of am2j)", f -> f.pair.bundleA.moveEndpoint(foreignEndpoint()),
                "endpoint must be an open endpoint"),
            // Am
            bad("Am.allocateBundle(null)", f -> Am.allocateBundle(null), "kind must not be null"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpointCalls")
    void aBadArgumentThrowsNamingItAndChangesNothing(final Case c)
    {
        run(c);
    }

    // ================================================================================================================
    // Requests: every overload with every kind of bad argument that applies to it
    // ================================================================================================================

    static Stream<Case> badRequests()
    {
        final List<Case> cases = new ArrayList<>();
        for (final Sender sender : senders())
        {
            for (final BadSend kind : badSends())
            {
                if (kind.appliesTo().test(sender))
                {
                    cases.add(bad(sender + ": " + kind.name(),
                        f -> sender.send().send(f.a, kind.change().apply(f.valid())),
                        kind.fragments().apply(sender).toArray(new String[0])));
                }
            }
        }
        for (final MessageCategory category : MessageCategory.values())
        {
            cases.add(bad("requestN(" + category + "): argCount -1",
                f -> requestN(f.a, category, false, -1, f.valid()), "argCount = -1", ARG_COUNT_RANGE));
            cases.add(bad("requestN(" + category + "): argCount 9",
                f -> requestN(f.a, category, false, Am.MAX_SHORT + 1, f.valid()),
                "argCount = " + (Am.MAX_SHORT + 1), ARG_COUNT_RANGE));
        }
        cases.add(bad("requestN: null category", f -> requestN(f.a, null, false, 1, f.valid()),
            "category must not be null"));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void aBadRequestThrowsNamingTheArgumentAndSendsNothing(final Case c)
    {
        run(c);
    }

    // ================================================================================================================
    // Replies (Token): every overload with every kind of bad argument; the token may still reply afterwards
    // ================================================================================================================

    record ReplyCase(String name, BiConsumer<Fixture, Token> reply, List<String> fragments)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static Stream<ReplyCase> badReplies()
    {
        final List<ReplyCase> cases = new ArrayList<>();
        for (final Replier replier : repliers())
        {
            for (final BadSend kind : badSends())
            {
                if (kind.appliesTo().test(replier))
                {
                    cases.add(new ReplyCase(replier + ": " + kind.name(),
                        (f, token) -> replier.reply().reply(token, kind.change().apply(f.validReply())),
                        kind.fragments().apply(replier)));
                }
            }
        }
        for (final MessageCategory category : MessageCategory.values())
        {
            cases.add(new ReplyCase("replyN(" + category + "): argCount -1",
                (f, token) -> replyN(token, category, -1, f.validReply()), List.of("argCount = -1", ARG_COUNT_RANGE)));
            cases.add(new ReplyCase("replyN(" + category + "): argCount 9",
                (f, token) -> replyN(token, category, Am.MAX_SHORT + 1, f.validReply()),
                List.of("argCount = " + (Am.MAX_SHORT + 1), ARG_COUNT_RANGE)));
        }
        cases.add(new ReplyCase("replyN: null category", (f, token) -> replyN(token, null, 1, f.validReply()),
            List.of("category must not be null")));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badReplies")
    void aBadReplyThrowsNamingTheArgumentAndTheTokenCanStillReply(final ReplyCase c)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final AtomicReference<Throwable> thrown = new AtomicReference<>();
            final AtomicBoolean repliedAfterFailure = new AtomicBoolean(true);
            final Snapshot before = f.snapshot();
            f.probe(1, (token, msg) ->
            {
                thrown.set(catching(() -> c.reply().accept(f, token)));
                repliedAfterFailure.set(token.hasReplied());
            });
            assertAmException(AmError.BAD_ARG, thrown.get(), c.fragments());
            assertFalse(repliedAfterFailure.get(), "a failed reply counted as the token's one reply");
            f.settle();
            // Exactly one reply went back: the good one sent after the failure (the probe handler's own).
            assertEquals(before.probed() + 1, f.probed.get());
            assertEquals(0, f.returnedToA.get() + f.returnedToB.get(), "a message came back");
            assertEquals(before.a().requestsSent() + 1, f.a.statistics().total(Counter.REQUESTS_SENT));
            assertEquals(before.b().repliesSent() + 1, f.b.statistics().total(Counter.REPLIES_SENT));
            f.assertRoundTrip();
        }
    }

    /**
     * A short message carries no data: whatever src, srcOffset and length are passed to the general form are
     * ignored, for requests (documented on {@link Endpoint#requestN}) and for replies alike.
     */
    static Stream<Arguments> shortMessagesIgnoreData()
    {
        final UnsafeBuffer src = new UnsafeBuffer(new byte[SRC_BYTES]);
        final List<Arguments> cases = new ArrayList<>();
        for (final String form : List.of("requestN(SHORT)", "replyN(SHORT)"))
        {
            cases.add(Arguments.of(form, "null src, length 100", null, 0, 100));
            cases.add(Arguments.of(form, "src, length 16", src, 0, LENGTH));
            cases.add(Arguments.of(form, "src, length -1", src, 0, -1));
            cases.add(Arguments.of(form, "src, srcOffset -1, length 16", src, -1, LENGTH));
            cases.add(Arguments.of(form, "src, length 100000", src, 0, 100_000));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("shortMessagesIgnoreData")
    void aShortMessageIgnoresItsDataArguments(
        final String form, final String what, final DirectBuffer src, final int srcOffset, final int length)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final AtomicInteger dataLength = new AtomicInteger(-1);
            final AtomicInteger arg = new AtomicInteger();
            if (form.startsWith("request"))
            {
                f.b.handler(COUNT, (token, msg) ->
                {
                    dataLength.set(msg.dataLength());
                    arg.set(msg.arg(0));
                });
                assertDoesNotThrow(() ->
                    f.a.requestN(0, MessageCategory.SHORT, COUNT, src, srcOffset, length, -1, false,
                        1, 77, 0, 0, 0, 0, 0, 0, 0));
                f.pollUntil(() -> dataLength.get() >= 0);
            }
            else
            {
                final AtomicReference<Throwable> thrown = new AtomicReference<>();
                f.a.handler(PROBED + 1, (token, msg) ->
                {
                    dataLength.set(msg.dataLength());
                    arg.set(msg.arg(0));
                });
                f.probe = (token, msg) -> thrown.set(catching(() ->
                    token.replyN(MessageCategory.SHORT, PROBED + 1, src, srcOffset, length, -1,
                        1, 77, 0, 0, 0, 0, 0, 0, 0)));
                f.a.request(0, PROBE);
                // Poll until the reply arrives, or fails, or comes back: a bounded number of polls, no sleeping.
                for (int i = 0; i < 100 && null == thrown.get() && dataLength.get() < 0 && 0 == f.returnedToB.get();
                    i++)
                {
                    f.settle();
                }
                assertNull(thrown.get(), () -> "a short reply failed on the data arguments it should ignore: " +
                    thrown.get());
                assertEquals(0, f.returnedToB.get(), "the short reply came back to its sender (returned message)");
                f.pollUntil(() -> dataLength.get() >= 0);
            }
            assertEquals(0, dataLength.get(), "a short message carried data");
            assertEquals(77, arg.get());
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // Message: arg(index) out of range, in a request handler and in the returned-message handler
    // ================================================================================================================

    static Stream<Arguments> badArgIndices()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final int argCount : new int[] { 0, 1, Am.MAX_SHORT })
        {
            final int[] indices = argCount < Am.MAX_SHORT ?
                new int[] { -1, argCount, Am.MAX_SHORT, Integer.MAX_VALUE, Integer.MIN_VALUE } :
                new int[] { -1, argCount, Integer.MAX_VALUE, Integer.MIN_VALUE };
            for (final int index : indices)
            {
                cases.add(Arguments.of(argCount, index));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "arg({1}) of a message with {0} arguments")
    @MethodSource("badArgIndices")
    void anArgumentIndexOutOfRangeThrowsNamingIt(final int argCount, final int index)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final AtomicReference<Throwable> thrown = new AtomicReference<>();
            final AtomicInteger last = new AtomicInteger();
            f.probe(argCount, (token, msg) ->
            {
                thrown.set(catching(() -> msg.arg(index)));
                last.set(argCount > 0 ? msg.arg(argCount - 1) : -1);
            });
            assertAmException(AmError.BAD_ARG, thrown.get(),
                List.of("argument index = " + index, "[0, " + argCount + ")"));
            assertEquals(argCount > 0 ? argCount : -1, last.get(), "the message is still readable");
            f.assertRoundTrip();
        }
    }

    @Test
    void anArgumentIndexOutOfRangeOfAReturnedMessageThrowsNamingIt()
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final AtomicReference<Throwable> thrown = new AtomicReference<>();
            final AtomicInteger seen = new AtomicInteger();
            f.a.handler(0, (token, msg) ->
            {
                assertTrue(msg.isReturned());
                thrown.set(catching(() -> msg.arg(2)));
                seen.set(msg.arg(1));
            });
            f.a.request(0, 200, 5, 6);   // b has no handler 200: comes back with EBADHANDLER
            f.pollUntil(() -> seen.get() == 6);
            assertAmException(AmError.BAD_ARG, thrown.get(), List.of("argument index = 2", "[0, 2)"));
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // Token and Message used after their handler returned
    // ================================================================================================================

    record DeadUse(String name, String callName, BiConsumer<Token, Message> use)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static Stream<DeadUse> deadUses()
    {
        final UnsafeBuffer src = new UnsafeBuffer(new byte[SRC_BYTES]);
        return Stream.of(
            new DeadUse("Token.sourceName()", "sourceName", (t, m) -> t.sourceName()),
            new DeadUse("Token.messageTag()", "messageTag", (t, m) -> t.messageTag()),
            new DeadUse("Token.destination()", "destination", (t, m) -> t.destination()),
            new DeadUse("Token.reply(h)", "reply", (t, m) -> t.reply(PROBED)),
            new DeadUse("Token.replyMedium(..)", "reply", (t, m) -> t.replyMedium(PROBED, src, 0, LENGTH)),
            new DeadUse("Token.replyLong(..)", "reply", (t, m) -> t.replyLong(PROBED, src, 0, LENGTH, 0)),
            new DeadUse("Token.replyN(..)", "reply", (t, m) ->
                t.replyN(MessageCategory.SHORT, PROBED, null, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            new DeadUse("Message.arg(0)", "arg", (t, m) -> m.arg(0)),
            new DeadUse("Message.handlerIndex()", "handlerIndex", (t, m) -> m.handlerIndex()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deadUses")
    void aTokenOrMessageUsedAfterItsHandlerThrowsNamingTheCall(final DeadUse use)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final AtomicReference<Token> token = new AtomicReference<>();
            final AtomicReference<Message> message = new AtomicReference<>();
            f.probe(1, (t, m) ->
            {
                token.set(t);
                message.set(m);
            });
            final Snapshot before = f.snapshot();
            assertAmException(AmError.BAD_ARG, () -> use.use().accept(token.get(), message.get()),
                "outside its handler", "(" + use.callName() + ")");
            f.assertUnchangedSince(before);
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // The in-range extremes are accepted
    // ================================================================================================================

    static Stream<Good> extremes()
    {
        return Stream.of(
            new Good("map(255, ..) and its queries", f ->
            {
                f.a.map(Am.DEFAULT_TRANSLATIONS - 1, f.b.name(), f.b.tag());
                assertTrue(f.a.isMapped(Am.DEFAULT_TRANSLATIONS - 1));
                assertEquals(f.b.tag(), f.a.translationTag(Am.DEFAULT_TRANSLATIONS - 1));
                assertEquals(f.b.name(), f.a.translationName(Am.DEFAULT_TRANSLATIONS - 1));
                assertEquals("inproc", f.a.translationTransport(Am.DEFAULT_TRANSLATIONS - 1));
                f.a.unmap(Am.DEFAULT_TRANSLATIONS - 1);
            }),
            new Good("numTranslations(MAX_TRANSLATIONS), map and send through the last index", f ->
            {
                f.a.numTranslations(Am.MAX_TRANSLATIONS);
                f.a.map(Am.MAX_TRANSLATIONS - 1, f.b.name(), f.b.tag());
                f.a.request(Am.MAX_TRANSLATIONS - 1, COUNT);
                f.pollUntil(() -> f.counted.get() == 1);
            }),
            new Good("numTranslations(1) keeps index 0", f ->
            {
                f.a.numTranslations(1);
                assertEquals(1, f.a.numTranslations());
                assertTrue(f.a.isMapped(0));
            }),
            new Good("expectedResources(MAX_TRANSLATIONS, 0)", f -> f.a.expectedResources(Am.MAX_TRANSLATIONS, 0)),
            new Good("expectedResources(0, Integer.MAX_VALUE) (documented: 0 or more)",
                f -> f.a.expectedResources(0, Integer.MAX_VALUE)),
            new Good("handler(255, h) and handler(0, null) restores the default", f ->
            {
                f.a.handler(Am.NUM_HANDLERS - 1, NOOP);
                assertSame(NOOP, f.a.handler(Am.NUM_HANDLERS - 1));
                f.a.handler(0, null);
                assertNotNull(f.a.handler(0));
                f.a.handler(0, (token, msg) -> f.returnedToA.incrementAndGet());
            }),
            new Good("allocateSegment(1)", f -> assertEquals(1, f.a.allocateSegment(1).capacity())),
            new Good("segment(null) then segment(buffer)", f ->
            {
                final UnsafeBuffer segment = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
                f.b.segment(null);
                assertNull(f.b.segment());
                f.b.segment(segment);
                assertSame(segment, f.b.segment());
            }),
            new Good("request(.., handler 255, 8 args)", f ->
            {
                final AtomicInteger last = new AtomicInteger();
                f.b.handler(Am.NUM_HANDLERS - 1, (token, msg) -> last.set(msg.arg(Am.MAX_SHORT - 1)));
                f.a.request(0, Am.NUM_HANDLERS - 1, 1, 2, 3, 4, 5, 6, 7, 8);
                f.pollUntil(() -> last.get() == 8);
            }),
            new Good("requestMedium of MAX_MEDIUM bytes ending at the end of src", f ->
            {
                final UnsafeBuffer big = new UnsafeBuffer(new byte[Am.MAX_MEDIUM + 8]);
                final AtomicInteger length = new AtomicInteger();
                f.b.handler(COUNT, (token, msg) -> length.set(msg.dataLength()));
                f.a.requestMedium(0, COUNT, big, 8, Am.MAX_MEDIUM);
                f.pollUntil(() -> length.get() == Am.MAX_MEDIUM);
            }),
            new Good("requestMedium of 0 bytes", f ->
            {
                f.a.requestMedium(0, COUNT, f.src, SRC_BYTES, 0);
                f.pollUntil(() -> f.counted.get() == 1);
            }),
            new Good("requestLong of MAX_LONG bytes at the end of the segment", f ->
            {
                final UnsafeBuffer big = new UnsafeBuffer(new byte[Am.MAX_LONG]);
                final AtomicInteger length = new AtomicInteger();
                f.b.handler(COUNT, (token, msg) -> length.set(msg.dataLength()));
                f.a.requestLong(0, COUNT, big, 0, Am.MAX_LONG, SEGMENT_BYTES - Am.MAX_LONG);
                f.pollUntil(() -> length.get() == Am.MAX_LONG);
            }),
            new Good("requestBulk of 20000 bytes: three chunks", f ->
            {
                final UnsafeBuffer big = new UnsafeBuffer(new byte[20_000]);
                assertEquals(3, f.a.requestBulk(0, COUNT, big, 0, 20_000, 0, 1, 2));
                f.pollUntil(() -> f.counted.get() == 3);
            }),
            new Good("Bundle.waitSema(0, ms) with nothing waiting returns false", f ->
            {
                f.pair.bundleB.eventMask(EventMask.NOTEMPTY);
                assertFalse(f.pair.bundleB.waitSema(0, TimeUnit.MILLISECONDS));
                f.pair.bundleB.eventMask(EventMask.NOEVENTS);
            }),
            new Good("Bundle.waitSema(Long.MAX_VALUE, ns) (documented: 0 or more) with a message waiting", f ->
            {
                f.a.request(0, COUNT);
                f.pair.bundleB.eventMask(EventMask.NOTEMPTY);
                assertTrue(f.pair.bundleB.waitSema(Long.MAX_VALUE, TimeUnit.NANOSECONDS));
                f.pollUntil(() -> f.counted.get() == 1);
            }),
            new Good("Bundle.moveEndpoint(endpoint already in the bundle) does nothing", f ->
            {
                f.pair.bundleA.moveEndpoint(f.a);
                assertSame(f.pair.bundleA, f.a.bundle());
            }),
            new Good("Bundle.moveEndpoint(endpoint of another bundle)", f ->
            {
                try (Bundle other = Am.allocateBundle(BundleKind.SEQ))
                {
                    final Endpoint moved = other.allocateEndpoint();
                    f.pair.bundleA.moveEndpoint(moved);
                    assertSame(f.pair.bundleA, moved.bundle());
                    assertTrue(other.endpoints().isEmpty());
                }
            }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extremes")
    void anInRangeExtremeIsAccepted(final Good c)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            assertDoesNotThrow(() -> c.call().accept(f));
            f.assertRoundTrip();
        }
    }

    // ================================================================================================================
    // EndpointName
    // ================================================================================================================

    static final EndpointName NAME =
        new EndpointName("node-a", 42L, 4242L, 3, Map.of("shm", "/dev/shm/am2j-x", "net", "10.0.0.1:5000"));
    static final byte[] BYTES = NAME.toBytes();

    record NameCase(String name, Executable call, List<String> fragments)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static NameCase nameCase(final String name, final Executable call, final String... fragments)
    {
        return new NameCase(name, call, List.of(fragments));
    }

    static Stream<NameCase> badNames()
    {
        final int n = BYTES.length;
        return Stream.of(
            nameCase("new EndpointName(null node, ..)", () -> new EndpointName(null, 1, 1, 0, Map.of()),
                "node must not be null"),
            nameCase("new EndpointName(.., null addresses)", () -> new EndpointName("n", 1, 1, 0, null),
                "addresses must not be null"),
            nameCase("new EndpointName(.., endpointId -1, ..)", () -> new EndpointName("n", 1, 1, -1, Map.of()),
                "endpointId = -1", "[0, "),
            nameCase("new EndpointName(.., endpointId MIN_VALUE, ..)",
                () -> new EndpointName("n", 1, 1, Integer.MIN_VALUE, Map.of()), "endpointId = " + Integer.MIN_VALUE,
                "[0, "),
            nameCase("new EndpointName(.., 17 addresses)", () -> new EndpointName("n", 1, 1, 0, addresses(17, 1)),
                "addresses has 17 entries", "[0, 16]"),
            nameCase("name.address(null)", () -> NAME.address(null), "transport must not be null"),
            nameCase("name.sameNode(null)", () -> NAME.sameNode(null), "other must not be null"),
            nameCase("fromBytes(null)", () -> EndpointName.fromBytes(null), "bytes must not be null"),
            nameCase("fromBytes(null, 0, 0)", () -> EndpointName.fromBytes(null, 0, 0), "bytes must not be null"),
            nameCase("fromBytes(bytes, -1, n)", () -> EndpointName.fromBytes(BYTES, -1, n), "offset = -1",
                "length = " + n, "within the " + n + " bytes"),
            nameCase("fromBytes(bytes, 0, -1)", () -> EndpointName.fromBytes(BYTES, 0, -1), "length = -1",
                "within the " + n + " bytes"),
            nameCase("fromBytes(bytes, 0, n + 1)", () -> EndpointName.fromBytes(BYTES, 0, n + 1),
                "length = " + (n + 1), "within the " + n + " bytes"),
            nameCase("fromBytes(bytes, n, 1)", () -> EndpointName.fromBytes(BYTES, n, 1), "offset = " + n,
                "within the " + n + " bytes"),
            nameCase("fromBytes(more than MAX_ENCODED_LENGTH)",
                () -> EndpointName.fromBytes(new byte[EndpointName.MAX_ENCODED_LENGTH + 1]),
                "length = " + (EndpointName.MAX_ENCODED_LENGTH + 1), "at most " + EndpointName.MAX_ENCODED_LENGTH),
            nameCase("fromBytes(empty)", () -> EndpointName.fromBytes(new byte[0]), "truncated at 0 bytes"),
            nameCase("fromBytes(wrong magic)", () -> EndpointName.fromBytes(patched(BYTES, 0, 0x00)),
                "not an endpoint name", "magic"),
            nameCase("fromBytes(wrong version)", () -> EndpointName.fromBytes(patched(BYTES, 2, 0x07)),
                "version 7", "expected"),
            nameCase("fromBytes(one trailing byte)", () -> EndpointName.fromBytes(Arrays.copyOf(BYTES, n + 1)),
                "1 trailing bytes"),
            nameCase("fromBytes(negative endpoint id)",
                () -> EndpointName.fromBytes(patched(BYTES, 20, 0xFF, 0xFF, 0xFF, 0xFF)), "endpointId = -1"),
            nameCase("fromBytes(node length past the end)",
                () -> EndpointName.fromBytes(patched(BYTES, 24, 0x7F, 0xFF)), "truncated"),
            nameCase("fromBytes(17 addresses)", () -> EndpointName.fromBytes(encodedWith17Addresses()),
                "addresses has 17 entries", "[0, 16]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNames")
    void aBadEndpointNameArgumentThrowsNamingIt(final NameCase c)
    {
        assertAmException(AmError.BAD_ARG, catching(c.call()), c.fragments());
    }

    static IntStream prefixLengths()
    {
        return IntStream.range(0, BYTES.length);
    }

    @ParameterizedTest(name = "the first {0} bytes of a name")
    @MethodSource("prefixLengths")
    void aTruncatedEndpointNameIsRefused(final int length)
    {
        assertAmException(AmError.BAD_ARG, () -> EndpointName.fromBytes(Arrays.copyOf(BYTES, length)),
            "truncated at " + length + " bytes");
        assertAmException(AmError.BAD_ARG, () -> EndpointName.fromBytes(BYTES, 0, length),
            "truncated at " + length + " bytes");
    }

    @Test
    void garbageNeverDecodesIntoAnythingButANameOrBadArg()
    {
        final Random random = new Random(20261122L);
        for (int i = 0; i < 5_000; i++)
        {
            final byte[] garbage = Arrays.copyOf(BYTES, BYTES.length + random.nextInt(8) - 4);
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
            {
                garbage[random.nextInt(garbage.length)] = (byte)random.nextInt(256);
            }
            final Throwable thrown = catching(() -> EndpointName.fromBytes(garbage));
            if (null != thrown && !(thrown instanceof AmException && ((AmException)thrown).error() == AmError.BAD_ARG))
            {
                throw new AssertionError("fromBytes(" + Arrays.toString(garbage) + ") threw " + thrown, thrown);
            }
        }
        final byte[] noise = new byte[200];
        for (int i = 0; i < 5_000; i++)
        {
            random.nextBytes(noise);
            final int length = random.nextInt(noise.length + 1);
            assertAmException(AmError.BAD_ARG, () -> EndpointName.fromBytes(noise, 0, length));
        }
    }

    /**
     * A name the constructor accepts must survive {@link EndpointName#toBytes()} and
     * {@link EndpointName#fromBytes(byte[])} (that is how names travel between processes); otherwise the constructor
     * must refuse it with BAD_ARG naming the argument.
     */
    static Stream<Arguments> namesThatMustRoundTripOrBeRefused()
    {
        final Map<String, String> nullKey = new HashMap<>();
        nullKey.put(null, "x");
        final Map<String, String> nullValue = new HashMap<>();
        nullValue.put("shm", null);
        return Stream.of(
            Arguments.of("a node of 5000 characters", "node",
                (Supplier<EndpointName>)() -> new EndpointName("n".repeat(5_000), 1, 1, 0, Map.of())),
            Arguments.of("a node of 70000 characters", "node",
                (Supplier<EndpointName>)() -> new EndpointName("n".repeat(70_000), 1, 1, 0, Map.of())),
            Arguments.of("16 addresses of 300 characters", "addresses",
                (Supplier<EndpointName>)() -> new EndpointName("n", 1, 1, 0, addresses(16, 300))),
            Arguments.of("a null address key", "addresses",
                (Supplier<EndpointName>)() -> new EndpointName("n", 1, 1, 0, nullKey)),
            Arguments.of("a null address value", "addresses",
                (Supplier<EndpointName>)() -> new EndpointName("n", 1, 1, 0, nullValue)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("namesThatMustRoundTripOrBeRefused")
    void anEndpointNameIsEncodableOrRefusedByTheConstructor(
        final String what, final String argument, final Supplier<EndpointName> constructor)
    {
        final Throwable refused = catching(constructor::get);
        if (null != refused)
        {
            assertAmException(AmError.BAD_ARG, refused, List.of(argument));
            return;
        }
        final EndpointName name = constructor.get();
        final Throwable failed = catching(() -> assertEquals(name, EndpointName.fromBytes(name.toBytes())));
        if (null != failed)
        {
            throw new AssertionError("the constructor accepted " + what + " but the name does not survive " +
                "toBytes()/fromBytes(): " + failed, failed);
        }
    }

    @Test
    void theLargestEndpointIdIsAccepted()
    {
        // Documented as "zero or more": Integer.MAX_VALUE is in range.
        final EndpointName name = assertDoesNotThrow(() -> new EndpointName("n", 1, 1, Integer.MAX_VALUE, Map.of()));
        assertEquals(name, EndpointName.fromBytes(name.toBytes()));
    }

    @Test
    void aValidNameRoundTripsAtAnOffset()
    {
        final byte[] framed = new byte[BYTES.length + 10];
        System.arraycopy(BYTES, 0, framed, 5, BYTES.length);
        assertEquals(NAME, EndpointName.fromBytes(framed, 5, BYTES.length));
        assertEquals(NAME, EndpointName.fromBytes(BYTES));
        final EndpointName sixteen = new EndpointName("n", 1, 1, 0, addresses(16, 1));
        assertEquals(sixteen, EndpointName.fromBytes(sixteen.toBytes()));
    }

    // ================================================================================================================
    // Helpers
    // ================================================================================================================

    static void request(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        switch (n)
        {
            case 0 -> ep.request(d, h);
            case 1 -> ep.request(d, h, 1);
            case 2 -> ep.request(d, h, 1, 2);
            case 3 -> ep.request(d, h, 1, 2, 3);
            case 4 -> ep.request(d, h, 1, 2, 3, 4);
            case 5 -> ep.request(d, h, 1, 2, 3, 4, 5);
            case 6 -> ep.request(d, h, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.request(d, h, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.request(d, h, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void requestMedium(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        switch (n)
        {
            case 0 -> ep.requestMedium(d, h, s, o, l);
            case 1 -> ep.requestMedium(d, h, s, o, l, 1);
            case 2 -> ep.requestMedium(d, h, s, o, l, 1, 2);
            case 3 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3);
            case 4 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4);
            case 5 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5);
            case 6 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void requestLong(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        final long g = x.segmentOffset();
        switch (n)
        {
            case 0 -> ep.requestLong(d, h, s, o, l, g);
            case 1 -> ep.requestLong(d, h, s, o, l, g, 1);
            case 2 -> ep.requestLong(d, h, s, o, l, g, 1, 2);
            case 3 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3);
            case 4 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4);
            case 5 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5);
            case 6 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void requestLongAsync(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        final long g = x.segmentOffset();
        final int result = switch (n)
        {
            case 0 -> ep.requestLongAsync(d, h, s, o, l, g);
            case 1 -> ep.requestLongAsync(d, h, s, o, l, g, 1);
            case 2 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2);
            case 3 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3);
            case 4 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4);
            case 5 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5);
            case 6 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        };
        assertEquals(Am.OK, result, "an async request to an empty queue");
    }

    static void requestN(
        final Endpoint ep, final MessageCategory category, final boolean async, final int argCount, final Args x)
    {
        ep.requestN(x.destination(), category, x.handler(), x.src(), x.srcOffset(), x.length(), x.segmentOffset(),
            async, argCount, 1, 2, 3, 4, 5, 6, 7, 8);
    }

    static void reply(final Token t, final int n, final Args x)
    {
        final int h = x.handler();
        switch (n)
        {
            case 0 -> t.reply(h);
            case 1 -> t.reply(h, 1);
            case 2 -> t.reply(h, 1, 2);
            case 3 -> t.reply(h, 1, 2, 3);
            case 4 -> t.reply(h, 1, 2, 3, 4);
            case 5 -> t.reply(h, 1, 2, 3, 4, 5);
            case 6 -> t.reply(h, 1, 2, 3, 4, 5, 6);
            case 7 -> t.reply(h, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> t.reply(h, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void replyMedium(final Token t, final int n, final Args x)
    {
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        switch (n)
        {
            case 0 -> t.replyMedium(h, s, o, l);
            case 1 -> t.replyMedium(h, s, o, l, 1);
            case 2 -> t.replyMedium(h, s, o, l, 1, 2);
            case 3 -> t.replyMedium(h, s, o, l, 1, 2, 3);
            case 4 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4);
            case 5 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5);
            case 6 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5, 6);
            case 7 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void replyLong(final Token t, final int n, final Args x)
    {
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        final long g = x.segmentOffset();
        switch (n)
        {
            case 0 -> t.replyLong(h, s, o, l, g);
            case 1 -> t.replyLong(h, s, o, l, g, 1);
            case 2 -> t.replyLong(h, s, o, l, g, 1, 2);
            case 3 -> t.replyLong(h, s, o, l, g, 1, 2, 3);
            case 4 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4);
            case 5 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5);
            case 6 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5, 6);
            case 7 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void replyN(final Token t, final MessageCategory category, final int argCount, final Args x)
    {
        t.replyN(category, x.handler(), x.src(), x.srcOffset(), x.length(), x.segmentOffset(), argCount,
            1, 2, 3, 4, 5, 6, 7, 8);
    }

    /** A name in another process: no transport of this test JVM reaches it. */
    static EndpointName unreachable(final Fixture f)
    {
        return new EndpointName("elsewhere", f.a.name().processId() + 1, 1, 0, Map.of());
    }

    static void fillHandlerTable(final Fixture f)
    {
        for (int i = 1; i < Am.NUM_HANDLERS; i++)
        {
            if (null == f.a.handler(i))
            {
                f.a.handler(i, NOOP);
            }
        }
    }

    /** A buffer over real memory claiming a capacity above {@link Am#MAX_SEGMENT_LENGTH}; never accessed. */
    static UnsafeBuffer hugeBuffer()
    {
        final ByteBuffer memory = ByteBuffer.allocateDirect(64);
        return new UnsafeBuffer(BufferUtil.address(memory), Integer.MAX_VALUE);
    }

    static Endpoint closedEndpoint()
    {
        final Bundle other = Am.allocateBundle(BundleKind.SEQ);
        final Endpoint endpoint = other.allocateEndpoint();
        other.close();
        return endpoint;
    }

    /** An Endpoint that is not an am2j endpoint. */
    static Endpoint foreignEndpoint()
    {
        return (Endpoint)Proxy.newProxyInstance(Endpoint.class.getClassLoader(), new Class<?>[] { Endpoint.class },
            (proxy, method, args) -> switch (method.getName())
            {
                case "isClosed" -> false;
                case "toString" -> "a foreign Endpoint";
                case "hashCode" -> 0;
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    static Map<String, String> addresses(final int count, final int valueLength)
    {
        final Map<String, String> addresses = new TreeMap<>();
        for (int i = 0; i < count; i++)
        {
            addresses.put("t" + i, "v".repeat(valueLength));
        }
        return addresses;
    }

    static byte[] patched(final byte[] bytes, final int offset, final int... values)
    {
        final byte[] copy = bytes.clone();
        for (int i = 0; i < values.length; i++)
        {
            copy[offset + i] = (byte)values[i];
        }
        return copy;
    }

    /** The binary form of EndpointName with 17 distinct addresses (the limit is 16). */
    static byte[] encodedWith17Addresses()
    {
        final ByteBuffer b = ByteBuffer.allocate(512);
        b.putShort((short)0x414E).put((byte)1).put((byte)17).putLong(1).putLong(1).putInt(0);
        b.putShort((short)1).put((byte)'n');
        for (int i = 0; i < 17; i++)
        {
            final byte[] key = ("k" + (char)('a' + i)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            b.putShort((short)key.length).put(key).putShort((short)1).put((byte)'v');
        }
        return Arrays.copyOf(b.array(), b.position());
    }

    @Test
    void theHandMadeEncodingsMatchTheLayout()
    {
        // Guards the patched and hand-made encodings above against a layout change: built the same way with one
        // address, and with the endpoint id patched to its own value, they decode.
        final ByteBuffer b = ByteBuffer.allocate(512);
        b.putShort((short)0x414E).put((byte)1).put((byte)1).putLong(1).putLong(1).putInt(0);
        b.putShort((short)1).put((byte)'n');
        b.putShort((short)2).put((byte)'k').put((byte)'a').putShort((short)1).put((byte)'v');
        assertEquals("v", EndpointName.fromBytes(Arrays.copyOf(b.array(), b.position())).address("ka"));
        assertEquals(NAME, EndpointName.fromBytes(patched(BYTES, 20, 0, 0, 0, 3)));
        assertEquals(NAME.node().length(), ((BYTES[24] & 0xFF) << 8) | (BYTES[25] & 0xFF));
    }
}
