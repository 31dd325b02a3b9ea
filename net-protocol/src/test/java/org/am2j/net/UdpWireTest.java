package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class UdpWireTest
{
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void theFirstPeersGetAConnectedSendSocketAndTheRestTheReceivingOne() throws IOException
    {
        try (UdpWire wire = new UdpWire(LOOPBACK, LOOPBACK, 0, 65536, 1);
            Receiver first = new Receiver();
            Receiver second = new Receiver())
        {
            final Destination toFirst = wire.destination(first.address());
            final Destination toSecond = wire.destination(second.address());
            assertEquals(1, wire.connectedCount());
            assertEquals(first.address(), toFirst.address);

            assertTrue(wire.send(datagram(11), toFirst));
            assertTrue(wire.send(datagram(22), toSecond));
            final InetSocketAddress fromFirst = first.receive(11);
            final InetSocketAddress fromSecond = second.receive(22);
            assertNotEquals(wire.localAddress().getPort(), fromFirst.getPort(), "a connected socket of its own");
            assertEquals(wire.localAddress().getPort(), fromSecond.getPort(), "over the limit: the receiving socket");
        }
    }

    @Test
    void aSecondPeerAtTheSameAddressSharesItsSocket() throws IOException
    {
        try (UdpWire wire = new UdpWire(LOOPBACK, LOOPBACK, 0, 65536, 2);
            Receiver peer = new Receiver())
        {
            final Destination first = wire.destination(peer.address());
            final Destination again = wire.destination(peer.address());
            assertEquals(1, wire.connectedCount(), "a restarted peer on the same address takes no second socket");
            assertTrue(wire.send(datagram(1), first));
            assertTrue(wire.send(datagram(2), again));
            assertEquals(peer.receive(1), peer.receive(2), "both from the one connected socket");
        }
    }

    @Test
    void noConnectedSocketsWhenTheLimitIsZero() throws IOException
    {
        try (UdpWire wire = new UdpWire(LOOPBACK, LOOPBACK, 0, 65536, 0);
            Receiver peer = new Receiver())
        {
            final Destination to = wire.destination(peer.address());
            assertEquals(0, wire.connectedCount());
            assertTrue(wire.send(datagram(5), to));
            assertEquals(wire.localAddress().getPort(), peer.receive(5).getPort());
        }
    }

    @Test
    void aPeerWhoseSocketClosedAndCameBackGetsTheNextDatagram() throws Exception
    {
        try (UdpWire wire = new UdpWire(LOOPBACK, LOOPBACK, 0, 65536, 4))
        {
            final Receiver gone = new Receiver();
            final InetSocketAddress address = gone.address();
            final Destination to = wire.destination(address);
            gone.close();
            // Each send to the closed port brings an ICMP "port unreachable" back, which a connected socket reports
            // on its next write: each send waits until the last one's report is pending, so every send after the first
            // meets one, and none may fail.
            try (Selector reports = errorReports(to))
            {
                for (int i = 0; i < 5; i++)
                {
                    assertTrue(wire.send(datagram(i), to));
                    reports.select(); // no timeout: the class's @Timeout bounds it
                    reports.selectedKeys().clear();
                }
            }
            try (Receiver back = new Receiver(address))
            {
                assertTrue(wire.send(datagram(99), to));
                assertNotNull(back.receive(99), "the datagram after the reported error went out");
            }
        }
    }

    @Test
    void closeClosesTheConnectedSocketsAndMakesNoMore() throws IOException
    {
        final UdpWire wire = new UdpWire(LOOPBACK, LOOPBACK, 0, 65536, 4);
        try (Receiver peer = new Receiver())
        {
            wire.destination(peer.address());
            assertEquals(1, wire.connectedCount());
            wire.close();
            assertEquals(0, wire.connectedCount());
            wire.destination(peer.address());
            assertEquals(0, wire.connectedCount());
        }
    }

    private static ByteBuffer datagram(final int marker)
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(8);
        buffer.putInt(0, marker).putInt(4, ~marker);
        return buffer;
    }

    /**
     * A plain socket that waits for one datagram with a marker.
     */
    /**
     * @param to a destination with a connected socket of its own.
     * @return a selector on that socket that selects it once an error (an ICMP report) is pending on it: a socket
     *         error wakes a selector whatever the interest set.
     */
    private static Selector errorReports(final Destination to) throws Exception
    {
        final java.lang.reflect.Field field = to.getClass().getDeclaredField("channel");
        field.setAccessible(true);
        final Selector selector = Selector.open();
        ((DatagramChannel)field.get(to)).register(selector, SelectionKey.OP_READ);
        return selector;
    }

    private static final class Receiver implements AutoCloseable
    {
        private final DatagramChannel channel;
        private final Selector selector;

        Receiver() throws IOException
        {
            this(new InetSocketAddress(LOOPBACK, 0));
        }

        Receiver(final InetSocketAddress bindTo) throws IOException
        {
            channel = DatagramChannel.open();
            channel.bind(bindTo);
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
        }

        InetSocketAddress address() throws IOException
        {
            return (InetSocketAddress)channel.getLocalAddress();
        }

        /**
         * @return the sender of the first datagram carrying the marker; fails after 10 s.
         */
        InetSocketAddress receive(final int marker) throws IOException
        {
            final ByteBuffer into = ByteBuffer.allocate(64);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline)
            {
                selector.select(100);
                selector.selectedKeys().clear();
                into.clear();
                final InetSocketAddress from = (InetSocketAddress)channel.receive(into);
                if (null != from && into.position() == 8 && into.getInt(0) == marker)
                {
                    assertEquals(~marker, into.getInt(4));
                    return from;
                }
            }
            assertFalse(true, "no datagram with marker " + marker + " within 10 s");
            return null;
        }

        @Override
        public void close() throws IOException
        {
            selector.close();
            channel.close();
        }
    }
}
