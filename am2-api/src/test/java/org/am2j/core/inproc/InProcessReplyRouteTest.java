package org.am2j.core.inproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;

import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.am2j.spi.TransportQueues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-process inverse mapping of a request is the route to its sender's queues as they were when the request was
 * dispatched: the core asks for it once, before the handler runs (as {@code Dispatcher} does), and when the sender's
 * id comes to name other queues while the handler runs (the sender freed, another endpoint attached under its id),
 * the reply goes to the queues the request came from (which refuse it, being closed), not to the newcomer, and the
 * message's route and source name stay the sender's.
 */
@Timeout(30)
class InProcessReplyRouteTest
{
    @Test
    void aMappingChangedWhileTheHandlerRunsDoesNotRedirectTheReply()
    {
        final InProcessTransport transport = new InProcessTransport(InProcessTestSupport.context(null));
        final TransportQueues requester = transport.attach(new InProcessTestSupport.Host(1));
        final TransportQueues server = transport.attach(new InProcessTestSupport.Host(2));
        final Route toServer = requester.connect(InProcessTestSupport.name(2), Tags.ALL);
        assertEquals(Route.SENT, toServer.sendShort(new OutboundMessage(), Opcode.REQUEST_SHORT.code(), 5, Tags.ALL,
            1, 1, 111, 0, 0, 0, 0, 0, 0, 0));

        final TransportQueues[] newcomer = new TransportQueues[1];
        final List<Object> seen = new ArrayList<>();
        assertEquals(1, server.poll((InboundMessage request) ->
        {
            // The core's dispatch: the way back, once, before the handler runs.
            final Route atDispatch = request.replyRoute();
            // The handler runs: its requester is freed and another endpoint is attached under the same id.
            requester.close();
            newcomer[0] = transport.attach(new InProcessTestSupport.Host(1));
            seen.add(request.replyRoute());
            seen.add(request.sourceName());
            // The reply, from inside the handler, by the route resolved at dispatch.
            seen.add(atDispatch.sendShort(new OutboundMessage(), Opcode.REPLY_SHORT.code(), 6, Tags.ALL, 2, 1, 222,
                0, 0, 0, 0, 0, 0, 0));
            seen.add(atDispatch);
        }, 32, false));

        final Route atDispatch = (Route)seen.get(3);
        assertSame(atDispatch, seen.get(0), "the request's route is the one it had at dispatch");
        assertEquals(InProcessTestSupport.name(1), (EndpointName)seen.get(1));
        assertEquals(ReturnStatus.EREPLYREJECTED.code(), seen.get(2),
            "the reply went to the freed requester's queues, which refuse it");
        assertEquals(0, newcomer[0].poll(message -> seen.add(message), 32, false),
            "nothing reached the endpoint attached under the requester's id");
        newcomer[0].close();
        server.close();
    }
}
