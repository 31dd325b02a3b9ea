package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a faulty writer does to packets, in one JVM: every message it spoils is counted as a drop, none is handed to
 * the core with another sender's inverse mapping, and the queue goes on.
 */
@Timeout(60)
class ScribbledPacketTest
{
    private static final long BOUND_NANOS = 5_000_000_000L;

    private static OutboundMessage frame(final Opcode opcode, final int handler, final long tag, final int... args)
    {
        final int[] a = java.util.Arrays.copyOf(args, 8);
        return new OutboundMessage().header(opcode.code(), 0, handler, tag)
            .args(args.length, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]).source(0);
    }

    /**
     * @return a short request to {@code to}'s handler 5 with one argument.
     */
    private static OutboundMessage request(final Fixture.Ep to, final int arg)
    {
        return frame(Opcode.REQUEST_SHORT, 5, to.host.tag, arg);
    }

    /**
     * Poll {@code b} into the recorder until {@code done} holds or {@link #BOUND_NANOS} from {@code start} have passed
     * (the test's assertions then say what is missing).
     */
    private static void pollWithinBound(
        final Fixture.Ep b, final Fixture.Recorder recorder, final long start, final BooleanSupplier done)
    {
        while (!done.getAsBoolean() && System.nanoTime() - start < BOUND_NANOS)
        {
            b.shm.poll(recorder, 32, false);
        }
    }

    /**
     * Send requests {@code first} to {@code end - 1} through {@code ab}, each until it is SENT, polling {@code b}
     * between tries, within {@link #BOUND_NANOS} from {@code start}.
     */
    private static void sendWithinBound(
        final ShmRoute ab, final Fixture.Ep b, final Fixture.Recorder recorder, final long start, final int first,
        final int end)
    {
        int sent = first;
        while (sent < end && System.nanoTime() - start < BOUND_NANOS)
        {
            if (Route.SENT == ab.send(request(b, sent)))
            {
                sent++;
            }
            b.shm.poll(recorder, 32, false);
        }
    }

    /**
     * Send requests 0 to 4 through {@code ab}, each SENT.
     */
    private static void sendFive(final ShmRoute ab, final Fixture.Ep b)
    {
        for (int i = 0; i < 5; i++)
        {
            assertEquals(Route.SENT, ab.send(request(b, i)));
        }
    }

    /**
     * A faulty writer zeroes a queue's structure: its tail, packets and claim words.
     */
    private static void zero(final PacketQueue queue)
    {
        final int structure = queue.tailOffset;
        queue.buffer.setMemory(structure, queue.bulkFlagOffset(0) - structure, (byte)0);
    }

    @Test
    void garbageOverTheStateOfAReadyPacketOfALiveSenderIsSkippedAndCounted()
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            assertEquals(Route.SENT, ab.send(request(b, 1)));
            assertEquals(Route.SENT, ab.send(request(b, 2)));
            // the packet of message 1 was made READY by this (live) process; a faulty writer overwrites its state
            queue.buffer.putLong(queue.packetOffset(0), 0x1234_5678_9ABC_DEF0L);
            final Fixture.Recorder recorder = new Fixture.Recorder();
            pollWithinBound(b, recorder, System.nanoTime(), () -> !recorder.headers.isEmpty());
            assertEquals(1, recorder.headers.size(), "the message after the spoiled one arrives");
            assertEquals(2, recorder.headers.get(0)[5]);
            assertEquals(1, b.host.drops(), "the spoiled message is counted");
        }
    }

    @Test
    void aPacketWhoseInverseMappingNamesAnotherSenderIsDroppedNotHandedOver()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Fixture.Ep c = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final ShmRoute cb = c.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final Fixture.Recorder recorder = new Fixture.Recorder();
            // c's first message resolves c's inverse mapping at b
            assertEquals(Route.SENT, cb.send(request(b, 7)));
            assertEquals(1, b.shm.poll(recorder, 32, false));
            final int cInverse = queue.buffer.getInt(queue.packetOffset(0) + PacketDescriptor.SLOT_OFFSET);
            assertEquals(Route.SENT, ab.send(request(b, 8)));
            assertEquals(1, b.shm.poll(recorder, 32, false));
            final int aInverse = queue.buffer.getInt(queue.packetOffset(1) + PacketDescriptor.SLOT_OFFSET);
            assertTrue(aInverse != cInverse);

            // Another process's message whose inverse mapping a faulty writer turned into c's: READY with a pid that
            // is not c's (c lives in this process).
            final long otherPid = ProcessIdentity.currentPid() + 1;
            final int packet = queue.packetOffset(2);
            queue.buffer.putByte(packet + PacketDescriptor.OPCODE_OFFSET, (byte)Opcode.REQUEST_SHORT.code());
            queue.buffer.putByte(packet + PacketDescriptor.HANDLER_OFFSET, (byte)99);
            queue.buffer.putInt(packet + PacketDescriptor.SLOT_OFFSET, cInverse);
            queue.buffer.putLong(queue.tailOffset, 3);
            queue.buffer.putLong(queue.claimOffset(2), QueueBlockDescriptor.claim(0, otherPid));
            queue.buffer.putLongRelease(packet, QueueBlockDescriptor.state(PacketDescriptor.READY, otherPid));

            assertEquals(0, b.shm.poll(recorder, 32, false), "not handed over: its reply or return would reach c");
            assertEquals(2, recorder.headers.size());
            assertEquals(1, b.host.drops(), "the spoiled message is counted");
            assertEquals(Route.SENT, ab.send(request(b, 9)));
            assertEquals(1, b.shm.poll(recorder, 32, false), "the queue goes on");
            assertEquals(9, recorder.headers.get(2)[5]);
        }
    }

    /**
     * A faulty writer flipped the claim word of the next assignment so that it claims that assignment's lap for a live
     * process (a lap bit over a live sender's stamp of the previous lap gives that sender's own pid; a pid bit, any
     * other live process's). The holder of the assignment finds its claim taken and sends again; the packet stays
     * FREE under a claim no one will fill, at the head, with the tail past it. Waiting on a live claimer for good
     * wedged the queue; it is skipped once held for the bound and counted, and the next message arrives.
     */
    @Test
    void aClaimWordForgedForALiveProcessIsSkippedAndTheQueueGoesOn()
    {
        for (final long livePid : new long[] { ProcessIdentity.currentPid(), 1 })
        {
            try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
            {
                final Fixture.Ep a = f.endpoint();
                final Fixture.Ep b = f.endpoint();
                final ShmRoute ab = a.routeTo(b);
                final PacketQueue queue = b.queueBlock().requests;
                assertTrue(ProcessIdentity.isAlive(livePid, ProcessIdentity.UNKNOWN_START_TIME));
                queue.buffer.putLongVolatile(queue.claimOffset(0), QueueBlockDescriptor.claim(0, livePid));
                assertEquals(Route.FULL, ab.send(request(b, 1)), "the holder of assignment 0 loses its claim");
                assertEquals(1, queue.buffer.getLongVolatile(queue.tailOffset));
                assertEquals(Route.SENT, ab.send(request(b, 2)), "and takes assignment 1");
                final Fixture.Recorder recorder = new Fixture.Recorder();
                pollWithinBound(b, recorder, System.nanoTime(), () -> !recorder.headers.isEmpty());
                assertEquals(1, recorder.headers.size(), "the message behind the forged claim arrives (pid " +
                    livePid + ")");
                assertEquals(2, recorder.headers.get(0)[5]);
                assertEquals(1, b.host.drops(), "the skipped packet is counted");
                assertEquals(QueueBlockDescriptor.claim(0, 0), queue.buffer.getLongVolatile(queue.claimOffset(0)),
                    "the forged claim became this lap's skip, which the next lap's sender expects");
                assertEquals(Route.SENT, ab.send(request(b, 3)));
                assertEquals(1, b.shm.poll(recorder, 32, false), "the queue goes on");
                assertEquals(3, recorder.headers.get(1)[5]);
            }
        }
    }

    /**
     * A claimer that is stopped (SIGSTOP, Ctrl-Z) between its claim and its READY store resumes there: it is waited
     * for however long it stays stopped, never skipped; once it runs again and still does not fill the packet (here
     * the claim is forged for a stopped {@code sleep}), the bound applies.
     */
    @Test
    @Timeout(30)
    void aStoppedClaimerIsWaitedForWhileItIsStopped() throws Exception
    {
        final Process sleeper = new ProcessBuilder("sleep", "60").start();
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            signal(sleeper, "-STOP");
            while (!ProcessIdentity.isStopped(sleeper.pid()))
            {
                Thread.sleep(1);
            }
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            queue.buffer.putLongVolatile(queue.claimOffset(0), QueueBlockDescriptor.claim(0, sleeper.pid()));
            assertEquals(Route.FULL, ab.send(request(b, 1)));
            assertEquals(Route.SENT, ab.send(request(b, 2)));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            // Three times the bound (10 liveness timeouts of 20 ms) while the claimer is stopped: nothing skipped.
            final long stoppedUntil = System.nanoTime() + 3 * PacketReceiver.LIVE_CLAIM_TIMEOUTS * 20_000_000L;
            while (System.nanoTime() - stoppedUntil < 0)
            {
                b.shm.poll(recorder, 32, false);
            }
            assertEquals(0, recorder.headers.size(), "the queue waits at the stopped claimer's packet");
            assertEquals(0, b.host.drops());
            signal(sleeper, "-CONT");
            pollWithinBound(b, recorder, System.nanoTime(), () -> !recorder.headers.isEmpty());
            assertEquals(1, recorder.headers.size(), "once it runs and does not fill the packet, it is skipped");
            assertEquals(2, recorder.headers.get(0)[5]);
            assertEquals(1, b.host.drops());
        }
        finally
        {
            sleeper.destroyForcibly().waitFor();
        }
    }

    private static void signal(final Process process, final String signal) throws Exception
    {
        assertEquals(0, new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor());
    }

    /**
     * No sender withdraws a packet from an open block (it believes a state that is not OPEN only once the owner's file
     * is gone), so a WITHDRAWN there is a faulty writer's, over a packet someone claimed: a READY with a flipped bit
     * looks just so. Skipped after the liveness timeout and counted, never freed without a word.
     */
    @Test
    void aWithdrawnStateInAnOpenBlockIsGarbageSkippedAndCounted()
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final long pid = ProcessIdentity.currentPid();
            assertEquals(Route.SENT, ab.send(request(b, 2)));
            assertEquals(Route.SENT, ab.send(request(b, 3)));
            // message 2's READY(pid), one bit flipped: WITHDRAWN(pid)
            queue.buffer.putLongVolatile(queue.packetOffset(0),
                QueueBlockDescriptor.state(PacketDescriptor.WITHDRAWN, pid));
            final Fixture.Recorder recorder = new Fixture.Recorder();
            pollWithinBound(b, recorder, System.nanoTime(), () -> !recorder.headers.isEmpty());
            assertEquals(1, recorder.headers.size());
            assertEquals(3, recorder.headers.get(0)[5]);
            assertEquals(1, b.host.drops(), "the message it spoiled is counted");
        }
    }

    /**
     * A request queue zeroed with messages ready in it, of a pair without a fast box (boxes off): the tail, the only
     * record of those messages in the queue, goes with them. The sender's count in its connection slot does not: the
     * receiver's count of what it consumed stays behind it while the queue is empty, and after the liveness timeout
     * the difference is counted as drops. The queue goes on, and nothing more is counted.
     */
    @Test
    void messagesReadyInAZeroedQueueOfAPairWithoutABoxAreCounted()
    {
        try (Fixture f = new Fixture("boxes", "0", "requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final Fixture.Recorder recorder = new Fixture.Recorder();
            sendFive(ab, b);
            assertEquals(2, b.shm.poll(recorder, 2, false));
            zero(queue);
            final long start = System.nanoTime();
            pollWithinBound(b, recorder, start, () -> b.host.drops() >= 3);
            assertEquals(3, b.host.drops(), "the three messages ready in the zeroed queue are counted");
            assertEquals(2, recorder.headers.size());
            sendWithinBound(ab, b, recorder, start, 5, 9);
            pollWithinBound(b, recorder, start, () -> recorder.headers.size() >= 6);
            assertEquals(6, recorder.headers.size(), "the queue delivers again");
            final long until = System.nanoTime() + 200_000_000L;
            pollWithinBound(b, recorder, start, () -> System.nanoTime() - until > 0);
            assertEquals(3, b.host.drops(), "nothing more is counted");
        }
    }

    /**
     * A request queue zeroed under a live pair (tail, packets, claim words): the sender takes sequences from 0 again,
     * below the receiver's head, where the receiver would not look before the queue came round. The receiver finds
     * the tail behind its head, counts those messages as drops and frees their packets, moves the tail up, and the
     * queue goes on.
     */
    @Test
    void messagesPutBelowTheHeadOfAZeroedQueueAreCountedAndTheQueueGoesOn()
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            final Fixture.Recorder recorder = new Fixture.Recorder();
            sendFive(ab, b);
            assertEquals(5, b.shm.poll(recorder, 32, false));
            zero(queue);
            assertEquals(Route.SENT, ab.send(request(b, 5)), "sequence 0 again: below the head");
            assertEquals(Route.SENT, ab.send(request(b, 6)), "sequence 1");
            final long start = System.nanoTime();
            pollWithinBound(b, recorder, start, () -> 2 == b.host.drops());
            assertEquals(2, b.host.drops(), "the two messages put below the head are counted");
            sendWithinBound(ab, b, recorder, start, 7, 10);
            pollWithinBound(b, recorder, start, () -> recorder.headers.size() >= 8);
            assertEquals(8, recorder.headers.size(), "the queue delivers again");
            assertEquals(9, recorder.headers.get(7)[5]);
            assertEquals(2, b.host.drops());
        }
    }

    @Test
    void aTailMovedFarAheadIsPulledBackAndTheQueueGoesOn()
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            queue.buffer.putLongVolatile(queue.tailOffset, 1003);
            final Fixture.Recorder recorder = new Fixture.Recorder();
            final long start = System.nanoTime();
            sendWithinBound(ab, b, recorder, start, 0, 3);
            pollWithinBound(b, recorder, start, () -> recorder.headers.size() >= 3);
            assertEquals(3, recorder.headers.size(), "the queue takes and delivers messages again");
            assertTrue(queue.buffer.getLongVolatile(queue.tailOffset) < 100, "the tail was pulled back");
        }
    }

    @Test
    void aTailMovedAheadWithinALapIsSkippedInOneTimeout()
    {
        try (Fixture f = new Fixture("requestDepth", "64", "bulkDepth", "2", "livenessMs", "200"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            queue.buffer.putLongVolatile(queue.tailOffset, 40);
            final Fixture.Recorder recorder = new Fixture.Recorder();
            pollWithinBound(b, recorder, System.nanoTime(), () -> b.host.drops() >= 40);
            // One timeout for all 40 unclaimed assignments (40 timeouts would be 8 s, past the bound).
            assertEquals(40, b.host.drops(), "every skipped assignment is counted");
            assertEquals(40, queue.buffer.getLongVolatile(queue.headOffset));
            assertEquals(Route.SENT, ab.send(request(b, 4)));
            assertEquals(1, b.shm.poll(recorder, 32, false));
        }
    }

    @Test
    void bulkBlocksWhoseFlagsHoldGarbageAreFreedForSenders()
    {
        try (Fixture f = new Fixture("requestDepth", "8", "bulkDepth", "2", "livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final PacketQueue queue = b.queueBlock().requests;
            for (int i = 0; i < queue.bulkDepth; i++)
            {
                queue.buffer.putLongVolatile(queue.bulkFlagOffset(i), QueueBlockDescriptor.state(99, 12345));
            }
            final OutboundMessage medium = frame(Opcode.REQUEST_MEDIUM, 5, b.host.tag, 1)
                .data(new UnsafeBuffer(new byte[100]), 0, 100, -1);
            final long start = System.nanoTime();
            int result = Route.FULL;
            while (Route.FULL == result && System.nanoTime() - start < BOUND_NANOS)
            {
                result = ab.send(medium);
            }
            assertEquals(Route.SENT, result, "a medium message finds a bulk block again");
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(1, b.shm.poll(recorder, 32, false));
        }
    }
}
