package org.am2j.perf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plain UDP ping-pong and stream between two threads of this JVM over loopback, and their rules about repeated
 * pings, earlier streams and end markers, driven by hand-made datagrams. Nothing about speed is asserted.
 */
class UdpPingPongTest
{
    private final ExecutorService executor = Executors.newSingleThreadExecutor(runnable ->
    {
        final Thread thread = new Thread(runnable, "udp-peer");
        thread.setDaemon(true);
        return thread;
    });

    @AfterEach
    void stop()
    {
        executor.shutdownNow();
    }

    @Test
    @Timeout(60)
    void roundTripsBetweenTwoSocketsOnLoopback() throws Exception
    {
        try (UdpPingPong initiator = UdpPingPong.open(UdpPingPong.loopback());
            UdpPingPong responder = UdpPingPong.open(UdpPingPong.loopback()))
        {
            pair(initiator, responder);
            final Future<?> answers = executor.submit(() ->
            {
                responder.respond(300);
                responder.respond(200);
            });
            final Histogram histogram = LatencySummary.newHistogram();
            initiator.roundTrips(300, histogram);
            assertEquals(300, histogram.getTotalCount());
            histogram.reset();
            initiator.roundTrips(200, histogram);
            assertEquals(200, histogram.getTotalCount());
            answers.get(30, TimeUnit.SECONDS);
            assertTrue(histogram.getValueAtPercentile(50.0) > 0);
            // a pong later than the resend timeout (a responder descheduled on a loaded machine) costs a resend
            assertTrue(initiator.resends() >= 0);
        }
    }

