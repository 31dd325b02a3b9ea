package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.Random;

import org.am2j.api.Opcode;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An attacker who reads the wire and injects datagrams: frames that carry a live peer's NIC id (acknowledgements,
 * floors, data, BUSY, give-ups) but not its link key change nothing; frames from made-up NIC ids make no peer and
 * keep no state.
 */
@Timeout(60)
class ForgedFramesTest
{
    private static final int REQUESTS = 300;

    @Test
    void framesForgedWithALivePeersIdChangeNothing() throws Exception
    {
        try (NicPair pair = new NicPair("timeoutMs", "2000", "rtoInitialMs", "5");
            DatagramChannel raw = DatagramChannel.open())
        {
            final InetSocketAddress atB = PeerTable.parse(pair.hostB.endpoint.address());
            raw.bind(new InetSocketAddress(atB.getAddress(), 0));
            final Random random = new Random(7);
            final ByteBuffer forged = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
            // The attacker reads the live session's id on the wire.
            pair.handshake();
            final int session = pair.b.nic().peer(1).session.id;
            int sent = 0;
            int forgedCount = 0;
            while (count(pair.sinkB) < REQUESTS)
            {
                if (sent < REQUESTS && Route.SENT == pair.aToB.send(request(sent)))
                {
                    sent++;
                }
                // Between the real ones: forged frames "from A" with every type and the state fields an attacker
                // would pick (everything acknowledged, floors far ahead, the next sequences, BUSY).
                forge(forged, 1 + forgedCount % WireDescriptor.TYPE_HELLO, random);
                forged.putInt(WireDescriptor.SESSION_OFFSET, session);
                forged.position(0).limit(WireDescriptor.HEADER_LENGTH + 64 + WireDescriptor.TAG_LENGTH);
                raw.send(forged, atB);
                forgedCount++;
                pair.pump();
            }
            assertTrue(pair.pumpUntil(() -> pair.b.nic().counters().get(NicEvent.AUTH_FAILED) >= 1, 5000));
            pair.pumpUntil(() -> false, 200);
            assertEquals(REQUESTS, count(pair.sinkB));
            final boolean[] seen = new boolean[REQUESTS];
            for (final Received m : pair.sinkB.messages)
            {
                assertEquals(0, m.returnStatus);
                assertTrue(!seen[m.args[0]], "delivered twice: " + m.args[0]);
                seen[m.args[0]] = true;
            }
            assertTrue(pair.sinkA.messages.isEmpty(), "nothing came back");
            final NicCounters b = pair.b.nic().counters();
            assertEquals(forgedCount, b.get(NicEvent.AUTH_FAILED), b.toString());
            assertEquals(0, b.get(NicEvent.MALFORMED) + b.get(NicEvent.OUT_OF_WINDOW), b.toString());
            // The link goes on both ways.
            assertEquals(Route.SENT, pair.sendPumping(pair.bToA, NicPair.shortMessage(Opcode.REQUEST_SHORT, 3,
                NicPair.TAG_A, 5)));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 1, 5000));
        }
    }

    @Test
    void framesFromUnknownNicsMakeNoPeerAndKeepNoState() throws Exception
    {
        try (NicPair pair = NicPair.oneWay("maxPeers", "4");
            DatagramChannel raw = DatagramChannel.open())
        {
            final InetSocketAddress atB = PeerTable.parse(pair.hostB.endpoint.address());
            raw.bind(new InetSocketAddress(atB.getAddress(), 0));
            final Random random = new Random(11);
            final ByteBuffer forged = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
            final int frames = 10_000;
            int hellos = 0;
            for (int i = 0; i < frames; i++)
            {
                final int type = 0 == i % 2 ? WireDescriptor.TYPE_DATA : WireDescriptor.TYPE_HELLO;
                forge(forged, type, random);
                forged.putLong(WireDescriptor.SOURCE_NIC_OFFSET, 1_000_000L + i);
                final int length = type == WireDescriptor.TYPE_HELLO ? WireDescriptor.HELLO_LENGTH :
                    WireDescriptor.HEADER_LENGTH + 64;
                if (type == WireDescriptor.TYPE_HELLO)
                {
                    // A random public key, and a made-up cookie on every other one.
                    forged.putShort(WireDescriptor.FLAGS_OFFSET, (short)(0 == i % 4 ? WireDescriptor.FLAG_HAS_COOKIE : 0));
                    hellos++;
                }
                forged.position(0).limit(length + WireDescriptor.TAG_LENGTH);
                raw.send(forged, atB);
                if (0 == i % 64)
                {
                    pair.pump();
                }
            }
            final NicCounters b = pair.b.nic().counters();
            final int expectedHellos = hellos;
            assertTrue(pair.pumpUntil(() -> b.get(NicEvent.UNKNOWN_PEER) + b.get(NicEvent.COOKIES_SENT) +
                b.get(NicEvent.AUTH_FAILED) >= frames - 100, 10_000), b.toString());
            assertTrue(b.get(NicEvent.COOKIES_SENT) <= expectedHellos, b.toString());
            assertEquals(0, b.get(NicEvent.PEERS_ACCEPTED), b.toString());
            for (int i = 0; i < frames; i++)
            {
                assertNull(pair.b.nic().peer(1_000_000L + i));
            }
            // A real peer that B does not know still gets in (HELLO, cookie, HELLO with cookie) and is served.
            assertEquals(Route.SENT, pair.sendPumping(pair.aToB, request(1)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000), b.toString());
            assertEquals(1, b.get(NicEvent.PEERS_ACCEPTED), b.toString());
        }
    }

    private static void forge(final ByteBuffer forged, final int type, final Random random)
    {
        forged.clear();
        for (int i = 0; i < forged.capacity(); i++)
        {
            forged.put(i, (byte)random.nextInt());
        }
        forged.putShort(WireDescriptor.MAGIC_OFFSET, WireDescriptor.MAGIC);
        forged.put(WireDescriptor.VERSION_OFFSET, WireDescriptor.VERSION);
        forged.put(WireDescriptor.TYPE_OFFSET, (byte)type);
        forged.putShort(WireDescriptor.FLAGS_OFFSET, (short)(WireDescriptor.FLAG_BUSY | (random.nextBoolean() ?
            WireDescriptor.FLAG_REPLY_CHANNEL : 0)));
        forged.put(WireDescriptor.FRAGMENT_INDEX_OFFSET, (byte)0);
        forged.put(WireDescriptor.FRAGMENT_COUNT_OFFSET, (byte)1);
        forged.putLong(WireDescriptor.SOURCE_NIC_OFFSET, 1);
        forged.putLong(WireDescriptor.DESTINATION_NIC_OFFSET, 2);
        forged.putLong(WireDescriptor.SEQUENCE_OFFSET, random.nextInt(64));
        // "Everything you sent is acknowledged", and floors far ahead.
        forged.putLong(WireDescriptor.REQUEST_ACK_NEXT_OFFSET, 1 + random.nextInt(40));
        forged.putLong(WireDescriptor.REQUEST_ACK_BITS_OFFSET, -1L);
        forged.putLong(WireDescriptor.REPLY_ACK_NEXT_OFFSET, 0);
        forged.putLong(WireDescriptor.REPLY_ACK_BITS_OFFSET, -1L);
        forged.putLong(WireDescriptor.REQUEST_FLOOR_OFFSET, 65 + random.nextInt(100));
        forged.putLong(WireDescriptor.REPLY_FLOOR_OFFSET, 65);
        forged.putInt(WireDescriptor.BODY_LENGTH_OFFSET, 64);
        forged.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
        forged.putShort(WireDescriptor.SOURCE_PORT_OFFSET, (short)9);
    }

    private static org.am2j.spi.OutboundMessage request(final int marker)
    {
        return NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, marker);
    }

    private static long count(final Received.Sink sink)
    {
        return sink.messages.stream().filter((m) -> 0 == m.returnStatus).count();
    }
}
