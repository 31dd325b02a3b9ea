package org.am2j.splitc;

import static org.am2j.splitc.SplitCTest.doublePattern;
import static org.am2j.splitc.SplitCTest.pattern;

import java.util.Arrays;

import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code SplitCPrimitivesTest}: every primitive of the Split-C layer between rank JVMs, each check
 * printing {@code ok <check>} on every rank. Usage: {@code PrimitivesMain all|returned}.
 * <ul>
 * <li>{@code all}: scalar gets (not landed when the call returns, there after sync) and blocking reads, puts,
 * stores with storeSync and allStoreSync, bulk get/put/store of every type across chunk boundaries, reductions and
 * broadcasts, a fine-grained all-to-all flood, and the message counts by kind and destination node;</li>
 * <li>{@code returned}: on 2 ranks, a put to a rank whose tag changed comes back and fails with EBADTAG.</li>
 * </ul>
 * Any failure prints {@code FAIL ...} and exits with 1.
 */
public final class PrimitivesMain
{
    private static final int REGION = 3000 * 8;

    private final SplitC sc;
    private final int me;
    private final int ranks;

    private PrimitivesMain(final SplitC sc)
    {
        this.sc = sc;
        this.me = sc.myProc();
        this.ranks = sc.procs();
    }

    public static void main(final String[] args)
    {
        try (Job job = Spmd.init())
        {
            System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + job.rank());
            final String what = args.length > 0 ? args[0] : "all";
            final SplitC sc = SplitC.init(job, new SplitCOptions().segmentBytes(8 * REGION));
            try
            {
                final PrimitivesMain main = new PrimitivesMain(sc);
                if ("returned".equals(what))
                {
                    main.returnedMessage(job);
                }
                else
                {
                    main.all();
                    sc.finish();
                }
            }
            finally
            {
                sc.close();
            }
        }
        catch (final Throwable t)
        {
            System.out.flush();
            System.err.println("FAIL PrimitivesMain (pid " + ProcessIdentity.currentPid() + "): " + t);
            t.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalStateException(message);
        }
    }

    private static void checkEquals(final long expected, final long actual, final String what)
    {
        check(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    private long lastOk = System.nanoTime();

    private void ok(final String check)
    {
        final long now = System.nanoTime();
        System.out.println("ok " + check);
        if (me == 0)
        {
            System.out.println("time " + check + " " + (now - lastOk) / 1_000_000 + " ms " + sc.state());
        }
        lastOk = now;
    }

    private void all()
    {
        scalarGets();
        puts();
        stores();
        bulk(8192);
        bulk(4096);
        bulk(24);
        collectives();
        flood();
        counts();
    }

    private void scalarGets()
    {
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
        Arrays.fill(longs, -1);
        Arrays.fill(doubles, -1);
        Arrays.fill(ints, -1);
        for (int r = 0; r < ranks; r++)
        {
            for (int i = 0; i < 16; i++)
            {
                final int at = r * 16 + i;
                sc.getLong(GlobalPtr.of(r, 8 * i), longs, at);
                check(longs[at] == (r == me ? pattern(r, i) : -1), "long get from rank " + r + " landed early");
                sc.getDouble(GlobalPtr.of(r, 128 + 8 * i), doubles, at);
                check(doubles[at] == (r == me ? doublePattern(r, i) : -1), "double get landed early");
                sc.getInt(GlobalPtr.of(r, 256 + 4 * i), ints, at);
                check(ints[at] == (r == me ? (int)pattern(r, i + 100) : -1), "int get landed early");
            }
        }
        sc.sync();
        for (int r = 0; r < ranks; r++)
        {
            for (int i = 0; i < 16; i++)
            {
                final int at = r * 16 + i;
                checkEquals(pattern(r, i), longs[at], "long " + i + " of rank " + r);
                check(doublePattern(r, i) == doubles[at], "double " + i + " of rank " + r);
                checkEquals((int)pattern(r, i + 100), ints[at], "int " + i + " of rank " + r);
                checkEquals(pattern(r, i), sc.readLong(GlobalPtr.of(r, 8 * i)), "readLong");
                check(doublePattern(r, i) == sc.readDouble(GlobalPtr.of(r, 128 + 8 * i)), "readDouble");
                checkEquals((int)pattern(r, i + 100), sc.readInt(GlobalPtr.of(r, 256 + 4 * i)), "readInt");
            }
        }
        sc.barrier();
        ok("gets");
    }

    private void puts()
    {
        for (int r = 0; r < ranks; r++)
        {
            sc.putLong(GlobalPtr.of(r, 8 * me), pattern(me, r));
            sc.putDouble(GlobalPtr.of(r, 1024 + 8 * me), doublePattern(me, r));
            sc.putInt(GlobalPtr.of(r, 2048 + 4 * me), (int)pattern(me, r + 7));
        }
        sc.sync();
        checkEquals(0, sc.outstanding(), "outstanding after sync");
        sc.barrier();
        for (int w = 0; w < ranks; w++)
        {
            checkEquals(pattern(w, me), sc.segment().getLong(8 * w), "long put by rank " + w);
            check(doublePattern(w, me) == sc.segment().getDouble(1024 + 8 * w), "double put by rank " + w);
            checkEquals((int)pattern(w, me + 7), sc.segment().getInt(2048 + 4 * w), "int put by rank " + w);
        }
        sc.barrier();
        ok("puts");
    }

    private void stores()
    {
        final int next = (me + 1) % ranks;
        final int prev = (me + ranks - 1) % ranks;
        for (int i = 0; i < 10; i++)
        {
            sc.storeLong(GlobalPtr.of(next, 8 * i), pattern(me, i));
            sc.storeDouble(GlobalPtr.of(next, 80 + 8 * i), doublePattern(me, i));
            sc.storeInt(GlobalPtr.of(next, 160 + 4 * i), (int)pattern(me, i + 50));
        }
        sc.storeSync(200);
        for (int i = 0; i < 10; i++)
        {
            checkEquals(pattern(prev, i), sc.segment().getLong(8 * i), "stored long " + i);
            check(doublePattern(prev, i) == sc.segment().getDouble(80 + 8 * i), "stored double " + i);
            checkEquals((int)pattern(prev, i + 50), sc.segment().getInt(160 + 4 * i), "stored int " + i);
        }
        sc.allStoreSync();
        for (int round = 0; round < 5; round++)
        {
            for (int r = 0; r < ranks; r++)
            {
                for (int i = 0; i <= (me + round) % 3; i++)
                {
                    sc.storeLong(GlobalPtr.of(r, 4096 + 8 * (me * 4 + i)), pattern(me, round * 10 + i));
                }
            }
            sc.allStoreSync();
            for (int w = 0; w < ranks; w++)
            {
                for (int i = 0; i <= (w + round) % 3; i++)
                {
                    checkEquals(pattern(w, round * 10 + i), sc.segment().getLong(4096 + 8 * (w * 4 + i)),
                        "round " + round + ", store " + i + " of rank " + w);
                }
            }
            sc.barrier();
        }
        ok("stores");
    }

    private void bulk(final int chunkBytes)
    {
        sc.bulkChunkBytes(chunkBytes);
        // around the chunk boundaries of longs and doubles (chunk / 8 elements) and ints (chunk / 4), fewer of them
        // for small chunks (thousands of messages per operation)
        final int[] counts = chunkBytes >= 4096 ? new int[]{ 0, 1, 2, 1023, 1024, 1025, 2048, 2049, 3000 } :
            new int[]{ 0, 1, 2, 3, 5, 6, 7, 300 };
        final int next = (me + 1) % ranks;
        final int after = (me + 2) % ranks;
        final int prev = (me + ranks - 1) % ranks;
        final int before = (me + ranks - 2) % ranks;
        // segment regions: longs put by rank w at w * REGION (w < 3 after modulo below), doubles stored by rank w at
        // (3 + w) * REGION, ints put to self at 6 * REGION; ranks beyond 3 reuse regions modulo 3 in turns
        for (final int count : counts)
        {
            for (int turn = 0; turn < (ranks + 2) / 3; turn++)
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
                final boolean active = me / 3 == turn;
                if (active)
                {
                    sc.bulkPut(GlobalPtr.of(next, (me % 3) * REGION), longs, 3, count);
                    sc.bulkStore(GlobalPtr.of(after, (3 + me % 3) * REGION), doubles, 3, count);
                    sc.bulkPut(GlobalPtr.of(me, 6 * REGION), ints, 3, count);
                }
                sc.sync();
                sc.allStoreSync();
                for (int i = 0; i < count; i++)
                {
                    if (prev / 3 == turn)
                    {
                        checkEquals(pattern(prev, i + count), sc.segment().getLong((prev % 3) * REGION + 8 * i),
                            "bulk put long " + i + " of " + count + " from rank " + prev);
                    }
                    if (before / 3 == turn)
                    {
                        check(doublePattern(before, i + count) ==
                            sc.segment().getDouble((3 + before % 3) * REGION + 8 * i),
                            "bulk store double " + i + " of " + count + " from rank " + before);
                    }
                    if (active)
                    {
                        checkEquals((int)pattern(me, i - count), sc.segment().getInt(6 * REGION + 4 * i),
                            "bulk put int to self " + i);
                    }
                }
                if (active)
                {
                    final long[] gotLongs = new long[count + 5];
                    final double[] gotDoubles = new double[count + 5];
                    final int[] gotInts = new int[count + 5];
                    sc.bulkGet(gotLongs, 5, GlobalPtr.of(next, (me % 3) * REGION), count);
                    sc.bulkGet(gotDoubles, 5, GlobalPtr.of(after, (3 + me % 3) * REGION), count);
                    sc.bulkGet(gotInts, 5, GlobalPtr.of(me, 6 * REGION), count);
                    sc.sync();
                    for (int i = 0; i < count; i++)
                    {
                        checkEquals(pattern(me, i + count), gotLongs[i + 5], "bulk get long " + i + " of " + count);
                        check(doublePattern(me, i + count) == gotDoubles[i + 5], "bulk get double " + i);
                        checkEquals((int)pattern(me, i - count), gotInts[i + 5], "bulk get int " + i);
                    }
                }
                sc.barrier();
            }
        }
        sc.bulkChunkBytes(8192);
        ok("bulk " + chunkBytes);
    }

    private void collectives()
    {
        long sum = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        double dsum = 0;
        for (int r = 0; r < ranks; r++)
        {
            sum += pattern(r, 1);
            min = Math.min(min, pattern(r, 1));
            max = Math.max(max, pattern(r, 1));
            dsum += doublePattern(r, 2) * 1e10;
        }
        checkEquals(sum, sc.allReduceSum(pattern(me, 1)), "allReduceSum(long)");
        checkEquals(min, sc.allReduceMin(pattern(me, 1)), "allReduceMin(long)");
        checkEquals(max, sc.allReduceMax(pattern(me, 1)), "allReduceMax(long)");
        checkEquals(Double.doubleToRawLongBits(dsum),
            Double.doubleToRawLongBits(sc.allReduceSum(doublePattern(me, 2) * 1e10)), "allReduceSum(double)");
        check(-(double)(ranks - 1) == sc.allReduceMin(-(double)me), "allReduceMin(double)");
        check(ranks - 1 == sc.allReduceMax((double)me), "allReduceMax(double)");
        for (int root = 0; root < ranks; root++)
        {
            checkEquals(pattern(root, 5), sc.broadcast(root, me == root ? pattern(root, 5) : -7), "broadcast");
            check(doublePattern(root, 5) == sc.broadcast(root, me == root ? doublePattern(root, 5) : Double.NaN),
                "broadcast(double)");
        }
        sc.barrier();
        ok("collectives");
    }

    private void flood()
    {
        for (int i = 0; i < 1024; i++)
        {
            sc.segment().putLong(8 * i, pattern(me, i));
        }
        sc.barrier();
        final long[] got = new long[ranks * 1024];
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < 1024; i++)
            {
                for (int k = 1; k < ranks; k++)
                {
                    final int r = (me + k) % ranks;
                    sc.getLong(GlobalPtr.of(r, 8 * i), got, r * 1024 + i);
                    sc.storeLong(GlobalPtr.of(r, 3 * REGION + 8 * (me * 1024 + i) % (3 * REGION)), i);
                }
            }
            sc.sync();
            sc.allStoreSync();
            for (int r = 0; r < ranks; r++)
            {
                for (int i = 0; r != me && i < 1024; i++)
                {
                    checkEquals(pattern(r, i), got[r * 1024 + i], "flood get " + i + " from rank " + r);
                }
            }
            sc.barrier();
        }
        ok("flood");
    }

    private void counts()
    {
        final int k = 5;
        // a peer may leave the previous barrier before this rank and put to it: take the snapshot before a barrier
        final CommCounts before = sc.counts().copy();
        sc.barrier();
        for (int r = 0; r < ranks; r++)
        {
            for (int i = 0; i < k && r != me; i++)
            {
                sc.putLong(GlobalPtr.of(r, 8 * i), i);
            }
        }
        sc.sync();
        sc.barrier();
        final CommCounts delta = sc.counts().minus(before);
        int localPeers = 0;
        for (int r = 0; r < ranks; r++)
        {
            localPeers += r != me && sc.isLocal(r) ? 1 : 0;
        }
        final int remotePeers = ranks - 1 - localPeers;
        // puts and the acknowledgements of the peers' puts, plus this rank's messages of two barriers
        long expectedLocal = 2L * k * localPeers;
        long expectedNetwork = 2L * k * remotePeers;
        if (me == 0)
        {
            expectedLocal += 2L * localPeers;
            expectedNetwork += 2L * remotePeers;
        }
        else if (sc.isLocal(0))
        {
            expectedLocal += 2;
        }
        else
        {
            expectedNetwork += 2;
        }
        checkEquals(expectedLocal, delta.localShort(), "local short messages");
        checkEquals(expectedNetwork, delta.networkShort(), "network short messages");
        checkEquals(0, delta.localBulk() + delta.networkBulk(), "bulk messages");
        final CommSummary summary = sc.summarize(delta);
        check(summary.sum(CommSummary.LOCAL_SHORT) + summary.sum(CommSummary.NETWORK_SHORT) ==
            2L * k * ranks * (ranks - 1) + 4L * (ranks - 1), "total short messages of the job");
        System.out.println("counts: local " + delta.localShort() + ", network " + delta.networkShort() +
            ", % local of the job " + summary.percentLocal());
        ok("counts");
    }

    private void returnedMessage(final Job job)
    {
        check(ranks == 2, "the returned-message check runs on 2 ranks");
        if (me == 1)
        {
            sc.endpoint().tag(Tags.fresh());
            sc.storeInt(GlobalPtr.of(0, 0), 1);
        }
        else
        {
            sc.storeSync(4);
            sc.putLong(GlobalPtr.of(1, 0), 42);
            try
            {
                sc.sync();
                throw new IllegalStateException("sync() returned after a put to a rank that refuses it");
            }
            catch (final SplitCException ex)
            {
                check(ReturnStatus.EBADTAG == ex.status(), "status " + ex.status());
                System.out.println("returned: " + ex.getMessage());
            }
            check(null != sc.failure(), "the layer is not failed");
        }
        job.barrier();
        ok("returned");
    }
}