    @Test
    @Timeout(60)
    void roundTripsBetweenSocketsOnTwoAddresses() throws Exception
    {
        // Two addresses of loopback's 127.0.0.0/8 stand for the two ends of a network path: each side sends to the
        // other's address, not its own.
        final InetAddress second = InetAddress.getByAddress(new byte[]{ 127, 0, 0, 2 });
        try (UdpPingPong initiator = UdpPingPong.open(UdpPingPong.loopback());
            UdpPingPong responder = UdpPingPong.open(second))
        {
            assertEquals(second, responder.host());
            initiator.peer(responder.host(), responder.port());
            responder.peer(initiator.host(), initiator.port());
            final Future<?> answers = executor.submit(() -> responder.respond(100));
            final Histogram histogram = LatencySummary.newHistogram();
            initiator.roundTrips(100, histogram);
            assertEquals(100, histogram.getTotalCount());
            answers.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(60)
    void aStreamArrivesAsWholeDatagramsAndIsCounted() throws Exception
    {
        try (UdpPingPong sender = UdpPingPong.open(UdpPingPong.loopback());
            UdpPingPong receiver = UdpPingPong.open(UdpPingPong.loopback()))
        {
            pair(sender, receiver);
            for (int run = 0; run < 3; run++)
            {
                final Future<byte[]> sunk = executor.submit(() -> receiver.sink(500).toBytes());
                // the receiver may not be receiving yet: what it misses, loopback keeps in its socket buffer
                sender.stream(500);
                final UdpStreamTally tally = UdpStreamTally.fromBytes(sunk.get(30, TimeUnit.SECONDS));
                assertTrue(tally.datagrams() > 0 && tally.datagrams() <= 500, tally.toString());
                assertEquals(tally.datagrams() * UdpPingPong.STREAM_BYTES, tally.bytes());
                assertTrue(tally.gbps() >= 0);
                assertTrue(UdpStreamTally.loss(500, tally.datagrams()) >= 0 && UdpStreamTally.loss(500, tally.datagrams()) < 1);
            }
            assertTrue(sender.sendFullSpins() >= 0);
        }
    }

    @Test
    @Timeout(60)
    void aRepeatedPingIsAnsweredAgainButCountsOnce() throws Exception
    {
        try (UdpPingPong responder = UdpPingPong.open(UdpPingPong.loopback()); DatagramChannel raw = rawChannel())
        {
            responder.peer(UdpPingPong.loopback(), ((InetSocketAddress)raw.getLocalAddress()).getPort());
            final Future<?> answers = executor.submit(() -> responder.respond(2));
            final InetSocketAddress to = new InetSocketAddress(UdpPingPong.loopback(), responder.port());
            raw.send(datagram(UdpPingPong.PING, 0, 1, UdpPingPong.SHORT_BYTES), to);
            assertPong(raw, 1);
            raw.send(datagram(UdpPingPong.PING, 0, 1, UdpPingPong.SHORT_BYTES), to);
            assertPong(raw, 1);
            assertFalse(answers.isDone(), "the repeated ping counted");
            raw.send(datagram(UdpPingPong.PONG, 0, 7, UdpPingPong.SHORT_BYTES), to);
            raw.send(datagram(UdpPingPong.PING, 0, 2, UdpPingPong.SHORT_BYTES), to);
            assertPong(raw, 2);
            answers.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(60)
    void theSinkIgnoresEarlierStreamsAndStopsSoonAfterTheEndMarker() throws Exception
    {
        try (UdpPingPong receiver = UdpPingPong.open(UdpPingPong.loopback()); DatagramChannel raw = rawChannel())
        {
            receiver.peer(UdpPingPong.loopback(), ((InetSocketAddress)raw.getLocalAddress()).getPort());
            final InetSocketAddress to = new InetSocketAddress(UdpPingPong.loopback(), receiver.port());
            // the receiver's first stream is run 1: run 0 is an earlier one's late datagram
            raw.send(datagram(UdpPingPong.DATA, 0, 0, UdpPingPong.STREAM_BYTES), to);
            for (int i = 0; i < 3; i++)
            {
                raw.send(datagram(UdpPingPong.DATA, i, 1, UdpPingPong.STREAM_BYTES), to);
            }
            raw.send(datagram(UdpPingPong.DATA, 3, 1, 100), to);
            raw.send(datagram(UdpPingPong.END, 100, 1, UdpPingPong.HEADER_BYTES), to);
            final long start = System.nanoTime();
            final UdpStreamTally tally = receiver.sink(100);
            final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(4, tally.datagrams());
            assertEquals(3 * UdpPingPong.STREAM_BYTES + 100, tally.bytes());
            assertTrue(tookMs < UdpPingPong.FIRST_WAIT_MS, "took " + tookMs + " ms: the end marker was missed");
        }
    }

    @Test
    @Timeout(60)
    void theSinkTakesAStreamThatFallsSilentAsOver() throws Exception
    {
        try (UdpPingPong receiver = UdpPingPong.open(UdpPingPong.loopback()); DatagramChannel raw = rawChannel())
        {
            receiver.peer(UdpPingPong.loopback(), ((InetSocketAddress)raw.getLocalAddress()).getPort());
            final InetSocketAddress to = new InetSocketAddress(UdpPingPong.loopback(), receiver.port());
            raw.send(datagram(UdpPingPong.DATA, 0, 1, UdpPingPong.STREAM_BYTES), to);
            raw.send(datagram(UdpPingPong.DATA, 1, 1, UdpPingPong.STREAM_BYTES), to);
            // no end marker: it was lost
            final long start = System.nanoTime();
            final UdpStreamTally tally = receiver.sink(1_000);
            final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(2, tally.datagrams());
            assertEquals(0.998, UdpStreamTally.loss(1_000, tally.datagrams()), 1e-12);
            assertTrue(tookMs >= UdpPingPong.QUIET_MS && tookMs < UdpPingPong.FIRST_WAIT_MS, "took " + tookMs + " ms");
        }
    }

    private static void pair(final UdpPingPong a, final UdpPingPong b)
    {
        a.peer(b.host(), b.port());
        b.peer(a.host(), a.port());
    }

    private static DatagramChannel rawChannel() throws Exception
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.bind(new InetSocketAddress(UdpPingPong.loopback(), 0));
        return channel;
    }

    private static ByteBuffer datagram(final int type, final int index, final long sequence, final int length)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
        buffer.putInt(UdpPingPong.TYPE_OFFSET, type).putInt(UdpPingPong.INDEX_OFFSET, index);
        if (length >= UdpPingPong.HEADER_BYTES)
        {
            buffer.putLong(UdpPingPong.SEQUENCE_OFFSET, sequence);
        }
        return buffer;
    }

    private static void assertPong(final DatagramChannel raw, final long sequence) throws Exception
    {
        final ByteBuffer pong = ByteBuffer.allocate(UdpPingPong.STREAM_BYTES).order(ByteOrder.nativeOrder());
        raw.receive(pong);
        assertEquals(UdpPingPong.SHORT_BYTES, pong.position());
        assertEquals(UdpPingPong.PONG, pong.getInt(UdpPingPong.TYPE_OFFSET));
        assertEquals(sequence, pong.getLong(UdpPingPong.SEQUENCE_OFFSET));
    }
}
