package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Map;

import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A handshaked peer that announces endpoint after endpoint: names are kept only for announcements whose tag the
 * destination accepts, within the peer's budget and all peers'; the rest are refused and counted, the NIC's memory
 * stays within the budget, the peer's requests from endpoints it could not name are refused rather than left waiting,
 * and other peers are served as before.
 */
@Timeout(180)
class NameBudgetTest
{
    private static final int ANNOUNCED = 100_000;
    private static final int FIRST_FAKE_ENDPOINT = 1000;

    @Test
    void aPeerAnnouncing100000NamesKeepsItsBudgetAndOthersAreServed()
    {
        try (NicPair pair = new NicPair("depth", "64");
            SessionsTest.Nic c = new SessionsTest.Nic(3, 11, 0x3333L, null))
        {
            pair.handshake();
            final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            final long heapBefore = usedHeapAfterGc(memory);
            final Peer aAtB = pair.b.nic().peer(1);
            final NicCounters b = pair.b.nic().counters();

            // With a tag B's endpoint does not accept: nothing is kept, the last few are held for a request to vouch
            // for them.
            final int wrong = ANNOUNCED / 10;
            final int refusedWrong = wrong - PeerNames.HELD;
            announce(pair, 0, wrong, 0x5555L);
            assertTrue(pair.pumpUntil(() -> b.get(NicEvent.NAMES_REFUSED) == refusedWrong, 20_000), b.toString());
            pair.pumpUntil(() -> false, 50);
            assertEquals(refusedWrong, b.get(NicEvent.NAMES_REFUSED));
            assertEquals(1, aAtB.names.size(), "only the name B mapped");
            assertTrue(aAtB.names.announcedBytes() <= PeerNames.HELD * PeerNames.cost(name(0).length + 8));

            // With B's tag: kept up to A's budget, the rest refused.
            announce(pair, wrong, wrong + ANNOUNCED, NicPair.TAG_B);
            assertTrue(pair.pumpUntil(() -> b.get(NicEvent.NAMES_REFUSED) - refusedWrong + aAtB.names.size() - 1 ==
                ANNOUNCED, 60_000), b.toString() + " names " + aAtB.names.size());
            final long kept = aAtB.names.size() - 1;
            assertTrue(kept > 1000, "names kept within the budget: " + kept);
            assertTrue(aAtB.names.announcedBytes() <= PeerNames.BYTES_PER_PEER, "bytes " + aAtB.names.announcedBytes());
            assertTrue(PeerNames.BYTES_PER_PEER - aAtB.names.announcedBytes() < PeerNames.cost(EndpointName.MAX_ENCODED_LENGTH),
                "the budget was spent: " + aAtB.names.announcedBytes());
            assertTrue(aAtB.names.overBudget);
            final long heapAfter = usedHeapAfterGc(memory);
            assertTrue(heapAfter - heapBefore < 4 * PeerNames.BYTES_PER_PEER,
                "B kept " + (heapAfter - heapBefore) + " bytes more heap after " + ANNOUNCED + " announcements");

            // A request from one of A's endpoints that B could not name is refused (its return goes to that made-up
            // endpoint, which A drops), not left waiting for an announcement that will not come.
            final long refused = b.get(NicEvent.REFUSED);
            final Peer bAtA = pair.a.nic().peer(2);
            sendUnnamed(pair, ANNOUNCED + ANNOUNCED / 10 - 1);
            assertTrue(pair.pumpUntil(() -> b.get(NicEvent.REFUSED) == refused + 1 &&
                !bAtA.requestsOut.hasInFlight(), 10_000), b.toString());

            // Another peer is served as before: its name is learnt and its requests are delivered.
            final Route cToB = c.host.endpoint.connect(pair.hostB.name, NicPair.TAG_B);
            for (int i = 0; i < 5; i++)
            {
                assertEquals(Route.SENT, cToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, i)));
            }
            assertTrue(pumpWith(pair, c, () -> pair.sinkB.messages.size() == 5), b.toString());
            for (int i = 0; i < 5; i++)
            {
                assertEquals(0, pair.sinkB.messages.get(i).returnStatus);
                assertEquals(c.host.name, pair.sinkB.messages.get(i).replyRoute.peer());
            }
            // And A's endpoint, whose name B learnt from its mapping, still reaches B.
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 9)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 6, 10_000), b.toString());
            assertEquals(9, pair.sinkB.messages.get(5).args[0]);
        }
    }

    /**
     * A's host writes name announcements of made-up endpoints straight into its endpoint's send queue, each with a
     * credit of the request channel, as a hostile process could.
     */
    private static void announce(final NicPair pair, final int from, final int to, final long tag)
    {
        final Peer bAtA = pair.a.nic().peer(2);
        final ManyToOneRingBuffer queue = pair.hostA.endpoint.sendQueue(false);
        final long deadline = System.nanoTime() + 120_000_000_000L;
        int next = from;
        while (next < to)
        {
            assertTrue(System.nanoTime() - deadline < 0, "announced " + next);
            while (next < to && bAtA.requestsOut.tryAcquire(1))
            {
                if (!NetRoute.queueName(queue, bAtA.index, FIRST_FAKE_ENDPOINT + next, pair.hostB.id, name(next), tag))
                {
                    bAtA.requestsOut.release(1);
                    break;
                }
                next++;
            }
            pair.a.nic().submitted();
            pair.pump();
        }
    }

    private static void sendUnnamed(final NicPair pair, final int fake)
    {
        final Peer bAtA = pair.a.nic().peer(2);
        final ManyToOneRingBuffer queue = pair.hostA.endpoint.sendQueue(false);
        assertTrue(bAtA.requestsOut.tryAcquire(1));
        final int length = QueueRecordDescriptor.BODY_OFFSET + MessageDescriptor.HEADER_LENGTH;
        final int index = queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, length);
        assertTrue(index >= 0);
        queue.buffer().putInt(index + QueueRecordDescriptor.PEER_OFFSET, bAtA.index);
        queue.buffer().putInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET, 0);
        NetRoute.writeBody(queue.buffer(), index + QueueRecordDescriptor.BODY_OFFSET,
            NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 7), 0, FIRST_FAKE_ENDPOINT + fake,
            pair.hostB.id);
        queue.commit(index);
        pair.a.nic().submitted();
    }

    private static byte[] name(final int i)
    {
        return new EndpointName("node-hostile", 1, 1, FIRST_FAKE_ENDPOINT + i,
            Map.of(NetTransport.NAME, "10.9.8.7:4000#AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBytes();
    }

    private static boolean pumpWith(final NicPair pair, final SessionsTest.Nic c,
        final java.util.function.BooleanSupplier condition)
    {
        return pair.pumpUntil(() ->
        {
            c.host.endpoint.poll(c.sink, 16, false);
            return condition.getAsBoolean();
        }, 10_000);
    }

    private static long usedHeapAfterGc(final MemoryMXBean memory)
    {
        for (int i = 0; i < 3; i++)
        {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
