package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.am2j.api.Opcode;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.MessageSink;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The protocol over a wire that drops 10%, duplicates 5% and reorders 10% of all datagrams, in both directions,
 * acknowledgements included: every request's handler runs exactly once and every reply arrives. The default build
 * sends 20,000 requests (thousands of datagrams dropped, duplicated and reordered), the soak build 100,000.
 */
@Timeout(240)
class LossyWireTest
{
    /** Requests of the default build's run, unless the system property {@code lossy.requests} says otherwise. */
    private static final int REQUESTS = Integer.getInteger("lossy.requests", 20_000);

    @Test
    void everyRequestRunsOnceAndEveryReplyArrives()
    {
        requestsOverALossyWire(REQUESTS);
    }

    @Tag("soak")
    @Test
    void aHundredThousandRequestsRunOnceAndAreAllReplied()
    {
        requestsOverALossyWire(100_000);
    }

    /**
     * @param requests how many requests A sends B, each replied.
     */
    private static void requestsOverALossyWire(final int requests)
    {
        final List<LossyWire> wires = new ArrayList<>();
        try (NicPair pair = new NicPair((wire) ->
        {
            final LossyWire lossy = new LossyWire(wire, 42 + wires.size(), Double.parseDouble(System.getProperty("lossy.drop", "0.10")), Double.parseDouble(System.getProperty("lossy.dup", "0.05")), Double.parseDouble(System.getProperty("lossy.reorder", "0.10")));
            wires.add(lossy);
            return lossy;
        }, "rtoMinUs", "500", "rtoInitialMs", "2", "timeoutMs", System.getProperty("lossy.timeout", "60000")))
        {
            final int[] runs = new int[requests];
            final int[] replies = new int[requests];
            final int[] answered = {0};
            final OutboundMessage reply = new OutboundMessage();
            final MessageSink client = (InboundMessage message) ->
            {
                assertEquals(0, message.returnStatus(), "nothing comes back");
                replies[message.arg(0)]++;
                answered[0]++;
            };
            final MessageSink server = (InboundMessage message) ->
            {
                assertEquals(0, message.returnStatus(), "nothing comes back");
                final int id = message.arg(0);
                runs[id]++;
                reply.header(Opcode.REPLY_SHORT.code(), 0, 4, 0).args(1, id, 0, 0, 0, 0, 0, 0, 0);
                // While the reply window is full, poll replies (as the core does) and let the other process (here:
                // the same thread) run, since its acknowledgements free the window.
                while (message.replyRoute().send(reply) == Route.FULL)
                {
                    pair.hostB.endpoint.poll((m) -> { }, 16, true);
                    pair.hostA.endpoint.poll(client, 16, false);
                }
            };
            final OutboundMessage request = new OutboundMessage();
            int sent = 0;
            final long deadline = System.nanoTime() + 200_000_000_000L;
            while (answered[0] < requests && System.nanoTime() < deadline)
            {
                while (sent < requests)
                {
                    request.header(Opcode.REQUEST_SHORT.code(), 0, 3, NicPair.TAG_B).args(1, sent, 0, 0, 0, 0, 0, 0, 0);
                    if (pair.aToB.send(request) != Route.SENT)
                    {
                        break;
                    }
                    sent++;
                }
                pair.hostA.endpoint.poll(client, 64, false);
                pair.hostB.endpoint.poll(server, 64, false);
            }
            for (int i = 0; i < requests; i++)
            {
                assertEquals(1, runs[i], "handler runs of request " + i);
                assertEquals(1, replies[i], "replies to request " + i);
            }
            long dropped = 0;
            long duplicated = 0;
            long reordered = 0;
            for (final LossyWire wire : wires)
            {
                dropped += wire.dropped;
                duplicated += wire.duplicated;
                reordered += wire.reordered;
            }
            assertTrue(dropped > requests / 10 && duplicated > requests / 20 && reordered > requests / 10,
                "the wire really was lossy: " + dropped + " dropped, " + duplicated + " duplicated, " + reordered +
                " reordered");
            assertTrue(pair.b.nic().counters().get(NicEvent.DUPLICATES) > 0, "duplicates were recognised");
            assertTrue(pair.a.nic().counters().get(NicEvent.RETRANSMITS) > 0, "losses were retransmitted");
            System.out.println("lossy wire: " + dropped + " dropped, " + duplicated + " duplicated, " + reordered +
                " reordered; A " + pair.a.nic().counters() + "; B " + pair.b.nic().counters());
        }
    }
}
