package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.AmException;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.MessageSink;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared-memory transport in one JVM: routes and queue blocks of fake endpoints, the paper's send and poll, the
 * inverse mapping, recovery from what dead or faulty senders leave, stale files.
 */
@Timeout(60)
class ShmTransportTest
{
    private static OutboundMessage frame(final Opcode opcode, final int handler, final long tag, final int... args)
    {
        final int[] a = java.util.Arrays.copyOf(args, 8);
        return new OutboundMessage().header(opcode.code(), 0, handler, tag)
            .args(args.length, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]).source(0);
    }

    @Test
    void shortMediumAndLongMessagesArriveWithTheirContents()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final Fixture.Recorder recorder = new Fixture.Recorder();

            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1, 2, 3, 4, 5, 6, 7, 8)));
            final byte[] bytes = new byte[8192];
            new Random(1).nextBytes(bytes);
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_MEDIUM, 6, b.host.tag, 9)
                .data(new UnsafeBuffer(bytes), 0, 8192, -1)));
            final AtomicBuffer segment = b.shm.allocateSegment(1 << 16);
            b.host.segment = segment;
            b.shm.segmentChanged(segment);
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_LONG, 7, b.host.tag)
                .data(new UnsafeBuffer(bytes), 100, 4000, 1000)));

            assertTrue(b.shm.hasPending());
            assertEquals(3, b.shm.poll(recorder, 32, false));
            assertFalse(b.shm.hasPending());

            assertArrayEquals(new int[] { Opcode.REQUEST_SHORT.code(), 5, 0, 0, -1, 1, 2, 3, 4, 5, 6, 7, 8 },
                recorder.headers.get(0));
            assertArrayEquals(bytes, recorder.data.get(1));
            assertEquals(1000, recorder.headers.get(2)[4]);
            final byte[] deposited = new byte[4000];
            segment.getBytes(1000, deposited);
            assertArrayEquals(java.util.Arrays.copyOfRange(bytes, 100, 4100), deposited);
            assertArrayEquals(deposited, recorder.data.get(2));
            assertEquals(a.host.name, recorder.sources.get(0));
        }
    }

    private static int sendShort(
        final ShmRoute route, final Opcode opcode, final int handler, final long tag, final int... args)
    {
        final int[] a = java.util.Arrays.copyOf(args, 8);
        return route.sendShort(new OutboundMessage(), opcode.code(), handler, tag, 0, args.length, a[0], a[1], a[2],
            a[3], a[4], a[5], a[6], a[7]);
    }

    @Test
    void aShortMessageSentFromItsFieldsArrivesAsItsFrameWouldAndClearsTheUnusedArgumentSlots()
    {
        try (Fixture f = new Fixture("requestDepth", "4", "bulkDepth", "2"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            // A lap of 8-argument messages first, so the short ones below reuse packets with every slot written.
            for (int i = 0; i < 4; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1, 2, 3, 4, 5, 6, 7, 8)));
            }
            assertEquals(4, b.shm.poll(new Fixture.Recorder(), 32, false));

            for (int i = 0; i < 4; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, 9, b.host.tag, 40 + i));
            }
            assertEquals(Route.FULL, sendShort(ab, Opcode.REQUEST_SHORT, 9, b.host.tag, 44));
            final java.util.List<int[]> slots = new java.util.ArrayList<>();
            final Fixture.Recorder recorder = new Fixture.Recorder();
            final MessageSink sink = (m) ->
            {
                recorder.onMessage(m);
                final int[] all = new int[8];
                for (int i = 0; i < 8; i++)
                {
                    all[i] = m.arg(i);
                }
                slots.add(all);
            };
            assertEquals(4, b.shm.poll(sink, 32, false));
            for (int i = 0; i < 4; i++)
            {
                assertArrayEquals(new int[] { Opcode.REQUEST_SHORT.code(), 9, 0, 0, -1, 40 + i },
                    recorder.headers.get(i));
                assertArrayEquals(new int[] { 40 + i, 0, 0, 0, 0, 0, 0, 0 }, slots.get(i));
                assertEquals(a.host.name, recorder.sources.get(i));
            }

            final ShmRoute ba = b.routeTo(a);
            assertEquals(Route.SENT, sendShort(ba, Opcode.REPLY_SHORT, 3, 0L, 1, 2, 3, 4, 5, 6, 7, 8));
            final Fixture.Recorder replies = new Fixture.Recorder();
            assertEquals(1, a.shm.poll(replies, 32, true));
            assertArrayEquals(new int[] { Opcode.REPLY_SHORT.code(), 3, 0, 0, -1, 1, 2, 3, 4, 5, 6, 7, 8 },
                replies.headers.get(0));
        }
    }

    @Test
    void aShortSendFromFieldsRefusesAsTheFramePathDoesAndPassesOtherOpcodesToIt()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            assertEquals(ReturnStatus.EBADTAG.code(), sendShort(ab, Opcode.REQUEST_SHORT, 5, b.host.tag + 1));
            assertFalse(b.shm.hasPending());
            // Not a short opcode: the frame path sends it as it is (here a medium request without data), tag check
            // included, into the request queue.
            assertEquals(ReturnStatus.EBADTAG.code(), sendShort(ab, Opcode.REQUEST_MEDIUM, 6, b.host.tag + 1, 7));
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_MEDIUM, 6, b.host.tag, 7));
            assertEquals(0, b.shm.poll(new Fixture.Recorder(), 32, true), "nothing in the reply queue");
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(1, b.shm.poll(recorder, 32, false));
            assertArrayEquals(new int[] { Opcode.REQUEST_MEDIUM.code(), 6, 0, 0, -1, 7 }, recorder.headers.get(0));
            b.shm.close();
            assertEquals(ReturnStatus.EBADENDPOINT.code(), sendShort(ab, Opcode.REQUEST_SHORT, 5, b.host.tag));
            assertEquals(ReturnStatus.EREPLYREJECTED.code(), sendShort(ab, Opcode.REPLY_SHORT, 5, b.host.tag));
        }
    }

    @Test
    void aLongMessageToAUserSegmentTravelsInTheBulkQueueAndIsCopiedInBeforeTheHandler()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final UnsafeBuffer user = new UnsafeBuffer(new byte[256]);
            b.host.segment = user;
            b.shm.segmentChanged(user);
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_LONG, 7, b.host.tag)
                .data(new UnsafeBuffer(new byte[] { 1, 2, 3 }), 0, 3, 250)));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(1, b.shm.poll(recorder, 32, false));
            assertEquals(3, user.getByte(252));
            assertArrayEquals(new byte[] { 1, 2, 3 }, recorder.data.get(0));
        }
    }

    @Test
    void theSenderRefusesAWrongTagAFreedEndpointAndASegmentOverrunWithoutTouchingTheQueue()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            assertEquals(ReturnStatus.EBADTAG.code(), ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag + 1)));
            b.host.segment = b.shm.allocateSegment(64);
            b.shm.segmentChanged(b.host.segment);
            assertEquals(ReturnStatus.EBADLENGTH.code(), ab.send(frame(Opcode.REQUEST_LONG, 5, b.host.tag)
                .data(new UnsafeBuffer(new byte[8]), 0, 8, 60)));
            assertEquals(ReturnStatus.EBADSEGOFF.code(), ab.send(frame(Opcode.REQUEST_LONG, 5, b.host.tag)
                .data(new UnsafeBuffer(new byte[8]), 0, 8, 64)));
            assertFalse(b.shm.hasPending());
            b.shm.close();
            assertEquals(ReturnStatus.EBADENDPOINT.code(), ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag)));
            assertEquals(ReturnStatus.EREPLYREJECTED.code(), ab.send(frame(Opcode.REPLY_SHORT, 5, b.host.tag)));
        }
    }

    @Test
    void aFullQueueSaysFullUntilTheReceiverPolls()
    {
        try (Fixture f = new Fixture("requestDepth", "4", "bulkDepth", "2"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            for (int i = 0; i < 4; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, i)));
            }
            assertEquals(Route.FULL, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 4)));
            final UnsafeBuffer data = new UnsafeBuffer(new byte[10]);
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(4, b.shm.poll(recorder, 32, false));
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_MEDIUM, 5, b.host.tag).data(data, 0, 10, -1)));
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_MEDIUM, 5, b.host.tag).data(data, 0, 10, -1)));
            assertEquals(Route.FULL, ab.send(frame(Opcode.REQUEST_MEDIUM, 5, b.host.tag).data(data, 0, 10, -1)),
                "two bulk blocks, both in use");
            assertEquals(2, b.shm.poll(recorder, 32, false));
            for (int lap = 0; lap < 50; lap++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_MEDIUM, 5, b.host.tag, lap).data(data, 0, 10, -1)));
                assertEquals(1, b.shm.poll(recorder, 32, false));
            }
        }
    }

    @Test
    void repliesTravelBackThroughTheInverseMapping()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 41));
            final Route[] back = new Route[1];
            assertEquals(1, b.shm.poll(m ->
            {
                back[0] = m.replyRoute();
                assertEquals(a.host.name, m.sourceName());
                assertEquals(Route.SENT, m.replyRoute().send(frame(Opcode.REPLY_SHORT, 6, m.tag(), m.arg(0) + 1)));
            }, 32, false));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(1, a.shm.poll(recorder, 32, false));
            assertEquals(6, recorder.headers.get(0)[1]);
            assertEquals(42, recorder.headers.get(0)[5]);
            assertEquals(b.host.name, recorder.sources.get(0));

            ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1));
            final Route[] again = new Route[1];
            b.shm.poll(m -> again[0] = m.replyRoute(), 32, false);
            assertTrue(back[0] == again[0], "the inverse mapping is resolved once and then found by index");
        }
    }

    @Test
    void garbageInAQueueBlockIsSkippedOrMarkedAndNeverThrows() throws Exception
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final Random random = new Random(42);
            final Fixture.Recorder recorder = new Fixture.Recorder();
            long sent = 0;
            for (int round = 0; round < 200; round++)
            {
                // a READY packet whose every field but the state is random
                final long tail = queue.buffer.getLongVolatile(queue.tailOffset);
                final int packet = queue.packetOffset(tail);
                final byte[] noise = new byte[PacketDescriptor.LENGTH - 8];
                random.nextBytes(noise);
                queue.buffer.putBytes(packet + 8, noise);
                queue.buffer.putLong(packet, QueueBlockDescriptor.state(
                    random.nextInt(4) == 0 ? 77 : PacketDescriptor.READY, Integer.MAX_VALUE - 5));
                queue.buffer.putLong(queue.tailOffset, tail + 1);
                // followed by a good one
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, round)));
                sent++;
                final long deadline = System.nanoTime() + 5_000_000_000L;
                final int before = recorder.headers.size();
                while (recorder.headers.stream().skip(before).noneMatch(h -> h[1] == 5 && h.length > 5) &&
                    System.nanoTime() < deadline)
                {
                    b.shm.poll(recorder, 32, false);
                }
                assertTrue(System.nanoTime() < deadline, "the good message did not arrive in round " + round);
            }
            assertTrue(b.host.drops() > 0, "garbage states were skipped and counted");
            assertTrue(sent > 0);
        }
    }

    @Test
    void aPacketClaimedByADeadSenderIsSkippedAfterTheLivenessTimeoutAndLaterOnesArrive() throws Exception
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "50"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final long deadPid = deadPid();

            // a dead sender holds a bulk block and has claimed the head packet, naming the block
            queue.buffer.putLong(queue.bulkFlagOffset(0), QueueBlockDescriptor.state(QueueBlockDescriptor.BULK_READY,
                deadPid));
            final long tail = queue.buffer.getLongVolatile(queue.tailOffset);
            final int packet = queue.packetOffset(tail);
            queue.buffer.putShort(packet + PacketDescriptor.BULK_INDEX_OFFSET, (short)0);
            queue.buffer.putLong(queue.claimOffset(tail), QueueBlockDescriptor.claim(queue.lap(tail), deadPid));
            queue.buffer.putLong(queue.tailOffset, tail + 1);
            // and a second one holds a block it never put in a packet
            queue.buffer.putLong(queue.bulkFlagOffset(1), QueueBlockDescriptor.state(
                QueueBlockDescriptor.BULK_CLAIMED, deadPid));

            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1)));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(0, b.shm.poll(recorder, 32, false), "waits behind the claimed packet");
            final long start = System.nanoTime();
            while (recorder.headers.isEmpty() && System.nanoTime() - start < 5_000_000_000L)
            {
                b.shm.poll(recorder, 32, false);
            }
            assertEquals(1, recorder.headers.size());
            assertEquals(1, b.host.drops());
            assertEquals(QueueBlockDescriptor.BULK_FREE, (int)queue.buffer.getLongVolatile(queue.bulkFlagOffset(0)));
            assertEquals(QueueBlockDescriptor.BULK_FREE, (int)queue.buffer.getLongVolatile(queue.bulkFlagOffset(1)));
        }
    }

    @Test
    void aClaimSucceedsOnlyFromThePreviousLapsStamp()
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2"))
        {
            final Fixture.Ep b = f.endpoint();
            final PacketQueue queue = b.queueBlock().requests;
            final long me = ProcessIdentity.currentPid();
            // lap 0 from the zeroed file (lap -1's stamp)
            assertTrue(queue.claimPacket(3, me));
            assertFalse(queue.claimPacket(3, me), "a lap is claimed once");
            // lap 1 from lap 0's claim; lap 2 from lap 1's skip
            assertTrue(queue.claimPacket(3 + 8, me));
            queue.buffer.putLong(queue.claimOffset(3), QueueBlockDescriptor.claim(2 - 1, 0));
            assertTrue(queue.claimPacket(3 + 16, me));
            // a sender stalled after its tail CAS for lap 2 while the receiver skipped it: fails
            queue.buffer.putLong(queue.claimOffset(4), QueueBlockDescriptor.claim(2, 0));
            assertFalse(queue.claimPacket(4 + 16, me));
            // ... and still fails once the queue has gone round and lap 3's sender holds the packet
            queue.buffer.putLong(queue.claimOffset(4), QueueBlockDescriptor.claim(3, 77));
            assertFalse(queue.claimPacket(4 + 16, me));
            assertEquals(QueueBlockDescriptor.claim(3, 77), queue.buffer.getLongVolatile(queue.claimOffset(4)),
                "a failed claim writes nothing");
        }
    }

    @Test
    void aReadyStateInAPacketNoSenderHoldsCannotLeaveTheHeadPastTheTail() throws Exception
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            // a faulty writer makes packet 3 READY while nobody holds it; senders fill 0..2 and find 3 not free
            final int garbage = queue.packetOffset(3);
            queue.buffer.putByte(garbage + PacketDescriptor.OPCODE_OFFSET, (byte)Opcode.REQUEST_SHORT.code());
            queue.buffer.putByte(garbage + PacketDescriptor.HANDLER_OFFSET, (byte)5);
            queue.buffer.putLong(garbage, QueueBlockDescriptor.state(PacketDescriptor.READY, 1));
            for (int i = 0; i < 3; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, i)));
            }
            assertEquals(Route.FULL, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 3)));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            b.shm.poll(recorder, 32, false);
            // the receiver took the garbage packet too, so its head passed the tail; a later poll repairs the tail
            final long deadline = System.nanoTime() + 5_000_000_000L;
            int sent = 0;
            while (sent < 20 && System.nanoTime() < deadline)
            {
                if (Route.SENT == ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 100 + sent)))
                {
                    sent++;
                }
                b.shm.poll(recorder, 32, false);
            }
            assertEquals(20, sent, "the queue takes messages again");
            while (recorder.headers.stream().noneMatch(h -> h.length > 5 && h[5] == 119) &&
                System.nanoTime() < deadline)
            {
                b.shm.poll(recorder, 32, false);
            }
            assertTrue(recorder.headers.stream().anyMatch(h -> h.length > 5 && h[5] == 119), "the last one arrived");
            assertTrue(b.shm.packetRepairs() > 0, "the tail was repaired");
            assertEquals(queue.buffer.getLongVolatile(queue.tailOffset), queue.buffer.getLongVolatile(queue.headOffset));
        }
    }

    @Test
    void aNestedPollOfTheReplyQueueLeavesTheRequestBeingHandledIntact()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 111)));
            final Fixture.Recorder nested = new Fixture.Recorder();
            final int[] outer = new int[2];
            assertEquals(1, b.shm.poll(m ->
            {
                // a reply arrives while the request is handled, and the handler's own reply waits for space
                assertEquals(Route.SENT, ab.send(frame(Opcode.REPLY_SHORT, 6, b.host.tag, 222)));
                assertEquals(1, b.shm.poll(nested, 32, true));
                outer[0] = m.arg(0);
                outer[1] = m.opcode();
            }, 32, false));
            assertEquals(222, nested.headers.get(0)[5], "the nested poll delivered the reply");
            assertEquals(111, outer[0], "the request's argument after the nested poll");
            assertEquals(Opcode.REQUEST_SHORT.code(), outer[1], "the request's opcode after the nested poll");
        }
    }

    @Test
    void aPacketClaimedByALiveSenderIsWaitedForPastTheLivenessTimeout() throws Exception
    {
        // 200 ms of polls: two liveness timeouts, well within the bound of a live claim (PacketReceiver
        // .LIVE_CLAIM_TIMEOUTS timeouts, 1 s).
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "100"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            // this (live) process took assignment 0 and claimed it, and is slow to fill it
            queue.buffer.putLong(queue.tailOffset, 1);
            queue.buffer.putLong(queue.claimOffset(0), QueueBlockDescriptor.claim(0, ProcessIdentity.currentPid()));
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 2)));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            final long start = System.nanoTime();
            while (System.nanoTime() - start < 200_000_000L)
            {
                assertEquals(0, b.shm.poll(recorder, 32, false), "nothing overtakes a live claimer's packet");
            }
            assertEquals(0, b.host.drops());
            // the claimer makes its packet ready at last: both arrive, in order
            final int packet = queue.packetOffset(0);
            queue.buffer.putByte(packet + PacketDescriptor.OPCODE_OFFSET, (byte)Opcode.REQUEST_SHORT.code());
            queue.buffer.putByte(packet + PacketDescriptor.HANDLER_OFFSET, (byte)5);
            queue.buffer.putByte(packet + PacketDescriptor.ARG_COUNT_OFFSET, (byte)1);
            queue.buffer.putByte(packet + PacketDescriptor.RETURN_STATUS_OFFSET, (byte)0);
            queue.buffer.putInt(packet + PacketDescriptor.SLOT_OFFSET, queue.buffer.getInt(
                queue.packetOffset(1) + PacketDescriptor.SLOT_OFFSET));
            queue.buffer.putShort(packet + PacketDescriptor.DATA_LENGTH_OFFSET, (short)0);
            queue.buffer.putShort(packet + PacketDescriptor.BULK_INDEX_OFFSET, (short)PacketDescriptor.NO_BULK);
            queue.buffer.putInt(packet + PacketDescriptor.SEGMENT_OFFSET_OFFSET, -1);
            queue.buffer.putLong(packet + PacketDescriptor.TAG_OFFSET, b.host.tag);
            queue.buffer.putInt(packet + PacketDescriptor.ARGS_OFFSET, 1);
            queue.buffer.putLongRelease(packet, QueueBlockDescriptor.state(PacketDescriptor.READY,
                ProcessIdentity.currentPid()));
            assertEquals(2, b.shm.poll(recorder, 32, false));
            assertEquals(1, recorder.headers.get(0)[5]);
            assertEquals(2, recorder.headers.get(1)[5]);
            assertEquals(0, b.host.drops());
        }
    }

    @Test
    void garbageInAPacketNoSenderHoldsIsRepairedWithoutMovingTheHead() throws Exception
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            // a faulty writer scribbles on the head packet's state while no sender holds it
            queue.buffer.putLong(queue.packetOffset(0), QueueBlockDescriptor.state(77, 3));
            assertEquals(Route.FULL, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1)),
                "no sender takes a packet that is not free for its lap");
            final Fixture.Recorder recorder = new Fixture.Recorder();
            final long start = System.nanoTime();
            while (0 == b.shm.packetRepairs() && System.nanoTime() - start < 5_000_000_000L)
            {
                b.shm.poll(recorder, 32, false);
            }
            assertEquals(1, b.shm.packetRepairs(), "the garbage was repaired");
            assertEquals(0, b.host.drops(), "no message was lost: not a drop");
            assertEquals(0, queue.buffer.getLongVolatile(queue.headOffset), "the head stays at the tail");
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1)));
            assertEquals(1, b.shm.poll(recorder, 32, false));
            assertEquals(1, recorder.headers.get(0)[5]);
        }
    }

    @Test
    void aFreeStateOfAnotherLapAtTheHeadIsRepairedAndTheQueueGoesOn() throws Exception
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            // a faulty writer leaves the head packet FREE, but for lap 5 instead of lap 0: not idle, not ready
            queue.buffer.putLong(queue.packetOffset(0), QueueBlockDescriptor.state(PacketDescriptor.FREE, 5));
            assertEquals(Route.FULL, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1)),
                "no sender takes a packet free for another lap");
            final Fixture.Recorder recorder = new Fixture.Recorder();
            final long start = System.nanoTime();
            while (0 == b.shm.packetRepairs() && System.nanoTime() - start < 5_000_000_000L)
            {
                assertEquals(0, b.shm.poll(recorder, 32, false), "nothing is delivered from a free packet");
            }
            assertEquals(1, b.shm.packetRepairs(), "the state was repaired");
            assertEquals(0, b.host.drops(), "no message was lost: not a drop");
            assertEquals(queue.freeStateFor(0), queue.buffer.getLongVolatile(queue.packetOffset(0)));
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 2)));
            assertEquals(1, b.shm.poll(recorder, 32, false));
            assertEquals(2, recorder.headers.get(0)[5]);
        }
    }

    @Test
    void theReplyRouteIsTheOneThePacketNamedWhenItWasRead() throws Exception
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final Route[] routes = new Route[2];
            final Object[] sources = new Object[2];
            final MessageSink rewriting = m ->
            {
                routes[0] = m.replyRoute();
                sources[0] = m.sourceName();
                // a writer changes the packet's inverse mapping while its handler runs
                queue.buffer.putInt(queue.packetOffset(0) + PacketDescriptor.SLOT_OFFSET, 0x0003_0005);
                routes[1] = m.replyRoute();
                sources[1] = m.sourceName();
            };
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1)));
            assertEquals(1, b.shm.poll(rewriting, 32, false));
            assertNotNull(routes[0]);
            assertEquals(a.host.name, sources[0], "the reply route leads back to the sender");
            assertTrue(routes[0] == routes[1], "the same route after the packet changed");
            assertEquals(sources[0], sources[1]);
        }
    }

    @Test
    void anAssignmentNeverClaimedIsSkippedAndALateClaimerTakesANewOne() throws Exception
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "50"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            // a sender took assignment 0 (tail CAS) and stopped before its claim
            final long stale = queue.buffer.getLongVolatile(queue.claimOffset(0));
            queue.buffer.putLong(queue.tailOffset, 1);
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 7)));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            final long start = System.nanoTime();
            while (recorder.headers.isEmpty() && System.nanoTime() - start < 5_000_000_000L)
            {
                b.shm.poll(recorder, 32, false);
            }
            assertEquals(7, recorder.headers.get(0)[5]);
            // the slow sender's claim, expecting the claim word it saw before, now fails, and the word says the
            // receiver skipped lap 0
            assertFalse(queue.buffer.compareAndSetLong(queue.claimOffset(0), stale,
                QueueBlockDescriptor.claim(0, 1)));
            final long skipped = queue.buffer.getLongVolatile(queue.claimOffset(0));
            assertTrue(QueueBlockDescriptor.claimsLap(skipped, 0));
            assertEquals(0, QueueBlockDescriptor.claimer(skipped));
        }
    }

    /**
     * The sleeps below last an hour, far beyond the class's {@code @Timeout}: a {@code block()} that returns was woken
     * by the doorbell, and one that is never woken fails the test by its timeout (which interrupts the join).
     */
    @Test
    void aSleepingReceiverIsWokenThroughItsDoorbell() throws Exception
    {
        try (Fixture f = new Fixture())
        {
            org.junit.jupiter.api.Assumptions.assumeTrue(f.transport.canBlock(), "futexes unavailable here");
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final long ticket = f.transport.prepareBlock();
            b.shm.sleeping(true);
            assertFalse(b.shm.hasPending());
            final Thread sleeper = blockFarBeyondTheTimeout(f.transport, ticket);
            try
            {
                ThreadWaits.awaitInside(sleeper, Futex.class, "syscall"); // in the futex: the ring must wake it
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag)));
                sleeper.join();
                assertTrue(b.shm.hasPending());
                b.shm.sleeping(false);

                // a ticket taken before a ring does not sleep at all
                final long old = f.transport.prepareBlock();
                f.transport.wakeup();
                final Thread late = blockFarBeyondTheTimeout(f.transport, old);
                late.join();
            }
            finally
            {
                f.transport.wakeup(); // frees a sleeper left behind by a failure
            }
        }
    }

    private static Thread blockFarBeyondTheTimeout(final ShmTransport transport, final long ticket)
    {
        // A thread of its own: a futex sleep does not answer the interrupt of the test's @Timeout, a join does.
        final Thread sleeper = new Thread(() -> transport.block(ticket, java.util.concurrent.TimeUnit.HOURS.toNanos(1)),
            "doorbell-sleeper");
        sleeper.setDaemon(true);
        sleeper.start();
        return sleeper;
    }

    @Test
    void aSleepSliceRingsTheDoorbellOnceHoweverManyMessagesArrive()
    {
        try (Fixture f = new Fixture())
        {
            org.junit.jupiter.api.Assumptions.assumeTrue(f.transport.canBlock(), "futexes unavailable here");
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final long before = f.transport.prepareBlock();
            for (int i = 0; i < 5; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag)));
            }
            assertEquals(before, f.transport.prepareBlock(), "an awake receiver: no ring");

            b.shm.sleeping(true);
            for (int i = 0; i < 5; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag)));
            }
            assertEquals(before + 1, f.transport.prepareBlock(), "five messages to one sleep: one ring");
            b.shm.sleeping(true);
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag)));
            assertEquals(before + 2, f.transport.prepareBlock(), "the next sleep slice: one more");
            b.shm.sleeping(false);
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag)));
            assertEquals(before + 2, f.transport.prepareBlock());
        }
    }

    @Test
    void sendingAndPollingAllocateNothing()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final OutboundMessage shortFrame = frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1, 2);
            final OutboundMessage mediumFrame = frame(Opcode.REQUEST_MEDIUM, 5, b.host.tag, 1)
                .data(new UnsafeBuffer(new byte[512]), 0, 512, -1);
            final long[] sum = new long[1];
            final MessageSink sink = m ->
            {
                sum[0] += m.arg(0) + m.dataLength();
                m.replyRoute();
            };
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            for (int warm = 0; warm < 3; warm++)
            {
                final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                for (int i = 0; i < 100_000; i++)
                {
                    ab.send(0 == (i & 1) ? shortFrame : mediumFrame);
                    b.shm.poll(sink, 32, false);
                }
                final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                if (2 == warm)
                {
                    assertTrue(allocated < 1024, "allocated " + allocated + " bytes for 100,000 messages");
                }
            }
            assertTrue(sum[0] > 0);
        }
    }

    @Test
    void staleFilesOfDeadProcessesAreRemovedAndLiveOnesKept(@TempDir final Path root) throws Exception
    {
        final Path job = Files.createDirectories(root.resolve("job"));
        final long dead = deadPid();
        final Path staleQueueBlock = Files.createFile(job.resolve(dead + "-12345-0.qb"));
        final Path staleBell = Files.createFile(job.resolve(dead + "-12345.bell"));
        final long me = org.am2j.spi.ProcessIdentity.currentPid();
        final Path mine = Files.createFile(job.resolve(me + "-" +
            org.am2j.spi.ProcessIdentity.currentStartTimeMs() + "-3.qb"));
        final Path reused = Files.createFile(job.resolve(me + "-1000-4.qb"));
        final Path foreign = Files.createFile(job.resolve("notes.txt"));
        assertEquals(3, StaleFiles.sweep(root));
        assertFalse(Files.exists(staleQueueBlock));
        assertFalse(Files.exists(staleBell));
        assertFalse(Files.exists(reused), "same pid, other start time: a dead process's file");
        assertTrue(Files.exists(mine));
        assertTrue(Files.exists(foreign));
    }

    @Test
    void aDirectoryWhereNoFileCanBeCreatedIsAClearErrorAtCreation(@TempDir final Path dir) throws Exception
    {
        final Path missing = dir.resolve("no-such-dir").resolve("x.qb");
        final AmException error = assertThrows(AmException.class, () -> MappedRegion.createFile(missing, 4096));
        assertTrue(error.getMessage().contains(missing.toString()), error.getMessage());
        assertTrue(error.getMessage().contains("4096"), error.getMessage());
    }

    @Test
    void closingRemovesTheEndpointsFiles()
    {
        final Path directory;
        final String address;
        final Object key;
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            a.host.segment = a.shm.allocateSegment(4096);
            directory = f.transport.directory();
            address = a.shm.address();
            key = MappedRegion.fileKey(Path.of(address));
            assertNotNull(key);
        }
        // A sealed memory file's address may name another file of this process once its descriptor is closed.
        assertNotEquals(key, MappedRegion.fileKey(Path.of(address)), "the queue block is gone from its address");
        assertFalse(Files.exists(directory), "the job directory is removed when empty");
    }

    @Test
    void aSecondClaimOfEverySlotIsAClearErrorWhenTheTableIsFull()
    {
        try (Fixture f = new Fixture("slots", "2"))
        {
            final Fixture.Ep target = f.endpoint();
            f.endpoint().routeTo(target);
            f.endpoint().routeTo(target);
            final AmException error = assertThrows(AmException.class, () -> f.endpoint().routeTo(target));
            assertTrue(error.getMessage().contains("connection table"), error.getMessage());
            assertNotNull(target.shm.address());
            assertNull(ConnectionTable.path(target.queueBlock(), 5, 1));
        }
    }

    /**
     * @return the pid of a process that has exited.
     */
    static long deadPid() throws Exception
    {
        final Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }
}
