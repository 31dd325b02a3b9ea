package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.spi.MessageSink;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several messages for one peer in one datagram, between two NICs over loopback: messages a drain finds queued for
 * one peer go out together ({@link BatchWriter}), a lone one as the plain DATA datagram it always was; the receiver
 * takes each in order, exactly once, across the loss of a batch; a forged or truncated batch changes nothing.
 * A's sends are queued by sending from inside A's NIC ({@link BurstWire}): they find the NIC taken, as sends of other
 * threads do, and the sender drains them when it gives the NIC back.
 */
@Timeout(60)
class BatchFramesTest
{
    private static final long NIC_B = 2;

    @Test
    void messagesQueuedForOnePeerGoOutInOneBatchAndArriveInOrder()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            warmUp(pair);
            final NicCounters a = pair.a.nic().counters();
            final NicCounters b = pair.b.nic().counters();
            // The warm-up's first request went in a batch with its endpoint's name announcement.
            final long batchesBefore = a.get(NicEvent.BATCHES_SENT);
            final long batchedBefore = a.get(NicEvent.BATCHED_MESSAGES);
            final long receivedBefore = b.get(NicEvent.BATCHES_RECEIVED);
            final long handedOver = b.get(NicEvent.DIRECT_DELIVERIES);
            final long duplicates = b.get(NicEvent.DUPLICATES);
            wire[0].record = true;
            burst(pair, wire[0], request(0), requests(1, 20));
            assertEquals(List.of(WireDescriptor.TYPE_DATA, WireDescriptor.TYPE_BATCH), wire[0].sentTypes(),
                "the direct send, then the twenty queued behind it in one datagram");
            final UnsafeBuffer batch = new UnsafeBuffer(wire[0].sent.get(1));
            assertEquals(20, BatchDescriptor.count(batch, batch.capacity() - WireDescriptor.TAG_LENGTH));
            int entry = BatchDescriptor.FIRST_ENTRY_OFFSET;
            final long first = batch.getLong(entry + BatchDescriptor.SEQUENCE_OFFSET);
            for (int i = 0; i < 20; i++)
            {
                assertEquals(first + i, batch.getLong(entry + BatchDescriptor.SEQUENCE_OFFSET), "its own sequence");
                entry += BatchDescriptor.entryLength(batch.getInt(entry + BatchDescriptor.BODY_LENGTH_OFFSET));
            }
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == 21, 5000));
            assertMarkers(pair.sinkB, 0, 21);
            assertEquals(1, a.get(NicEvent.BATCHES_SENT) - batchesBefore, a.toString());
            assertEquals(20, a.get(NicEvent.BATCHED_MESSAGES) - batchedBefore, a.toString());
            assertEquals(1, b.get(NicEvent.BATCHES_RECEIVED) - receivedBefore, b.toString());
            assertTrue(b.get(NicEvent.DIRECT_DELIVERIES) > handedOver,
                "the polling host still takes messages directly");
            assertEquals(0, b.get(NicEvent.TRUNCATED) + b.get(NicEvent.MALFORMED), b.toString());
            assertEquals(duplicates, b.get(NicEvent.DUPLICATES), b.toString());
        }
    }

    @Test
    void aLoneQueuedMessageGoesAsAPlainDataDatagram()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            warmUp(pair);
            final long batches = pair.a.nic().counters().get(NicEvent.BATCHES_SENT);
            wire[0].record = true;
            burst(pair, wire[0], request(0), requests(1, 1));
            assertEquals(List.of(WireDescriptor.TYPE_DATA, WireDescriptor.TYPE_DATA), wire[0].sentTypes());
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == 2, 5000));
            assertMarkers(pair.sinkB, 0, 2);
            assertEquals(batches, pair.a.nic().counters().get(NicEvent.BATCHES_SENT), "no batch of one");
        }
    }

    @Test
    void aMessageOfABatchThatIsRefusedComesBackAloneAndTheOthersAreDelivered()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            warmUp(pair);
            final long batches = pair.a.nic().counters().get(NicEvent.BATCHES_SENT);
            final OutboundMessage wrongTag = NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, 0x5555L, 2);
            burst(pair, wire[0], request(0), List.of(request(1), wrongTag, request(3)));
            assertEquals(batches + 1, pair.a.nic().counters().get(NicEvent.BATCHES_SENT));
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == 3 && pair.sinkA.messages.size() == 1, 5000));
            pair.pumpUntil(() -> false, 100);
            assertEquals(List.of(0, 1, 3), pair.sinkB.messages.stream().map((m) -> m.args[0]).toList());
            assertEquals(1, pair.sinkA.messages.size());
            final Received back = pair.sinkA.messages.get(0);
            assertEquals(org.am2j.api.ReturnStatus.EBADTAG.code(), back.returnStatus);
            assertEquals(2, back.args[0]);
            assertEquals(1, pair.b.nic().counters().get(NicEvent.REFUSED));
        }
    }

    @Test
    void mixedShortAndMediumMessagesFillDatagramsUpToTheLimitInOrder()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0", "mtu", "1500"))
        {
            warmUp(pair);
            final long batchesBefore = pair.a.nic().counters().get(NicEvent.BATCHES_SENT);
            wire[0].record = true;
            final int count = 30;
            final List<OutboundMessage> rest = new ArrayList<>();
            for (int i = 1; i < count; i++)
            {
                rest.add(mixed(i));
            }
            burst(pair, wire[0], mixed(0), rest);
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == count, 5000));
            assertMarkers(pair.sinkB, 0, count);
            for (final Received m : pair.sinkB.messages.subList(1, pair.sinkB.messages.size()))
            {
                assertTrue(Arrays.equals(data(m.args[0]), m.data), "data of message " + m.args[0]);
            }
            int batches = 0;
            final java.util.Set<Long> sequences = new java.util.HashSet<>();
            for (final byte[] d : wire[0].sent)
            {
                assertTrue(d.length <= 1500 - 28, "datagram of " + d.length + " bytes");
                final UnsafeBuffer datagram = new UnsafeBuffer(d);
                final int type = d[WireDescriptor.TYPE_OFFSET];
                if (type == WireDescriptor.TYPE_BATCH)
                {
                    batches++;
                    int entry = BatchDescriptor.FIRST_ENTRY_OFFSET;
                    final int entries = BatchDescriptor.count(datagram, d.length - WireDescriptor.TAG_LENGTH);
                    for (int i = 0; i < entries; i++)
                    {
                        assertTrue(sequences.add(datagram.getLong(entry + BatchDescriptor.SEQUENCE_OFFSET)),
                            "no message in two batches");
                        entry += BatchDescriptor.entryLength(
                            datagram.getInt(entry + BatchDescriptor.BODY_LENGTH_OFFSET));
                    }
                }
                else if (type == WireDescriptor.TYPE_DATA)
                {
                    // First transmissions and (on a slow machine) retransmissions, one message to a datagram.
                    sequences.add(datagram.getLong(WireDescriptor.SEQUENCE_OFFSET));
                }
            }
            final int messages = sequences.size();
            assertEquals(count, messages, "every message went once");
            assertTrue(batches >= 2, batches + " batches: the limit split them");
            assertEquals(batches, pair.a.nic().counters().get(NicEvent.BATCHES_SENT) - batchesBefore);
        }
    }

    @Test
    void aLostBatchIsRetransmittedOnceEachAndForgedOrTruncatedCopiesChangeNothing() throws Exception
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0");
            DatagramChannel raw = DatagramChannel.open())
        {
            warmUp(pair);
            wire[0].loseBatches = 1;
            burst(pair, wire[0], request(0), requests(1, 10));
            // The batch is lost; from now on A's retransmissions are too, until the test lets them through.
            wire[0].closed = true;
            assertEquals(1, wire[0].lost.size());
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == 1, 5000));
            final NicCounters b = pair.b.nic().counters();
            final long delivered = b.get(NicEvent.MESSAGES_DELIVERED);
            final long batchesReceived = b.get(NicEvent.BATCHES_RECEIVED);
            final byte[] lost = wire[0].lost.get(0);
            final int length = lost.length - WireDescriptor.TAG_LENGTH;
            final InetSocketAddress atB = PeerTable.parse(pair.hostB.endpoint.address());
            raw.bind(new InetSocketAddress(atB.getAddress(), 0));

            // Forged: one byte of the third message changed, the tag left as it was.
            final UnsafeBuffer forged = new UnsafeBuffer(lost.clone());
            final int third = BatchDescriptor.FIRST_ENTRY_OFFSET + 2 * BatchDescriptor.entryLength(
                forged.getInt(BatchDescriptor.FIRST_ENTRY_OFFSET + BatchDescriptor.BODY_LENGTH_OFFSET));
            final int argAt = third + BatchDescriptor.ENTRY_HEADER_LENGTH + MessageDescriptor.argOffset(0);
            forged.putInt(argAt, forged.getInt(argAt) + 100);
            inject(raw, atB, forged, lost.length);
            assertTrue(pair.pumpUntil(() -> b.get(NicEvent.AUTH_FAILED) == 1, 5000), b.toString());

            // Truncated, with a good tag: it claims one entry more than it holds; its last entry is cut short.
            final UnsafeBuffer claimsMore = new UnsafeBuffer(lost.clone());
            claimsMore.putInt(BatchDescriptor.COUNT_OFFSET, 11);
            inject(raw, atB, tag(pair, claimsMore, length), lost.length);
            final UnsafeBuffer cut = new UnsafeBuffer(lost.clone());
            inject(raw, atB, tag(pair, cut, length - 8), lost.length - 8);
            assertTrue(pair.pumpUntil(() -> b.get(NicEvent.TRUNCATED) == 2, 5000), b.toString());
            assertEquals(delivered, b.get(NicEvent.MESSAGES_DELIVERED), "nothing of them was taken");
            assertEquals(1, requests(pair.sinkB));

            // A batch of one: the third message of the batch (request 3) alone, tagged with the link's key, is taken.
            final UnsafeBuffer one = new UnsafeBuffer(new byte[lost.length]);
            one.putBytes(0, lost, 0, WireDescriptor.HEADER_LENGTH);
            one.putInt(BatchDescriptor.COUNT_OFFSET, 1);
            final int thirdLength = BatchDescriptor.entryLength(
                new UnsafeBuffer(lost).getInt(third + BatchDescriptor.BODY_LENGTH_OFFSET));
            one.putBytes(BatchDescriptor.FIRST_ENTRY_OFFSET, lost, third, thirdLength);
            final int oneLength = BatchDescriptor.FIRST_ENTRY_OFFSET + thirdLength;
            inject(raw, atB, tag(pair, one, oneLength), oneLength + WireDescriptor.TAG_LENGTH);
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == 2, 5000), b.toString());
            assertEquals(1, b.get(NicEvent.BATCHES_RECEIVED) - batchesReceived, "the batch of one");

            // The link comes back: the retransmissions (one message to a datagram) deliver the rest, each once.
            wire[0].closed = false;
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == 11, 10_000), b.toString());
            pair.pumpUntil(() -> false, 100);
            final List<Integer> markers = new ArrayList<>();
            for (final Received m : pair.sinkB.messages)
            {
                assertEquals(0, m.returnStatus);
                markers.add(m.args[0]);
            }
            assertEquals(List.of(0, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10), markers,
                "each once; the rest in order after the one taken alone");
            assertTrue(pair.sinkA.messages.isEmpty(), "nothing came back");
            assertTrue(pair.a.nic().counters().get(NicEvent.RETRANSMITS) >= 9);
        }
    }

    @Test
    void burstsOverAWireThatLosesDuplicatesAndReordersArriveExactlyOnce()
    {
        final BurstWire[] wire = new BurstWire[1];
        final LossyWire[] lossy = new LossyWire[2];
        final int[] made = {0};
        try (NicPair pair = new NicPair((w) ->
        {
            final int side = made[0]++;
            lossy[side] = new LossyWire(w, 23 + side, 0.1, 0.05, 0.1);
            return 0 == side ? (wire[0] = new BurstWire(lossy[side])) : lossy[side];
        }, "keeperUs", "0", "timeoutMs", "60000", "wire", "authenticate"))
        {
            // (Tags, not encryption: the BurstWire reads the batches' entries.)
            warmUp(pair);
            final int bursts = 100;
            final int size = 16;
            final SendChannel window = pair.a.nic().peer(NIC_B).requestsOut;
            for (int i = 0; i < bursts; i++)
            {
                burst(pair, wire[0], request(i * size), requests(i * size + 1, size - 1));
                assertTrue(pair.pumpUntil(() -> !window.hasInFlight(), 20_000), "burst " + i + " acknowledged");
            }
            assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) >= bursts * size, 20_000));
            pair.pumpUntil(() -> false, 200);
            final int[] times = new int[bursts * size];
            for (final Received m : pair.sinkB.messages)
            {
                assertEquals(0, m.returnStatus);
                times[m.args[0]]++;
            }
            for (int i = 0; i < times.length; i++)
            {
                assertEquals(1, times[i], "request " + i);
            }
            assertTrue(pair.sinkA.messages.isEmpty(), "nothing came back");
            final NicCounters a = pair.a.nic().counters();
            final NicCounters b = pair.b.nic().counters();
            assertTrue(a.get(NicEvent.BATCHES_SENT) >= bursts, a.toString());
            assertTrue(lossy[0].dropped > 0 && lossy[0].duplicated > 0 && lossy[0].reordered > 0, "the wire spoilt");
            assertTrue(b.get(NicEvent.DUPLICATES) > 0 && a.get(NicEvent.RETRANSMITS) > 0, a + " / " + b);
            assertEquals(0, b.get(NicEvent.TRUNCATED) + b.get(NicEvent.MALFORMED) + b.get(NicEvent.AUTH_FAILED),
                b.toString());
        }
    }

    @Test
    void batchesAllocateNothingInSteadyState()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            warmUp(pair);
            final OutboundMessage first = request(0);
            final OutboundMessage[] burst = requests(1, 15).toArray(new OutboundMessage[0]);
            final int[] refused = new int[1];
            final Runnable queueBurst = () ->
            {
                for (final OutboundMessage m : burst)
                {
                    refused[0] += Route.SENT == pair.aToB.send(m) ? 0 : 1;
                }
            };
            final long[] count = new long[1];
            final MessageSink server = (m) -> count[0]++;
            final MessageSink client = (m) -> count[0] += 1_000_000;
            final SendChannel window = pair.a.nic().peer(NIC_B).requestsOut;
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
            final long batchesBefore = pair.a.nic().counters().get(NicEvent.BATCHES_SENT);
            final int rounds = 6;
            final int bursts = 1000;
            long allocated = Long.MAX_VALUE;
            final long deadline = System.nanoTime() + 50_000_000_000L;
            for (int round = 0; round < rounds; round++)
            {
                final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                for (int i = 0; i < bursts; i++)
                {
                    final long expected = count[0] + 16;
                    wire[0].onNextSend = queueBurst;
                    pair.aToB.send(first);
                    while ((count[0] != expected || window.hasInFlight()) && System.nanoTime() - deadline < 0)
                    {
                        pair.hostB.endpoint.poll(server, 16, false);
                        pair.hostA.endpoint.poll(client, 16, false);
                    }
                    assertEquals(expected, count[0]);
                }
                final long roundBytes = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                if (round >= 2)
                {
                    allocated = Math.min(allocated, roundBytes);
                }
            }
            assertEquals(0, refused[0], "every send found credit");
            assertEquals(rounds * bursts, pair.a.nic().counters().get(NicEvent.BATCHES_SENT) - batchesBefore,
                "one batch per burst");
            assertTrue(allocated < 1024, "allocated " + allocated + " bytes for " + bursts + " bursts of 16");
        }
    }

    @Test
    void aFloodThroughANicThreadArrivesOnceInOrderAndShowsItsBatchFactor()
    {
        try (NicPair pair = new NicPair("nic", "thread"))
        {
            final int count = 20_000;
            final OutboundMessage[] messages = requests(0, count).toArray(new OutboundMessage[0]);
            final int[] next = {0};
            final boolean[] outOfOrder = {false};
            final MessageSink server = (m) ->
            {
                outOfOrder[0] |= m.arg(0) != next[0];
                next[0]++;
            };
            for (final OutboundMessage m : messages)
            {
                final long deadline = System.nanoTime() + 10_000_000_000L;
                while (Route.FULL == pair.aToB.send(m) && System.nanoTime() - deadline < 0)
                {
                    pair.hostB.endpoint.poll(server, 64, false);
                    pair.hostA.endpoint.poll(pair.sinkA, 16, false);
                }
            }
            final long deadline = System.nanoTime() + 20_000_000_000L;
            while (next[0] < count && System.nanoTime() - deadline < 0)
            {
                pair.hostB.endpoint.poll(server, 64, false);
            }
            assertEquals(count, next[0]);
            assertFalse(outOfOrder[0], "in order");
            final NicCounters a = pair.a.nic().counters();
            final long sent = a.get(NicEvent.MESSAGES_SENT);
            final long batched = a.get(NicEvent.BATCHED_MESSAGES);
            final long batches = a.get(NicEvent.BATCHES_SENT);
            System.out.printf("flood of %d requests through a NIC thread: messages_sent %d, datagrams_sent %d, "
                + "batches_sent %d, batched_messages %d, retransmits %d, messages per batch %.2f, "
                + "messages per data datagram %.2f%n", count, sent, a.get(NicEvent.DATAGRAMS_SENT), batches, batched,
                a.get(NicEvent.RETRANSMITS), 0 == batches ? 0.0 : (double)batched / batches,
                (double)sent / (sent - batched + batches));
            assertEquals(count + 1, sent, "the requests and the endpoint's name announcement, each sent once");
            assertEquals(count, pair.b.nic().counters().get(NicEvent.MESSAGES_DELIVERED),
                pair.b.nic().counters().toString());
        }
    }

    /**
     * A pair whose NIC A sends through a {@link BurstWire}. The tests read the entries of the batches on the wire: the
     * NICs tag their datagrams ({@code authenticate}) rather than encrypt them.
     */
    private static NicPair pair(final BurstWire[] wire, final String... settings)
    {
        final int[] made = {0};
        final String[] all = java.util.Arrays.copyOf(settings, settings.length + 2);
        all[settings.length] = "wire";
        all[settings.length + 1] = "authenticate";
        return new NicPair((w) -> 0 == made[0]++ ? (wire[0] = new BurstWire(w)) : w, all);
    }

    /** One request both ways, so both NICs know each other and A's route has announced its endpoint. */
    private static void warmUp(final NicPair pair)
    {
        assertEquals(Route.SENT, pair.aToB.send(request(-1)));
        assertTrue(pair.pumpUntil(() -> requests(pair.sinkB) == 1, 5000));
        final SendChannel window = pair.a.nic().peer(NIC_B).requestsOut;
        assertTrue(pair.pumpUntil(() -> !window.hasInFlight(), 5000), "acknowledged");
        pair.sinkB.messages.clear();
    }

    /**
     * Send {@code first} directly; the rest are sent from inside A's NIC while it transmits {@code first}, so they
     * are queued, and drained together when the send of {@code first} gives the NIC back.
     */
    private static void burst(final NicPair pair, final BurstWire wire, final OutboundMessage first,
        final List<OutboundMessage> rest)
    {
        final List<Integer> results = new ArrayList<>();
        wire.onNextSend = () ->
        {
            for (final OutboundMessage m : rest)
            {
                results.add(pair.aToB.send(m));
            }
        };
        assertEquals(Route.SENT, pair.aToB.send(first));
        assertEquals(rest.size(), results.size(), "the queued sends ran inside the first");
        for (final int result : results)
        {
            assertEquals(Route.SENT, result);
        }
    }

    private static OutboundMessage request(final int marker)
    {
        return NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, marker);
    }

    private static List<OutboundMessage> requests(final int from, final int count)
    {
        final List<OutboundMessage> list = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            list.add(request(from + i));
        }
        return list;
    }

    /** Short requests and mediums of many sizes, one too large for a datagram of a 1500-byte path. */
    private static OutboundMessage mixed(final int marker)
    {
        if (0 == marker % 3)
        {
            return request(marker);
        }
        return NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3, NicPair.TAG_B, data(marker), -1, marker);
    }

    private static byte[] data(final int marker)
    {
        final byte[] data = new byte[16 == marker ? 5000 : 0 == marker % 3 ? 0 : (marker * 397) % 1400];
        for (int i = 0; i < data.length; i++)
        {
            data[i] = (byte)(marker + i);
        }
        return data;
    }

    private static long requests(final Received.Sink sink)
    {
        return sink.messages.stream().filter((m) -> 0 == m.returnStatus).count();
    }

    private static void assertMarkers(final Received.Sink sink, final int from, final int count)
    {
        assertEquals(count, sink.messages.size());
        for (int i = 0; i < count; i++)
        {
            assertEquals(from + i, sink.messages.get(i).args[0], "message " + i + " in order");
        }
    }

    /**
     * Seal a made-up datagram as A's NIC would (a new transmission in its session with B).
     */
    private static UnsafeBuffer tag(final NicPair pair, final UnsafeBuffer datagram, final int length)
    {
        final java.nio.ByteBuffer direct = FrameWriter.direct(length + WireDescriptor.TAG_LENGTH);
        final UnsafeBuffer view = new UnsafeBuffer(direct);
        view.putBytes(0, datagram, 0, length);
        new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters()).seal(direct, view, length,
            pair.a.nic().peer(NIC_B).session, false);
        datagram.putBytes(0, view, 0, length + WireDescriptor.TAG_LENGTH);
        return datagram;
    }

    private static void inject(final DatagramChannel raw, final InetSocketAddress to, final UnsafeBuffer datagram,
        final int length) throws java.io.IOException
    {
        final ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        out.put(datagram.byteArray(), 0, length).flip();
        raw.send(out, to);
    }
}
