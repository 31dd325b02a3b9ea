package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The wire modes between two NICs: each carries messages both ways; in {@code encrypt} mode nothing of a message's
 * payload is on the wire; a flipped bit in a datagram's header, payload or tag is refused, counted and changes nothing;
 * a key epoch ends in the middle of a flood and nothing is lost or duplicated; ends of different modes refuse each
 * other naming both.
 */
@Timeout(120)
class WireModesTest
{
    private static final byte[] MARKER = "am2j-marker-7f3a9c-payload".getBytes(StandardCharsets.US_ASCII);

    @Test
    void eachModeCarriesMessagesBothWays()
    {
        for (final String mode : new String[] { "encrypt", "authenticate", "off" })
        {
            try (NicPair pair = new NicPair("wire", mode))
            {
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB, NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3,
                    NicPair.TAG_B, marked(8192), -1, 1)));
                assertEquals(Route.SENT, pair.sendPumping(pair.bToA, NicPair.shortMessage(Opcode.REQUEST_SHORT, 3,
                    NicPair.TAG_A, 2)));
                assertTrue(pair.pumpUntil(() -> 1 == pair.sinkB.messages.size() && 1 == pair.sinkA.messages.size(),
                    10_000), mode);
                assertTrue(java.util.Arrays.equals(marked(8192), pair.sinkB.messages.get(0).data), mode);
                assertEquals(2, pair.sinkA.messages.get(0).args[0], mode);
            }
        }
    }

    @Test
    void inEncryptModeAMarkerInThePayloadNeverAppearsOnTheWire()
    {
        assertTrue(markersOnTheWire("authenticate") > 0, "the capture sees payloads in clear when they are");
        assertEquals(0, markersOnTheWire("encrypt"));
    }

    /**
     * @return how many datagrams A handed its socket carried the marker: short, medium, batched and fragmented.
     */
    private static int markersOnTheWire(final String mode)
    {
        final List<byte[]> sent = new ArrayList<>();
        try (NicPair pair = new NicPair((w) -> new Capture(w, sent), "wire", mode, "mtu", "1500"))
        {
            for (final int size : new int[] { 40, 1000, 8192 })
            {
                for (int i = 0; i < 3; i++)
                {
                    assertEquals(Route.SENT, pair.sendPumping(pair.aToB, NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3,
                        NicPair.TAG_B, marked(size), -1, i)));
                }
            }
            assertTrue(pair.pumpUntil(() -> 9 == pair.sinkB.messages.size(), 10_000));
            int found = 0;
            synchronized (sent)
            {
                for (final byte[] datagram : sent)
                {
                    found += contains(datagram, MARKER) ? 1 : 0;
                }
            }
            return found;
        }
    }

    @Test
    void aFlippedBitInHeaderPayloadOrTagIsRefusedCountedAndChangesNothing() throws IOException
    {
        for (final String mode : new String[] { "encrypt", "authenticate" })
        {
            final List<byte[]> sent = new ArrayList<>();
            try (NicPair pair = new NicPair((w) -> new Capture(w, sent), "wire", mode);
                DatagramChannel raw = DatagramChannel.open())
            {
                pair.handshake();
                sent.clear();
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB, NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3,
                    NicPair.TAG_B, marked(100), -1, 7)));
                assertTrue(pair.pumpUntil(() -> 1 == pair.sinkB.messages.size(), 10_000));
                pair.pumpUntil(() -> false, 50);
                byte[] data = null;
                synchronized (sent)
                {
                    for (final byte[] datagram : sent)
                    {
                        final int type = datagram[WireDescriptor.TYPE_OFFSET];
                        data = null == data && (WireDescriptor.TYPE_DATA == type || WireDescriptor.TYPE_BATCH == type) ?
                            datagram : data;
                    }
                }
                assertTrue(null != data, mode);
                final InetSocketAddress atB = PeerTable.parse(pair.hostB.endpoint.address());
                raw.bind(new InetSocketAddress(atB.getAddress(), 0));
                final NicCounters b = pair.b.nic().counters();
                final Peer aAtB = pair.b.nic().peer(1);
                final long next = aAtB.requestsIn.next();
                final long delivered = b.get(NicEvent.MESSAGES_DELIVERED);
                final long failed = b.get(NicEvent.AUTH_FAILED);
                // A bit of the sequence number, of an acknowledgement field, of the payload, of the tag.
                final int[] bits = { 8 * WireDescriptor.SEQUENCE_OFFSET, 8 * WireDescriptor.REQUEST_ACK_NEXT_OFFSET + 1,
                    8 * (WireDescriptor.HEADER_LENGTH + MessageDescriptor.HEADER_LENGTH + 3), 8 * (data.length - 5) };
                for (final int bit : bits)
                {
                    final byte[] flipped = data.clone();
                    flipped[bit / 8] ^= (byte)(1 << (bit % 8));
                    raw.send(ByteBuffer.wrap(flipped), atB);
                }
                assertTrue(pair.pumpUntil(() -> b.get(NicEvent.AUTH_FAILED) - failed == bits.length, 10_000),
                    mode + " " + b);
                // The datagram as it was is a duplicate: the injection reaches B, and only the flips were refused.
                final long duplicates = b.get(NicEvent.DUPLICATES);
                raw.send(ByteBuffer.wrap(data), atB);
                assertTrue(pair.pumpUntil(() -> b.get(NicEvent.DUPLICATES) > duplicates, 10_000), mode + " " + b);
                assertEquals(delivered, b.get(NicEvent.MESSAGES_DELIVERED), mode);
                assertEquals(next, aAtB.requestsIn.next(), mode);
                assertEquals(0, b.get(NicEvent.MALFORMED) + b.get(NicEvent.OUT_OF_WINDOW), mode + " " + b);
                assertEquals(1, pair.sinkB.messages.size(), mode);
            }
        }
    }

    @Test
    void aKeyEpochEndsMidFloodAndNothingIsLostOrDuplicated()
    {
        // 16 KiB per key: a flood of 1 KiB requests changes keys every 15 or so.
        try (NicPair pair = new NicPair("wire", "encrypt", "rekeyKiB", "16"))
        {
            final int count = 3000;
            for (int i = 0; i < count; i++)
            {
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB, NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3,
                    NicPair.TAG_B, marked(1024), -1, i)));
            }
            assertTrue(pair.pumpUntil(() -> count == pair.sinkB.messages.size(), 30_000),
                pair.b.nic().counters().toString());
            pair.pumpUntil(() -> false, 100);
            final boolean[] seen = new boolean[count];
            for (final Received m : pair.sinkB.messages)
            {
                assertEquals(0, m.returnStatus);
                assertFalse(seen[m.args[0]], "delivered twice: " + m.args[0]);
                seen[m.args[0]] = true;
            }
            assertEquals(count, pair.sinkB.messages.size());
            assertTrue(pair.a.nic().counters().get(NicEvent.REKEYS) > 100, pair.a.nic().counters().toString());
            assertTrue(pair.a.nic().peer(2).session.transmit.epoch() > 100);
            assertEquals(pair.a.nic().peer(2).session.transmit.epoch(), pair.b.nic().peer(1).session.receive.epoch());
            assertEquals(0, pair.b.nic().counters().get(NicEvent.AUTH_FAILED), pair.b.nic().counters().toString());
        }
    }

    @Test
    void endsOfDifferentModesRefuseEachOtherNamingBothSettings()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (NicPair pair = NicPair.eachWith(new String[0], new String[] { "authenticate", "false" }))
        {
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 5)));
            assertTrue(pair.pumpUntil(() -> 1 == pair.sinkA.messages.size(), 10_000), pair.a.nic().counters() + " " +
                pair.b.nic().counters());
            assertEquals(ReturnStatus.EUNREACHABLE.code(), pair.sinkA.messages.get(0).returnStatus);
            assertTrue(pair.sinkB.messages.isEmpty());
            assertTrue(pair.a.nic().counters().get(NicEvent.WIRE_MISMATCHES) >= 1);
            assertTrue(pair.b.nic().counters().get(NicEvent.WIRE_MISMATCHES) >= 1);
            // Later messages do not leave either.
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 6)));
            assertTrue(pair.pumpUntil(() -> 2 == pair.sinkA.messages.size(), 10_000));
            assertEquals(ReturnStatus.EUNREACHABLE.code(), pair.sinkA.messages.get(1).returnStatus);
        }
        finally
        {
            System.setErr(saved);
        }
        final String text = err.toString(StandardCharsets.UTF_8);
        final String byDefault = WireMode.DEFAULT.text;
        assertTrue(text.contains("runs the wire mode off, and this NIC (process 1) runs " + byDefault +
            " (the default)"), text);
        assertTrue(text.contains("runs the wire mode " + byDefault + ", and this NIC (process 2) runs off " +
            "(am2j.net.authenticate=false)"), text);
    }

    private static byte[] marked(final int size)
    {
        final byte[] data = new byte[size];
        for (int i = 0; i < size; i++)
        {
            data[i] = (byte)(i * 31);
        }
        for (int at = 0; at + MARKER.length <= size; at += 512)
        {
            System.arraycopy(MARKER, 0, data, at, MARKER.length);
        }
        return data;
    }

    private static boolean contains(final byte[] datagram, final byte[] marker)
    {
        for (int i = 0; i + marker.length <= datagram.length; i++)
        {
            int j = 0;
            while (j < marker.length && datagram[i + j] == marker[j])
            {
                j++;
            }
            if (j == marker.length)
            {
                return true;
            }
        }
        return false;
    }

    /** Keeps a copy of every datagram the NIC hands its socket. */
    static final class Capture extends ForwardingWire
    {
        private final List<byte[]> sent;

        Capture(final Wire wire, final List<byte[]> sent)
        {
            super(wire);
            this.sent = sent;
        }

        @Override
        public boolean send(final ByteBuffer datagram, final Destination to) throws IOException
        {
            synchronized (sent)
            {
                sent.add(BurstWire.copy(datagram));
            }
            return wire.send(datagram, to);
        }
    }
}
