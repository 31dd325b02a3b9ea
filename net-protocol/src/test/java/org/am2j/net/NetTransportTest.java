package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class NetTransportTest
{
    @Test
    void shortRequestAndItsReply()
    {
        try (NicPair pair = new NicPair())
        {
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 40, 2)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000));
            final Received request = pair.sinkB.messages.get(0);
            assertEquals(Opcode.REQUEST_SHORT.code(), request.opcode);
            assertEquals(3, request.handler);
            assertArrayEquals(new int[] {40, 2}, request.args);
            assertEquals(0, request.returnStatus);
            assertNotNull(request.replyRoute.peer(), "the request's sender is known by name");
            assertEquals(pair.hostA.name, request.replyRoute.peer());

            assertEquals(Route.SENT, request.replyRoute.send(NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, 42)));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 1, 5000));
            final Received reply = pair.sinkA.messages.get(0);
            assertEquals(Opcode.REPLY_SHORT.code(), reply.opcode);
            assertArrayEquals(new int[] {42}, reply.args);
            assertEquals(pair.hostB.name, reply.replyRoute.peer());
        }
    }

    @Test
    void mediumAndLongMessagesOfEverySizeAcrossA1500ByteMtu()
    {
        try (NicPair pair = new NicPair("mtu", "1500"))
        {
            assertEquals(1472, pair.a.config().datagramLimit);
            pair.hostB.segment(64 * 1024);
            final Random random = new Random(5);
            final int[] sizes = {0, 1, 63, 64, 1399, 1400, 1401, 4095, 4096, 8191, 8192};
            for (final int size : sizes)
            {
                final byte[] medium = new byte[size];
                random.nextBytes(medium);
                final int before = pair.sinkB.messages.size();
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                    NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, medium, -1, size)));
                assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == before + 1, 5000), "medium " + size);
                assertArrayEquals(medium, pair.sinkB.messages.get(before).data, "medium " + size);

                final byte[] long_ = new byte[size];
                random.nextBytes(long_);
                final long offset = 1000 + size;
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                    NicPair.dataMessage(Opcode.REQUEST_LONG, 6, NicPair.TAG_B, long_, offset, size)));
                assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == before + 2, 5000), "long " + size);
                final Received got = pair.sinkB.messages.get(before + 1);
                assertEquals(offset, got.segmentOffset);
                assertArrayEquals(long_, got.data, "long " + size + " read back from the segment");
                final byte[] inSegment = new byte[size];
                pair.hostB.segment.getBytes((int)offset, inSegment);
                assertArrayEquals(long_, inSegment);
            }
            assertTrue(pair.a.nic().counters().get(NicEvent.DATAGRAMS_SENT) >
                pair.a.nic().counters().get(NicEvent.MESSAGES_SENT), "8 KiB messages went as several datagrams");
        }
    }

    @Test
    void refusedMessagesComeBackWithTheirStatus()
    {
        try (NicPair pair = new NicPair())
        {
            pair.hostB.segment(1024);
            final Route toNowhere = pair.hostA.endpoint.connect(new org.am2j.api.EndpointName("node-2", 2, 1, 1234,
                java.util.Map.of(NetTransport.NAME, pair.hostB.endpoint.address())), 1);
            pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, 0x9999, 1));
            toNowhere.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, 1, 2));
            pair.aToB.send(NicPair.dataMessage(Opcode.REQUEST_LONG, 3, NicPair.TAG_B, new byte[100], 1000, 3));
            pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 0, NicPair.TAG_B, 4));
            pair.aToB.send(NicPair.dataMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, new byte[10], -1, 5));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 5, 5000));
            assertTrue(pair.sinkB.messages.isEmpty(), "nothing refused reached the receiver");
            final int[] statusByArg = new int[6];
            for (final Received returned : pair.sinkA.messages)
            {
                statusByArg[returned.args[0]] = returned.returnStatus;
            }
            assertEquals(ReturnStatus.EBADTAG.code(), statusByArg[1]);
            assertEquals(ReturnStatus.EBADENDPOINT.code(), statusByArg[2]);
            assertEquals(ReturnStatus.EBADSEGOFF.code(), statusByArg[3]);
            assertEquals(ReturnStatus.EBADHANDLER.code(), statusByArg[4]);
            assertEquals(ReturnStatus.EBADLENGTH.code(), statusByArg[5]);
            assertEquals(5, pair.b.nic().counters().get(NicEvent.REFUSED));
        }
    }
}
