package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.am2j.api.BundleKind;
import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request's reply goes out by the route the transport gave when the request was dispatched: a mapping that changes
 * while its handler runs (the transport would now give another route) does not redirect the reply, and the source
 * name the handler reads is that route's peer.
 */
@Timeout(30)
class ReplyRouteAtDispatchTest
{
    @Test
    void aMappingChangedWhileTheHandlerRunsDoesNotRedirectTheReply()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final EndpointCore core = (EndpointCore)pair.b;
            final DispatcherValidationTest.Wire wire = new DispatcherValidationTest.Wire();
            final Dispatcher dispatcher = new Dispatcher(core, wire, core.counters.transport("raw"));
            final DispatcherValidationTest.Raw request = new DispatcherValidationTest.Raw();
            request.tag = pair.b.tag();
            final EndpointName requester = pair.a.name();
            final NamedRoute atDispatch = new NamedRoute(requester);
            final NamedRoute later = new NamedRoute(pair.b.name());
            request.back = atDispatch;
            final EndpointName[] source = new EndpointName[1];
            pair.b.handler(1, (token, msg) ->
            {
                // The transport's mapping changes under the running handler.
                request.back = later;
                source[0] = token.sourceName();
                token.reply(2, 7);
            });
            wire.next = request;
            assertEquals(1, dispatcher.pollShared(DispatchContext.current(), 1, false));
            assertEquals(1, atDispatch.sentBack.size(), "the reply went by the route resolved at dispatch");
            assertEquals(Opcode.REPLY_SHORT.code(), atDispatch.sentBack.get(0)[1]);
            assertTrue(later.sentBack.isEmpty(), "nothing went by the route the mapping gives now");
            assertSame(requester, source[0]);
        }
    }

    /** A recording route whose peer is a given name. */
    private static final class NamedRoute extends DispatcherValidationTest.Raw
    {
        private final EndpointName name;

        NamedRoute(final EndpointName name)
        {
            this.name = name;
        }

        @Override
        public EndpointName peer()
        {
            return name;
        }
    }
}
