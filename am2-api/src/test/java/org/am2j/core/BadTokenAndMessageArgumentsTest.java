package org.am2j.core;

import static org.am2j.core.BadArguments.ARG_COUNT_RANGE;
import static org.am2j.core.BadArguments.LENGTH;
import static org.am2j.core.BadArguments.PROBED;
import static org.am2j.core.BadArguments.SRC_BYTES;
import static org.am2j.core.BadArguments.assertAmException;
import static org.am2j.core.BadArguments.catching;
import static org.am2j.core.SendForms.badSends;
import static org.am2j.core.SendForms.repliers;
import static org.am2j.core.SendForms.replyN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Token;
import org.am2j.core.BadArguments.Fixture;
import org.am2j.core.BadArguments.Snapshot;
import org.am2j.core.SendForms.BadSend;
import org.am2j.core.SendForms.Replier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad arguments to what a handler is given: every reply overload of a {@link Token}
 * ({@link SendForms#repliers()}) with every kind of bad argument, after which the token may still reply; an argument
 * index out of range of a {@link Message}, returned or not; and a token or message used after its
 * handler returned.
 */
@Timeout(60)
class BadTokenAndMessageArgumentsTest
{
    // ================================================================================================================
    // Replies: every overload with every kind of bad argument; the token may still reply afterwards
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
}
