package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

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
 * Fast boxes under a faulty writer and at close, in one JVM: a CLOSED written over a live endpoint's state refuses
 * nothing and runs nothing twice; a box whose released or owner word is overwritten is let go without losing what its
 * sender writes; a spoiled stamp is skipped after the timeout and counted; a zeroed box is let go and what it held is
 * counted; the close waits for a reservation and returns within its bound when one is never finished.
 */
@Timeout(60)
class FastBoxScribbleTest
{
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** Counts each sequence number (argument 0) it is handed, and the first one handed twice. */
    private static final class Counts implements MessageSink
    {
        final int[] seen = new int[64];
        int delivered;
        int twice = -1;

        @Override
        public void onMessage(final InboundMessage m)
        {
            final int sequence = m.arg(0);
            if (++seen[sequence] > 1 && twice < 0)
            {
                twice = sequence;
            }
            delivered++;
        }
    }

    private static int sendShort(final ShmRoute route, final Fixture.Ep to, final int sequence)
    {
        return route.sendShort(new OutboundMessage(), Opcode.REQUEST_SHORT.code(), 5, to.host.tag, 0, 1, sequence, 0,
            0, 0, 0, 0, 0, 0);
    }

    /**
     * @return what the route answers to a medium request with argument 0 {@code sequence} and {@code bytes} as data.
     */
    private static int sendMedium(final ShmRoute route, final Fixture.Ep to, final int sequence, final byte[] bytes)
    {
        return route.send(new OutboundMessage().header(Opcode.REQUEST_MEDIUM.code(), 0, 5, to.host.tag)
            .args(1, sequence, 0, 0, 0, 0, 0, 0, 0).data(new UnsafeBuffer(bytes), 0, bytes.length, -1));
    }

    /**
     * Send short requests {@code from} to {@code to}, each one SENT.
     */
    private static void sendShorts(final ShmRoute route, final Fixture.Ep to, final int from, final int last)
    {
        for (int i = from; i <= last; i++)
        {
            assertEquals(Route.SENT, sendShort(route, to, i));
        }
    }

    /**
     * Poll {@code b} (its sweeps run every few thousand polls) until {@code done} holds; fail after the bound.
     */
    private static void pollUntil(final Fixture.Ep b, final MessageSink sink, final BooleanSupplier done)
    {
        final long start = System.nanoTime();
        while (!done.getAsBoolean())
        {
            b.shm.poll(sink, 32, false);
            if (System.nanoTime() - start > BOUND_NANOS)
            {
                fail("not within " + TimeUnit.NANOSECONDS.toMillis(BOUND_NANOS) + " ms");
            }
        }
    }

    /**
     * @return a's route to b, after a first message (sequence 0) that b delivered: the first contact, which binds the
     * box, so the next ones go into it.
     */
    private static ShmRoute boundRoute(final Fixture.Ep a, final Fixture.Ep b, final Counts counts)
    {
        final ShmRoute ab = a.routeTo(b);
        assertEquals(Route.SENT, sendShort(ab, b, 0));
        assertEquals(1, b.shm.poll(counts, 32, false));
        assertTrue(ab.boxIndex() >= 0);
        return ab;
    }

    /**
     * A faulty writer's number over the released word of a box: its receiver takes its sender for closed.
     */
    private static void overwriteReleased(final FastBoxTable boxes, final int box)
    {
        final int released = boxes.ringOffset(box, 0) - FastBoxDescriptor.RINGS_OFFSET +
            FastBoxDescriptor.RELEASED_OFFSET;
        boxes.buffer.putIntVolatile(released, 0x5EED);
    }

    /**
     * A faulty writer's far negative number over both published heads of box 0, before its sender claims it.
     *
     * @return the number.
     */
    private static long overwriteHeads(final FastBoxTable boxes)
    {
        final long garbage = -2_241_900_783_532_603_247L;
        for (int kind = 0; kind < 2; kind++)
        {
            boxes.putRelease(boxes.headOffset(0, kind), garbage);
        }
        return garbage;
    }

