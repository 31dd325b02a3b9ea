package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.MessageSink;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fast boxes at the transport, in one JVM: first contact through the shared queue, then the box; one pair's order
 * across the box and the shared queue while the box overflows; the cap; mediums in the box; a box let go and claimed
 * again; the sleep check; and closing (the faults of boxes: {@link FastBoxScribbleTest}).
 */
@Timeout(60)
class FastBoxTest
{
    private static final int FLOOD_SALT = 0x5A5A;

    private static OutboundMessage frame(final Opcode opcode, final long tag, final int... args)
    {
        final int[] a = java.util.Arrays.copyOf(args, 8);
        return new OutboundMessage().header(opcode.code(), 0, 5, tag)
            .args(args.length, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]).source(0);
    }

    /** Records (sender argument, sequence argument) of each message, checking each sender's sequence is in order. */
    private static final class OrderCheck implements MessageSink
    {
        final int[] next;
        final List<String> problems = new ArrayList<>();
        int delivered;

        OrderCheck(final int senders)
        {
            next = new int[senders];
        }

        @Override
        public void onMessage(final InboundMessage m)
        {
            final int sender = m.arg(0);
            final int sequence = m.arg(1);
            if (sequence != next[sender])
            {
                problems.add("sender " + sender + ": " + sequence + " where " + next[sender] + " was next");
            }
            if (m.arg(2) != (sequence ^ FLOOD_SALT))
            {
                problems.add("sender " + sender + ": argument 2 of " + sequence + " is " + m.arg(2));
            }
            next[sender] = sequence + 1;
            delivered++;
        }
    }

    private static int sendShort(final ShmRoute route, final Fixture.Ep to, final int sender, final int sequence)
    {
        return route.sendShort(new OutboundMessage(), Opcode.REQUEST_SHORT.code(), 5, to.host.tag, 0, 3, sender,
            sequence, sequence ^ FLOOD_SALT, 0, 0, 0, 0, 0);
    }

    @Test
    void theFirstMessageGoesThroughTheSharedQueueAndTheNextOnesThroughTheBox()
    {
        try (Fixture f = new Fixture("boxes", "4", "boxDepth", "8"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final OrderCheck check = new OrderCheck(1);
            assertEquals(Route.SENT, sendShort(ab, b, 0, 0));
            assertEquals(0, ab.boxIndex(), "the first send claims a box");
            assertEquals(1, ab.sharedSends(), "and goes through the shared queue (first contact)");
            assertEquals(1, b.shm.poll(check, 32, false));
            for (int i = 1; i <= 5; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, b, 0, i));
            }
            assertEquals(5, ab.boxedSends(), "once the first is consumed, the box");
            assertEquals(1, ab.sharedSends());
            assertTrue(b.shm.hasPending(), "a boxed message is pending for waitSema's check");
            assertEquals(5, b.shm.poll(check, 32, false));
            assertFalse(b.shm.hasPending());
            assertEquals(List.of(), check.problems);
            assertEquals(6, check.delivered);
            assertEquals(0, b.host.drops());
        }
    }

    /** The SEQ poll's receive queues see boxed messages: requests, and replies also for a poll of replies only. */
    @Test
    void theReceiveQueuesIdleTestAndReceiveCoverTheBoxes()
    {
        try (Fixture f = new Fixture("boxes", "2", "boxDepth", "8"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final org.am2j.spi.ReceiveQueues queues = b.shm.receiveQueues();
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(Route.SENT, sendShort(ab, b, 0, 0));
            assertFalse(queues.idle(false));
            assertEquals(1, queues.receive(recorder, 32, false), "the first contact");
            assertEquals(Route.SENT, sendShort(ab, b, 0, 1));
            assertEquals(1, ab.boxedSends());
            assertFalse(queues.idle(false), "a boxed request is there");
            assertEquals(0, queues.receive(recorder, 32, true), "replies only: the request waits");
            assertEquals(1, queues.receive(recorder, 32, false));
            assertEquals(1, recorder.headers.get(1)[6]);

            final OutboundMessage scratch = new OutboundMessage();
            assertEquals(Route.SENT, ab.sendShort(scratch, Opcode.REPLY_SHORT.code(), 6, 0L, 0, 1, 40, 0, 0, 0, 0,
                0, 0, 0));
            assertEquals(2, ab.boxedSends(), "a reply through the box's reply ring");
            assertFalse(queues.idle(true), "a boxed reply is there, for a poll of replies only too");
            assertEquals(1, queues.receive(recorder, 32, true));
            assertEquals(40, recorder.headers.get(2)[5]);
        }
    }

    /**
     * A route whose first contact found the shared queue full has a box the receiver does not read yet: it must not
     * write into it before the receiver has bound it (learnt from a shared message of the pair).
     */
    @Test
    void aBoxIsNotWrittenBeforeTheReceiverHasBoundIt()
    {
        try (Fixture f = new Fixture("boxes", "2", "boxDepth", "4", "requestDepth", "2", "bulkDepth", "1"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep c = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute cb = c.routeTo(b);
            final ShmRoute ab = a.routeTo(b);
            assertEquals(Route.SENT, sendShort(cb, b, 1, 0));
            assertEquals(Route.SENT, sendShort(cb, b, 1, 1));
            assertEquals(0, cb.boxedSends(), "not bound yet: the shared queue");
            assertEquals(Route.FULL, sendShort(ab, b, 0, 0), "first contact: the shared queue is full");
            assertEquals(1, ab.boxIndex(), "but the box is claimed");
            assertEquals(Route.FULL, sendShort(ab, b, 0, 0), "and not written before the receiver binds it");
            assertEquals(0, ab.boxedSends());
            final OrderCheck check = new OrderCheck(2);
            assertEquals(2, b.shm.poll(check, 32, false), "c's messages; the receiver binds the boxes claimed since");
            assertEquals(Route.SENT, sendShort(ab, b, 0, 0));
            assertEquals(1, ab.boxedSends(), "bound, and nothing of the pair on the shared queue: the box");
            assertEquals(1, b.shm.poll(check, 32, false));
            assertEquals(Route.SENT, sendShort(ab, b, 0, 1));
            assertEquals(2, ab.boxedSends());
            assertEquals(1, b.shm.poll(check, 32, false));
            assertEquals(List.of(), check.problems);
        }
    }

    /**
     * A pair floods a small box and overflows to the shared queue again and again, with polls of random budgets in
     * between: its messages arrive in order, each once, and both paths carried many.
     */
    @Test
    void onePairsOrderHoldsAcrossTheBoxAndTheSharedQueueUnderAnOverflowingFlood()
    {
        try (Fixture f = new Fixture("boxes", "2", "boxDepth", "4", "requestDepth", "8", "bulkDepth", "2"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final OrderCheck check = new OrderCheck(1);
            final Random random = new Random(42);
            int sent = 0;
            while (sent < 20_000)
            {
                for (int burst = random.nextInt(16); burst >= 0; burst--)
                {
                    if (Route.SENT == sendShort(ab, b, 0, sent))
                    {
                        sent++;
                    }
                }
                b.shm.poll(check, 1 + random.nextInt(8), false);
            }
            while (check.delivered < sent)
            {
                b.shm.poll(check, 32, false);
            }
            assertEquals(List.of(), check.problems);
            assertEquals(sent, check.delivered);
            assertTrue(ab.boxedSends() > 1000, "boxed: " + ab.boxedSends());
            assertTrue(ab.sharedSends() > 1000, "overflowed: " + ab.sharedSends());
            assertEquals(0, b.host.drops());
        }
    }

    /**
     * Sixteen senders into one receiver whose cap is eight boxes: the first eight to send get one, the others use
     * the shared queue only; every sender's messages arrive in order.
     */
    @Test
    void sixteenSendersIntoACapOfEightBoxes()
    {
        try (Fixture f = new Fixture("boxes", "8", "boxDepth", "4", "requestDepth", "16"))
        {
            final Fixture.Ep b = f.endpoint();
            final ShmRoute[] routes = new ShmRoute[16];
            for (int s = 0; s < routes.length; s++)
            {
                routes[s] = f.endpoint().routeTo(b);
            }
            final OrderCheck check = new OrderCheck(routes.length);
            final int[] sent = new int[routes.length];
            final Random random = new Random(7);
            for (int round = 0; round < 3000; round++)
            {
                final int s = random.nextInt(routes.length);
                if (Route.SENT == sendShort(routes[s], b, s, sent[s]))
                {
                    sent[s]++;
                }
                if (0 == random.nextInt(3))
                {
                    b.shm.poll(check, 1 + random.nextInt(8), false);
                }
            }
            int total = 0;
            for (final int n : sent)
            {
                total += n;
            }
            while (check.delivered < total)
            {
                b.shm.poll(check, 32, false);
            }
            assertEquals(List.of(), check.problems);
            assertArrayEquals(sent, check.next, "every message of every sender, once");
            int boxed = 0;
            for (final ShmRoute route : routes)
            {
                if (route.boxIndex() >= 0)
                {
                    boxed++;
                    assertTrue(route.boxedSends() > 0, "a route with a box used it");
                }
                else
                {
                    assertEquals(0, route.boxedSends());
                }
            }
            assertEquals(8, boxed, "the cap");
        }
    }

    /**
     * Two boxes whose senders keep them full: polls of a small budget serve both, so neither waits for the other to
     * run dry.
     */
    @Test
    void boxesAreServedInTurn()
    {
        try (Fixture f = new Fixture("boxes", "2", "boxDepth", "64"))
        {
            final Fixture.Ep b = f.endpoint();
            final ShmRoute[] routes = { f.endpoint().routeTo(b), f.endpoint().routeTo(b) };
            final OrderCheck check = new OrderCheck(2);
            final int[] sent = new int[2];
            for (int s = 0; s < 2; s++)
            {
                assertEquals(Route.SENT, sendShort(routes[s], b, s, sent[s]++));
            }
            while (check.delivered < 2)
            {
                b.shm.poll(check, 32, false);
            }
            for (int s = 0; s < 2; s++)
            {
                for (int i = 0; i < 60; i++)
                {
                    assertEquals(Route.SENT, sendShort(routes[s], b, s, sent[s]++));
                }
                assertEquals(60, routes[s].boxedSends(), "all in the box, none overflowed");
            }
            for (int poll = 0; poll < 15; poll++)
            {
                assertEquals(4, b.shm.poll(check, 4, false));
            }
            assertTrue(check.next[0] >= 20 && check.next[1] >= 20,
                "delivered " + check.next[0] + " and " + check.next[1] + " in 15 polls of budget 4");
            assertEquals(List.of(), check.problems);
        }
    }

    /** Mediums of every size through the box: the data arrives, and the shared bulk blocks they used are freed. */
    @Test
    void mediumsTravelInTheBoxWithBlocksOfTheSharedBulkPool()
    {
        try (Fixture f = new Fixture("boxes", "2", "boxDepth", "8", "bulkDepth", "2", "requestDepth", "8"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, 0)));
            assertEquals(1, b.shm.poll(recorder, 32, false));
            final UnsafeBuffer data = new UnsafeBuffer(new byte[8192]);
            final int[] sizes = { 1, 7, 64, 100, 1000, 4096, 8191, 8192 };
            for (int round = 0; round < 10; round++)
            {
                for (final int size : sizes)
                {
                    for (int i = 0; i < size; i++)
                    {
                        data.putByte(i, (byte)(size * 31 + i + round));
                    }
                    assertEquals(Route.SENT,
                        ab.send(frame(Opcode.REQUEST_MEDIUM, b.host.tag, size).data(data, 0, size, -1)));
                    recorder.headers.clear();
                    recorder.data.clear();
                    assertEquals(1, b.shm.poll(recorder, 32, false));
                    final byte[] got = recorder.data.get(0);
                    assertEquals(size, got.length);
                    for (int i = 0; i < size; i++)
                    {
                        assertEquals((byte)(size * 31 + i + round), got[i], "byte " + i + " of " + size);
                    }
                }
            }
            assertEquals(10 * sizes.length, ab.boxedSends(), "every medium after the first contact was boxed");
            assertEquals(0, b.host.drops());
        }
    }

    /**
     * A route closed by its sender lets its box go once the receiver has read what is in it; a new route claims it
     * and goes on from the head the old one left.
     */
    @Test
    void aBoxLetGoIsClaimedAgain()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "4"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep c = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final OrderCheck check = new OrderCheck(2);
            final ShmRoute ab = a.routeTo(b);
            for (int i = 0; i < 7; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, b, 0, i));
                b.shm.poll(check, 32, false);
            }
            assertEquals(6, ab.boxedSends());
            final ShmRoute cb = c.routeTo(b);
            assertEquals(Route.SENT, sendShort(cb, b, 1, 0));
            assertEquals(-1, cb.boxIndex(), "the one box is taken");
            assertEquals(Route.SENT, sendShort(ab, b, 0, 7));
            a.shm.close();
            for (int i = 0; i < 2 * 4096 + 1; i++)
            {
                b.shm.poll(check, 32, false);
            }
            assertEquals(9, check.delivered, "the message still in the box was read before it was let go");
            for (int i = 1; i <= 4096 + 8; i++)
            {
                assertEquals(Route.SENT, sendShort(cb, b, 1, i));
                b.shm.poll(check, 32, false);
            }
            assertEquals(0, cb.boxIndex(), "claimed again by a later send");
            assertTrue(cb.boxedSends() > 0);
            assertEquals(List.of(), check.problems);
            assertEquals(9 + 4096 + 8, check.delivered);
        }
    }

    /** @return the pid of a process that has exited. */
    private static long deadPid() throws Exception
    {
        final Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }

    /**
     * A box claimed by a process that died before its first contact, and a bound box whose sender died: the first is
     * freed after the liveness timeout; the second once what was ready in it has been delivered. A new sender then
     * claims each.
     */
    @Test
    void boxesOfDeadSendersAreFreedAndClaimedAgain() throws Exception
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "4", "livenessMs", "20"))
        {
            final Fixture.Ep b = f.endpoint();
            final QueueBlock view = b.queueBlock();
            final long dead = deadPid();
            // Claimed, never bound: as a sender killed between its claim and its first contact leaves it.
            assertTrue(view.boxes.casOwner(0, FastBoxDescriptor.FREE, FastBoxDescriptor.owner(dead, 0x0001_0007)));
            final OrderCheck check = new OrderCheck(2);
            final ShmRoute ab = f.endpoint().routeTo(b);
            assertEquals(Route.SENT, sendShort(ab, b, 0, 0));
            assertEquals(-1, ab.boxIndex(), "the one box is held");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (FastBoxDescriptor.FREE != view.boxes.owner(0))
            {
                assertTrue(System.nanoTime() < deadline, "the dead claimer's box was never freed");
                b.shm.poll(check, 32, false);
                Thread.onSpinWait();
            }

            // Bound, then its sender dies with a message ready in it.
            final ShmRoute cb = f.endpoint().routeTo(b);
            assertEquals(Route.SENT, sendShort(cb, b, 1, 0));
            assertEquals(0, cb.boxIndex());
            final long word = view.boxes.owner(0);
            // The owner word as a dead sender's, before the receiver binds it (the inverse mapping is cb's).
            assertTrue(view.boxes.casOwner(0, word,
                FastBoxDescriptor.owner(dead, FastBoxDescriptor.ownerInverse(word))));
            assertEquals(1, b.shm.poll(check, 32, false), "the first contact binds the box");
            // What the dead sender wrote into it before it died (cb itself finds the box not its own, and would not).
            final long deadWord = view.boxes.owner(0);
            final FastBoxSender deadSender = new FastBoxSender(view.boxes, 0, FastBoxDescriptor.REQUESTS, deadWord);
            final int packet = deadSender.next(1);
            assertTrue(packet >= 0);
            deadSender.reserve();
            view.requests.putHeader(packet, Opcode.REQUEST_SHORT.code(), 5, 3, 0,
                FastBoxDescriptor.ownerInverse(deadWord), 0, PacketDescriptor.NO_BULK, -1, b.host.tag);
            view.requests.putArgs(packet, 1, 1, 1 ^ FLOOD_SALT, 0, 0, 0, 0, 0);
            deadSender.publish(packet);
            while (FastBoxDescriptor.FREE != view.boxes.owner(0))
            {
                assertTrue(System.nanoTime() < deadline, "the dead sender's box was never freed");
                b.shm.poll(check, 32, false);
                Thread.onSpinWait();
            }
            // What was ready in it was handed over before the box was let go: here counted as a drop, since the
            // forged owner word names another process than the one the packet's inverse mapping names.
            assertEquals(1, check.next[1]);
            assertEquals(1, b.host.drops(), "the packet ready in the box, counted");
            final ShmRoute db = f.endpoint().routeTo(b);
            assertEquals(Route.SENT, sendShort(db, b, 0, 0));
            assertEquals(0, db.boxIndex(), "and a new sender claims it");
            assertEquals(List.of(), check.problems);
        }
    }

    /**
     * Closing: the boxed messages not delivered are handed over once, after those of the shared queue's of the same
     * pair's earlier overflow; later sends are refused.
     */
    @Test
    void closingHandsOverWhatIsInTheBoxesOnceAndRefusesLaterSends()
    {
        try (Fixture f = new Fixture("boxes", "2", "boxDepth", "4"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final OrderCheck check = new OrderCheck(1);
            final ShmRoute ab = boundRoute(a, b, check);
            for (int i = 1; i <= 3; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, b, 0, i));
            }
            assertEquals(1, b.shm.poll(check, 1, false));
            assertEquals(3, ab.boxedSends());
            final OrderCheck returned = new OrderCheck(1);
            returned.next[0] = 2;
            assertEquals(2, b.shm.returnQueued(returned));
            assertEquals(0, b.shm.returnQueued(returned), "once");
            assertEquals(List.of(), returned.problems);
            assertEquals(ReturnStatus.EBADENDPOINT.code(), sendShort(ab, b, 0, 4));
            assertEquals(0, b.host.drops());
        }
    }

    /**
     * @return a's route to b, after a first short request on it (sender 0, sequence 0) that b delivered to
     * {@code check}: the contact that binds the box.
     */
    private static ShmRoute boundRoute(final Fixture.Ep a, final Fixture.Ep b, final OrderCheck check)
    {
        final ShmRoute ab = a.routeTo(b);
        assertEquals(Route.SENT, sendShort(ab, b, 0, 0));
        assertEquals(1, b.shm.poll(check, 32, false));
        return ab;
    }

    /** Sends through the box (short from fields, short and medium frames) and polls allocate nothing. */
    @Test
    void sendingAndPollingThroughTheBoxAllocateNothing()
    {
        try (Fixture f = new Fixture("boxes", "2"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final OutboundMessage scratch = new OutboundMessage();
            final OutboundMessage shortFrame = frame(Opcode.REQUEST_SHORT, b.host.tag, 1, 2);
            final OutboundMessage mediumFrame = frame(Opcode.REQUEST_MEDIUM, b.host.tag, 1)
                .data(new UnsafeBuffer(new byte[512]), 0, 512, -1);
            final long[] sum = new long[1];
            final MessageSink sink = m ->
            {
                sum[0] += m.arg(0) + m.dataLength();
                m.replyRoute();
            };
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
            for (int warm = 0; warm < 3; warm++)
            {
                final long boxedBefore = ab.boxedSends();
                final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                for (int i = 0; i < 100_000; i++)
                {
                    switch (i % 3)
                    {
                        case 0 -> ab.send(shortFrame);
                        case 1 -> ab.send(mediumFrame);
                        default -> ab.sendShort(scratch, Opcode.REQUEST_SHORT.code(), 5, b.host.tag, 0, 2, i, 2, 0,
                            0, 0, 0, 0, 0);
                    }
                    b.shm.poll(sink, 32, false);
                }
                final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                if (2 == warm)
                {
                    assertEquals(100_000, ab.boxedSends() - boxedBefore, "every message went through the box");
                    assertTrue(allocated < 1024, "allocated " + allocated + " bytes for 100,000 messages");
                }
            }
            assertTrue(sum[0] > 0);
        }
    }

    @Test
    void settingsOutOfRangeAreRefusedWithTheirName()
    {
        final org.am2j.api.AmException tooMany = org.junit.jupiter.api.Assertions.assertThrows(
            org.am2j.api.AmException.class, () -> new Fixture("boxes", "65").close());
        assertTrue(tooMany.getMessage().contains("am2j.shm.boxes"), tooMany.getMessage());
        final org.am2j.api.AmException depth = org.junit.jupiter.api.Assertions.assertThrows(
            org.am2j.api.AmException.class, () -> new Fixture("boxDepth", "6").close());
        assertTrue(depth.getMessage().contains("am2j.shm.boxDepth"), depth.getMessage());
    }
}
