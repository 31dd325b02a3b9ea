package org.am2j.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.junit.jupiter.api.Test;

/**
 * The default short send of a route: the scratch frame, filled from the fields, handed to {@link Route#send}.
 */
class RouteTest
{
    /** A route that keeps the last frame it was given and answers a fixed result. */
    private static final class Capturing implements Route
    {
        OutboundMessage sent;
        int result;

        @Override
        public int send(final OutboundMessage message)
        {
            sent = message;
            return result;
        }

        @Override
        public EndpointName peer()
        {
            return null;
        }

        @Override
        public String transport()
        {
            return "test";
        }
    }

    @Test
    void theDefaultShortSendFillsTheScratchFrameFromTheFieldsAndReturnsWhatSendSays()
    {
        final Capturing route = new Capturing();
        // A scratch frame left over from a medium message with a return status: none of that may leak through.
        final OutboundMessage scratch = new OutboundMessage().header(Opcode.REQUEST_MEDIUM.code(), 3, 9, 1L)
            .args(8, 9, 9, 9, 9, 9, 9, 9, 9).data(new UnsafeBuffer(new byte[16]), 2, 10, 5).source(4);
        route.result = Route.FULL;

        assertEquals(Route.FULL, route.sendShort(scratch, Opcode.REPLY_SHORT.code(), 7, 0x55L, 12, 2, 31, 32, 0, 0, 0,
            0, 0, 0));

        assertSame(scratch, route.sent);
        assertEquals(Opcode.REPLY_SHORT.code(), scratch.opcode());
        assertEquals(0, scratch.returnStatus());
        assertEquals(7, scratch.handler());
        assertEquals(0x55L, scratch.tag());
        assertEquals(12, scratch.sourceEndpointId());
        assertEquals(2, scratch.argCount());
        assertEquals(31, scratch.arg(0));
        assertEquals(32, scratch.arg(1));
        for (int i = 2; i < 8; i++)
        {
            assertEquals(0, scratch.arg(i));
        }
        assertNull(scratch.data());
        assertEquals(0, scratch.dataLength());
        assertEquals(-1, scratch.segmentOffset());

        route.result = Route.SENT;
        assertEquals(Route.SENT, route.sendShort(scratch, Opcode.REQUEST_SHORT.code(), 1, 2L, 3, 0, 0, 0, 0, 0, 0, 0,
            0, 0));
        assertEquals(Opcode.REQUEST_SHORT.code(), scratch.opcode());
        assertEquals(0, scratch.argCount());
    }
}
