package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Returned XOR delivered: a message comes back to its sender's handler 0 only when the receiving NIC has given it
 * up (it will never deliver it), or when it never left; a silent peer keeps its messages outstanding however long
 * it stays silent; a peer known dead returns what it may have received as outcome-unknown.
 */
@Timeout(60)
class GiveUpTest
{
    private static final String TIMEOUT_MS = "300";

    @Test
    void aPeerThatStallsPastTheTimeoutGetsEverythingOnceAndNothingComesBack()
    {
        // No keeper: B's NIC runs only when the test polls B, as a whole process that stands still would.
        try (NicPair pair = new NicPair("timeoutMs", TIMEOUT_MS, "rtoInitialMs", "5", "rtoMaxMs", "50", "keeperUs", "0"))
        {
            exchangeOne(pair);
            for (int i = 0; i < 20; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(request(100 + i)));
            }
            // B stalls for five timeouts while A polls: A retransmits into B's socket, and returns nothing.
            pollOnly(pair.hostA, pair.sinkA, 5 * Long.parseLong(TIMEOUT_MS));
            assertTrue(returnedIn(pair.sinkA).isEmpty(), "returned while the peer stalled: " + statuses(pair.sinkA));
            assertTrue(pair.a.nic().counters().get(NicEvent.OUTSTANDING) >= 20,
                "the silent peer's messages are outstanding: " + pair.a.nic().counters());
            assertEquals(0, pair.a.nic().counters().get(NicEvent.GIVE_UPS_SENT));
            // B resumes: every request arrives once, nothing comes back.
            assertTrue(pair.pumpUntil(() -> count(pair.sinkB, 100, 120) == 20 &&
                pair.a.nic().counters().get(NicEvent.OUTSTANDING) == 0, 10_000), pair.a.nic().counters().toString());
            assertOnce(pair.sinkB, 100, 120);
            pair.pumpUntil(() -> false, 3 * Long.parseLong(TIMEOUT_MS));
            assertTrue(returnedIn(pair.sinkA).isEmpty(), "returned after the stall: " + statuses(pair.sinkA));
        }
    }

    @Test
    void aLinkThatComesBackDeliversWhatWasOutstanding()
    {
        final GateWire[] gate = new GateWire[1];
        try (NicPair pair = new NicPair((wire) ->
        {
            if (null == gate[0])
            {
                gate[0] = new GateWire(wire);
                return gate[0];
            }
            return wire;
        }, "timeoutMs", TIMEOUT_MS, "depth", "8", "rtoInitialMs", "5", "rtoMaxMs", "50"))
        {
            exchangeOne(pair);
            gate[0].closed = true;
            for (int i = 2; i < 7; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(request(i)));
            }
            pair.pumpUntil(() -> false, 5 * Long.parseLong(TIMEOUT_MS));
            assertTrue(returnedIn(pair.sinkA).isEmpty(), "returned while the link was down: " + statuses(pair.sinkA));
            gate[0].closed = false;
            for (int i = 100; i < 300; i++)
            {
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB, request(i)), "request " + i);
            }
            assertTrue(pair.pumpUntil(() -> count(pair.sinkB, 2, 7) + count(pair.sinkB, 100, 300) == 205, 10_000),
                "arrived " + statuses(pair.sinkB) + pair.a.nic().counters() + pair.b.nic().counters());
            assertOnce(pair.sinkB, 2, 7);
            assertOnce(pair.sinkB, 100, 300);
            assertTrue(returnedIn(pair.sinkA).isEmpty(), "returned: " + statuses(pair.sinkA));
        }
    }

    @Test
    void aMessageLostWhileThePeerRunsIsGivenUpReturnedAndNeverDelivered() throws IOException
    {
        final DropMarked[] drop = new DropMarked[1];
        try (NicPair pair = new NicPair((wire) ->
        {
            if (null == drop[0])
            {
                drop[0] = new DropMarked(wire);
                return drop[0];
            }
            return wire;
        }, "timeoutMs", TIMEOUT_MS, "rtoInitialMs", "5", "rtoMaxMs", "50"))
        {
            exchangeOne(pair);
            // The wire knows the marked request by its sequence number, which travels in clear in every mode.
            drop[0].sequence = pair.a.nic().peer(2).requestsOut.nextSequence();
            assertEquals(Route.SENT, pair.aToB.send(request(DropMarked.MARK)));
            // B keeps talking to A, so A knows B runs, while every copy of the marked request is lost.
            int beat = 0;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (pair.sinkA.messages.stream().noneMatch((m) -> 0 != m.returnStatus) && System.nanoTime() < deadline)
            {
                pair.sendPumping(pair.bToA, toA(1000 + beat++));
                pair.pumpUntil(() -> false, 20);
            }
            final List<Received> returned = returnedIn(pair.sinkA);
            assertEquals(1, returned.size(), statuses(pair.sinkA));
            assertEquals(ReturnStatus.ECONGESTION.code(), returned.get(0).returnStatus);
            assertEquals(DropMarked.MARK, returned.get(0).args[0]);
            assertEquals(1, pair.b.nic().counters().get(NicEvent.GIVEN_UP_HERE), pair.b.nic().counters().toString());
            assertEquals(1, pair.a.nic().counters().get(NicEvent.GIVEN_UP_RETURNED));

            // A copy of it that was only late (held in a socket or a router) arrives now: it is not delivered.
            final long duplicates = pair.b.nic().counters().get(NicEvent.DUPLICATES);
            drop[0].replayDropped();
            assertTrue(pair.pumpUntil(() -> pair.b.nic().counters().get(NicEvent.DUPLICATES) > duplicates, 5000));
            assertEquals(0, count(pair.sinkB, DropMarked.MARK, DropMarked.MARK + 1), "a returned message was delivered");
            // The link goes on.
            assertEquals(Route.SENT, pair.sendPumping(pair.aToB, request(7)));
            assertTrue(pair.pumpUntil(() -> count(pair.sinkB, 7, 8) == 1, 5000));
        }
    }

    @Test
    void aGiveUpOfAMessageThePeerDeliveredReturnsNothing()
    {
        final BlindToAcks[] blind = new BlindToAcks[1];
        try (NicPair pair = new NicPair((wire) ->
        {
            if (null == blind[0])
            {
                blind[0] = new BlindToAcks(wire);
                return blind[0];
            }
            return wire;
        }, "timeoutMs", TIMEOUT_MS, "rtoInitialMs", "5", "rtoMaxMs", "50", "authenticate", "false"))
        {
            // (Tags off: the test spoils the acknowledgements in datagrams, which tags would refuse whole.)
            exchangeOne(pair);
            blind[0].blind = true;
            for (int i = 0; i < 5; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(request(200 + i)));
            }
            // B delivers them; A never sees an acknowledgement, times out, asks B to give them up, and B answers that
            // it delivered them.
            assertTrue(pair.pumpUntil(() -> pair.a.nic().counters().get(NicEvent.GIVEN_UP_DELIVERED) == 5, 10_000),
                pair.a.nic().counters().toString());
            assertOnce(pair.sinkB, 200, 205);
            assertTrue(returnedIn(pair.sinkA).isEmpty(), "returned: " + statuses(pair.sinkA));
            assertEquals(0, pair.b.nic().counters().get(NicEvent.GIVEN_UP_HERE));
            blind[0].blind = false;
            assertEquals(Route.SENT, pair.sendPumping(pair.aToB, request(7)));
            assertTrue(pair.pumpUntil(() -> count(pair.sinkB, 7, 8) == 1, 5000));
        }
    }

    @Test
    void aSilentPeerKeepsItsMessagesOutstandingUntilItIsKnownDead()
    {
        try (NicPair pair = new NicPair("timeoutMs", TIMEOUT_MS, "rtoInitialMs", "5", "rtoMaxMs", "50"))
        {
            exchangeOne(pair);
            pair.b.close();
            for (int i = 0; i < 5; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(request(10 + i)));
            }
            pollOnly(pair.hostA, pair.sinkA, 5 * Long.parseLong(TIMEOUT_MS));
            assertTrue(returnedIn(pair.sinkA).isEmpty(), "returned on a guess: " + statuses(pair.sinkA));
            assertEquals(5, pair.a.nic().counters().get(NicEvent.OUTSTANDING));
            assertTrue(pair.a.nic().counters().get(NicEvent.RETRANSMITS) > 0);

            // Its process is declared dead (by its launcher, say): what it may have received comes back as such.
            pair.a.declareDead(2);
            assertTrue(pair.pumpUntil(() -> returnedIn(pair.sinkA).size() == 5, 5000), statuses(pair.sinkA));
            for (final Received returned : returnedIn(pair.sinkA))
            {
                assertEquals(ReturnStatus.EOUTCOMEUNKNOWN.code(), returned.returnStatus);
                assertEquals(Opcode.REQUEST_SHORT.code(), returned.opcode);
            }
            // A message sent now never leaves: it comes back EUNREACHABLE.
            final long sent = pair.a.nic().counters().get(NicEvent.DATAGRAMS_SENT);
            assertEquals(Route.SENT, pair.aToB.send(request(99)));
            assertTrue(pair.pumpUntil(() -> returnedIn(pair.sinkA).size() == 6, 5000));
            assertEquals(ReturnStatus.EUNREACHABLE.code(), returnedIn(pair.sinkA).get(5).returnStatus);
            assertEquals(99, returnedIn(pair.sinkA).get(5).args[0]);
            assertEquals(1, pair.a.nic().counters().get(NicEvent.UNREACHABLE));
            assertTrue(pair.a.nic().counters().get(NicEvent.DATAGRAMS_SENT) - sent <= 1,
                "at most an acknowledgement went out");
        }
    }

    @Test
    void receiveChannelAnswersARepeatedGiveUpTheSameWay()
    {
        final ReceiveChannel in = new ReceiveChannel();
        in.take(0);
        assertEquals(ReceiveChannel.DELIVERED, in.giveUp(0));
        assertEquals(ReceiveChannel.GIVEN_UP, in.giveUp(1));
        assertEquals(ReceiveChannel.GIVEN_UP, in.giveUp(1), "a repeated give-up");
        assertEquals(ReceiveChannel.DUPLICATE, in.check(1), "a late copy is not delivered");
        assertEquals(ReceiveChannel.GIVEN_UP, in.giveUp(5));
        assertEquals(ReceiveChannel.NEW, in.check(4));
        in.take(2);
        in.take(3);
        in.take(4);
        assertEquals(6, in.next());
        assertEquals(ReceiveChannel.DELIVERED, in.giveUp(4));
        assertEquals(ReceiveChannel.GIVEN_UP, in.giveUp(5));
        // The sender's floor passes them once it has its answers: what lies below is forgotten.
        in.floor(6);
        assertEquals(ReceiveChannel.OUT_OF_WINDOW, in.giveUp(5));
        // A floor beyond what this side has taken is garbage.
        in.floor(100);
        assertEquals(ReceiveChannel.GIVEN_UP, in.giveUp(6));
        assertEquals(ReceiveChannel.OUT_OF_WINDOW, in.giveUp(6 + 64));
        assertFalse(in.check(7) == ReceiveChannel.DUPLICATE);
    }

    // ------------------------------------------------------------------------------------------------------------

    private static org.am2j.spi.OutboundMessage request(final int marker)
    {
        return NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, marker);
    }

    private static org.am2j.spi.OutboundMessage toA(final int marker)
    {
        return NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_A, marker);
    }

    /**
     * A first request each way, so both know each other's names and A has everything it sent acknowledged (B's
     * request carries the acknowledgement).
     */
    private static void exchangeOne(final NicPair pair)
    {
        assertEquals(Route.SENT, pair.sendPumping(pair.aToB, request(1)));
        assertTrue(pair.pumpUntil(() -> count(pair.sinkB, 1, 2) == 1, 5000));
        assertEquals(Route.SENT, pair.sendPumping(pair.bToA, toA(1)));
        assertTrue(pair.pumpUntil(() -> count(pair.sinkA, 1, 2) == 1, 5000));
        // Until both sides have everything acknowledged (the gauges are set by the timer scans, every 100 us while
        // anything is in flight): a retransmission from B later would tell A that B runs.
        pair.pumpUntil(() -> false, 50);
        assertTrue(pair.pumpUntil(() -> 0 == pair.a.nic().counters().get(NicEvent.OUTSTANDING) &&
            0 == pair.b.nic().counters().get(NicEvent.OUTSTANDING), 5000));
    }

    private static void pollOnly(final TestHost host, final Received.Sink sink, final long millis)
    {
        final long deadline = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() - deadline < 0)
        {
            host.endpoint.poll(sink, 16, false);
        }
    }

    /** Delivered (not returned) messages whose first argument is in [from, to). */
    private static long count(final Received.Sink sink, final int from, final int to)
    {
        return sink.messages.stream().filter((m) -> 0 == m.returnStatus && m.args.length > 0 &&
            m.args[0] >= from && m.args[0] < to).count();
    }

    private static void assertOnce(final Received.Sink sink, final int from, final int to)
    {
        final int[] seen = new int[to - from];
        for (final Received m : sink.messages)
        {
            if (0 == m.returnStatus && m.args[0] >= from && m.args[0] < to)
            {
                seen[m.args[0] - from]++;
            }
        }
        for (int i = 0; i < seen.length; i++)
        {
            assertEquals(1, seen[i], "deliveries of request " + (from + i));
        }
    }

    private static List<Received> returnedIn(final Received.Sink sink)
    {
        final List<Received> returned = new ArrayList<>();
        for (final Received m : sink.messages)
        {
            if (0 != m.returnStatus)
            {
                returned.add(m);
            }
        }
        return returned;
    }

    private static String statuses(final Received.Sink sink)
    {
        final StringBuilder text = new StringBuilder();
        for (final Received m : sink.messages)
        {
            text.append(m.args.length > 0 ? m.args[0] : -1).append(':').append(m.returnStatus).append(' ');
        }
        return text.toString();
    }

    /** Loses every datagram of the marked request (the test names its sequence), keeping a copy to replay. */
    private static final class DropMarked extends ForwardingWire
    {
        static final int MARK = 4242;
        private final List<byte[]> dropped = new ArrayList<>();
        private Destination lastTo;
        /** The request channel's sequence of the marked request, or -1 before the test names it. */
        volatile long sequence = -1;

        DropMarked(final Wire wire)
        {
            super(wire);
        }

        @Override
        public boolean send(final ByteBuffer datagram, final Destination to) throws IOException
        {
            final ByteBuffer view = datagram.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            final int start = view.position();
            if (view.remaining() >= WireDescriptor.HEADER_LENGTH + MessageDescriptor.HEADER_LENGTH &&
                view.get(start + WireDescriptor.TYPE_OFFSET) == WireDescriptor.TYPE_DATA &&
                0 == (view.getShort(start + WireDescriptor.FLAGS_OFFSET) & WireDescriptor.FLAG_REPLY_CHANNEL) &&
                view.getLong(start + WireDescriptor.SEQUENCE_OFFSET) == sequence)
            {
                final byte[] copy = new byte[view.remaining()];
                view.get(copy);
                synchronized (dropped)
                {
                    dropped.add(copy);
                    lastTo = to;
                }
                return true;
            }
            return wire.send(datagram, to);
        }

        void replayDropped() throws IOException
        {
            synchronized (dropped)
            {
                for (final byte[] copy : dropped)
                {
                    wire.send(ByteBuffer.wrap(copy), lastTo);
                }
            }
        }
    }

    /** Sees datagrams but not the acknowledgements in them (while {@link #blind}), so nothing is acknowledged. */
    private static final class BlindToAcks extends ForwardingWire
    {
        volatile boolean blind;

        BlindToAcks(final Wire wire)
        {
            super(wire);
        }

        @Override
        public InetSocketAddress receive(final ByteBuffer into) throws IOException
        {
            final int start = into.position();
            final InetSocketAddress from = wire.receive(into);
            if (null != from && blind && into.position() - start >= WireDescriptor.HEADER_LENGTH)
            {
                into.putLong(start + WireDescriptor.REQUEST_ACK_NEXT_OFFSET, 0);
                into.putLong(start + WireDescriptor.REQUEST_ACK_BITS_OFFSET, 0);
            }
            return from;
        }
    }
}
