package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every handshake makes a session with keys of its own: a NIC that evicted a peer and introduces itself to it again
 * gets new keys and fresh sequences on both sides, and the datagrams of the earlier session, replayed into the new
 * one as they were or with the new session's id, are refused and change nothing.
 */
@Timeout(60)
class SessionsTest
{
    private static final long WRONG_TAG = 0x7777L;

    @Test
    void aPeerEvictedAndIntroducedAgainGetsNewKeysAndTheOldSessionsDatagramsAreRefused() throws IOException
    {
        final List<byte[]> fromB = new ArrayList<>();
        try (Nic a = new Nic(1, 7, NicPair.TAG_A, (wire) -> new Recorder(wire, 2, fromB), "maxPeers", "1");
            Nic b = new Nic(2, 9, NicPair.TAG_B, null);
            Nic c = new Nic(3, 11, 0x3333L, null);
            DatagramChannel raw = DatagramChannel.open())
        {
            final Nic[] all = { a, b, c };
            // B maps A's endpoint and sends it requests A refuses (a wrong tag): A makes a peer for B from B's HELLO,
            // and no route at A leads to B, so A may evict it once it has been idle.
            final Route bToA = b.host.endpoint.connect(a.host.name, WRONG_TAG);
            for (int i = 0; i < 3; i++)
            {
                assertEquals(Route.SENT, bToA.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, WRONG_TAG, i)));
            }
            assertTrue(pumpUntil(all, () -> b.sink.messages.size() == 3), b.counters().toString());
            for (final Received refused : b.sink.messages)
            {
                assertEquals(ReturnStatus.EBADTAG.code(), refused.returnStatus);
            }
            final Peer bAtA = a.transport.nic().peer(2);
            final int firstSession = bAtA.session.id;
            final int recorded = fromB.size();
            assertTrue(recorded >= 2, "B's datagrams of the first session were recorded: " + recorded);

