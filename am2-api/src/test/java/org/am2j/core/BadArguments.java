package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.EventMask;
import org.am2j.api.Handler;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Token;
import org.am2j.core.SendForms.Args;
import org.junit.jupiter.api.function.Executable;

/**
 * What the bad-argument tests share ({@code Bad*ArgumentsTest}, {@link ClosedAndForeignThreadTest}): a bad call must
 * throw {@link AmException} with the right {@link AmError}, a message that names the argument and, for a range, its
 * bounds; send nothing; and leave the endpoints usable (their tables, segment and tag unchanged, a request/reply round
 * trip still working). The cases are tables, one row per call and kind of bad argument ({@link Case}), run on a
 * {@link Fixture} by {@link #run}.
 */
final class BadArguments
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

    /** Run an in-range extreme: it succeeds, and the pair still works. */
    static void accept(final Good c)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            assertDoesNotThrow(() -> c.call().accept(f));
            f.assertRoundTrip();
        }
    }

    private BadArguments()
    {
    }
}
