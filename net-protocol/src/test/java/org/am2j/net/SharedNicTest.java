package org.am2j.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.Route;
import org.am2j.spi.ShmDirectories;
import org.am2j.spi.TransportQueues;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared NICs in one JVM: two NIC agents ({@link SharedNicProcess}, each on a thread here) and hosts that reach them
 * only through mapped files, as host processes of a node would; every message kind between endpoints of different
 * NICs and of one NIC, replies by the inverse mapping, refusals, close, and what a host does when its NIC is gone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedNicTest
{
    private Path directory;
    private final List<SharedNicProcess> nics = new ArrayList<>();
    private final List<Thread> nicThreads = new ArrayList<>();
    private final List<SharedNicTransport> transports = new ArrayList<>();

    @BeforeEach
    void start() throws Exception
    {
        directory = ShmDirectories.userRoot().resolve("nic-test-" + ProcessHandle.current().pid() + "-" +
            System.nanoTime());
        for (int index = 0; index < 2; index++)
        {
            startNic(index);
        }
    }

    private void startNic(final int index) throws Exception
    {
        final SharedNicProcess nic = new SharedNicProcess(directory, index, new TestContext(100 + index));
        final Thread thread = new Thread(nic::run, "nic-" + index);
        thread.setDaemon(true);
        thread.start();
        nics.add(nic);
        nicThreads.add(thread);
    }

    @AfterEach
    void stop()
    {
        for (final SharedNicTransport transport : transports)
        {
            transport.close();
        }
        for (final SharedNicProcess nic : nics)
        {
            nic.close();
        }
        ShmDirectories.deleteTree(directory);
    }

    private Host host(final int nicIndex, final int id, final long tag)
    {
        return host(directory, nicIndex, id, tag, "false");
    }

    private Host host(final Path directory, final int nicIndex, final int id, final long tag, final String autostart)
    {
        final TestContext context = new TestContext(id, "nicsPerNode", "2", "nicIndex", Integer.toString(nicIndex),
            "nicDir", directory.toString(), "nicWaitMs", "60000", "nicAutostart", autostart);
        final SharedNicTransport transport = new SharedNicTransport(context, SharedNicConfig.of(context));
        transports.add(transport);
        return new Host(transport, id, tag);
    }

    /** A host process's endpoint, driven as the core would drive it. */
    static final class Host
    {
        final TestHost host;
        final TransportQueues endpoint;
        final EndpointName name;
        final Received.Sink sink = new Received.Sink();

        Host(final SharedNicTransport transport, final int id, final long tag)
        {
            host = new TestHost(id, tag);
            endpoint = transport.attach(host);
            name = new EndpointName("node", 1000 + id, 1, id, Map.of(NetTransport.NAME, endpoint.address()));
            endpoint.named(name);
            host.name = name;
        }

        void segment(final int bytes)
        {
            host.segment = new UnsafeBuffer(new byte[bytes]);
            endpoint.segmentChanged(host.segment);
        }

        void poll()
        {
            endpoint.poll(sink, 32, false);
        }
    }

    private static boolean pumpUntil(final BooleanSupplier condition, final Host... hosts)
    {
        return pumpUntil(condition, TimeUnit.SECONDS.toMillis(20), hosts);
    }

    private static boolean pumpUntil(final BooleanSupplier condition, final long millis, final Host... hosts)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            for (final Host host : hosts)
            {
                host.poll();
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private static int send(final Route route, final org.am2j.spi.OutboundMessage message, final Host... hosts)
    {
        int result;
        while (Route.FULL == (result = route.send(message)))
        {
            for (final Host host : hosts)
            {
                host.poll();
            }
        }
        return result;
    }

    @Test
    void everyMessageKindCrossesBetweenNicsAndRepliesComeBack()
    {
        final Host a = host(0, 7, 0x1111);
        final Host b = host(1, 9, 0x2222);
        b.segment(1 << 16);
        final Route aToB = a.endpoint.connect(b.name, 0x2222);
        assertNotNull(aToB);
        assertTrue(a.endpoint.address().contains("!"), a.endpoint.address());

        final byte[] medium = new byte[3000];
        final byte[] bulk = new byte[org.am2j.api.Am.MAX_LONG];
        for (int i = 0; i < bulk.length; i++)
        {
            bulk[i] = (byte)(i * 7);
            medium[i % medium.length] = (byte)(i * 3);
        }
        assertEquals(Route.SENT, send(aToB, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, 1, 2, 3), a, b));
        assertEquals(Route.SENT, send(aToB, NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 6, 0x2222, medium, -1, 4),
            a, b));
        assertEquals(Route.SENT, send(aToB, NicPair.dataMessage(Opcode.REQUEST_LONG, 7, 0x2222, bulk, 1000, 5),
            a, b));
        assertTrue(pumpUntil(() -> b.sink.messages.size() == 3, a, b), "received " + b.sink.messages.size());

        final Received shortOne = b.sink.messages.get(0);
        assertEquals(Opcode.REQUEST_SHORT.code(), shortOne.opcode);
        assertArrayEquals(new int[] {1, 2, 3}, shortOne.args);
        assertEquals(a.name, shortOne.replyRoute.peer());
        assertArrayEquals(medium, b.sink.messages.get(1).data);
        final Received longOne = b.sink.messages.get(2);
        assertEquals(1000, longOne.segmentOffset);
        assertArrayEquals(bulk, longOne.data);
        final byte[] deposited = new byte[bulk.length];
        b.host.segment.getBytes(1000, deposited);
        assertArrayEquals(bulk, deposited, "a long message's data lies in the segment");

        // Replies by the inverse mapping, every kind.
        a.segment(1 << 16);
        final Route back = shortOne.replyRoute;
        assertEquals(Route.SENT, send(back, NicPair.shortMessage(Opcode.REPLY_SHORT, 8, 0, 42), a, b));
        assertEquals(Route.SENT, send(back, NicPair.dataMessage(Opcode.REPLY_MEDIUM, 9, 0, medium, -1), a, b));
        assertEquals(Route.SENT, send(back, NicPair.dataMessage(Opcode.REPLY_LONG, 10, 0, bulk, 64), a, b));
        assertTrue(pumpUntil(() -> a.sink.messages.size() == 3, a, b), "replies " + a.sink.messages.size());
        assertArrayEquals(new int[] {42}, a.sink.messages.get(0).args);
        assertArrayEquals(medium, a.sink.messages.get(1).data);
        assertArrayEquals(bulk, a.sink.messages.get(2).data);
        assertEquals(b.name, a.sink.messages.get(0).replyRoute.peer());
    }

    @Test
    void endpointsOfOneNicReachEachOtherInsideIt()
    {
        // Two endpoints one NIC serves: every message goes from one's send queue into the other's receive queue,
        // checked as from the wire, with no datagram; replies by the inverse mapping, refusals back to the sender.
        final Host a = host(0, 7, 0x1111);
        final Host c = host(0, 11, 0x3333);
        a.segment(1 << 16);
        c.segment(1 << 16);
        final Route aToC = a.endpoint.connect(c.name, 0x3333);
        assertNotNull(aToC, "an endpoint reaches another of its own NIC");
        final Host b = host(1, 9, 0x2222);
        assertNotNull(a.endpoint.connect(b.name, 0x2222), "and the same endpoint reaches the other NIC");

        final byte[] medium = new byte[3000];
        final byte[] bulk = new byte[org.am2j.api.Am.MAX_LONG];
        for (int i = 0; i < bulk.length; i++)
        {
            bulk[i] = (byte)(i * 5);
            medium[i % medium.length] = (byte)(i * 11);
        }
        assertEquals(Route.SENT, send(aToC, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x3333, 1, 2, 3), a, c));
        assertEquals(Route.SENT, send(aToC, NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 6, 0x3333, medium, -1, 4),
            a, c));
        assertEquals(Route.SENT, send(aToC, NicPair.dataMessage(Opcode.REQUEST_LONG, 7, 0x3333, bulk, 2000, 5),
            a, c));
        assertTrue(pumpUntil(() -> c.sink.messages.size() == 3, a, c), "received " + c.sink.messages.size());
        final Received shortOne = c.sink.messages.get(0);
        assertEquals(Opcode.REQUEST_SHORT.code(), shortOne.opcode);
        assertEquals(0, shortOne.returnStatus);
        assertArrayEquals(new int[] {1, 2, 3}, shortOne.args);
        assertEquals(a.name, shortOne.replyRoute.peer(), "the inverse route names the sender");
        assertArrayEquals(medium, c.sink.messages.get(1).data);
        assertArrayEquals(new int[] {4}, c.sink.messages.get(1).args);
        final Received longOne = c.sink.messages.get(2);
        assertEquals(2000, longOne.segmentOffset);
        assertArrayEquals(bulk, longOne.data);
        final byte[] deposited = new byte[bulk.length];
        c.host.segment.getBytes(2000, deposited);
        assertArrayEquals(bulk, deposited, "a long message's data lies in the destination's segment");

        final Route back = shortOne.replyRoute;
        assertEquals(Route.SENT, send(back, NicPair.shortMessage(Opcode.REPLY_SHORT, 8, 0, 42), a, c));
        assertEquals(Route.SENT, send(back, NicPair.dataMessage(Opcode.REPLY_MEDIUM, 9, 0, medium, -1), a, c));
        assertEquals(Route.SENT, send(back, NicPair.dataMessage(Opcode.REPLY_LONG, 10, 0, bulk, 64), a, c));
        assertTrue(pumpUntil(() -> a.sink.messages.size() == 3, a, c), "replies " + a.sink.messages.size());
        assertEquals(Opcode.REPLY_SHORT.code(), a.sink.messages.get(0).opcode);
        assertArrayEquals(new int[] {42}, a.sink.messages.get(0).args);
        assertArrayEquals(medium, a.sink.messages.get(1).data);
        assertArrayEquals(bulk, a.sink.messages.get(2).data);
        final byte[] replied = new byte[bulk.length];
        a.host.segment.getBytes(64, replied);
        assertArrayEquals(bulk, replied, "a long reply's data lies in the requester's segment");
        assertEquals(c.name, a.sink.messages.get(0).replyRoute.peer());

        // A wrong tag comes back to the sender, as from another NIC; the destination sees nothing.
        assertEquals(Route.SENT, send(aToC, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x9999, 6), a, c));
        assertTrue(pumpUntil(() -> a.sink.messages.size() == 4, a, c));
        final Received refused = a.sink.messages.get(3);
        assertEquals(ReturnStatus.EBADTAG.code(), refused.returnStatus);
        assertArrayEquals(new int[] {6}, refused.args);
        assertEquals(3, c.sink.messages.size());
    }

    @Test
    void aFullReceiveQueueOfAnEndpointOfTheSameNicHoldsMessagesBackInOrder()
    {
        final Host a = host(0, 7, 0x1111);
        final Host c = host(0, 11, 0x3333);
        final Route aToC = a.endpoint.connect(c.name, 0x3333);
        assertNotNull(aToC);
        // More than c's receive queue holds (256 KiB): c does not poll, so the NIC holds the rest in a's send queue.
        final int count = 120;
        final byte[] medium = new byte[3000];
        for (int i = 0; i < count; i++)
        {
            assertEquals(Route.SENT, send(aToC, NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 6, 0x3333, medium, -1, i),
                a));
        }
        // Nothing is returned or dropped while c's queue is full, however long it stays so.
        assertFalse(pumpUntil(() -> !a.sink.messages.isEmpty(), 200, a), "returned " + a.sink.messages.size());
        assertTrue(c.endpoint.hasPending());
        assertTrue(pumpUntil(() -> c.sink.messages.size() == count, a, c), "received " + c.sink.messages.size());
        for (int i = 0; i < count; i++)
        {
            assertEquals(0, c.sink.messages.get(i).returnStatus);
            assertArrayEquals(new int[] {i}, c.sink.messages.get(i).args, "in order");
        }
        assertTrue(a.sink.messages.isEmpty());

        // A closed destination: what is sent to it comes back EBADENDPOINT.
        c.endpoint.close();
        assertEquals(Route.SENT, send(aToC, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x3333, 7), a));
        assertTrue(pumpUntil(() -> a.sink.messages.size() == 1, a));
        assertEquals(ReturnStatus.EBADENDPOINT.code(), a.sink.messages.get(0).returnStatus);
    }

    @Test
    void refusalsComeBackToTheSender()
    {
        final Host a = host(0, 7, 0x1111);
        final Host b = host(1, 9, 0x2222);
        final Route aToB = a.endpoint.connect(b.name, 0x2222);
        assertEquals(Route.SENT, send(aToB, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x9999, 1), a, b));
        assertTrue(pumpUntil(() -> a.sink.messages.size() == 1, a, b));
        assertEquals(ReturnStatus.EBADTAG.code(), a.sink.messages.get(0).returnStatus);
        assertTrue(b.sink.messages.isEmpty());

        // Long message beyond the segment the host published (none): refused at the NIC.
        assertEquals(Route.SENT, send(aToB, NicPair.dataMessage(Opcode.REQUEST_LONG, 5, 0x2222, new byte[16], 0),
            a, b));
        assertTrue(pumpUntil(() -> a.sink.messages.size() == 2, a, b));
        assertEquals(ReturnStatus.EBADSEGOFF.code(), a.sink.messages.get(1).returnStatus);

        b.endpoint.close();
        assertEquals(Route.SENT, send(aToB, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, 2), a));
        assertTrue(pumpUntil(() -> a.sink.messages.size() == 3, a));
        assertEquals(ReturnStatus.EBADENDPOINT.code(), a.sink.messages.get(2).returnStatus);
        assertTrue(b.sink.messages.isEmpty());
    }

    @Test
    void aTagChangeReachesTheNic()
    {
        final Host a = host(0, 7, 0x1111);
        final Host b = host(1, 9, 0x2222);
        final Route aToB = a.endpoint.connect(b.name, 0x2222);
        b.endpoint.tagChanged(0x4444);
        assertEquals(Route.SENT, send(aToB, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x4444, 1), a, b));
        assertTrue(pumpUntil(() -> b.sink.messages.size() == 1, a, b));
        assertEquals(0, b.sink.messages.get(0).returnStatus);
    }

    @Test
    void aSleepingHostIsWokenByItsNic()
    {
        final Host a = host(0, 7, 0x1111);
        final Host b = host(1, 9, 0x2222);
        final SharedNicTransport bTransport = transports.get(1);
        final Route aToB = a.endpoint.connect(b.name, 0x2222);
        final long ticket = bTransport.prepareBlock();
        b.endpoint.sleeping(true);
        assertFalse(b.endpoint.hasPending());
        final Thread sender = new Thread(() ->
        {
            parkMillis(200);
            send(aToB, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, 1), a);
        });
        sender.start();
        final long start = System.nanoTime();
        bTransport.block(ticket, TimeUnit.SECONDS.toNanos(10));
        final long slept = System.nanoTime() - start;
        b.endpoint.sleeping(false);
        assertTrue(slept < TimeUnit.SECONDS.toNanos(9), "woken, not timed out: " + slept);
        assertTrue(pumpUntil(() -> b.sink.messages.size() == 1, b));
    }

    @Test
    void aDeadNicReturnsWhatItNeverTookAndFailsTheHost() throws Exception
    {
        final Host a = host(0, 7, 0x1111);
        final Host b = host(1, 9, 0x2222);
        final Route aToB = a.endpoint.connect(b.name, 0x2222);
        // A NIC that stopped serving and whose process is gone: a stopped agent leaves the send queues untaken; the
        // liveness watch is the link's, told here that the process is gone.
        nics.get(0).close();
        nics.remove(0);
        final SharedNicTransport aTransport = transports.get(0);
        assertEquals(Route.SENT, aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, 1)));
        assertEquals(Route.SENT, aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, 2)));
        aTransport.link().declareDead();
        assertTrue(a.endpoint.hasPending());
        a.poll();
        assertEquals(2, a.sink.messages.size());
        for (final Received returned : a.sink.messages)
        {
            assertEquals(ReturnStatus.EUNREACHABLE.code(), returned.returnStatus);
        }
        assertEquals(ReturnStatus.EUNREACHABLE.code(), aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 5,
            0x2222, 3)));
        final org.am2j.api.AmException failure =
            org.junit.jupiter.api.Assertions.assertThrows(org.am2j.api.AmException.class, a::poll);
        assertTrue(failure.getMessage().contains("shared NIC 0 (pid "), failure.getMessage());
        assertFalse(Files.exists(directory.resolve("nic-0")), "a stopped NIC removes its control file");
    }

    @Test
    void aNicThatDiesWithMessagesUnacknowledgedReturnsEachOnceWithATruthfulStatus()
    {
        final Host a = host(0, 7, 0x1111);
        final Host b = host(1, 9, 0x2222);
        final Route aToB = a.endpoint.connect(b.name, 0x2222);
        assertEquals(Route.SENT, send(aToB, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, 0), a, b));
        assertTrue(pumpUntil(() -> b.sink.messages.size() == 1, a, b));

        // B's NIC stops answering (it stops serving; its process, this JVM, lives on, so A's NIC takes it for a
        // silent peer): what A's NIC sends from now on is never acknowledged. It takes a window's worth from the send
        // queue; the rest stays there.
        nics.get(1).close();
        final int count = 80;
        for (int id = 1; id <= count; id++)
        {
            final byte[] data = new byte[100 + id];
            java.util.Arrays.fill(data, (byte)id);
            assertEquals(Route.SENT, aToB.send(0 == id % 2 ?
                NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, id) :
                NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 6, 0x2222, data, -1, id)));
        }
        final org.agrona.concurrent.ringbuffer.RingBuffer queue = ((SharedNicQueues)a.endpoint).sendQueue(false);
        final long[] seen = {-1};
        assertTrue(pumpUntil(() ->
        {
            // Taken as far as the window allows: the head has moved and stays where it is for a while.
            final long head = queue.consumerPosition();
            final boolean still = head > 0 && head == seen[0];
            seen[0] = head;
            parkMillis(50);
            return still;
        }));
        assertTrue(queue.size() > 0, "some messages were never taken");
        // Its window full, the NIC holds the rest back: no work to stay awake for (it sleeps in its selector until
        // an acknowledgement or a timer), rather than a reason to spin over the queue.
        final NicAgent aNic = nics.get(0).nic();
        assertTrue(pumpUntil(() -> queue.size() > 0 && !aNic.hasReadySends()),
            "records held back by a full window are no work");

        // A's NIC process dies.
        nics.get(0).close();
        final SharedNicTransport aTransport = transports.get(0);
        aTransport.link().declareDead();
        org.am2j.api.AmException failure = null;
        for (int polls = 0; polls < 1000 && null == failure; polls++)
        {
            try
            {
                a.poll();
            }
            catch (final org.am2j.api.AmException ex)
            {
                failure = ex;
            }
        }
        assertNotNull(failure, "the host fails once it has everything back");

        // Every message exactly once: what the NIC took comes back EOUTCOMEUNKNOWN (oldest first), what it never took
        // EUNREACHABLE, each with its handler, arguments and data; none ran at B (its NIC acknowledged none). The
        // first one ran at B; B's NIC may have stopped before its delayed acknowledgement left, and then it comes
        // back EOUTCOMEUNKNOWN too, which is true (it may have run), never with a not-delivered status.
        assertEquals(1, b.sink.messages.size());
        final List<Received> back = new ArrayList<>(a.sink.messages);
        if (!back.isEmpty() && 0 == back.get(0).args[0])
        {
            assertEquals(ReturnStatus.EOUTCOMEUNKNOWN.code(), back.remove(0).returnStatus, "the message that ran");
        }
        assertEquals(count, back.size(), "returned");
        int outcomeUnknown = 0;
        for (int i = 0; i < count; i++)
        {
            final Received returned = back.get(i);
            final int id = i + 1;
            assertEquals(id, returned.args[0], "in order, each once");
            assertEquals(0 == id % 2 ? 5 : 6, returned.handler);
            if (0 != id % 2)
            {
                assertEquals(100 + id, returned.data.length);
                assertEquals((byte)id, returned.data[returned.data.length - 1]);
            }
            if (ReturnStatus.EOUTCOMEUNKNOWN.code() == returned.returnStatus)
            {
                assertEquals(outcomeUnknown, i, "the taken ones are the oldest");
                outcomeUnknown++;
            }
            else
            {
                assertEquals(ReturnStatus.EUNREACHABLE.code(), returned.returnStatus, "message " + id);
            }
        }
        assertTrue(outcomeUnknown > 0 && outcomeUnknown < count, "taken and unacknowledged: " + outcomeUnknown);
        assertTrue(failure.getMessage().contains("EOUTCOMEUNKNOWN"), failure.getMessage());
        nics.remove(0);
        nics.remove(0);
        transports.get(1).link().declareDead();
    }

    @Test
    void theFirstHostOfANodeStartsItsNicProcessesAndTheyStopWhenIdle() throws Exception
    {
        final Path node = ShmDirectories.userRoot().resolve("nic-autostart-" + ProcessHandle.current().pid() + "-" +
            System.nanoTime());
        try
        {
            final Host a = host(node, 0, 7, 0x1111, "true");
            final Host b = host(node, 1, 9, 0x2222, "true");
            assertTrue(Files.exists(node.resolve("nic-0")) && Files.exists(node.resolve("nic-1")));
            final Route aToB = a.endpoint.connect(b.name, 0x2222);
            assertEquals(Route.SENT, send(aToB, NicPair.shortMessage(Opcode.REQUEST_SHORT, 5, 0x2222, 1), a, b));
            assertTrue(pumpUntil(() -> b.sink.messages.size() == 1, a, b));
            final long nicProcesses = ProcessHandle.current().descendants()
                .filter((p) -> p.info().commandLine().orElse("").contains(SharedNicProcess.class.getName())).count();
            assertEquals(2, nicProcesses, "one NIC process per NIC, started once");
            a.endpoint.close();
            b.endpoint.close();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Files.exists(node))
            {
                assertTrue(System.nanoTime() - deadline < 0, () -> "the NIC processes stop once their endpoints are " +
                    "gone and leave nothing behind: " + listing(node));
                parkMillis(50);
            }
        }
        finally
        {
            ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
            ShmDirectories.deleteTree(node);
        }
    }

    @Test
    void underMpirunOrSrunTheNodeLocalRankPicksTheNic()
    {
        final int[] paper = new int[8];
        for (int rank = 0; rank < 8; rank++)
        {
            paper[rank] = SharedNicConfig.fromLocalRank(Map.of("OMPI_COMM_WORLD_LOCAL_RANK", Integer.toString(rank),
                "OMPI_COMM_WORLD_LOCAL_SIZE", "8"), 3);
        }
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, 2, 2}, paper);
        assertEquals(1, SharedNicConfig.fromLocalRank(Map.of("SLURM_LOCALID", "2", "SLURM_TASKS_PER_NODE", "3(x4)"), 2));
        assertEquals(0, SharedNicConfig.fromLocalRank(Map.of("SLURM_LOCALID", "2", "SLURM_TASKS_PER_NODE", "3,2"), 2),
            "nodes of different sizes: not told, NIC 0");
        assertEquals(0, SharedNicConfig.fromLocalRank(Map.of(), 2));
    }

    private static void parkMillis(final long millis)
    {
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private static String listing(final Path directory)
    {
        try (java.util.stream.Stream<Path> entries = Files.list(directory))
        {
            return entries.map((p) -> p.getFileName().toString()).sorted().toList() + ", NIC processes alive: " +
                ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count();
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }
}
