package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While the CPUs are oversubscribed an inline NIC holds its host's direct sends for their peer's batch: a burst of
 * sends costs one datagram, sent when the host polls, sleeps, finds the window full or closes. With a CPU to spare
 * every direct send goes out at once.
 */
@Timeout(60)
class HeldSendsTest
{
    private static final long NIC_B = 2;
    private static final int BURST = 12;

    @Test
    void withCpusToSpareEveryDirectSendIsADatagramAtOnce()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            warmUp(pair);
            wire[0].record = true;
            sendBurst(pair, 0);
            assertEquals(BURST, dataDatagrams(wire[0]), wire[0].sentTypes().toString());
            assertEquals(0, pair.a.nic().counters().get(NicEvent.HELD_SENDS));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == BURST, 5000));
            assertMarkers(pair.sinkB, 0, BURST);
        }
    }

    @Test
    void aBurstHeldWhileOversubscribedLeavesInOneBatchWhenTheHostPolls()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            holding(pair, wire[0]);
            sendBurst(pair, 0);
            assertEquals(List.of(), wire[0].sentTypes(), "nothing leaves while the host sends");
            assertEquals(BURST, pair.a.nic().counters().get(NicEvent.HELD_SENDS));

            pair.hostA.endpoint.poll(pair.sinkA, 16, false);
            assertEquals(List.of(WireDescriptor.TYPE_BATCH), wire[0].sentTypes(), "the poll sent the burst");
            final UnsafeBuffer batch = new UnsafeBuffer(wire[0].sent.get(0));
            assertEquals(BURST, BatchDescriptor.count(batch, batch.capacity() - WireDescriptor.TAG_LENGTH));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == BURST, 5000));
            assertMarkers(pair.sinkB, 0, BURST);
        }
    }

    @Test
    void heldSendsLeaveBeforeTheHostSleeps()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            holding(pair, wire[0]);
            wire[0].recordSleeps = true;
            sendBurst(pair, 0);
            assertEquals(0, wire[0].sent.size());
            final NicAgent nic = pair.a.nic();
            nic.block(nic.prepareBlock(), 1_000_000L);
            assertEquals(List.of(WireDescriptor.TYPE_BATCH, BurstWire.SLEPT), wire[0].sentTypes().subList(0, 2),
                "sent before the sleep");
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == BURST, 5000));
            assertMarkers(pair.sinkB, 0, BURST);
        }
    }

    @Test
    void aFullWindowSendsWhatWasHeldSoItCanOpenAgain()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0", "depth", "4"))
        {
            holding(pair, wire[0]);
            for (int i = 0; i < 4; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(request(i)));
            }
            assertEquals(0, wire[0].sent.size(), "four held");
            assertEquals(Route.FULL, pair.aToB.send(request(4)), "the window of four is full");
            assertEquals(List.of(WireDescriptor.TYPE_BATCH), wire[0].sentTypes(), "the FULL answer sent the four");
            // Only B's host polls: its acknowledgement opens A's window without A's host polling.
            assertTrue(pair.pumpUntil(() -> Route.SENT == pair.aToB.send(request(4)), 5000));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 5, 5000));
            assertMarkers(pair.sinkB, 0, 5);
        }
    }

    @Test
    void closingTheEndpointSendsWhatItHeld()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            holding(pair, wire[0]);
            sendBurst(pair, 0);
            assertEquals(0, wire[0].sent.size());
            pair.hostA.endpoint.close();
            assertEquals(List.of(WireDescriptor.TYPE_BATCH), wire[0].sentTypes(), "sent at close");
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (pair.sinkB.messages.size() < BURST && System.nanoTime() < deadline)
            {
                pair.hostB.endpoint.poll(pair.sinkB, 16, false);
            }
            assertMarkers(pair.sinkB, 0, BURST);
        }
    }

    @Test
    void repliesHeldByHandlersLeaveTogetherWhenThePollEnds()
    {
        final BurstWire[] wire = new BurstWire[1];
        try (NicPair pair = pair(wire, "keeperUs", "0"))
        {
            warmUp(pair);
            // B answers every request from its handler; both hold while their CPUs are oversubscribed, so the burst
            // arrives in one datagram and the replies its handlers send are held until B's poll reads the wire again.
            pair.a.nic().directSends.cpuShare(NicPair.cpus(true));
            pair.b.nic().directSends.cpuShare(NicPair.cpus(true));
            final NicCounters b = pair.b.nic().counters();
            final long batches = b.get(NicEvent.BATCHES_SENT);
            final long held = b.get(NicEvent.HELD_SENDS);
            final Received.Sink answered = new Received.Sink();
            final org.am2j.spi.MessageSink replier = (message) ->
            {
                answered.onMessage(message);
                assertEquals(Route.SENT, message.replyRoute().send(
                    NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, message.arg(0))));
            };
            sendBurst(pair, 0);
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (pair.sinkA.messages.size() < BURST && System.nanoTime() < deadline)
            {
                pair.hostB.endpoint.poll(replier, 64, false);
                pair.hostA.endpoint.poll(pair.sinkA, 64, false);
            }
            assertMarkers(answered, 0, BURST);
            assertMarkers(pair.sinkA, 0, BURST);
            assertEquals(BURST, b.get(NicEvent.HELD_SENDS) - held, b.toString());
            assertTrue(b.get(NicEvent.BATCHES_SENT) > batches, "replies went out together: " + b);
        }
    }

    /** Both NICs know each other; A's CPUs are oversubscribed from now on, and A's wire records what it sends. */
    private static void holding(final NicPair pair, final BurstWire wire)
    {
        warmUp(pair);
        pair.a.nic().directSends.cpuShare(NicPair.cpus(true));
        wire.record = true;
    }

    private static void sendBurst(final NicPair pair, final int from)
    {
        for (int i = 0; i < BURST; i++)
        {
            assertEquals(Route.SENT, pair.aToB.send(request(from + i)));
        }
    }

    private static int dataDatagrams(final BurstWire wire)
    {
        int data = 0;
        for (final int type : wire.sentTypes())
        {
            data += type == WireDescriptor.TYPE_DATA ? 1 : 0;
        }
        return data;
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

    private static void warmUp(final NicPair pair)
    {
        assertEquals(Route.SENT, pair.aToB.send(request(-1)));
        assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000));
        final SendChannel window = pair.a.nic().peer(NIC_B).requestsOut;
        assertTrue(pair.pumpUntil(() -> !window.hasInFlight(), 5000), "acknowledged");
        pair.sinkB.messages.clear();
    }

    private static OutboundMessage request(final int marker)
    {
        return NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, marker);
    }

    private static void assertMarkers(final Received.Sink sink, final int from, final int count)
    {
        assertEquals(count, sink.messages.size(), sink.messages.toString());
        for (int i = 0; i < count; i++)
        {
            assertEquals(from + i, sink.messages.get(i).args[0], "message " + i + " in order");
        }
    }
}
