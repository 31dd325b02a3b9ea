package org.am2j.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Aeron peer in one JVM, its two ranks on two threads: it connects over IPC (one driver) and over UDP (one driver
 * each), answers every ping, and starts no thread of its own (invoker mode).
 */
@Timeout(120)
class AeronPingPongTest
{
    @Test
    void ipcPingPongWithOneDriverAndNoThreadOfItsOwn() throws Exception
    {
        pingPong(AeronPingPong.Kind.IPC);
    }

    @Test
    void udpPingPongWithADriverEachAndNoThreadOfItsOwn() throws Exception
    {
        pingPong(AeronPingPong.Kind.UDP);
    }

    @Test
    void theDirectoriesOfKilledDriversAreRemovedAndLiveOnesKept(@TempDir final Path base) throws Exception
    {
        final Path dead = Files.createDirectory(base.resolve("am2j-aeron-udp-0-999999999-123"));
        Files.writeString(dead.resolve("cnc.dat"), "not a driver");
        final Path mine = Files.createDirectory(
            base.resolve("am2j-aeron-ipc-0-" + ProcessHandle.current().pid() + "-456"));
        final Path other = Files.createDirectory(base.resolve("someone-else-999999999"));
        assertEquals(List.of(dead), AeronPingPong.removeStale(base));
        assertFalse(Files.exists(dead));
        assertTrue(Files.exists(mine));
        assertTrue(Files.exists(other));
        assertEquals(999_999_999L, AeronPingPong.ownerPid("am2j-aeron-udp-0-999999999-123"));
        assertEquals(-1L, AeronPingPong.ownerPid("am2j-aeron-udp-0"));
        assertEquals(-1L, AeronPingPong.ownerPid("am2j-pingpong-12-1.line"));
    }

    @Test
    void kindsByName()
    {
        assertEquals(AeronPingPong.Kind.IPC, AeronPingPong.Kind.of("ipc"));
        assertEquals(AeronPingPong.Kind.UDP, AeronPingPong.Kind.of("udp"));
        assertThrows(IllegalArgumentException.class, () -> AeronPingPong.Kind.of("tcp"));
        assertEquals("aeron_udp_rtt", AeronRank.measurement(AeronPingPong.Kind.UDP));
    }

    private static void pingPong(final AeronPingPong.Kind kind) throws Exception
    {
        final Set<Thread> before = Thread.getAllStackTraces().keySet();
        final Gather gather = new Gather();
        final ExecutorService executor = Executors.newFixedThreadPool(2);
        try
        {
            final Future<Set<String>> responder = executor.submit(() ->
            {
                final AeronPingPong side = AeronPingPong.open(kind, 1, gather.rank(1));
                gather.rank(1).apply(new byte[0]);
                final Set<String> extra = newThreads(before);
                side.respond(300);
                side.respond(200);
                side.close();
                gather.rank(1).apply(new byte[0]);
                return extra;
            });
            final AeronPingPong initiator = AeronPingPong.open(kind, 0, gather.rank(0));
            gather.rank(0).apply(new byte[0]);
            final Histogram histogram = LatencySummary.newHistogram();
            initiator.roundTrips(300, histogram);
            initiator.roundTrips(200, histogram);
            gather.rank(0).apply(new byte[0]);
            initiator.close();
            assertEquals(500, histogram.getTotalCount());
            assertTrue(histogram.getValueAtPercentile(50) > 0);
            final Set<String> extra = responder.get(60, TimeUnit.SECONDS);
            assertTrue(extra.isEmpty(), "Aeron started threads: " + extra);
        }
        finally
        {
            executor.shutdownNow();
        }
    }

    private static Set<String> newThreads(final Set<Thread> before)
    {
        final Set<String> names = new HashSet<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (!before.contains(thread) && !thread.getName().startsWith("pool-") && thread.isAlive())
            {
                names.add(thread.getName());
            }
        }
        return names;
    }

    /** The all-gather of two ranks on two threads. */
    private static final class Gather
    {
        private final CyclicBarrier barrier = new CyclicBarrier(2);
        private final AtomicReferenceArray<byte[]> slots = new AtomicReferenceArray<>(2);

        Function<byte[], byte[][]> rank(final int rank)
        {
            return bytes ->
            {
                try
                {
                    slots.set(rank, bytes);
                    barrier.await(30, TimeUnit.SECONDS);
                    final byte[][] all = { slots.get(0), slots.get(1) };
                    barrier.await(30, TimeUnit.SECONDS);
                    return all;
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            };
        }
    }
}