            // C does the same once B has been idle for longer than a peer may be: A evicts B for C.
            pumpFor(all, 4 * Nic.TIMEOUT_MS);
            final Route cToA = c.host.endpoint.connect(a.host.name, WRONG_TAG);
            assertEquals(Route.SENT, cToA.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, WRONG_TAG, 0)));
            assertTrue(pumpUntil(all, () -> c.sink.messages.size() == 1), a.counters().toString());
            assertEquals(1, a.counters().get(NicEvent.PEERS_EVICTED));
            assertEquals(null, a.transport.nic().peer(2), "A forgot B");

            // Later A maps B's endpoint: C gives its place back, A introduces itself to B again, and B, which never
            // forgot A, takes up the new session (its old one restarted).
            pumpFor(all, 4 * Nic.TIMEOUT_MS);
            final Route aToB = a.host.endpoint.connect(b.host.name, NicPair.TAG_B);
            assertNotNull(aToB);
            assertEquals(Route.SENT, aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 42)));
            assertTrue(pumpUntil(all, () -> b.sink.messages.size() == 4), b.counters().toString());
            assertEquals(42, b.sink.messages.get(3).args[0]);
            assertEquals(0, b.sink.messages.get(3).returnStatus);
            assertEquals(2, a.counters().get(NicEvent.PEERS_EVICTED));
            assertEquals(1, b.counters().get(NicEvent.SESSIONS_RESTARTED), b.counters().toString());
            final Peer newBAtA = a.transport.nic().peer(2);
            assertNotEquals(firstSession, newBAtA.session.id, "a new session");

            // B's route announces its endpoint's name again (A forgot it): its next request, with the right tag, is
            // delivered.
            assertEquals(Route.SENT, bToA.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_A, 43)));
            assertTrue(pumpUntil(all, () -> a.sink.messages.size() == 1), a.counters().toString());
            assertEquals(43, a.sink.messages.get(0).args[0]);

            // The datagrams B sent in the first session, replayed to A: as they were, they name a session A does
            // not hold; with the new session's id written in, their tags fail. Nothing of them is taken or answered.
            // (Duplicates are not compared: on a loaded machine B may retransmit its last request meanwhile, which A
            // rightly counts as one; a replay is refused before the duplicate check, by the counts below.)
            final NicCounters counters = a.counters();
            final long delivered = counters.get(NicEvent.MESSAGES_DELIVERED);
            final long refused = counters.get(NicEvent.REFUSED);
            final long unknownSession = counters.get(NicEvent.UNKNOWN_SESSION);
            final long authFailed = counters.get(NicEvent.AUTH_FAILED);
            final InetSocketAddress atA = PeerTable.parse(a.host.endpoint.address());
            raw.bind(new InetSocketAddress(atA.getAddress(), 0));
            for (int i = 0; i < recorded; i++)
            {
                raw.send(ByteBuffer.wrap(fromB.get(i)), atA);
            }
            assertTrue(pumpUntil(all, () -> counters.get(NicEvent.UNKNOWN_SESSION) - unknownSession == recorded),
                counters.toString());
            for (int i = 0; i < recorded; i++)
            {
                final ByteBuffer replay = ByteBuffer.wrap(fromB.get(i).clone()).order(ByteOrder.LITTLE_ENDIAN);
                replay.putInt(WireDescriptor.SESSION_OFFSET, newBAtA.session.id);
                raw.send(replay, atA);
            }
            assertTrue(pumpUntil(all, () -> counters.get(NicEvent.AUTH_FAILED) - authFailed == recorded),
                counters.toString());
            pumpFor(all, 50);
            assertEquals(delivered, counters.get(NicEvent.MESSAGES_DELIVERED));
            assertEquals(refused, counters.get(NicEvent.REFUSED));
            assertEquals(1, a.sink.messages.size());
            assertEquals(4, b.sink.messages.size(), "nothing came back to B");
        }
    }

    private static boolean pumpUntil(final Nic[] nics, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            for (final Nic nic : nics)
            {
                nic.host.endpoint.poll(nic.sink, 16, false);
            }
        }
        return true;
    }

    private static void pumpFor(final Nic[] nics, final long millis)
    {
        final long end = System.nanoTime() + millis * 1_000_000L;
        pumpUntil(nics, () -> System.nanoTime() - end > 0);
    }

    /** One NIC with one endpoint. */
    static final class Nic implements AutoCloseable
    {
        static final long TIMEOUT_MS = 100;

        final NetTransport transport;
        final TestHost host;
        final Received.Sink sink = new Received.Sink();

        Nic(final long processId, final int endpointId, final long tag,
            final java.util.function.UnaryOperator<Wire> wrap, final String... settings)
        {
            final String[] all = java.util.Arrays.copyOf(settings, settings.length + 4);
            all[settings.length] = "timeoutMs";
            all[settings.length + 1] = Long.toString(TIMEOUT_MS);
            all[settings.length + 2] = "rtoInitialMs";
            all[settings.length + 3] = "5";
            final NetConfig config = new NetConfig(new TestContext(processId, all));
            final Wire wire = new UdpWire(config.bind, config.host, 0, config.socketBytes, config.connectedPeers);
            transport = new NetTransport(config, null == wrap ? wire : wrap.apply(wire), processId);
            transport.nic().directSends.cpuShare(NicPair.cpus(false));
            host = TestHost.attach(transport, processId, endpointId, tag);
        }

        NicCounters counters()
        {
            return transport.nic().counters();
        }

        @Override
        public void close()
        {
            host.endpoint.close();
            transport.close();
        }
    }

    /** Keeps a copy of every session datagram (no handshake) the wire receives from one NIC. */
    static final class Recorder extends ForwardingWire
    {
        private final long sourceNic;
        private final List<byte[]> into;

        Recorder(final Wire wire, final long sourceNic, final List<byte[]> into)
        {
            super(wire);
            this.sourceNic = sourceNic;
            this.into = into;
        }

        @Override
        public InetSocketAddress receive(final ByteBuffer buffer) throws IOException
        {
            final int start = buffer.position();
            final InetSocketAddress from = wire.receive(buffer);
            final int length = buffer.position() - start;
            if (null != from && length >= WireDescriptor.HEADER_LENGTH)
            {
                final ByteBuffer datagram = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
                final int type = datagram.get(start + WireDescriptor.TYPE_OFFSET);
                if (datagram.getLong(start + WireDescriptor.SOURCE_NIC_OFFSET) == sourceNic &&
                    type != WireDescriptor.TYPE_HELLO && type != WireDescriptor.TYPE_ANSWER)
                {
                    final byte[] copy = new byte[length];
                    datagram.position(start);
                    datagram.get(copy);
                    into.add(copy);
                }
            }
            return from;
        }
    }
}
