package org.am2j.spmd;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Settings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RendezvousTest
{
    private static final String JOB = "test-job";
    private static final long WAIT_S = 20;

    private final Queue<String> log = new ConcurrentLinkedQueue<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<RendezvousClient> clients = new ArrayList<>();
    private RendezvousServer server;

    @AfterEach
    void tearDown()
    {
        clients.forEach(RendezvousClient::close);
        executor.shutdownNow();
        if (null != server)
        {
            server.close();
        }
    }

    private RendezvousConfig config()
    {
        return new RendezvousConfig().connectTimeoutMs(10_000).collectiveTimeoutMs(20_000).log(log::add);
    }

    private void startServer(final int size, final RendezvousConfig config)
    {
        server = RendezvousServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), size, JOB, config);
    }

    private Future<RendezvousClient> connectAsync(final int rank, final int size, final String job)
    {
        return executor.submit(() -> RendezvousClient.connect(server.address(), rank, size, job, config()));
    }

    private Future<RendezvousClient> connectAsync(final int rank, final int size, final BlockingQueue<long[]> heard)
    {
        return executor.submit(() -> RendezvousClient.connect(server.address(), rank, size, JOB, config(), -1,
            (lost, processId) -> heard.add(new long[]{ lost, processId })));
    }

    /**
     * Rank 1 of a job of 2 joins beside a raw rank 0 that stands for the rank hosting the rendezvous.
     */
    private RendezvousClient joinBesideHost(final RawRank host, final BlockingQueue<long[]> heard) throws Exception
    {
        host.hello(0, 2, JOB);
        final Future<RendezvousClient> rank1 = executor.submit(() -> RendezvousClient.connect(
            server.address(), 1, 2, JOB, config(), 0, (rank, processId) -> heard.add(new long[]{ rank, processId })));
        assertEquals(RendezvousDescriptor.WELCOME, host.readFrame());
        return rank1.get(WAIT_S, TimeUnit.SECONDS);
    }

    private List<RendezvousClient> connectAll(final int size) throws Exception
    {
        final List<Future<RendezvousClient>> futures = new ArrayList<>();
        for (int r = 0; r < size; r++)
        {
            futures.add(connectAsync(r, size, JOB));
        }
        final List<RendezvousClient> joined = new ArrayList<>();
        for (final Future<RendezvousClient> f : futures)
        {
            joined.add(f.get(WAIT_S, TimeUnit.SECONDS));
        }
        clients.addAll(joined);
        return joined;
    }

    private <T> List<Future<T>> onEach(final List<RendezvousClient> ranks, final Collective<T> collective)
    {
        final List<Future<T>> futures = new ArrayList<>();
        for (final RendezvousClient c : ranks)
        {
            futures.add(executor.submit((Callable<T>)() -> collective.run(c)));
        }
        return futures;
    }

    private static AmException failure(final Future<?> future) throws Exception
    {
        try
        {
            future.get(WAIT_S, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            return assertInstanceOf(AmException.class, ex.getCause());
        }
        return fail("the collective succeeded");
    }

    private static void assertNames(final AmException ex, final String... parts)
    {
        assertEquals(AmError.RESOURCE, ex.error(), ex.getMessage());
        for (final String part : parts)
        {
            assertTrue(ex.getMessage().contains(part), "'" + part + "' not in: " + ex.getMessage());
        }
    }

    @FunctionalInterface
    interface Collective<T>
    {
        T run(RendezvousClient client) throws Exception;
    }

    @Test
    void ranksRunBarriersAndAllGathersInLockStep() throws Exception
    {
        startServer(4, config());
        final List<RendezvousClient> ranks = connectAll(4);

        final List<Future<byte[][][]>> results = onEach(ranks, c ->
        {
            c.barrier();
            final byte[][] names = c.allGather(("rank" + c.rank()).getBytes(StandardCharsets.UTF_8));
            final int length = c.rank() == 0 ? RendezvousDescriptor.MAX_CONTRIBUTION : c.rank();
            final byte[][] sizes = c.allGather(new byte[length]);
            c.barrier();
            return new byte[][][]{ names, sizes };
        });

        for (final Future<byte[][][]> f : results)
        {
            final byte[][][] result = f.get(WAIT_S, TimeUnit.SECONDS);
            for (int r = 0; r < 4; r++)
            {
                assertArrayEquals(("rank" + r).getBytes(StandardCharsets.UTF_8), result[0][r]);
                assertEquals(r == 0 ? RendezvousDescriptor.MAX_CONTRIBUTION : r, result[1][r].length);
            }
        }
        for (final RendezvousClient c : ranks)
        {
            c.close();
        }
        assertTrue(server.awaitDeparture(WAIT_S, TimeUnit.SECONDS));
        assertTrue(log.isEmpty(), log.toString());
    }

    @Test
    void contributionsAreBoundedAndABadOneLeavesTheClientUsable() throws Exception
    {
        startServer(1, config());
        final RendezvousClient client = connectAll(1).get(0);

        final AmException tooLong = assertThrows(
            AmException.class, () -> client.allGather(new byte[RendezvousDescriptor.MAX_CONTRIBUTION + 1]));
        assertEquals(AmError.BAD_ARG, tooLong.error());
        assertTrue(tooLong.getMessage().contains("mine has 65537 bytes, allowed [0, 65536]"), tooLong.getMessage());
        assertEquals(AmError.BAD_ARG, assertThrows(AmException.class, () -> client.allGather(null)).error());

        assertArrayEquals(new byte[]{ 7 }, client.allGather(new byte[]{ 7 })[0]);
    }

    @Test
    void rankThatLeavesEarlyFailsTheCollectivesOfTheOthers() throws Exception
    {
        startServer(3, config());
        final List<RendezvousClient> ranks = connectAll(3);

        ranks.get(2).close();
        final List<Future<Object>> barriers = onEach(ranks.subList(0, 2), c ->
        {
            c.barrier();
            return null;
        });

        for (final Future<Object> f : barriers)
        {
            assertNames(failure(f), "rank 2 left job");
        }
        assertNames(assertThrows(AmException.class, () -> ranks.get(0).allGather(new byte[1])), "rank 2 left job");
    }

    @Test
    void rankThatDisconnectsWithoutGoodbyeFailsPendingAndLaterCollectivesNamingIt() throws Exception
    {
        startServer(3, config());
        final RawRank dead = new RawRank(server.address());
        try
        {
            dead.hello(2, 3, JOB);
            final Future<RendezvousClient> rank0 = connectAsync(0, 3, JOB);
            final Future<RendezvousClient> rank1 = connectAsync(1, 3, JOB);
            assertEquals(RendezvousDescriptor.WELCOME, dead.readFrame());
            final List<RendezvousClient> live = List.of(
                rank0.get(WAIT_S, TimeUnit.SECONDS), rank1.get(WAIT_S, TimeUnit.SECONDS));
            clients.addAll(live);
            final List<Future<Object>> barriers = onEach(live, c ->
            {
                c.barrier();
                return null;
            });

            dead.close();

            for (final Future<Object> f : barriers)
            {
                assertNames(failure(f), "rank 2 disconnected");
            }
            assertNames(assertThrows(AmException.class, () -> live.get(1).barrier()), "rank 2 disconnected");
        }
        finally
        {
            dead.close();
        }
    }

    @Test
    void lostRankIsAnnouncedAtOnceWithItsProcessIdAndACleanLeaverIsNot() throws Exception
    {
        startServer(4, config());
        final BlockingQueue<long[]> heard0 = new LinkedBlockingQueue<>();
        final BlockingQueue<long[]> heard1 = new LinkedBlockingQueue<>();
        final RawRank dead = new RawRank(server.address());
        try
        {
            dead.hello(3, 4, JOB);
            final Future<RendezvousClient> rank0 = connectAsync(0, 4, heard0);
            final Future<RendezvousClient> rank1 = connectAsync(1, 4, heard1);
            final Future<RendezvousClient> rank2 = connectAsync(2, 4, new LinkedBlockingQueue<>());
            assertEquals(RendezvousDescriptor.WELCOME, dead.readFrame());
            final ByteBuffer welcome = ByteBuffer.wrap(dead.lastPayload());
            assertEquals(4, welcome.getInt());
            for (int r = 0; r < 3; r++)
            {
                assertEquals(ProcessIdentity.currentProcessId(), welcome.getLong(), "process id of rank " + r);
            }
            assertEquals(RawRank.PROCESS_ID_BASE + 3, welcome.getLong());
            clients.add(rank0.get(WAIT_S, TimeUnit.SECONDS));
            clients.add(rank1.get(WAIT_S, TimeUnit.SECONDS));
            final RendezvousClient leaver = rank2.get(WAIT_S, TimeUnit.SECONDS);

            leaver.close();
            dead.close();

            // no collective runs: the reader hears it on its own; the server handles the clean leave first
            for (final BlockingQueue<long[]> heard : List.of(heard0, heard1))
            {
                final long[] lost = heard.poll(WAIT_S, TimeUnit.SECONDS);
                assertTrue(null != lost, "no RANK_LOST heard");
                assertArrayEquals(new long[]{ 3, RawRank.PROCESS_ID_BASE + 3 }, lost);
                assertTrue(heard.isEmpty(), "also announced: " + Arrays.toString(heard.peek()));
            }
        }
        finally
        {
            dead.close();
        }
    }

    @Test
    void losingTheServerThatARankHostsIsThatRanksLoss() throws Exception
    {
        startServer(2, config());
        final BlockingQueue<long[]> heard = new LinkedBlockingQueue<>();
        try (RawRank host = new RawRank(server.address()))
        {
            clients.add(joinBesideHost(host, heard));

            server.close();

            final long[] lost = heard.poll(WAIT_S, TimeUnit.SECONDS);
            assertTrue(null != lost, "the loss of the hosting rank was not heard");
            assertArrayEquals(new long[]{ 0, RawRank.PROCESS_ID_BASE }, lost);
        }
    }

    @Test
    void closingTheClientIsNoNewsOfTheHost() throws Exception
    {
        startServer(2, config());
        final BlockingQueue<long[]> heard = new LinkedBlockingQueue<>();
        try (RawRank host = new RawRank(server.address()))
        {
            final RendezvousClient client = joinBesideHost(host, heard);

            client.close();
            server.close();
            // the reader ends on the closed socket without news; the host's own later loss is not announced either
            assertEquals(null, heard.poll(500, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void malformedFramesCloseTheirConnectionAndTheServerKeepsServing() throws Exception
    {
        startServer(2, config());
        final ByteBuffer badMagic = ByteBuffer.allocate(RendezvousDescriptor.HEADER_LENGTH);
        RendezvousDescriptor.writeHeader(badMagic, RendezvousDescriptor.HELLO, 0, 0, 0);
        badMagic.putInt(RendezvousDescriptor.MAGIC_OFFSET, 0x47455420);
        final ByteBuffer badVersion = ByteBuffer.allocate(RendezvousDescriptor.HEADER_LENGTH);
        RendezvousDescriptor.writeHeader(badVersion, RendezvousDescriptor.HELLO, 0, 0, 0);
        badVersion.put(RendezvousDescriptor.VERSION_OFFSET, (byte)9);

        expectClosed(raw -> raw.sendBytes(badMagic.array()), "wrong magic 0x47455420");
        expectClosed(raw -> raw.sendBytes(badVersion.array()), "unsupported version 9");
        expectClosed(raw -> raw.send(RendezvousDescriptor.HELLO, 0, Integer.MAX_VALUE, 0, null),
            "payload length 2147483647 of HELLO is outside [0, 270]");
        expectClosed(raw -> raw.send(RendezvousDescriptor.HELLO, 0, -1, 0, null), "payload length -1");
        expectClosed(raw -> raw.send(99, 0, 0, 0, null), "unknown frame type 99");
        expectClosed(raw -> raw.send(RendezvousDescriptor.WELCOME, 0, 0, 0, null), "unknown frame type 65");
        expectClosed(raw -> raw.send(RendezvousDescriptor.BARRIER, 0, 0, 1, null),
            "first frame is BARRIER, expected HELLO");
        expectClosed(raw -> raw.send(RendezvousDescriptor.HELLO, 0, 6, 0, new byte[]{ 0, 0, 0, 2, 0, 9 }),
            "HELLO payload of 6 bytes, expected at least 14");
        expectClosed(raw -> raw.send(RendezvousDescriptor.HELLO, 0, 14, 0,
            new byte[]{ 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 9 }),
            "HELLO job id length 9 does not match the 0 bytes that follow");

        final List<RendezvousClient> ranks = connectAll(2);
        for (final Future<Object> f : onEach(ranks, c ->
        {
            c.barrier();
            return null;
        }))
        {
            f.get(WAIT_S, TimeUnit.SECONDS);
        }
    }

    @FunctionalInterface
    interface RawAction
    {
        void run(RawRank raw) throws IOException;
    }

    private void expectClosed(final RawAction action, final String reason) throws IOException
    {
        try (RawRank raw = new RawRank(server.address()))
        {
            action.run(raw);
            assertTrue(raw.closedByServer(), "connection left open after: " + reason);
        }
        assertTrue(log.stream().anyMatch(m -> m.contains(reason)), "'" + reason + "' not logged: " + log);
    }

    @Test
    void frameWithTheWrongRankClosesThatRankAndFailsTheJobNamingIt() throws Exception
    {
        startServer(2, config());
        try (RawRank liar = new RawRank(server.address()))
        {
            liar.hello(1, 2, JOB);
            final RendezvousClient rank0 = connectAsync(0, 2, JOB).get(WAIT_S, TimeUnit.SECONDS);
            clients.add(rank0);
            assertEquals(RendezvousDescriptor.WELCOME, liar.readFrame());

            liar.send(RendezvousDescriptor.BARRIER, 0, 0, 1, null);

            assertTrue(liar.closedByServer());
            assertNames(assertThrows(AmException.class, rank0::barrier), "rank 1 sent a bad rendezvous frame",
                "wrong rank 0");
        }
    }

    @Test
    void frameForTheWrongCollectiveClosesThatRank() throws Exception
    {
        startServer(2, config());
        try (RawRank confused = new RawRank(server.address()))
        {
            confused.hello(1, 2, JOB);
            final RendezvousClient rank0 = connectAsync(0, 2, JOB).get(WAIT_S, TimeUnit.SECONDS);
            clients.add(rank0);
            assertEquals(RendezvousDescriptor.WELCOME, confused.readFrame());

            confused.send(RendezvousDescriptor.BARRIER, 1, 0, 5, null);

            assertTrue(confused.closedByServer());
            assertNames(assertThrows(AmException.class, rank0::barrier), "rank 1", "collective #5, expected #1");
        }
    }

    @Test
    void helloForAnotherJobSizeOrRankIsRefusedWithTheReason() throws Exception
    {
        startServer(2, config());

        assertNames(assertThrows(AmException.class,
            () -> RendezvousClient.connect(server.address(), 0, 2, "other", config())),
            "rank 0 belongs to job 'other', this rendezvous serves job 'test-job'");
        assertNames(assertThrows(AmException.class,
            () -> RendezvousClient.connect(server.address(), 0, 3, JOB, config())),
            "rank 0 expects a job of 3 ranks, job 'test-job' has 2");
        try (RawRank raw = new RawRank(server.address()))
        {
            raw.hello(5, 2, JOB);
            assertEquals(RendezvousDescriptor.FAILED, raw.readFrame());
            assertTrue(raw.lastFailure().contains("rank 5 is outside [0, 2)"), raw.lastFailure());
            assertTrue(raw.closedByServer());
        }

        final List<RendezvousClient> ranks = connectAll(2);
        ranks.get(0).close();
        ranks.get(1).close();
        assertTrue(server.awaitDeparture(WAIT_S, TimeUnit.SECONDS));
    }

    @Test
    void secondConnectionClaimingARankIsRefused() throws Exception
    {
        startServer(2, config());
        final Future<RendezvousClient> first = connectAsync(0, 2, JOB);
        final Future<RendezvousClient> second = connectAsync(0, 2, JOB);
        final Future<RendezvousClient> rank1 = connectAsync(1, 2, JOB);

        int joined = 0;
        final List<String> refusals = new ArrayList<>();
        for (final Future<RendezvousClient> f : List.of(first, second))
        {
            try
            {
                clients.add(f.get(WAIT_S, TimeUnit.SECONDS));
                joined++;
            }
            catch (final ExecutionException ex)
            {
                refusals.add(ex.getCause().getMessage());
            }
        }
        clients.add(rank1.get(WAIT_S, TimeUnit.SECONDS));

        assertEquals(1, joined);
        assertEquals(1, refusals.size());
        assertTrue(refusals.get(0).contains("rank 0 has already joined job 'test-job'"), refusals.toString());
    }

    @Test
    void mismatchedCollectivesFailEveryRank() throws Exception
    {
        startServer(2, config());
        final List<RendezvousClient> ranks = connectAll(2);

        final Future<Object> barrier = executor.submit(() ->
        {
            ranks.get(0).barrier();
            return null;
        });
        final Future<Object> allGather = executor.submit(() -> ranks.get(1).allGather(new byte[3]));

        assertNames(failure(barrier), "collective #1 mismatch");
        assertNames(failure(allGather), "collective #1 mismatch");
    }

    @Test
    void collectiveTimesOutNamingTheRanksThatNeverEnteredIt() throws Exception
    {
        startServer(3, config().collectiveTimeoutMs(300));
        final List<RendezvousClient> ranks = connectAll(3);

        final List<Future<Object>> barriers = onEach(ranks.subList(0, 2), c ->
        {
            c.barrier();
            return null;
        });

        for (final Future<Object> f : barriers)
        {
            assertNames(failure(f), "collective #1 (barrier)", "timed out after 300 ms: ranks [2] never entered it");
        }
    }

    @Test
    void joinTimesOutNamingTheRanksThatNeverCame()
    {
        startServer(3, config().joinTimeoutMs(600));

        final AmException ex = assertThrows(
            AmException.class, () -> RendezvousClient.connect(server.address(), 1, 3, JOB, config()));

        assertNames(ex, "ranks [0, 2] of job 'test-job' did not join within 600 ms (1 of 3 joined",
            RendezvousConfig.JOIN_TIMEOUT_VARIABLE);
        // before failing, the server said whom it was waiting for (every 300 ms: half the join timeout)
        assertTrue(log.stream().anyMatch(m -> m.startsWith(
            "waiting for ranks [0, 2] of job 'test-job' to join: ") && m.contains("of 3 joined after")), log.toString());
    }

    @Test
    void timeoutsComeFromThePropertyElseTheVariableAndABadOneIsNamed()
    {
        final String property = RendezvousConfig.JOIN_TIMEOUT_PROP;
        final String variable = RendezvousConfig.JOIN_TIMEOUT_VARIABLE;
        assertEquals(5, new RendezvousConfig(Settings.of(Map.of(property, "5"), Map.of(variable, "7"))).joinTimeoutMs());
        assertEquals(7, new RendezvousConfig(Settings.of(Map.of(), Map.of(variable, "7"))).joinTimeoutMs());
        assertEquals(RendezvousConfig.DEFAULT_JOIN_TIMEOUT_MS,
            new RendezvousConfig(Settings.of(Map.of(), Map.of(variable, " "))).joinTimeoutMs());
        final AmException ex = assertThrows(AmException.class,
            () -> new RendezvousConfig(Settings.of(Map.of(), Map.of(variable, "soon"))));
        assertEquals(AmError.BAD_ARG, ex.error());
        assertEquals("AM2J_JOIN_TIMEOUT_MS = 'soon' must be a whole number in [1, 86400000] (system property " +
            "am2j.spmd.join.timeout.ms or environment variable AM2J_JOIN_TIMEOUT_MS; the property wins)", ex.detail());
    }

    @Test
    void connectGivesUpAfterTheConnectTimeout() throws Exception
    {
        final int port = freePort();

        final AmException ex = assertThrows(AmException.class, () -> RendezvousClient.connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0, 2, JOB, config().connectTimeoutMs(300)));

        assertNames(ex, "rank 0 could not connect to the rendezvous", "within 300 ms");
    }

    @Test
    void aRankThatCannotReachRankZerosRendezvousSaysSoBeforeItGivesUp() throws Exception
    {
        final int port = freePort();
        final Queue<String> log = new ConcurrentLinkedQueue<>();

        final AmException ex = assertThrows(AmException.class, () -> RendezvousClient.connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1, 2, JOB,
            config().connectTimeoutMs(600).log(log::add), 0, (rank, processId) -> { }));

        assertNames(ex, "rank 1 could not connect to the rendezvous", "within 600 ms (AM2J_CONNECT_TIMEOUT_MS)",
            "rank 0 serves it: is rank 0 running, and does AM2J_BOOTSTRAP name an address of its machine?");
        assertTrue(log.stream().anyMatch(m -> m.startsWith("rank 1 cannot reach the rendezvous at ") &&
            m.contains(":" + port + " yet after ") && m.contains("it keeps trying until 0.6 s (AM2J_CONNECT_TIMEOUT_MS)" +
            "; rank 0 serves it")), log.toString());
    }

    @Test
    void ranksMayStartBeforeTheServer() throws Exception
    {
        final int port = freePort();
        final Future<RendezvousClient> early = executor.submit(() -> RendezvousClient.connect(
            InetSocketAddress.createUnresolved("localhost", port), 0, 1, JOB, config()));

        server = RendezvousServer.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1, JOB, config());

        final RendezvousClient client = early.get(WAIT_S, TimeUnit.SECONDS);
        clients.add(client);
        client.barrier();
    }

    @Test
    void connectionThatNeverSaysHelloIsClosed() throws Exception
    {
        startServer(2, config().connectTimeoutMs(300));

        try (RawRank silent = new RawRank(server.address()))
        {
            assertTrue(silent.closedByServer());
        }
        assertTrue(log.stream().anyMatch(m -> m.contains("no HELLO within 300 ms")), log.toString());
    }

    @Test
    void closedClientRefusesCollectives() throws Exception
    {
        startServer(1, config());
        final RendezvousClient client = connectAll(1).get(0);
        client.close();
        client.close();

        assertEquals(AmError.NOT_INIT, assertThrows(AmException.class, client::barrier).error());
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }
}
