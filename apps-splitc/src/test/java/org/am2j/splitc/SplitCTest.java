package org.am2j.splitc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every primitive of the Split-C layer with ranks as threads of one JVM (in-process transport): values, completion
 * semantics, chunking, collectives, returned messages, stalls, allocation. {@code SplitCPrimitivesTest} runs the same
 * kinds of checks with rank JVMs through the launcher.
 */
class SplitCTest
{
    static long pattern(final int rank, final int i)
    {
        long h = rank * 0x9E3779B97F4A7C15L + i * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 32);
    }

    static double doublePattern(final int rank, final int i)
    {
        return (pattern(rank, i) >>> 11) * 0x1.0p-53 - 0.5;
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 2, 4 })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void scalarGetsReadEveryRanksSegmentAndLandOnlyAtSync(final int ranks) throws Exception
    {
        ThreadTeam.run(ranks, sc ->
        {
            final int me = sc.myProc();
            // segment: 16 longs, 16 doubles, 16 ints
            for (int i = 0; i < 16; i++)
            {
                sc.segment().putLong(8 * i, pattern(me, i));
                sc.segment().putDouble(128 + 8 * i, doublePattern(me, i));
                sc.segment().putInt(256 + 4 * i, (int)pattern(me, i + 100));
            }
            sc.barrier();
            final long[] longs = new long[ranks * 16];
            final double[] doubles = new double[ranks * 16];
            final int[] ints = new int[ranks * 16];
            java.util.Arrays.fill(longs, -1);
            java.util.Arrays.fill(doubles, -1);
            java.util.Arrays.fill(ints, -1);
            for (int r = 0; r < ranks; r++)
            {
                for (int i = 0; i < 16; i++)
                {
                    final int at = r * 16 + i;
                    // a remote get's reply can only be handled in a later poll: a get polls before it sends, never
                    // after, so the destination is unchanged when the call returns
                    sc.getLong(GlobalPtr.of(r, 8 * i), longs, at);
                    assertEquals(r != me ? -1 : pattern(r, i), longs[at], "long get of rank " + r + " landed early");
                    sc.getDouble(GlobalPtr.of(r, 128 + 8 * i), doubles, at);
                    assertEquals(r != me ? -1 : doublePattern(r, i), doubles[at], "double get landed early");
                    sc.getInt(GlobalPtr.of(r, 256 + 4 * i), ints, at);
                    assertEquals(r != me ? -1 : (int)pattern(r, i + 100), ints[at], "int get landed early");
                }
            }
            sc.sync();
            assertEquals(0, sc.outstanding());
            for (int r = 0; r < ranks; r++)
            {
                for (int i = 0; i < 16; i++)
                {
                    final int at = r * 16 + i;
                    assertEquals(pattern(r, i), longs[at], "long " + i + " of rank " + r);
                    assertEquals(doublePattern(r, i), doubles[at], "double " + i + " of rank " + r);
                    assertEquals((int)pattern(r, i + 100), ints[at], "int " + i + " of rank " + r);
                    assertEquals(pattern(r, i), sc.readLong(GlobalPtr.of(r, 8 * i)));
                    assertEquals(doublePattern(r, i), sc.readDouble(GlobalPtr.of(r, 128 + 8 * i)));
                    assertEquals((int)pattern(r, i + 100), sc.readInt(GlobalPtr.of(r, 256 + 4 * i)));
                }
            }
            sc.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = { 2, 3, 4 })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void putsAreInTheTargetSegmentAfterSyncAndBarrier(final int ranks) throws Exception
    {
        ThreadTeam.run(ranks, sc ->
        {
            final int me = sc.myProc();
            for (int r = 0; r < ranks; r++)
            {
                // rank me writes slot me of every rank: a long, a double, an int
                sc.putLong(GlobalPtr.of(r, 8 * me), pattern(me, r));
                sc.putDouble(GlobalPtr.of(r, 1024 + 8 * me), doublePattern(me, r));
                sc.putInt(GlobalPtr.of(r, 2048 + 4 * me), (int)pattern(me, r + 7));
            }
            sc.sync();
            assertEquals(0, sc.outstanding());
            sc.barrier();
            for (int w = 0; w < ranks; w++)
            {
                assertEquals(pattern(w, me), sc.segment().getLong(8 * w), "long from rank " + w);
                assertEquals(doublePattern(w, me), sc.segment().getDouble(1024 + 8 * w), "double from rank " + w);
                assertEquals((int)pattern(w, me + 7), sc.segment().getInt(2048 + 4 * w), "int from rank " + w);
            }
            sc.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = { 2, 4 })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void storesAreVisibleAfterStoreSyncOfTheirBytes(final int ranks) throws Exception
    {
        ThreadTeam.run(ranks, sc ->
        {
            final int me = sc.myProc();
            final int next = (me + 1) % ranks;
            // 10 longs, 10 doubles and 10 ints to the next rank: 200 bytes
            for (int i = 0; i < 10; i++)
            {
                sc.storeLong(GlobalPtr.of(next, 8 * i), pattern(me, i));
                sc.storeDouble(GlobalPtr.of(next, 80 + 8 * i), doublePattern(me, i));
                sc.storeInt(GlobalPtr.of(next, 160 + 4 * i), (int)pattern(me, i + 50));
            }
            final int prev = (me + ranks - 1) % ranks;
            sc.storeSync(200);
            for (int i = 0; i < 10; i++)
            {
                assertEquals(pattern(prev, i), sc.segment().getLong(8 * i));
                assertEquals(doublePattern(prev, i), sc.segment().getDouble(80 + 8 * i));
                assertEquals((int)pattern(prev, i + 50), sc.segment().getInt(160 + 4 * i));
            }
            assertEquals(200, sc.storedBytes());
            // allStoreSync after stores already accounted for by storeSync: nothing more to wait for
            sc.allStoreSync();
            sc.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 2, 4 })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void allStoreSyncCompletesEveryRanksStoresAllToAllRepeatedly(final int ranks) throws Exception
    {
        ThreadTeam.run(ranks, sc ->
        {
            final int me = sc.myProc();
            for (int round = 0; round < 5; round++)
            {
                for (int r = 0; r < ranks; r++)
                {
                    // each rank stores round + pattern into slot me of every rank (itself too), a varying amount
                    for (int i = 0; i <= (me + round) % 3; i++)
                    {
                        sc.storeLong(GlobalPtr.of(r, 8 * (me * 4 + i)), pattern(me, round * 10 + i));
                    }
                }
                sc.allStoreSync();
                for (int w = 0; w < ranks; w++)
                {
                    for (int i = 0; i <= (w + round) % 3; i++)
                    {
                        assertEquals(pattern(w, round * 10 + i), sc.segment().getLong(8 * (w * 4 + i)),
                            "round " + round + ", store " + i + " of rank " + w);
                    }
                }
                sc.barrier();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = { 1024, 8192 })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void bulkOperationsOfEveryTypeAndLengthAcrossChunkBoundaries(final int chunkBytes) throws Exception
    {
        bulkOperationsOfEveryTypeAndLength(chunkBytes);
    }

    /** 8-byte chunks: a message per element, thousands per operation, tens of seconds on 2 CPUs: soak. */
    @Tag("soak")
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void bulkOperationsOfEveryTypeAndLengthInEightByteChunks() throws Exception
    {
        bulkOperationsOfEveryTypeAndLength(8);
    }

    private void bulkOperationsOfEveryTypeAndLength(final int chunkBytes) throws Exception
    {
        final int[] counts = { 0, 1, 2, 1023, 1024, 1025, 2048, 2049, 3000 };
        // segment: longs put by each rank (3 regions), doubles stored by each rank (3 regions), ints put to self
        ThreadTeam.run(3, () -> new SplitCOptions().segmentBytes(7 * 3000 * 8).bulkChunkBytes(chunkBytes)
            .stallMillis(10_000), sc ->
        {
            final int me = sc.myProc();
            final int ranks = sc.procs();
            final int region = 3000 * 8;
            for (final int count : counts)
            {
                final long[] longs = new long[count + 3];
                final double[] doubles = new double[count + 3];
                final int[] ints = new int[count + 3];
                for (int i = 0; i < count; i++)
                {
                    longs[i + 3] = pattern(me, i + count);
                    doubles[i + 3] = doublePattern(me, i + count);
                    ints[i + 3] = (int)pattern(me, i - count);
                }
                // bulk put into region me of the next rank (longs), store into the one after (doubles); ints to self
                final int next = (me + 1) % ranks;
                final int after = (me + 2) % ranks;
                sc.bulkPut(GlobalPtr.of(next, me * region), longs, 3, count);
                sc.bulkStore(GlobalPtr.of(after, ranks * region + me * region), doubles, 3, count);
                sc.bulkPut(GlobalPtr.of(me, 2 * ranks * region), ints, 3, count);
                sc.sync();
                sc.allStoreSync();
                final int prev = (me + ranks - 1) % ranks;
                final int before = (me + ranks - 2) % ranks;
                for (int i = 0; i < count; i++)
                {
                    assertEquals(pattern(prev, i + count), sc.segment().getLong(prev * region + 8 * i));
                    assertEquals(doublePattern(before, i + count),
                        sc.segment().getDouble(ranks * region + before * region + 8 * i));
                    assertEquals((int)pattern(me, i - count), sc.segment().getInt(2 * ranks * region + 4 * i));
                }
                // bulk gets of what the next rank now holds, into offset destinations
                final long[] gotLongs = new long[count + 5];
                final double[] gotDoubles = new double[count + 5];
                final int[] gotInts = new int[count + 5];
                sc.bulkGet(gotLongs, 5, GlobalPtr.of(next, me * region), count);
                sc.bulkGet(gotDoubles, 5, GlobalPtr.of(next, ranks * region + ((me + ranks - 1) % ranks) * region), count);
                sc.bulkGet(gotInts, 5, GlobalPtr.of(me, 2 * ranks * region), count);
                sc.sync();
                final int prevOfNext = (me + ranks - 1) % ranks;
                for (int i = 0; i < count; i++)
                {
                    assertEquals(pattern(me, i + count), gotLongs[i + 5], "bulk get long " + i + " of " + count);
                    assertEquals(doublePattern(prevOfNext, i + count), gotDoubles[i + 5], "bulk get double " + i);
                    assertEquals((int)pattern(me, i - count), gotInts[i + 5], "bulk get int " + i);
                }
                sc.barrier();
            }
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void bulkMessagesAreCountedPerChunk() throws Exception
    {
        ThreadTeam.run(2, () -> new SplitCOptions().segmentBytes(1 << 16).bulkChunkBytes(4096).stallMillis(10_000),
            sc ->
            {
                final CommCounts before = sc.counts().copy();
                if (sc.myProc() == 0)
                {
                    // 10,000 bytes: chunks of 4096, 4096, 1808
                    sc.bulkPut(GlobalPtr.of(1, 0), new double[1250], 0, 1250);
                    sc.sync();
                    final CommCounts delta = sc.counts().minus(before);
                    assertEquals(3, delta.localBulk());
                    assertEquals(10_000, delta.localBulkBytes());
                    assertEquals(0, delta.localShort());
                    assertEquals(0, delta.networkShort() + delta.networkBulk());
                    sc.bulkGet(new long[1250], 0, GlobalPtr.of(1, 0), 1250);
                    sc.sync();
                    assertEquals(3, sc.counts().minus(before).localShort(), "get requests are short");
                }
                sc.barrier();
                if (sc.myProc() == 1)
                {
                    final CommCounts delta = sc.counts().minus(before);
                    // 3 put acknowledgements (short), 3 medium replies to the bulk get, 1 barrier contribution
                    assertEquals(4, delta.localShort());
                    assertEquals(3, delta.localBulk());
                    assertEquals(10_000, delta.localBulkBytes());
                }
                sc.barrier();
            });
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 2, 3, 5 })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void reductionsAndBroadcastsGiveEveryRankTheSameResult(final int ranks) throws Exception
    {
        ThreadTeam.run(ranks, sc ->
        {
            final int me = sc.myProc();
            long sum = 0;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            double dsum = 0;
            double dmin = Double.POSITIVE_INFINITY;
            double dmax = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < ranks; r++)
            {
                sum += pattern(r, 1);
                min = Math.min(min, pattern(r, 1));
                max = Math.max(max, pattern(r, 1));
                dsum += doublePattern(r, 2) * 1e10;
                dmin = Math.min(dmin, doublePattern(r, 2));
                dmax = Math.max(dmax, doublePattern(r, 2));
            }
            for (int round = 0; round < 3; round++)
            {
                assertEquals(sum, sc.allReduceSum(pattern(me, 1)));
                assertEquals(min, sc.allReduceMin(pattern(me, 1)));
                assertEquals(max, sc.allReduceMax(pattern(me, 1)));
                // the double sum is added in rank order, so it equals the sequential sum bit for bit
                assertEquals(Double.doubleToRawLongBits(dsum),
                    Double.doubleToRawLongBits(sc.allReduceSum(doublePattern(me, 2) * 1e10)));
                assertEquals(dmin, sc.allReduceMin(doublePattern(me, 2)));
                assertEquals(dmax, sc.allReduceMax(doublePattern(me, 2)));
                for (int root = 0; root < ranks; root++)
                {
                    assertEquals(pattern(root, round), sc.broadcast(root, me == root ? pattern(root, round) : -7));
                    assertEquals(doublePattern(root, round),
                        sc.broadcast(root, me == root ? doublePattern(root, round) : Double.NaN));
                }
                sc.barrier();
            }
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void summarizeGivesMeanMinMaxAndPercentLocal() throws Exception
    {
        ThreadTeam.run(3, sc ->
        {
            final CommCounts before = sc.counts().copy();
            // rank r sends r puts to the next rank
            for (int i = 0; i < sc.myProc(); i++)
            {
                sc.putLong(GlobalPtr.of((sc.myProc() + 1) % 3, 8 * i), i);
            }
            sc.sync();
            // after the barrier every rank has acknowledged the puts it got (their senders synced before entering)
            sc.barrier();
            final CommSummary summary = sc.summarize(sc.counts().minus(before));
            // rank 0: 2 acknowledgements and 2 barrier results; rank 1: 1 put, 1 barrier contribution; rank 2: 2 puts,
            // 1 acknowledgement, 1 barrier contribution
            assertEquals(10, summary.sum(CommSummary.LOCAL_SHORT));
            assertEquals(2, summary.min(CommSummary.LOCAL_SHORT));
            assertEquals(4, summary.max(CommSummary.LOCAL_SHORT));
            assertEquals(10 / 3.0, summary.mean(CommSummary.LOCAL_SHORT));
            assertEquals(100.0, summary.percentLocal());
            assertEquals(0, summary.max(CommSummary.NETWORK_SHORT));
            sc.barrier();
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aReturnedMessageFailsLoudlyWithItsStatus() throws Exception
    {
        ThreadTeam.run(2, sc ->
        {
            if (sc.myProc() == 1)
            {
                // refuse everything from now on, then tell rank 0 (messages to rank 0 still get through)
                sc.endpoint().tag(Tags.fresh());
                sc.storeInt(GlobalPtr.of(0, 0), 1);
                return;
            }
            sc.storeSync(4);
            sc.putLong(GlobalPtr.of(1, 0), 42);
            final SplitCException ex = assertThrows(SplitCException.class, sc::sync);
            assertEquals(ReturnStatus.EBADTAG, ex.status());
            assertTrue(ex.getMessage().contains("EBADTAG") && ex.getMessage().contains("put"), ex.getMessage());
            assertNotNull(sc.failure());
            // the layer stays failed: every later call throws the same failure
            assertEquals(ex, assertThrows(SplitCException.class, () -> sc.getLong(GlobalPtr.of(0, 0), new long[1], 0)));
            assertEquals(ex, assertThrows(SplitCException.class, sc::barrier));
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aWaitThatHandlesNothingFailsAfterTheStallLimitSayingWhatItWaitedFor() throws Exception
    {
        ThreadTeam.run(2, () -> new SplitCOptions().stallMillis(300), sc ->
        {
            if (sc.myProc() == 0)
            {
                final long start = System.nanoTime();
                final SplitCException ex = assertThrows(SplitCException.class, () -> sc.storeSync(8));
                assertTrue(ex.getMessage().contains("storeSync"), ex.getMessage());
                assertTrue(ex.getMessage().contains("no message handled for"), ex.getMessage());
                assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300));
                assertEquals(null, ex.status());
            }
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void collectivesCalledInDifferentOrdersAreReported() throws Exception
    {
        final AssertionError error = assertThrows(AssertionError.class, () -> ThreadTeam.run(2,
            () -> new SplitCOptions().stallMillis(2_000), sc ->
            {
                if (sc.myProc() == 0)
                {
                    sc.barrier();
                }
                else
                {
                    sc.allReduceSum(1L);
                }
            }));
        assertTrue(error.getMessage().contains("every rank must call the same collectives"), error.getMessage());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void badGlobalPointersAndDestinationsAreRefusedBeforeSending() throws Exception
    {
        ThreadTeam.run(2, sc ->
        {
            final int length = sc.segmentLength(1);
            assertThrows(IndexOutOfBoundsException.class, () -> sc.getLong(GlobalPtr.of(1, length - 4), new long[1], 0));
            assertThrows(IndexOutOfBoundsException.class, () -> sc.putInt(GlobalPtr.of(2, 0), 1));
            assertThrows(IndexOutOfBoundsException.class, () -> sc.getLong(GlobalPtr.of(1, 0), new long[1], 1));
            assertThrows(IndexOutOfBoundsException.class,
                () -> sc.bulkPut(GlobalPtr.of(1, length - 8), new double[2], 0, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> sc.bulkGet(new int[4], 2, GlobalPtr.of(1, 0), 3));
            assertEquals(0, sc.outstanding());
            sc.barrier();
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void eightRanksOnTwoCoresProgressWithAllToAllFineGrainedTraffic() throws Exception
    {
        ThreadTeam.run(8, sc ->
        {
            final int me = sc.myProc();
            final int ranks = sc.procs();
            for (int i = 0; i < 256; i++)
            {
                sc.segment().putLong(8 * i, pattern(me, i));
            }
            sc.barrier();
            final long[] got = new long[ranks * 256];
            for (int round = 0; round < 4; round++)
            {
                for (int i = 0; i < 256; i++)
                {
                    for (int k = 0; k < ranks; k++)
                    {
                        final int r = (me + k) % ranks;
                        sc.getLong(GlobalPtr.of(r, 8 * i), got, r * 256 + i);
                    }
                }
                sc.sync();
                for (int r = 0; r < ranks; r++)
                {
                    for (int i = 0; i < 256; i++)
                    {
                        assertEquals(pattern(r, i), got[r * 256 + i]);
                    }
                }
                sc.barrier();
            }
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void scalarGetsPutsAndStoresAllocateNothingInSteadyState() throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        final long[] allocated = new long[1];
        ThreadTeam.run(2, sc ->
        {
            if (sc.myProc() == 0)
            {
                final long[] dst = new long[64];
                final double[] ddst = new double[64];
                final int[] idst = new int[64];
                loop(sc, dst, ddst, idst, 20_000);
                final long id = Thread.currentThread().getId();
                final long before = threads.getThreadAllocatedBytes(id);
                loop(sc, dst, ddst, idst, 20_000);
                allocated[0] = threads.getThreadAllocatedBytes(id) - before;
            }
            sc.allStoreSync();
        });
        assertTrue(allocated[0] < 2048, "20,000 rounds of scalar operations allocated " + allocated[0] + " bytes");
    }

    private static void loop(final SplitC sc, final long[] dst, final double[] ddst, final int[] idst, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            final int slot = i & 63;
            sc.putLong(GlobalPtr.of(1, 8 * slot), i);
            sc.putDouble(GlobalPtr.of(1, 512 + 8 * slot), i);
            sc.putInt(GlobalPtr.of(1, 1024 + 4 * slot), i);
            sc.storeLong(GlobalPtr.of(1, 2048 + 8 * slot), i);
            sc.getLong(GlobalPtr.of(1, 8 * slot), dst, slot);
            sc.getDouble(GlobalPtr.of(1, 512 + 8 * slot), ddst, slot);
            sc.getInt(GlobalPtr.of(1, 1024 + 4 * slot), idst, slot);
            if (slot == 63)
            {
                sc.sync();
            }
        }
        sc.sync();
    }

    @Test
    void globalPointersPackRankAndOffset()
    {
        final long gp = GlobalPtr.of(4095, Integer.MAX_VALUE - 7);
        assertEquals(4095, GlobalPtr.rank(gp));
        assertEquals(Integer.MAX_VALUE - 7, GlobalPtr.offset(gp));
        assertTrue(GlobalPtr.of(1, 0) > GlobalPtr.of(0, Integer.MAX_VALUE), "ordered by rank, then offset");
        assertThrows(IllegalArgumentException.class, () -> GlobalPtr.of(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> GlobalPtr.of(0, -1));
        assertEquals("<3:16>", GlobalPtr.toString(GlobalPtr.of(3, 16)));
    }

    @Test
    void optionsCheckTheirRanges()
    {
        assertThrows(IllegalArgumentException.class, () -> new SplitCOptions().bulkChunkBytes(12));
        assertThrows(IllegalArgumentException.class, () -> new SplitCOptions().bulkChunkBytes(16384));
        assertThrows(IllegalArgumentException.class, () -> new SplitCOptions().getSlots(0));
        assertThrows(IllegalArgumentException.class, () -> new SplitCOptions().segmentBytes(-1));
        assertEquals(4096, new SplitCOptions().bulkChunkBytes(4096).bulkChunkBytes());
        assertArrayEquals(new long[]{ 60_000 }, new long[]{ new SplitCOptions().stallMillis() },
            "the test configuration sets am2j.splitc.stallSeconds=60");
    }
}
