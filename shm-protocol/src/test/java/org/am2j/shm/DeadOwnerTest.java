package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A destination whose owner process is dead, in one JVM: the dead owner is simulated as pid reuse would leave it, a
 * queue block header naming a live pid (this process's) with another process's start time. The sender's endpoint
 * finds the death when the destination's queues stall or a loss notice names the process, and hands back what it
 * sent there: EOUTCOMEUNKNOWN for the packet at a queue's head and for box packets (the owner may have run them),
 * EUNREACHABLE for the packets past the head, with their data; later sends are refused at once. A stall or a notice
 * about a process that is alive hands back nothing.
 */
@Timeout(60)
class DeadOwnerTest
{
    private static final long HOUR_MS = 3_600_000L;

    private static OutboundMessage frame(final Opcode opcode, final int handler, final long tag, final int arg)
    {
        return new OutboundMessage().header(opcode.code(), 0, handler, tag).args(1, arg, 0, 0, 0, 0, 0, 0, 0)
            .source(0);
    }

    private static int sendShort(final ShmRoute route, final Opcode opcode, final long tag, final int arg)
    {
        return route.sendShort(new OutboundMessage(), opcode.code(), 9, tag, 0, 1, arg, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Make {@code b}'s queue block say what a block of a dead process whose pid was given to a live one says: the pid
     * is a live process's (this JVM's), the start time is not that process's. A sender reads it when it connects, and
     * believes it only for an unsealed block (a file in a job directory, opened by a path that names no process): the
     * tests that use this run with {@code sealed=false}.
     */
    private static void recordAnotherStartTime(final Fixture.Ep b)
    {
        b.queueBlock().buffer.putLong(QueueBlockDescriptor.OWNER_START_OFFSET,
            ProcessIdentity.currentStartTimeMs() - HOUR_MS);
    }

    /**
     * Poll {@code a} as a waiting endpoint does (the watch before each sleep slice, then polls) until {@code count}
     * messages were handed over or {@code millis} passed.
     */
    private static Fixture.Recorder pollWhileWaiting(final Fixture.Ep a, final int count, final long millis)
        throws InterruptedException
    {
        final Fixture.Recorder recorder = new Fixture.Recorder();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (recorder.headers.size() < count && System.nanoTime() - deadline < 0)
        {
            a.shm.sleeping(true);
            a.shm.sleeping(false);
            for (int i = 0; i < 2048; i++)
            {
                a.shm.poll(recorder, 32, false);
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
        return recorder;
    }

    private static void assertReturned(
        final Fixture.Recorder recorder, final int index, final Opcode opcode, final ReturnStatus status,
        final int arg)
    {
        final int[] header = recorder.headers.get(index);
        assertEquals(opcode.code(), header[0], "opcode of " + index);
        assertEquals(status.code(), header[2], "status of " + index);
        assertEquals(arg, header[5], "argument of " + index);
    }

    @Test
    void aLivePidWithAnotherStartTimeIsADeadOwnerAndWhatWasSentComesBackOnce() throws Exception
    {
        try (Fixture f = new Fixture("livenessMs", "20", "sealed", "false"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            recordAnotherStartTime(b);
            final ShmRoute ab = a.routeTo(b);
            final byte[] bytes = new byte[1000];
            Arrays.fill(bytes, (byte)7);

            // Requests 0 to 3 (3 a medium one), a reply, and a returned message, none of which the owner takes.
            for (int i = 0; i < 3; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, i));
            }
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_MEDIUM, 9, b.host.tag, 3)
                .data(new UnsafeBuffer(bytes), 0, bytes.length, -1)));
            assertEquals(Route.SENT, sendShort(ab, Opcode.REPLY_SHORT, 0, 4));
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 9, 0, 5)
                .returnStatus(ReturnStatus.EBADTAG.code())));
            assertFalse(a.shm.hasPending());

            // The stalled queue makes the endpoint look at the owner: dead. Each message comes back once.
            final Fixture.Recorder returned = pollWhileWaiting(a, 5, 10_000);
            assertEquals(5, returned.headers.size(), "handed back");
            // The request queue's head: the owner may have been running it.
            assertReturned(returned, 0, Opcode.REQUEST_SHORT, ReturnStatus.EOUTCOMEUNKNOWN, 0);
            assertReturned(returned, 1, Opcode.REQUEST_SHORT, ReturnStatus.EUNREACHABLE, 1);
            assertReturned(returned, 2, Opcode.REQUEST_SHORT, ReturnStatus.EUNREACHABLE, 2);
            assertReturned(returned, 3, Opcode.REQUEST_MEDIUM, ReturnStatus.EUNREACHABLE, 3);
            assertArrayEquals(bytes, returned.data.get(3), "a request that never ran comes back with its data");
            assertReturned(returned, 4, Opcode.REPLY_SHORT, ReturnStatus.EOUTCOMEUNKNOWN, 4);
            assertEquals(b.host.name, returned.sources.get(0));
            assertTrue(pollWhileWaiting(a, 1, 100).headers.isEmpty(), "nothing more comes back");

            // Later sends come back at once, short ones through the frame path as the core sends them next.
            assertEquals(ReturnStatus.EUNREACHABLE.code(), sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 6));
            assertEquals(ReturnStatus.EUNREACHABLE.code(), ab.send(frame(Opcode.REQUEST_SHORT, 9, b.host.tag, 6)));
            assertEquals(ReturnStatus.EUNREACHABLE.code(), ab.send(frame(Opcode.REPLY_SHORT, 9, 0, 7)));

            assertEquals(1, f.count("peers_died"));
            assertEquals(3, f.count("dead_peer_unreachable"));
            assertEquals(2, f.count("dead_peer_outcome_unknown"));
            assertEquals(1, f.count("dead_peer_dropped"), "the returned message, which nobody can take back");
            assertEquals(1, a.host.drops());
            assertEquals(2, f.count("dead_peer_refused"));
        }
    }

    /**
     * A freed endpoint whose state word a faulty writer set back to OPEN: senders believe it (the kernel is asked only
     * about a state that is not OPEN) and write into a block no one reads. The sender's watch finds the destination
     * stalled, its owner alive and its file gone under the OPEN: once the owner's close is certainly over, what was
     * sent there comes back once, each message with a status that says it did not run or may have (box packets,
     * whose head the owner publishes lazily), and later sends are refused at once.
     */
    @Test
    void aFreedEndpointWithAForgedOpenStateHasWhatWasSentThereReturned() throws Exception
    {
        try (Fixture f = new Fixture("livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final QueueBlock view = b.queueBlock();
            final ShmRoute ab = a.routeTo(b);
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 0));
            assertEquals(1, b.shm.poll(new Fixture.Recorder(), 32, false), "the first contact binds a box");
            assertEquals(0, b.shm.returnQueued(new Fixture.Recorder()), "freed with nothing queued");
            view.buffer.putIntVolatile(QueueBlockDescriptor.STATE_OFFSET, QueueBlockDescriptor.STATE_OPEN);
            for (int i = 1; i <= 3; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, i), "the OPEN is believed");
            }

            final Fixture.Recorder returned = pollWhileWaiting(a, 3, 10_000);
            assertEquals(3, returned.headers.size(), "handed back");
            final int[] seen = new int[4];
            for (final int[] header : returned.headers)
            {
                assertTrue(ReturnStatus.EUNREACHABLE.code() == header[2] ||
                    ReturnStatus.EOUTCOMEUNKNOWN.code() == header[2], "status " + header[2]);
                seen[header[5]]++;
            }
            assertArrayEquals(new int[] {0, 1, 1, 1}, seen, "each once");
            assertEquals(ReturnStatus.EBADENDPOINT.code(), sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 4),
                "refused at once");
            assertEquals(0, pollWhileWaiting(a, 1, 100).headers.size(), "nothing more comes back");
        }
    }

    @Test
    void aLossNoticeMakesTheEndpointLookAtOnce() throws Exception
    {
        try (Fixture f = new Fixture("livenessMs", "60000", "sealed", "false"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            recordAnotherStartTime(b);
            final ShmRoute ab = a.routeTo(b);
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 0));
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 1));

            // A liveness timeout of a minute: only the notice can make this quick.
            f.transport.processGone(b.host.name.processId());
            assertTrue(a.shm.hasPending(), "the endpoint has messages to hand back");
            assertEquals(ReturnStatus.EUNREACHABLE.code(), sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 2));
            final Fixture.Recorder returned = pollWhileWaiting(a, 2, 10_000);
            assertEquals(2, returned.headers.size());
            assertReturned(returned, 0, Opcode.REQUEST_SHORT, ReturnStatus.EOUTCOMEUNKNOWN, 0);
            assertReturned(returned, 1, Opcode.REQUEST_SHORT, ReturnStatus.EUNREACHABLE, 1);
            assertFalse(a.shm.hasPending());
        }
    }

    @Test
    void neitherANoticeNorAStallMakesALiveOwnerDead() throws Exception
    {
        try (Fixture f = new Fixture("livenessMs", "20"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 0));
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 1));

            f.transport.processGone(b.host.name.processId());
            // Stalled for ten liveness timeouts: the owner (this process) is looked at, and is alive.
            assertTrue(pollWhileWaiting(a, 1, 200).headers.isEmpty(), "nothing handed back");
            assertFalse(a.shm.hasPending());
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 2));
            assertEquals(0, f.count("peers_died"));

            final Fixture.Recorder delivered = new Fixture.Recorder();
            assertEquals(3, b.shm.poll(delivered, 32, false));
            for (int i = 0; i < 3; i++)
            {
                assertEquals(0, delivered.headers.get(i)[2], "delivered, not returned");
                assertEquals(i, delivered.headers.get(i)[5]);
            }
        }
    }

    @Test
    void boxMessagesOfADeadOwnerComeBackOutcomeUnknownWithoutTheirData() throws Exception
    {
        try (Fixture f = new Fixture("livenessMs", "20", "boxes", "2", "sealed", "false"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            recordAnotherStartTime(b);
            final ShmRoute ab = a.routeTo(b);
            // The first message claims a box and goes through the shared queue; the owner's poll takes it and binds
            // the box (and repairs its header, which the route read before).
            assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, 0));
            final Fixture.Recorder delivered = new Fixture.Recorder();
            assertEquals(1, b.shm.poll(delivered, 32, false));
            final byte[] bytes = new byte[100];
            for (int i = 1; i <= 3; i++)
            {
                assertEquals(Route.SENT, sendShort(ab, Opcode.REQUEST_SHORT, b.host.tag, i));
            }
            assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_MEDIUM, 9, b.host.tag, 4)
                .data(new UnsafeBuffer(bytes), 0, bytes.length, -1)));
            assertEquals(4, ab.boxedSends(), "sent through the box");

            final Fixture.Recorder returned = pollWhileWaiting(a, 4, 10_000);
            assertEquals(4, returned.headers.size());
            for (int i = 0; i < 4; i++)
            {
                assertReturned(returned, i, i < 3 ? Opcode.REQUEST_SHORT : Opcode.REQUEST_MEDIUM,
                    ReturnStatus.EOUTCOMEUNKNOWN, i + 1);
            }
            assertEquals(0, returned.headers.get(3)[3], "a message that may have run comes back without its data");
            assertEquals(4, f.count("dead_peer_outcome_unknown"));
        }
    }
}
