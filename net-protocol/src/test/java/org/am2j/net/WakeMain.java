package org.am2j.net;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.fail;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EventMask;
import org.am2j.api.Tags;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program for 3 ranks on 2 nodes with both protocols: rank 0 only sleeps in {@code waitSema()} and answers;
 * rank 1 (same node: shared memory) and rank 2 (other node: network) take turns sending it a request after a pause
 * long enough for it to be asleep, and time the round trip. Without a wake-up across protocols a message of the
 * protocol that is not the blocker would wait for the end of the sleeper's time slice ({@code am2j.sleepSliceMs};
 * {@link WakeTest} makes it longer than the one-second {@code waitSema}). Rank 0 prints the CPU time it used.
 */
public final class WakeMain
{
    static final int ROUNDS = 10;
    private static final long PAUSE_MS = 20;

    private WakeMain()
    {
    }

    public static void main(final String[] args)
    {
        RankSupport.main("WakeMain", WakeMain::run);
    }

    /**
     * Wait, polling (an inline NIC acknowledges only while its host calls in; a sender that slept in Thread.sleep
     * would leave the sleeper's reply unacknowledged, and its retransmission timer would wake the sleeper).
     */
    private static void pause(final Bundle bundle, final long millis)
    {
        final long deadline = RankSupport.deadline(millis);
        while (!RankSupport.expired(deadline))
        {
            bundle.poll();
            RankSupport.idle(bundle, 1000);
        }
    }

    private static void run() throws Exception
    {
        final Job job = Spmd.init();
        final int rank = job.rank();
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank);
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, (token, msg) -> fail("rank " + rank + ": returned " + msg.returnStatus()));
            final int[] count = {0};
            endpoint.handler(1, (token, msg) ->
            {
                count[0]++;
                token.reply(2, msg.arg(0));
            });
            endpoint.handler(2, (token, msg) -> count[0]++);
            final byte[] name = endpoint.name().toBytes();
            final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name)
                .array());
            for (int q = 0; q < all.length; q++)
            {
                final ByteBuffer buffer = ByteBuffer.wrap(all[q]);
                final long tag = buffer.getLong();
                final byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                endpoint.map(q, EndpointName.fromBytes(bytes), tag);
            }
            if (rank != 0)
            {
                final String expected = 1 == rank ? "shm" : "net";
                check(expected.equals(endpoint.translationTransport(0)), "rank " + rank + " reaches rank 0 over " +
                    endpoint.translationTransport(0));
            }
            job.barrier();
            if (0 == rank)
            {
                final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                final long cpuBefore = threads.getCurrentThreadCpuTime();
                final long start = System.nanoTime();
                final long deadline = RankSupport.deadline(60_000);
                while (count[0] < 2 * ROUNDS)
                {
                    check(!RankSupport.expired(deadline), "rank 0: only " + count[0] + " requests arrived");
                    bundle.eventMask(EventMask.NOTEMPTY);
                    bundle.waitSema(1, TimeUnit.SECONDS);
                    bundle.poll();
                }
                final long cpuMs = TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime() - cpuBefore);
                final long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                System.out.println("sleeper ok: cpuMs=" + cpuMs + " wallMs=" + wallMs);
            }
            else
            {
                final long[] rtts = new long[ROUNDS];
                for (int i = 0; i < ROUNDS; i++)
                {
                    // Take turns: rank 1 in the even pauses, rank 2 in the odd ones.
                    pause(bundle, rank == 1 ? PAUSE_MS : 2 * PAUSE_MS);
                    final int before = count[0];
                    final long sent = System.nanoTime();
                    endpoint.request(0, 1, i);
                    final long deadline = RankSupport.deadline(10_000);
                    while (count[0] == before)
                    {
                        check(!RankSupport.expired(deadline), "rank " + rank + ": no reply");
                        bundle.poll();
                    }
                    rtts[i] = System.nanoTime() - sent;
                    pause(bundle, PAUSE_MS);
                }
                java.util.Arrays.sort(rtts);
                System.out.println("sender ok: over " + endpoint.translationTransport(0) + " medianUs=" +
                    TimeUnit.NANOSECONDS.toMicros(rtts[ROUNDS / 2]) + " worstUs=" +
                    TimeUnit.NANOSECONDS.toMicros(rtts[ROUNDS - 1]));
            }
            job.barrier();
        }
        job.close();
    }
}
