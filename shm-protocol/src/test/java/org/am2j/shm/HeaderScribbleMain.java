package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code HeaderScribbleTest}, two ranks. Phase 1: rank 1 floods rank 0 with requests (short, medium,
 * long; rank 0 answers each) and, every so often, writes random bytes over the whole header of rank 0's queue block
 * and of its own (state, tag, sizes, name, segment, doorbell path), then sends on at once. Messages that meet a
 * scribbled header come back to their sender (requests to rank 1, replies to rank 0); nothing may throw, and
 * {@code sent = replies + returned requests + returned replies + drops} must hold. Phase 2, no more scribbling: every
 * request must be answered, none returned: both owners repaired their headers and the peers recovered.
 * <p>
 * Arguments: requests of phase 1, requests of phase 2, scribbles in phase 1.
 */
public final class HeaderScribbleMain
{
    static final int H_REQUEST = 5;
    static final int H_REPLY = 6;
    static final int H_DONE = 7;
    static final int SEGMENT = 64 * 1024;

    private static final RequestReplyCounts COUNTS = new RequestReplyCounts(H_REQUEST, H_REPLY, H_DONE);

    public static void main(final String[] args)
    {
        final int phase1 = Integer.parseInt(args[0]);
        final int phase2 = Integer.parseInt(args[1]);
        final int scribbles = Integer.parseInt(args[2]);
        RankSupport.main("HeaderScribbleMain", () ->
        {
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                final Endpoint endpoint = RankSupport.twoRankEndpoint("HeaderScribbleMain", job, bundle);
                COUNTS.installReturnCount(endpoint);
                COUNTS.installRequestReply(endpoint);
                if (0 == job.rank())
                {
                    endpoint.allocateSegment(SEGMENT);
                }
                Peers.mapAll(job, endpoint);
                job.barrier();
                long sent = 0;
                if (0 == job.rank())
                {
                    COUNTS.serveUntilDone(bundle, 90_000);
                }
                else
                {
                    sent = rankOne(bundle, endpoint, phase1, phase2, scribbles);
                }
                final long drops = endpoint.statistics().total(Counter.DROPS);
                final byte[][] all = job.allGather(ByteBuffer.allocate(32).putLong(COUNTS.returnedReplies)
                    .putLong(drops).putLong(COUNTS.handled).putLong(sent).array());
                if (1 == job.rank())
                {
                    final ByteBuffer zero = ByteBuffer.wrap(all[0]);
                    final long zeroReturnedReplies = zero.getLong();
                    final long zeroDrops = zero.getLong();
                    System.out.println("rank 1 accounts: sent " + sent + " = replies " + COUNTS.replies +
                        " + returned requests " + COUNTS.returnedRequests + " + returned replies " +
                        zeroReturnedReplies + " + drops " + (zeroDrops + drops));
                    checkEquals(sent,
                        COUNTS.replies + COUNTS.returnedRequests + zeroReturnedReplies + zeroDrops + drops,
                        "rank 1: sent = replies + returned requests + returned replies + drops");
                    System.out.println("rank 1 ok");
                }
                job.barrier();
            }
        });
    }

    private static long rankOne(
        final Bundle bundle, final Endpoint endpoint, final int phase1, final int phase2, final int scribbles)
    {
        final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
        RankSupport.fill(data, 0, Am.MAX_MEDIUM, 99);
        final UnsafeBuffer peerHeader = MappedRegion.open(
            Path.of(endpoint.translationName(0).address(ShmTransport.NAME))).buffer;
        final UnsafeBuffer ownHeader = MappedRegion.open(
            Path.of(endpoint.name().address(ShmTransport.NAME))).buffer;
        final int every = Math.max(1, phase1 / Math.max(1, scribbles));
        long sent = 0;
        for (int i = 0; i < phase1; i++)
        {
            if (0 == i % every)
            {
                scribble(peerHeader);
                scribble(ownHeader);
            }
            send(endpoint, data, i);
            sent++;
            if (i % every > 8)
            {
                // A few sends right after each scribble, before this rank polls and repairs its own header.
                bundle.poll();
            }
        }
        // Until every message sent is accounted for here, or nothing has come for 2 s.
        RankSupport.awaitQuiet(bundle, () -> COUNTS.replies + COUNTS.returnedRequests, sent, 2_000, 60_000,
            "rank 1: phase 1 does not end");
        final long phase1Returned = COUNTS.returnedRequests + COUNTS.returnedReplies;
        System.out.println("rank 1 phase 1: sent " + sent + ", replies " + COUNTS.replies + ", returned requests " +
            COUNTS.returnedRequests);

        COUNTS.sendAndAwaitAllAnswered(bundle, i -> send(endpoint, data, i), phase1, phase2,
            "rank 1 phase 2: requests returned after the scribbling stopped", "the peers did not recover");
        sent += phase2;
        check(phase1Returned > 0 || COUNTS.returnedRequests > 0, "rank 1: no message met a scribbled header");
        COUNTS.sendEndUntilTaken(bundle, endpoint);
        return sent;
    }

    private static void send(final Endpoint endpoint, final UnsafeBuffer data, final int i)
    {
        RankSupport.requestOfEachKind(endpoint, H_REQUEST, data, i, 512, SEGMENT);
    }

    private static void scribble(final UnsafeBuffer header)
    {
        final byte[] garbage = new byte[QueueBlockDescriptor.SLOTS_TABLE_OFFSET];
        ThreadLocalRandom.current().nextBytes(garbage);
        header.putBytes(0, garbage);
    }
}
