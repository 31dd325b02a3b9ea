package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class WakeDatagramsTest
{
    @Test
    void parsesHostAndPort()
    {
        assertEquals(new InetSocketAddress(InetAddress.getLoopbackAddress(), 4000),
            WakeDatagrams.parse("127.0.0.1:4000"));
        assertEquals(4001, WakeDatagrams.parse("[::1]:4001").getPort());
        assertNull(WakeDatagrams.parse("127.0.0.1"));
        assertNull(WakeDatagrams.parse("127.0.0.1:0"));
        assertNull(WakeDatagrams.parse("127.0.0.1:x"));
        assertNull(WakeDatagrams.parse(":4000"));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aFailedWakeUpDoesNotStopTheNextOnes() throws Exception
    {
        try (DatagramChannel sleeper = DatagramChannel.open())
        {
            sleeper.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final InetSocketAddress address = (InetSocketAddress)sleeper.getLocalAddress();
            final long failuresBefore = WakeDatagrams.failures();
            // Port 0 is no destination: the send fails with an error.
            assertFalse(WakeDatagrams.send(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
            assertEquals(failuresBefore + 1, WakeDatagrams.failures());

            assertTrue(WakeDatagrams.send(address), "the socket is opened again after the failure");
            final ByteBuffer received = ByteBuffer.allocate(8);
            sleeper.receive(received);
            assertEquals(1, received.position());
            assertEquals('W', received.get(0));
        }
    }
}