    /**
     * CLOSED over the state word of a live endpoint (a faulty writer's): its file is still there, so senders go on,
     * through the box and the shared queue; each message runs once; a reply to a requester whose state reads CLOSED
     * is delivered.
     */
    @Test
    void closedWrittenOverALiveEndpointsStateRefusesNothingAndRunsEachMessageOnce()
    {
        try (Fixture f = new Fixture("boxes", "1"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Fixture.Ep c = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final ShmRoute cb = c.routeTo(b);
            final QueueBlock view = b.queueBlock();
            view.buffer.putIntVolatile(QueueBlockDescriptor.STATE_OFFSET, QueueBlockDescriptor.STATE_CLOSED);
            assertEquals(Route.SENT, sendShort(ab, b, 1), "through the box");
            assertEquals(Route.SENT, sendShort(cb, b, 2), "through the shared queue (the one box is a's)");
            assertEquals(-1, cb.boxIndex());
            final Route[] replyRoute = new Route[1];
            pollUntil(b, m ->
            {
                counts.onMessage(m);
                replyRoute[0] = m.replyRoute();
            }, () -> 3 == counts.delivered);
            assertEquals(-1, counts.twice);

            final QueueBlock requester = c.queueBlock();
            requester.buffer.putIntVolatile(QueueBlockDescriptor.STATE_OFFSET, QueueBlockDescriptor.STATE_CLOSED);
            assertEquals(Route.SENT, replyRoute[0].send(new OutboundMessage()
                .header(Opcode.REPLY_SHORT.code(), 0, 6, 0).args(1, 9, 0, 0, 0, 0, 0, 0, 0).source(1)),
                "a reply to a live requester, whatever its header says");
            final Counts replies = new Counts();
            pollUntil(c, replies, () -> 1 == replies.delivered);
            assertEquals(0, b.host.drops() + c.host.drops());
        }
    }

    /**
     * The released word of a live sender's box overwritten: the receiver lets the box go with the handshake, the
     * sender finds it let go at its next send and goes on through the shared queue, then claims a box again; every
     * message is delivered once, none is dropped.
     */
    @Test
    void aBoxLetGoUnderALiveSenderLosesNothing()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final int box = ab.boxIndex();
            sendShorts(ab, b, 1, 3);
            final FastBoxTable boxes = b.queueBlock().boxes;
            overwriteReleased(boxes, box);
            pollUntil(b, counts, () -> FastBoxDescriptor.RETIRING == boxes.owner(box) ||
                FastBoxDescriptor.FREE == boxes.owner(box));
            assertEquals(4, counts.delivered, "what was in the box was delivered");
            assertEquals(Route.SENT, sendShort(ab, b, 4));
            assertEquals(-1, ab.boxIndex(), "the sender found its box let go");
            pollUntil(b, counts, () -> 5 == counts.delivered);
            for (int i = 5; i < 60; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, b, i));
                b.shm.poll(counts, 32, false);
            }
            pollUntil(b, counts, () -> 60 == counts.delivered);
            assertEquals(-1, counts.twice);
            assertEquals(0, b.host.drops());
        }
    }

    /**
     * A box let go and claimed again by another sender, its head words written back to 0 by a faulty writer in
     * between: the ring still holds the stamps of the first sender's sequences 0 to 2, which read as ready for a ring
     * bound at 0. They are consumed messages: the binding takes them for so, and nothing is delivered twice (they ran
     * again before: the handler of each of the first sender's messages ran twice).
     */
    @Test
    void aBoxClaimedAgainOverAHeadWrittenBackDeliversNothingTwice()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final int box = ab.boxIndex();
            sendShorts(ab, b, 1, 3);
            final FastBoxTable boxes = b.queueBlock().boxes;
            overwriteReleased(boxes, box);
            pollUntil(b, counts, () -> FastBoxDescriptor.FREE == boxes.owner(box));
            assertEquals(4, counts.delivered);
            for (int kind = 0; kind < 2; kind++)
            {
                boxes.putRelease(boxes.headOffset(box, kind), 0);
            }

            final Fixture.Ep c = f.endpoint();
            final ShmRoute cb = c.routeTo(b);
            assertEquals(Route.SENT, sendShort(cb, b, 10));
            pollUntil(b, counts, () -> 1 == counts.seen[10]);
            assertEquals(box, cb.boxIndex(), "the second sender claimed the box");
            sendShorts(cb, b, 11, 13);
            pollUntil(b, counts, () -> 1 == counts.seen[13]);
            for (int i = 0; i < 50_000; i++)
            {
                b.shm.poll(counts, 32, false);
            }
            assertEquals(-1, counts.twice, "delivered twice");
            assertEquals(8, counts.delivered);
        }
    }

    /**
     * A stamp overwritten in a ring that goes on: the head packet is never ready again while its sender's writing
     * word is past it. It is skipped after the liveness timeout and counted; the packets after it are delivered.
     */
    @Test
    void aSpoiledStampIsSkippedAfterTheTimeoutAndCounted()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final int box = ab.boxIndex();
            sendShorts(ab, b, 1, 3);
            final FastBoxTable boxes = b.queueBlock().boxes;
            final int ring = boxes.ringOffset(box, FastBoxDescriptor.REQUESTS);
            final long head = boxes.getAcquire(boxes.headOffset(box, FastBoxDescriptor.REQUESTS));
            boxes.buffer.putLongVolatile(boxes.packetOffset(ring, head) + PacketDescriptor.STATE_OFFSET,
                0x1234_5678_9ABC_DEF0L);
            pollUntil(b, counts, () -> 3 == counts.delivered);
            assertEquals(0, counts.seen[1], "the spoiled one is not delivered");
            assertEquals(1, counts.seen[2]);
            assertEquals(1, counts.seen[3]);
            assertEquals(1, b.host.drops(), "it is counted");
            assertEquals(Route.SENT, sendShort(ab, b, 4));
            pollUntil(b, counts, () -> 4 == counts.delivered);
            assertTrue(ab.boxIndex() >= 0, "the box goes on");
        }
    }

    /**
     * A spoiled stamp at the head of a ring of medium requests, with every bulk block of the pool held: the sweep of
     * unreferenced blocks runs while the head waits for its skip. The packets after the spoiled one are delivered
     * after the skip, so their blocks are theirs until then: the sweep frees none of them (it once marked only the
     * ready run at the head, and another sender's data took the blocks of the packets after it), and each is then
     * delivered once, with its own bytes.
     */
    @Test
    void theSweepOfUnreferencedBulkBlocksKeepsThoseOfPacketsAfterASpoiledOne()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "bulkDepth", "4", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final int box = ab.boxIndex();
            final byte[][] sent = new byte[5][];
            for (int i = 1; i <= 4; i++)
            {
                sent[i] = new byte[1000 + i];
                Arrays.fill(sent[i], (byte)i);
                assertEquals(Route.SENT, sendMedium(ab, b, i, sent[i]));
            }
            final QueueBlock view = b.queueBlock();
            final FastBoxTable boxes = view.boxes;
            final int ring = boxes.ringOffset(box, FastBoxDescriptor.REQUESTS);
            final long head = boxes.getAcquire(boxes.headOffset(box, FastBoxDescriptor.REQUESTS));
            assertEquals(FastBoxDescriptor.ready(head + 3), boxes.stamp(boxes.packetOffset(ring, head + 3)),
                "all four went into the box");
            assertTrue(BulkBlocks.allTaken(view.requests), "the four hold every block");
            boxes.buffer.putLongVolatile(boxes.packetOffset(ring, head) + PacketDescriptor.STATE_OFFSET,
                0x1234_5678_9ABC_DEF0L);

            final PacketQueue queue = view.requests;
            final long sharedHead = queue.buffer.getLongVolatile(queue.headOffset);
            assertEquals(0, BulkBlocks.freeUnreferenced(queue, sharedHead, new long[1], new long[queue.bulkDepth],
                b.shm.boxReceiver(), FastBoxDescriptor.REQUESTS), "no block a packet still names is freed");

            final byte[][] received = new byte[5][];
            pollUntil(b, m ->
            {
                final int i = m.arg(0);
                counts.onMessage(m);
                received[i] = new byte[m.dataLength()];
                m.dataBuffer().getBytes(m.dataOffset(), received[i]);
            }, () -> 3 == counts.delivered - 1);
            assertEquals(0, counts.seen[1], "the spoiled one is not delivered");
            for (int i = 2; i <= 4; i++)
            {
                assertEquals(1, counts.seen[i]);
                assertTrue(Arrays.equals(sent[i], received[i]), "the bytes of " + i);
            }
            assertEquals(1, b.host.drops(), "the spoiled one is counted");
        }
    }

    /**
     * A packet zeroed whole (its stamp and its bulk index with it) ahead of a medium message whose data is in block 0,
     * as a zeroing of the queue block leaves them: the spoiled packet is skipped after the timeout and counted, and
     * the medium message after it is delivered with its data. A zeroed packet names block 0 as well as any; its
     * skip once gave that block back while the message after it held it, which then arrived without its data (the
     * core returns such a message with EBADLENGTH).
     */
    @Test
    void aZeroedPacketSkippedGivesBackNoBlockItNames()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "bulkDepth", "4", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final int box = ab.boxIndex();
            final QueueBlock view = b.queueBlock();
            final FastBoxTable boxes = view.boxes;
            final int ring = boxes.ringOffset(box, FastBoxDescriptor.REQUESTS);
            final long head = boxes.getAcquire(boxes.headOffset(box, FastBoxDescriptor.REQUESTS));
            sendShorts(ab, b, 1, 1);
            boxes.buffer.setMemory(boxes.packetOffset(ring, head), PacketDescriptor.LENGTH, (byte)0);
            final byte[] bytes = new byte[1000];
            Arrays.fill(bytes, (byte)2);
            assertEquals(Route.SENT, sendMedium(ab, b, 2, bytes));
            assertEquals(0, view.requests.packetShort(boxes.packetOffset(ring, head + 1),
                PacketDescriptor.BULK_INDEX_OFFSET), "the medium message's data is in block 0");

            final byte[] received = new byte[bytes.length];
            final boolean[] withData = new boolean[1];
            pollUntil(b, m ->
            {
                counts.onMessage(m);
                if (2 == m.arg(0) && null != m.dataBuffer() && bytes.length == m.dataLength())
                {
                    withData[0] = true;
                    m.dataBuffer().getBytes(m.dataOffset(), received);
                }
            }, () -> 1 == counts.seen[2]);
            assertEquals(0, counts.seen[1], "the zeroed one is not delivered");
            assertEquals(1, b.host.drops(), "it is counted");
            assertTrue(withData[0], "the medium message arrives with its data");
            assertTrue(Arrays.equals(bytes, received));
        }
    }

    /**
     * A box whose published head words a faulty writer overwrote with a far negative number before its sender claimed
     * it: sender and receiver both start from that number, so the box works; the last stamp written spoiled is
     * skipped after the timeout and counted as one drop (what its sender has stamped is measured from that head, not
     * from 0), and the box goes on.
     */
    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBoxBoundOverAnOverwrittenHeadSkipsOnlyWhatItsSenderStamped()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final FastBoxTable boxes = b.queueBlock().boxes;
            final long garbage = overwriteHeads(boxes);
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            assertEquals(0, ab.boxIndex());
            sendShorts(ab, b, 1, 3);
            final int ring = boxes.ringOffset(0, FastBoxDescriptor.REQUESTS);
            final long head = boxes.getAcquire(boxes.headOffset(0, FastBoxDescriptor.REQUESTS));
            assertEquals(garbage, head, "the pair goes on from the head it found");
            // The last packet written, with nothing ready after it.
            boxes.buffer.putLongVolatile(boxes.packetOffset(ring, head + 2) + PacketDescriptor.STATE_OFFSET, 0);
            pollUntil(b, counts, () -> 3 == counts.delivered && 1 == b.host.drops());
            assertEquals(1, counts.seen[1]);
            assertEquals(1, counts.seen[2]);
            assertEquals(0, counts.seen[3], "the spoiled one is not delivered");
            assertEquals(Route.SENT, sendShort(ab, b, 4));
            pollUntil(b, counts, () -> 4 == counts.delivered);
            assertEquals(0, ab.boxIndex(), "the box goes on");
        }
    }

    /**
     * A box's head words moved on by a faulty writer after its sender claimed it (the sender starts its rings from the
     * words as they were) and back before the sender's first send into it, so the receiver binds at the moved-on head
     * and the sender writes below it, where nothing looks. The sender's writing word, behind the receiver's head, says
     * so: the box is let go with a ring's depth counted as drops per ring behind (what the sender may have written
     * there), and the pair goes on. Nothing is delivered twice, and nothing is missing that is not counted.
     */
    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSenderBehindItsReceiversHeadHasTheBoxLetGoAndWhatItWroteThereCounted()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final FastBoxTable boxes = b.queueBlock().boxes;
            final ShmRoute ab = a.routeTo(b);
            // The first contact: the route claims the box (its rings start from the head words, 0) and goes through
            // the shared queue.
            assertEquals(Route.SENT, sendShort(ab, b, 0));
            for (int kind = 0; kind < 2; kind++)
            {
                boxes.putRelease(boxes.headOffset(0, kind), 1000);
            }
            final Counts counts = new Counts();
            assertEquals(1, b.shm.poll(counts, 32, false), "the first contact binds the box at head 1000");
            for (int kind = 0; kind < 2; kind++)
            {
                boxes.putRelease(boxes.headOffset(0, kind), 0);
            }
            sendShorts(ab, b, 1, 3);
            assertEquals(0, ab.boxIndex(), "the sender wrote into its box, below the receiver's head");
            pollUntil(b, counts, () -> b.host.drops() >= 3 || 4 == counts.delivered);
            final int missing = 4 - counts.delivered;
            assertTrue(missing <= b.host.drops(), missing + " missing, " + b.host.drops() + " counted");
            assertEquals(-1, counts.twice);
            assertEquals(Route.SENT, sendShort(ab, b, 4));
            assertEquals(-1, ab.boxIndex(), "the sender found its box let go");
            pollUntil(b, counts, () -> 1 == counts.seen[4]);
            assertEquals(-1, counts.twice);
        }
    }

    /**
     * A writing word overwritten with a number across the sign from the box's head (a far positive one over a far
     * negative head), far ahead of the head by difference: a comparison of the numbers themselves took it for a word
     * past the head, so the receiver skipped from the head toward that number, one sequence at a time, and its poll
     * never returned. Sequences are compared by difference: a word more than a ring's depth ahead is taken for the
     * garbage it is, nothing is skipped or counted, and the next message is delivered.
     */
    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWritingWordAcrossTheSignFromTheHeadIsGarbageNotAFarSequence()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final FastBoxTable boxes = b.queueBlock().boxes;
            overwriteHeads(boxes);
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            sendShorts(ab, b, 1, 3);
            pollUntil(b, counts, () -> 4 == counts.delivered);
            final long head = boxes.getAcquire(boxes.headOffset(0, FastBoxDescriptor.REQUESTS));
            final long forged = head + Long.MAX_VALUE - 7;
            assertTrue(head < 0 && forged > 0 && forged - head > 8, "across the sign, far ahead by difference");
            boxes.putRelease(boxes.writingOffset(0, FastBoxDescriptor.REQUESTS), forged);
            final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            pollUntil(b, counts, () -> System.nanoTime() - until > 0);
            assertEquals(0, b.host.drops(), "nothing skipped for a garbage writing word");
            assertEquals(Route.SENT, sendShort(ab, b, 4));
            pollUntil(b, counts, () -> 5 == counts.delivered);
            assertEquals(1, counts.seen[4]);
            assertEquals(0, ab.boxIndex(), "the box goes on");
        }
    }

    /**
     * The whole box table zeroed under a live pair (owner words, writing words, heads, stamps): the sender finds the
     * box not its own at its next send and uses the shared queue; the receiver writes the owner word back and skips
     * and counts the messages the zeroing destroyed (the sender's writing word, written again when it gave the box
     * up, says how many); the sender, finding its word back, goes on in the box.
     */
    @Test
    void aZeroedBoxIsLetGoAndWhatItHeldIsCounted()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            sendShorts(ab, b, 1, 3);
            final QueueBlock view = b.queueBlock();
            final int table = view.boxes.ringOffset(0, 0) - FastBoxDescriptor.RINGS_OFFSET -
                FastBoxDescriptor.BOXES_OFFSET;
            view.buffer.setMemory(table, view.buffer.capacity() - table, (byte)0);
            assertEquals(Route.SENT, sendShort(ab, b, 4));
            assertEquals(-1, ab.boxIndex(), "the sender found the box gone");
            pollUntil(b, counts, () -> 3 == b.host.drops() && 2 == counts.delivered);
            assertEquals(1, counts.seen[4]);
            assertEquals(-1, counts.twice);
        }
    }

    /**
     * A message of a pair with a box that went through the shared queue (the box was full), destroyed there (the
     * queue zeroed): the receiver's count of the pair's shared messages stays behind the sender's while its shared
     * queue is empty; after the liveness timeout the difference is counted as a drop, and the pair, whose overflow
     * rule waited for it, uses its box again.
     */
    @Test
    void aSharedMessageOfABoxedPairDestroyedInTheQueueIsCountedAndThePairGoesBackToItsBox()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            sendShorts(ab, b, 1, 9);
            assertEquals(8, ab.boxedSends(), "the box holds 8");
            assertEquals(2, ab.sharedSends(), "the first contact and the ninth, which overflowed");
            final PacketQueue queue = b.queueBlock().requests;
            final int structure = queue.tailOffset;
            queue.buffer.setMemory(structure, queue.bulkFlagOffset(0) - structure, (byte)0);
            pollUntil(b, counts, () -> 1 == b.host.drops());
            assertEquals(9, counts.delivered, "the first contact and the 8 in the box");
            assertEquals(0, counts.seen[9]);
            for (int i = 10; i < 20; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, b, i));
                b.shm.poll(counts, 32, false);
            }
            pollUntil(b, counts, () -> 19 == counts.delivered);
            assertTrue(ab.boxedSends() > 8, "the pair uses its box again");
            assertEquals(-1, counts.twice);
            assertEquals(1, b.host.drops());
        }
    }

    /**
     * The drain at close publishes each ring's head past what it handed back: a sender that later finds the owner's
     * process gone settles from the published head on, and must find nothing there that the close already returned
     * (it would come back twice, the second time as outcome-unknown).
     */
    @Test
    void theDrainPublishesTheHeadPastWhatItReturned()
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final int box = ab.boxIndex();
            sendShorts(ab, b, 1, 5);
            final FastBoxTable boxes = b.queueBlock().boxes;
            final int head = boxes.headOffset(box, FastBoxDescriptor.REQUESTS);
            final long before = boxes.getAcquire(head);
            final Counts returned = new Counts();
            assertEquals(5, b.shm.returnQueued(returned));
            assertEquals(5, returned.delivered);
            assertEquals(before + 5, boxes.getAcquire(head), "the published head is past the 5 returned");
        }
    }

    /**
     * A sender that reserved a box packet before the close read the block open after its reservation: the drain
     * waits for it and returns the message once it is stamped. A reservation never finished (its sender stalled
     * inside it) holds the close up to its bound, and is counted as unsettled.
     */
    @Test
    void theDrainWaitsForAReservationAndCountsOneNeverFinished() throws Exception
    {
        try (Fixture f = new Fixture("boxes", "1", "boxDepth", "8", "livenessMs", "50"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Counts counts = new Counts();
            final ShmRoute ab = boundRoute(a, b, counts);
            final QueueBlock view = b.queueBlock();
            final int box = ab.boxIndex();
            // The sender's side, as its next send would write it: a second sender over the same ring.
            final FastBoxSender sender = new FastBoxSender(view.boxes, box, FastBoxDescriptor.REQUESTS,
                view.boxes.owner(box));
            final int packet = sender.next(1);
            assertTrue(packet >= 0);
            sender.reserve();

            final Counts returned = new Counts();
            final Fixture.Closing closing = new Fixture.Closing(b, returned);
            assertFalse(closing.returnsWithin(200), "a reservation is waited for");
            assertEquals(ReturnStatus.EBADENDPOINT.code(), sendShort(ab, b, 9), "new sends are refused meanwhile");
            view.requests.putHeader(packet, Opcode.REQUEST_SHORT.code(), 5, 1, 0, 0, 0, PacketDescriptor.NO_BULK, -1,
                b.host.tag);
            view.requests.putArgs(packet, 7, 0, 0, 0, 0, 0, 0, 0);
            sender.publish(packet);
            assertTrue(closing.returnsWithin(10_000), "the drain ends once the reservation is stamped");
            closing.join();
            assertEquals(1, returned.delivered);
            assertEquals(1, returned.seen[7]);
            assertEquals(0, b.host.unsettled());

            // A second endpoint whose box holds a reservation that is never stamped: the close returns, and counts it.
            final Fixture.Ep d = f.endpoint();
            final ShmRoute ad = boundRoute(a, d, new Counts());
            final QueueBlock dView = d.queueBlock();
            final FastBoxSender stalled = new FastBoxSender(dView.boxes, ad.boxIndex(), FastBoxDescriptor.REQUESTS,
                dView.boxes.owner(ad.boxIndex()));
            assertTrue(stalled.next(1) >= 0);
            stalled.reserve();
            assertEquals(0, d.shm.returnQueued(new Counts()));
            assertEquals(1, d.host.unsettled(), "a reservation never finished is counted");
        }
    }
}
