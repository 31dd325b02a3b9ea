package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import org.am2j.api.Opcode;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.MessageSink;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;

/**
 * The inline NIC's short receive path: a message handed to the polling host straight from the datagram
 * ({@link DirectDelivery}), and the cases that must go through the receive queues instead.
 */
class DirectDeliveryTest
{
    @Test
    void aPollingHostRunsAMessageStraightFromTheDatagram()
    {
        // No keeper: only the hosts' polls read the sockets.
        try (NicPair pair = new NicPair("keeperUs", "0"))
        {
            final NicCounters counters = pair.b.nic().counters();
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 0)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000));
            final long direct = counters.get(NicEvent.DIRECT_DELIVERIES);
            final byte[] data = new byte[3000];
            new Random(11).nextBytes(data);
            assertEquals(Route.SENT, pair.aToB.send(NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, data,
                -1, 7, 8)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 2, 5000));
            assertEquals(direct + 1, counters.get(NicEvent.DIRECT_DELIVERIES), counters.toString());
            final Received medium = pair.sinkB.messages.get(1);
            assertArrayEquals(new int[] {7, 8}, medium.args);
            assertArrayEquals(data, medium.data);
            assertEquals(5, medium.handler);

            // Its inverse mapping is the route back: a reply over it arrives, handed over too.
            final long directA = pair.a.nic().counters().get(NicEvent.DIRECT_DELIVERIES);
            assertEquals(Route.SENT, medium.replyRoute.send(NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, 42)));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 1, 5000));
            assertArrayEquals(new int[] {42}, pair.sinkA.messages.get(0).args);
            assertEquals(directA + 1, pair.a.nic().counters().get(NicEvent.DIRECT_DELIVERIES));
        }
    }

    @Test
    void handedOverMessagesNeitherOvertakeQueuedOnesNorAreOverwrittenWhileTheyRun() throws Exception
    {
        try (NicPair pair = new NicPair("depth", "64"))
        {
            final NicAgent nic = pair.b.nic();
            final int messages = 20_000;
            final AtomicBoolean stop = new AtomicBoolean();
            // Another thread that runs B's NIC, as the keeper or a PAR bundle's other threads do: what it reads goes
            // into the receive queues, into the spare buffer while the host runs a handed-over message from the other
            // one; a message handed over while older ones wait in the queue would overtake them.
            final Thread other = new Thread(() ->
            {
                while (!stop.get())
                {
                    nic.inlineReceive(null);
                    Thread.onSpinWait();
                }
            }, "other NIC user");
            other.start();
            final byte[] data = new byte[256];
            try
            {
                for (int i = 0; i < messages; i++)
                {
                    java.util.Arrays.fill(data, (byte)i);
                    assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                        NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3, NicPair.TAG_B, data, -1, i)));
                }
                assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == messages, 30_000));
            }
            finally
            {
                stop.set(true);
                other.join();
            }
            for (int i = 0; i < messages; i++)
            {
                final Received received = pair.sinkB.messages.get(i);
                assertEquals(i, received.args[0], "message " + i);
                for (final byte b : received.data)
                {
                    assertEquals((byte)i, b, "data of message " + i);
                }
            }
            final NicCounters counters = nic.counters();
            assertTrue(counters.get(NicEvent.DIRECT_DELIVERIES) > 0, counters.toString());
            assertTrue(counters.get(NicEvent.MESSAGES_DELIVERED) - counters.get(NicEvent.DIRECT_DELIVERIES) > 0,
                "some messages went through the receive queue: " + counters);
        }
    }

    @Test
    void aHandlerThatPollsRunsNoOtherMessageOfItsQueueInside()
    {
        try (NicPair pair = new NicPair("keeperUs", "0"))
        {
            final List<String> events = new ArrayList<>();
            final MessageSink[] nested = new MessageSink[1];
            // B's handler of request 0 polls (as a handler does that waits for credit to reply) while request 1 has
            // arrived: request 1 runs after it, not inside it.
            nested[0] = new MessageSink()
            {
                private int depth;

                @Override
                public void onMessage(final InboundMessage message)
                {
                    final int arg = message.arg(0);
                    events.add("start " + arg + " at depth " + depth);
                    if (0 == arg)
                    {
                        depth++;
                        try
                        {
                            final long until = System.nanoTime() + 200_000_000L;
                            while (System.nanoTime() - until < 0)
                            {
                                pair.hostA.endpoint.poll(pair.sinkA, 16, false);
                                pair.hostB.endpoint.poll(this, 16, false);
                            }
                        }
                        finally
                        {
                            depth--;
                        }
                    }
                    events.add("end " + arg);
                }
            };
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 9)));
            assertTrue(pumpB(pair, nested[0], () -> events.size() == 2));
            events.clear();
            final long direct = pair.b.nic().counters().get(NicEvent.DIRECT_DELIVERIES);
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 0)));
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 1)));
            assertTrue(pumpB(pair, nested[0], () -> events.size() == 4), events.toString());
            assertEquals(List.of("start 0 at depth 0", "end 0", "start 1 at depth 0", "end 1"), events);
            assertTrue(pair.b.nic().counters().get(NicEvent.DIRECT_DELIVERIES) > direct, "request 0 was handed over");
        }
    }

    private static boolean pumpB(final NicPair pair, final MessageSink sinkB, final java.util.function.BooleanSupplier done)
    {
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (!done.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            pair.hostA.endpoint.poll(pair.sinkA, 16, false);
            pair.hostB.endpoint.poll(sinkB, 16, false);
        }
        return true;
    }
}
