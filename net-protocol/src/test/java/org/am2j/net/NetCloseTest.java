package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Closing an endpoint loses nothing: what its NIC took for it and its host never handled goes back to the senders
 * (requests EBADENDPOINT, replies EREPLYREJECTED), so that for every sender sent = delivered + returned.
 */
@Timeout(60)
class NetCloseTest
{
    @Test
    void requestsQueuedForAnEndpointThatClosesComeBackToTheirSender()
    {
        try (NicPair pair = new NicPair())
        {
            final int requests = 200;
            int sent = 0;
            // B's host handles a few, then stops reading while A goes on sending; then B closes.
            while (sent < requests)
            {
                if (Route.SENT == pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, sent)))
                {
                    sent++;
                }
                pair.hostA.endpoint.poll(pair.sinkA, 16, false);
                if (sent < 20)
                {
                    pair.hostB.endpoint.poll(pair.sinkB, 16, false);
                }
                else
                {
                    pair.b.nic().keep(0);
                }
            }
            // B's NIC goes on taking what A sends while B's host reads nothing: pump A's host and B's NIC only.
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (pair.b.nic().counters().get(NicEvent.MESSAGES_DELIVERED) < requests &&
                pair.b.nic().counters().get(NicEvent.RECEIVE_QUEUE_FULL) == 0)
            {
                assertTrue(System.nanoTime() - deadline < 0, "B's NIC took neither all nor a full queue: " +
                    pair.b.nic().counters());
                pair.hostA.endpoint.poll(pair.sinkA, 16, false);
                pair.b.nic().keep(0);
            }
            final int delivered = pair.sinkB.messages.size();
            pair.hostB.endpoint.close();
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() + delivered == requests, 10_000),
                "returned " + pair.sinkA.messages.size() + " delivered " + delivered + " of " + requests + " " +
                pair.b.nic().counters());
            final boolean[] seen = new boolean[requests];
            for (final Received m : pair.sinkB.messages)
            {
                assertTrue(!seen[m.args[0]], "twice: " + m.args[0]);
                seen[m.args[0]] = true;
            }
            for (final Received m : pair.sinkA.messages)
            {
                assertEquals(ReturnStatus.EBADENDPOINT.code(), m.returnStatus);
                assertTrue(!seen[m.args[0]], "delivered and returned: " + m.args[0]);
                seen[m.args[0]] = true;
            }
            assertTrue(delivered < requests, "some were still queued when B closed");
            assertTrue(pair.b.nic().counters().get(NicEvent.UNDELIVERED_RETURNED) > 0);
        }
    }
}
