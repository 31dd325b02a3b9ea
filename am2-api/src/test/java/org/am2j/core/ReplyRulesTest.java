package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.BundleKind;
import org.am2j.api.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The request/reply rules of AM-II: a request handler replies at most once, handlers never request or poll, reply
 * handlers never reply, tokens die with their handler. Each violation is a clear error and the endpoint goes on
 * working.
 */
@Timeout(30)
class ReplyRulesTest
{
    @Test
    void aRequestHandlerRepliesAtMostOnce()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final AtomicReference<AmException> error = new AtomicReference<>();
            final int[] replies = new int[1];
            pair.b.handler(1, (token, msg) ->
            {
                assertFalse(token.hasReplied());
                token.reply(2);
                assertTrue(token.hasReplied());
                error.set(assertThrows(AmException.class, () -> token.reply(2)));
            });
            pair.a.handler(2, (token, msg) -> replies[0]++);
            pair.a.request(0, 1);
            pair.pollUntil(() -> replies[0] == 1, 100);
            assertEquals(AmError.RESOURCE, error.get().error(), error.get().getMessage());
            assertTrue(error.get().getMessage().contains("at most once"), error.get().getMessage());
            assertStillWorks(pair);
        }
    }

    @Test
    void aReplyHandlerMayNotReply()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final AtomicReference<AmException> error = new AtomicReference<>();
            pair.b.handler(1, (token, msg) -> token.reply(2));
            pair.a.handler(2, (token, msg) ->
            {
                assertFalse(token.isRequest());
                error.set(assertThrows(AmException.class, () -> token.reply(3)));
            });
            pair.a.request(0, 1);
            pair.pollUntil(() -> null != error.get(), 100);
            assertTrue(error.get().getMessage().contains("reply handler may not reply"), error.get().getMessage());
            assertStillWorks(pair);
        }
    }

    @Test
    void handlersMayNotRequestPollWaitOrFree()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final AtomicReference<AmException> request = new AtomicReference<>();
            final AtomicReference<AmException> poll = new AtomicReference<>();
            final AtomicReference<AmException> close = new AtomicReference<>();
            pair.b.handler(1, (token, msg) ->
            {
                request.set(assertThrows(AmException.class, () -> pair.b.request(0, 2)));
                poll.set(assertThrows(AmException.class, pair.bundleB::poll));
                close.set(assertThrows(AmException.class, pair.b::close));
                token.reply(2);
            });
            final int[] replies = new int[1];
            pair.a.handler(2, (token, msg) -> replies[0]++);
            pair.a.request(0, 1);
            pair.pollUntil(() -> replies[0] == 1, 100);
            assertTrue(request.get().getMessage().contains("inside a handler"), request.get().getMessage());
            assertTrue(poll.get().getMessage().contains("inside a handler"), poll.get().getMessage());
            assertTrue(close.get().getMessage().contains("inside a handler"), close.get().getMessage());
            assertFalse(pair.b.isClosed());
            assertStillWorks(pair);
        }
    }

    @Test
    void aTokenDiesWithItsHandler()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final AtomicReference<Token> kept = new AtomicReference<>();
            pair.b.handler(1, (token, msg) -> kept.set(token));
            pair.a.request(0, 1);
            pair.pollUntil(() -> null != kept.get(), 100);
            final AmException error = assertThrows(AmException.class, () -> kept.get().reply(2));
            assertTrue(error.getMessage().contains("outside its handler"), error.getMessage());
            assertThrows(AmException.class, () -> kept.get().sourceName());
            assertStillWorks(pair);
        }
    }

    @Test
    void anExceptionInAHandlerReachesThePollerAndLeavesTheEndpointUsable()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.b.handler(1, (token, msg) ->
            {
                throw new IllegalStateException("handler bug");
            });
            pair.a.request(0, 1);
            final IllegalStateException error = assertThrows(IllegalStateException.class, pair.bundleA::poll);
            assertEquals("handler bug", error.getMessage());
            assertStillWorks(pair);
        }
    }

    @Test
    void aRequestWithoutAReplyIsAllowed()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final int[] handled = new int[1];
            pair.b.handler(1, (token, msg) -> handled[0]++);
            pair.a.request(0, 1);
            pair.pollUntil(() -> handled[0] == 1, 100);
            assertStillWorks(pair);
        }
    }

    private static void assertStillWorks(final Pair pair)
    {
        final int[] got = new int[1];
        pair.b.handler(100, (token, msg) -> token.reply(101, msg.arg(0) + 1));
        pair.a.handler(101, (token, msg) -> got[0] = msg.arg(0));
        pair.a.request(0, 100, 41);
        pair.pollUntil(() -> got[0] == 42, 100);
    }
}
