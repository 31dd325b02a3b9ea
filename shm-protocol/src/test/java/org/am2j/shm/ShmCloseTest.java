package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.MessageSink;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Closing a shared-memory endpoint at the transport: {@link ShmQueues#returnQueued} hands over every message a
 * sender's route accepted and the owner did not poll, exactly once; it waits for a packet claimed before the close
 * and skips one its holder withdrew; a dead holder's packet costs at most the liveness timeout; and every send that
 * finds the block closed is refused, never accepted and lost.
 */
@Timeout(60)
class ShmCloseTest
{
    private static OutboundMessage frame(final Opcode opcode, final long tag, final int... args)
    {
        final int[] a = java.util.Arrays.copyOf(args, 8);
        return new OutboundMessage().header(opcode.code(), 0, 5, tag)
            .args(args.length, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]).source(0);
    }

    @Test
    void queuedRequestsAndRepliesAreHandedOverOnceAndLaterSendsAreRefused()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final UnsafeBuffer data = new UnsafeBuffer(new byte[100]);
            for (int i = 0; i < 10; i++)
            {
                assertEquals(Route.SENT, 0 == i % 2 ? ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, i)) :
                    ab.send(frame(Opcode.REQUEST_MEDIUM, b.host.tag, i).data(data, 0, 10 * i, -1)));
            }
            for (int i = 0; i < 3; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REPLY_SHORT, b.host.tag, 100 + i)));
            }
            final Fixture.Recorder delivered = new Fixture.Recorder();
            assertEquals(3 + 4, b.shm.poll(delivered, 4, false), "the replies, then four requests");

            final Fixture.Recorder returned = new Fixture.Recorder();
            assertEquals(6, b.shm.returnQueued(returned));
            for (int i = 0; i < 6; i++)
            {
                final int[] header = returned.headers.get(i);
                assertEquals(4 + i, header[5], "the requests not delivered, in order");
                assertEquals(0 == (4 + i) % 2 ? 0 : 10 * (4 + i), header[3]);
                assertEquals(a.host.name, returned.sources.get(i), "the route back to their sender");
            }
            assertEquals(0, b.shm.returnQueued(returned), "handed over once");
            assertEquals(0, b.shm.poll(delivered, 32, false), "nothing is delivered after the close");
            assertEquals(ReturnStatus.EBADENDPOINT.code(), ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, 1)));
            assertEquals(ReturnStatus.EBADENDPOINT.code(), ab.sendShort(new OutboundMessage(),
                Opcode.REQUEST_SHORT.code(), 5, b.host.tag, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0));
            assertEquals(ReturnStatus.EREPLYREJECTED.code(), ab.sendShort(new OutboundMessage(),
                Opcode.REPLY_SHORT.code(), 5, b.host.tag, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0));
            assertEquals(0, b.host.drops());
        }
    }

    @Test
    void aDrainStoppedByAThrowingSinkGoesOnWhereItStopped()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            for (int i = 0; i < 5; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, i)));
            }
            final Fixture.Recorder returned = new Fixture.Recorder();
            try
            {
                b.shm.returnQueued(m ->
                {
                    returned.onMessage(m);
                    if (1 == m.arg(0))
                    {
                        throw new IllegalStateException("the sink fails on message 1");
                    }
                });
                fail("the sink's failure went unnoticed");
            }
            catch (final IllegalStateException expected)
            {
                // As the core's handler 0 may throw for the endpoint's own returned messages.
            }
            assertEquals(ReturnStatus.EBADENDPOINT.code(), ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, 9)));
            assertEquals(3, b.shm.returnQueued(returned));
            assertEquals(5, returned.headers.size());
            for (int i = 0; i < 5; i++)
            {
                assertEquals(i, returned.headers.get(i)[5]);
            }
            assertEquals(0, b.shm.returnQueued(returned));
        }
    }

    /**
     * A sender that took its assignment and claimed its packet before the close: the drain waits for it, hands its
     * message over when it is made ready, and, for a holder that found the block closed, skips the withdrawn packet.
     */
    @Test
    void theDrainWaitsForAPacketClaimedBeforeTheCloseAndSkipsAWithdrawnOne() throws Exception
    {
        // The drain is watched for 300 ms while a live claim is held: within the bound of a live claim
        // (PacketReceiver.LIVE_CLAIM_TIMEOUTS liveness timeouts, 1 s here), past which it is taken for a forged one.
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "100"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final long pid = ProcessIdentity.currentPid();
            // This (live) process holds assignments 0 and 1, claimed; then a message is sent normally (2).
            queue.buffer.putLong(queue.tailOffset, 2);
            queue.buffer.putLong(queue.claimOffset(0), QueueBlockDescriptor.claim(0, pid));
            queue.buffer.putLong(queue.claimOffset(1), QueueBlockDescriptor.claim(0, pid));
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, 2)));

            final Fixture.Recorder returned = new Fixture.Recorder();
            final Fixture.Closing closing = new Fixture.Closing(b, returned);
            assertFalse(closing.returnsWithin(200), "a live claimer's packet is waited for");
            assertEquals(ReturnStatus.EBADENDPOINT.code(), ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, 3)),
                "the block is closed to new senders meanwhile");

            // The holder of 0 found the block open after its assignment: it fills and publishes its packet.
            final int packet = queue.packetOffset(0);
            queue.buffer.putByte(packet + PacketDescriptor.OPCODE_OFFSET, (byte)Opcode.REQUEST_SHORT.code());
            queue.buffer.putByte(packet + PacketDescriptor.HANDLER_OFFSET, (byte)5);
            queue.buffer.putByte(packet + PacketDescriptor.ARG_COUNT_OFFSET, (byte)1);
            queue.buffer.putByte(packet + PacketDescriptor.RETURN_STATUS_OFFSET, (byte)0);
            queue.buffer.putInt(packet + PacketDescriptor.SLOT_OFFSET,
                queue.buffer.getInt(queue.packetOffset(2) + PacketDescriptor.SLOT_OFFSET));
            queue.buffer.putShort(packet + PacketDescriptor.DATA_LENGTH_OFFSET, (short)0);
            queue.buffer.putInt(packet + PacketDescriptor.SEGMENT_OFFSET_OFFSET, -1);
            queue.buffer.putLong(packet + PacketDescriptor.TAG_OFFSET, b.host.tag);
            queue.buffer.putInt(packet + PacketDescriptor.ARGS_OFFSET, 0);
            queue.buffer.putLongRelease(packet, QueueBlockDescriptor.state(PacketDescriptor.READY, pid));
            assertFalse(closing.returnsWithin(100), "packet 1 is still held");
            // The holder of 1 found it closed (and its file gone): it withdraws its packet unwritten, with the mark.
            queue.buffer.putByte(queue.packetOffset(1) + PacketDescriptor.OPCODE_OFFSET,
                (byte)ShmRoute.WITHDRAWN_OPCODE);
            queue.buffer.putLongRelease(queue.packetOffset(1),
                QueueBlockDescriptor.state(PacketDescriptor.WITHDRAWN, pid));
            assertTrue(closing.returnsWithin(10_000), "the drain ends once no claimed packet remains");
            closing.join();
            assertEquals(2, returned.headers.size());
            assertEquals(0, returned.headers.get(0)[5]);
            assertEquals(2, returned.headers.get(1)[5]);
            assertEquals(0, b.host.drops(), "a withdrawn packet is not a drop");
        }
    }

    @Test
    void aPacketClaimedByADeadSenderHoldsTheDrainUpForTheLivenessTimeoutOnly() throws Exception
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "50"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final long deadPid = ShmTransportTest.deadPid();
            // A dead sender claimed assignment 0; another one took assignment 1 and died before claiming it.
            queue.buffer.putLong(queue.tailOffset, 2);
            queue.buffer.putLong(queue.claimOffset(0), QueueBlockDescriptor.claim(0, deadPid));
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, b.host.tag, 2)));

            final Fixture.Recorder returned = new Fixture.Recorder();
            final long start = System.nanoTime();
            assertEquals(1, b.shm.returnQueued(returned));
            final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(2, returned.headers.get(0)[5]);
            assertEquals(2, b.host.drops(), "the dead senders' packets are counted drops");
            assertTrue(tookMs < 10_000, "the drain took " + tookMs + " ms");
        }
    }

    /**
     * Four sender threads flood one endpoint through their own routes while its owner polls it and then closes it:
     * per sender, every message a route accepted was either polled or handed over by the close, once, and every
     * send after the close was refused.
     */
    @Test
    void fourSendersFloodingAnEndpointClosedMidFloodLoseNothing() throws Exception
    {
        final int senders = 4;
        final int perSender = 20_000;
        try (Fixture f = new Fixture("requestDepth", "64", "bulkDepth", "8"))
        {
            final Fixture.Ep b = f.endpoint();
            final List<Fixture.Ep> from = new ArrayList<>();
            final List<ShmRoute> routes = new ArrayList<>();
            for (int i = 0; i < senders; i++)
            {
                final Fixture.Ep a = f.endpoint();
                from.add(a);
                routes.add(a.routeTo(b));
            }
            final AtomicIntegerArray[] accepted = new AtomicIntegerArray[senders];
            final AtomicIntegerArray[] seen = new AtomicIntegerArray[senders];
            final int[] refused = new int[senders];
            for (int i = 0; i < senders; i++)
            {
                accepted[i] = new AtomicIntegerArray(perSender);
                seen[i] = new AtomicIntegerArray(perSender);
            }
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final AtomicBoolean go = new AtomicBoolean();
            final List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < senders; i++)
            {
                final int id = i;
                final Thread thread = new Thread(() ->
                {
                    try
                    {
                        final ShmRoute route = routes.get(id);
                        final UnsafeBuffer data = new UnsafeBuffer(new byte[64]);
                        while (!go.get())
                        {
                            Thread.onSpinWait();
                        }
                        for (int seq = 0; seq < perSender; seq++)
                        {
                            final OutboundMessage message = 0 == seq % 3 ?
                                frame(Opcode.REQUEST_MEDIUM, b.host.tag, id, seq).data(data, 0, seq % 64, -1) :
                                frame(Opcode.REQUEST_SHORT, b.host.tag, id, seq);
                            int result;
                            while (Route.FULL == (result = route.send(message)))
                            {
                                Thread.yield();
                            }
                            if (Route.SENT == result)
                            {
                                accepted[id].set(seq, 1);
                            }
                            else
                            {
                                assertEquals(ReturnStatus.EBADENDPOINT.code(), result);
                                refused[id]++;
                            }
                        }
                    }
                    catch (final Throwable ex)
                    {
                        failure.compareAndSet(null, ex);
                    }
                }, "sender-" + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }

            final MessageSink record = m ->
            {
                if (2 != m.argCount() || m.arg(0) < 0 || m.arg(0) >= senders || m.arg(1) < 0 || m.arg(1) >= perSender)
                {
                    failure.compareAndSet(null, new AssertionError("a message with arguments " + m.argCount()));
                    return;
                }
                seen[m.arg(0)].incrementAndGet(m.arg(1));
            };
            go.set(true);
            int polled = 0;
            while (polled < senders * perSender / 4 && null == failure.get())
            {
                polled += b.shm.poll(record, 32, false);
            }
            // Stop polling until the senders have queued a good number of messages (every third one is a medium
            // message, and eight bulk blocks hold up the rest behind them): the close must find messages to hand over.
            final PacketQueue queue = b.queueBlock().requests;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (queue.tail() - queue.buffer.getLongVolatile(queue.headOffset) < 16 &&
                System.nanoTime() < deadline && null == failure.get())
            {
                Thread.yield();
            }
            final int handed = b.shm.returnQueued(record);
            for (final Thread thread : threads)
            {
                thread.join(30_000);
                assertFalse(thread.isAlive(), thread.getName() + " did not finish");
            }
            if (null != failure.get())
            {
                fail("a thread failed", failure.get());
            }
            int refusedTotal = 0;
            for (int i = 0; i < senders; i++)
            {
                for (int seq = 0; seq < perSender; seq++)
                {
                    assertEquals(accepted[i].get(seq), seen[i].get(seq), "sender " + i + " message " + seq +
                        ": accepted " + accepted[i].get(seq) + ", polled or handed over " + seen[i].get(seq));
                }
                refusedTotal += refused[i];
            }
            System.out.println("ShmCloseTest flood: polled " + polled + ", handed over at the close " + handed +
                ", refused " + refusedTotal);
            assertTrue(handed > 0, "nothing was queued at the close");
            assertTrue(refusedTotal > 0, "nothing was sent after the close");
            assertEquals(0, b.host.drops());
        }
    }
}
