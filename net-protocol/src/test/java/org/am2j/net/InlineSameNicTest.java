package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;

import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two endpoints of one process over its in-process NIC: the NIC moves a record from one endpoint's send queue into
 * the other's receive queue, as a shared NIC does between the endpoints it serves, so a process that routes its own
 * endpoints over the network (a network-only job's two ranks of one process, a benchmark of the network path on one
 * core) reaches them.
 */
@Timeout(60)
class InlineSameNicTest
{
    @Test
    void aRequestAndItsReplyBetweenTwoEndpointsOfOneNic()
    {
        try (NetTransport nic = nic())
        {
            final TestHost a = TestHost.attach(nic, 1, 7, NicPair.TAG_A);
            final TestHost b = TestHost.attach(nic, 1, 9, NicPair.TAG_B);
            final Received.Sink sinkA = new Received.Sink();
            final Received.Sink sinkB = new Received.Sink();
            final Route ab = a.endpoint.connect(b.name, NicPair.TAG_B);
            assertNotNull(ab, "a route to an endpoint of the same NIC");
            assertEquals(Route.SENT, ab.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 40, 2)));
            final BooleanSupplier requestArrived = () -> 1 == sinkB.messages.size();
            assertTrue(pump(a, sinkA, b, sinkB, requestArrived), "the request arrives: " + nic.nic().counters());
            final Received request = sinkB.messages.get(0);
            assertArrayEquals(new int[] {40, 2}, request.args);
            assertEquals(a.name, request.replyRoute.peer());

            assertEquals(Route.SENT, request.replyRoute.send(NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, 42)));
            assertTrue(pump(a, sinkA, b, sinkB, () -> 1 == sinkA.messages.size()), "the reply arrives");
            assertArrayEquals(new int[] {42}, sinkA.messages.get(0).args);
        }
    }

    /**
     * A medium request with its data, and a request with a wrong tag, which comes back to its sender with EBADTAG
     * as a refusal from the wire does; the messages after it go on.
     */
    @Test
    void dataArrivesAndARefusalComesBackToItsSender()
    {
        try (NetTransport nic = nic())
        {
            final TestHost a = TestHost.attach(nic, 1, 7, NicPair.TAG_A);
            final TestHost b = TestHost.attach(nic, 1, 9, NicPair.TAG_B);
            final Received.Sink sinkA = new Received.Sink();
            final Received.Sink sinkB = new Received.Sink();
            final byte[] data = new byte[3000];
            for (int i = 0; i < data.length; i++)
            {
                data[i] = (byte)(i * 7);
            }
            final Route ab = a.endpoint.connect(b.name, NicPair.TAG_B);
            final Route wrongTag = a.endpoint.connect(b.name, NicPair.TAG_A);
            assertEquals(Route.SENT, ab.send(NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3, NicPair.TAG_B, data, -1, 1)));
            assertEquals(Route.SENT, wrongTag.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_A, 2)));
            assertEquals(Route.SENT, ab.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 3)));
            assertTrue(pump(a, sinkA, b, sinkB, () -> 2 == sinkB.messages.size() && 1 == sinkA.messages.size()),
                "two requests delivered, one returned: " + nic.nic().counters());
            assertArrayEquals(data, sinkB.messages.get(0).data);
            assertArrayEquals(new int[] {3}, sinkB.messages.get(1).args);
            final Received returned = sinkA.messages.get(0);
            assertEquals(ReturnStatus.EBADTAG.code(), returned.returnStatus);
            assertArrayEquals(new int[] {2}, returned.args);
        }
    }

    /**
     * @return an in-process NIC of process 1 on a loopback socket.
     */
    private static NetTransport nic()
    {
        final NetConfig config = new NetConfig(new TestContext(1, new String[0]));
        return new NetTransport(config, new UdpWire(config.bind, config.host, 0, config.socketBytes,
            config.connectedPeers), 1);
    }

    private static boolean pump(
        final TestHost a, final Received.Sink sinkA, final TestHost b, final Received.Sink sinkB,
        final BooleanSupplier done)
    {
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (!done.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            a.endpoint.poll(sinkA, 16, false);
            b.endpoint.poll(sinkB, 16, false);
        }
        return true;
    }
}
