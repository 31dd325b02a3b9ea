package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The way back of a shared-memory message is the sender found when its packet was wrapped: a packet whose inverse
 * mapping is overwritten while its handler runs (here with another live sender's) still replies to, and names, the
 * process that sent it.
 */
@Timeout(30)
class ShmReplyRouteTest
{
    @Test
    void aMappingOverwrittenWhileTheHandlerRunsDoesNotRedirectTheReply()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Fixture.Ep c = f.endpoint();
            final ShmRoute cb = c.routeTo(b);
            final ShmRoute ab = a.routeTo(b);
            assertEquals(Route.SENT, request(cb, b, 1));
            final int[] inverseOfC = new int[1];
            assertEquals(1, b.shm.poll(m -> inverseOfC[0] = slotWord((ShmInbound)m), 32, false));

            assertEquals(Route.SENT, request(ab, b, 2));
            final List<EndpointName> sources = new ArrayList<>();
            assertEquals(1, b.shm.poll(m ->
            {
                final ShmInbound inbound = (ShmInbound)m;
                assertNotEquals(inverseOfC[0], slotWord(inbound));
                // A faulty writer puts c's mapping into the packet while the handler runs.
                inbound.queue.buffer.putInt(inbound.packet + PacketDescriptor.SLOT_OFFSET, inverseOfC[0]);
                sources.add(m.sourceName());
                assertEquals(Route.SENT, m.replyRoute().send(new OutboundMessage()
                    .header(Opcode.REPLY_SHORT.code(), 0, 6, 0).args(1, 42, 0, 0, 0, 0, 0, 0, 0).source(1)));
            }, 32, false));
            assertEquals(List.of(a.host.name), sources);

            final List<Integer> replies = new ArrayList<>();
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (replies.isEmpty() && System.nanoTime() < deadline)
            {
                a.shm.poll(m -> replies.add(m.arg(0)), 32, false);
            }
            assertEquals(List.of(42), replies, "the reply reached the requester");
            assertEquals(0, c.shm.poll(m -> { }, 32, false), "and not the sender the packet now names");
            assertTrue(b.host.drops() == 0);
        }
    }

    private static int request(final ShmRoute route, final Fixture.Ep to, final int sequence)
    {
        return route.sendShort(new OutboundMessage(), Opcode.REQUEST_SHORT.code(), 5, to.host.tag, 0, 1, sequence, 0,
            0, 0, 0, 0, 0, 0);
    }

    private static int slotWord(final ShmInbound inbound)
    {
        return inbound.queue.packetInt(inbound.packet, PacketDescriptor.SLOT_OFFSET);
    }
}
