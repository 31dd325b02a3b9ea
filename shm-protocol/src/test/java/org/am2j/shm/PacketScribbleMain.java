package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code PacketScribbleTest}, two ranks. Phase 1: rank 1 floods rank 0 with short and medium requests
 * (rank 0 answers each) while a second thread of rank 1 attacks rank 0's request queue: random bytes over a packet,
 * a forged READY state (another pid), a flipped state word, a flipped claim word, the tail moved, the head moved.
 * No exception may escape a poll or a send, and every request must be accounted for: answered, returned, or counted
 * as a drop ({@code sent <= handled + returned + drops}, and {@code handled <= sent}: nothing forged is delivered).
 * Phase 2, no more attacks: every request is answered, none returned: nothing is wedged.
 * <p>
 * Arguments: requests of phase 1, requests of phase 2, attacks (made during phase 1, as long as it lasts),
 * microseconds between attacks.
 */
public final class PacketScribbleMain
{
    static final int H_REQUEST = 5;
    static final int H_REPLY = 6;
    static final int H_DONE = 7;

    private static final RequestReplyCounts COUNTS = new RequestReplyCounts(H_REQUEST, H_REPLY, H_DONE);

    public static void main(final String[] args)
    {
        final int phase1 = Integer.parseInt(args[0]);
        final int phase2 = Integer.parseInt(args[1]);
        final int attackCount = Integer.parseInt(args[2]);
        final long pauseMicros = Long.parseLong(args[3]);
        RankSupport.main("PacketScribbleMain", () ->
        {
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                final Endpoint endpoint = RankSupport.twoRankEndpoint("PacketScribbleMain", job, bundle);
                COUNTS.installReturnCount(endpoint);
                COUNTS.installRequestReply(endpoint);
                Peers.mapAll(job, endpoint);
                job.barrier();
                long sent = 0;
                if (0 == job.rank())
                {
                    COUNTS.serveUntilDone(bundle, 240_000);
                }
                else
                {
                    sent = rankOne(bundle, endpoint, phase1, phase2, attackCount, pauseMicros);
                }
                final long drops = endpoint.statistics().total(Counter.DROPS);
                final byte[][] all = job.allGather(ByteBuffer.allocate(24).putLong(COUNTS.handled)
                    .putLong(COUNTS.returnedReplies).putLong(drops).array());
                if (1 == job.rank())
                {
                    final ByteBuffer zero = ByteBuffer.wrap(all[0]);
                    final long zeroHandled = zero.getLong();
                    final long zeroReturnedReplies = zero.getLong();
                    final long zeroDrops = zero.getLong();
                    System.out.println("rank 1 accounts: sent " + sent + ", handled " + zeroHandled +
                        ", returned requests " + COUNTS.returnedRequests + ", drops " + (zeroDrops + drops) +
                        ", replies " + COUNTS.replies + ", returned replies " + zeroReturnedReplies);
                    check(zeroHandled <= sent, "rank 1: more requests handled (" + zeroHandled + ") than sent (" +
                        sent + ")");
                    check(sent <= zeroHandled + COUNTS.returnedRequests + zeroDrops + drops, "rank 1: requests lost " +
                        "silently: sent " + sent + " > handled + returned + drops");
                    checkEquals(zeroHandled - zeroReturnedReplies, COUNTS.replies, "rank 1: replies");
                    System.out.println("rank 1 ok");
                }
                job.barrier();
            }
        });
    }

    private static long rankOne(
        final Bundle bundle, final Endpoint endpoint, final int phase1, final int phase2, final int attackCount,
        final long pauseMicros)
        throws InterruptedException
    {
        final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
        RankSupport.fill(data, 0, Am.MAX_MEDIUM, 5);
        final QueueBlock peer = QueueBlock.wrap(MappedRegion.open(
            Path.of(endpoint.translationName(0).address(ShmTransport.NAME))).buffer, "rank 0's queue block");
        final AtomicBoolean attacking = new AtomicBoolean(true);
        final AtomicLong attacks = new AtomicLong();
        final Thread attacker = new Thread(() ->
        {
            while (attacking.get() && attacks.get() < attackCount)
            {
                attack(peer.requests, ThreadLocalRandom.current());
                attacks.incrementAndGet();
                final long until = System.nanoTime() + pauseMicros * 1000;
                while (attacking.get() && System.nanoTime() - until < 0)
                {
                    Thread.onSpinWait();
                }
            }
        }, "attacker");
        attacker.setDaemon(true);
        attacker.start();
        long sent = 0;
        final long deadline = RankSupport.deadline(200_000);
        for (int i = 0; i < phase1; i++)
        {
            send(endpoint, data, i);
            sent++;
            bundle.poll();
            if (RankSupport.expired(deadline))
            {
                throw RankSupport.fail("rank 1 phase 1: sent " + sent);
            }
        }
        attacking.set(false);
        attacker.join();
        // Until every request is answered or returned here, or nothing has come for 3 s.
        RankSupport.awaitQuiet(bundle, () -> COUNTS.replies + COUNTS.returnedRequests, sent, 3_000, 60_000,
            "rank 1: phase 1 does not end");
        System.out.println("rank 1 phase 1: sent " + sent + ", replies " + COUNTS.replies + ", returned requests " +
            COUNTS.returnedRequests + ", attacks " + attacks.get());

        COUNTS.sendAndAwaitAllAnswered(bundle, i -> send(endpoint, data, i), phase1, phase2,
            "rank 1 phase 2: returned requests", "wedged");
        sent += phase2;
        COUNTS.sendEndUntilTaken(bundle, endpoint);
        return sent;
    }

    /**
     * One attack on a random packet, claim word or the tail or head of the queue.
     */
    private static void attack(final PacketQueue queue, final ThreadLocalRandom random)
    {
        final UnsafeBuffer buffer = queue.buffer;
        final long sequence = buffer.getLongVolatile(queue.headOffset) + random.nextInt(queue.depth);
        final int packet = queue.packetOffset(sequence);
        switch (random.nextInt(6))
        {
            case 0:
                final byte[] garbage = new byte[PacketDescriptor.LENGTH];
                random.nextBytes(garbage);
                buffer.putBytes(packet, garbage);
                break;
            case 1:
                // READY with a pid no sender has (pid 1 is init)
                buffer.putLongVolatile(packet, QueueBlockDescriptor.state(PacketDescriptor.READY, 1));
                break;
            case 2:
                buffer.putLongVolatile(packet, buffer.getLongVolatile(packet) ^ (1L << random.nextInt(64)));
                break;
            case 3:
                final int claim = queue.claimOffset(sequence);
                buffer.putLongVolatile(claim, buffer.getLongVolatile(claim) ^ (1L << random.nextInt(64)));
                break;
            case 4:
                buffer.putLongVolatile(queue.tailOffset, buffer.getLongVolatile(queue.tailOffset) +
                    random.nextInt(-3, 4));
                break;
            default:
                buffer.putLongVolatile(queue.headOffset, random.nextLong());
                break;
        }
    }

    private static void send(final Endpoint endpoint, final UnsafeBuffer data, final int i)
    {
        final int status = 0 == (i & 1) ? endpoint.request(0, H_REQUEST, i) :
            endpoint.requestMedium(0, H_REQUEST, data, 0, 1 + i % Am.MAX_MEDIUM, i);
        checkEquals(Am.OK, status, "rank 1: request " + i);
    }
}
