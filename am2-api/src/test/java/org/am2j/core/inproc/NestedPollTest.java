package org.am2j.core.inproc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.am2j.api.Opcode;
import org.am2j.api.Tags;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.am2j.spi.TransportQueues;
import org.junit.jupiter.api.Test;

/**
 * A request handler whose reply finds the queue full polls the reply queues again (the core's pollForProgress); the
 * request it is handling must read the same afterwards: each ring hands its messages over in a flyweight of its own.
 */
class NestedPollTest
{
    private static OutboundMessage frame(final Opcode opcode, final int arg)
    {
        return new OutboundMessage().header(opcode.code(), 0, 5, Tags.ALL).args(1, arg, 0, 0, 0, 0, 0, 0, 0).source(0);
    }

    @Test
    void aNestedPollOfTheReplyRingLeavesTheRequestBeingHandledIntact()
    {
        final InProcessTransport transport = new InProcessTransport(InProcessTestSupport.context(null));
        final TransportQueues a = transport.attach(new InProcessTestSupport.Host(0));
        final TransportQueues b = transport.attach(new InProcessTestSupport.Host(1));
        final Route ab = a.connect(InProcessTestSupport.name(1), Tags.ALL);
        assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 111)));
        final List<Integer> nested = new ArrayList<>();
        final int[] outer = new int[2];
        assertEquals(1, b.poll((InboundMessage request) ->
        {
            // a reply arrives while the request is handled, and the handler's own reply waits for space
            assertEquals(Route.SENT, ab.send(frame(Opcode.REPLY_SHORT, 222)));
            b.poll((InboundMessage reply) -> nested.add(reply.arg(0)), 32, true);
            outer[0] = request.arg(0);
            outer[1] = request.opcode();
        }, 32, false));
        assertEquals(List.of(222), nested, "the nested poll delivered the reply");
        assertEquals(111, outer[0], "the request's argument after the nested poll");
        assertEquals(Opcode.REQUEST_SHORT.code(), outer[1], "the request's opcode after the nested poll");
    }
}
