package org.am2j.shm;

import java.lang.management.ManagementFactory;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Two ranks on one node through the public API: rank 0 sends short and medium requests to rank 1, which replies to
 * each; both spin on {@code Bundle.poll()} of a SEQ bundle (its flat loop over the shared-memory receive queues).
 * After a warm-up, each rank counts the bytes its thread allocates over the measured round trips and prints
 * {@code rank R allocated B bytes in N round trips}.
 */
public final class PollAllocationMain
{
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;
    private static final int MEDIUM_BYTES = 64;

    private PollAllocationMain()
    {
    }

    private static void sendRoundTrips(
        final Bundle bundle, final Endpoint endpoint, final long[] counts, final UnsafeBuffer payload, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final boolean medium = (i & 1) != 0;
            final long expected = counts[1] + 1 + (medium ? MEDIUM_BYTES : 0);
            if (medium)
            {
                endpoint.requestMedium(1, H_REQUEST, payload, 0, MEDIUM_BYTES, 1);
            }
            else
            {
                endpoint.request(1, H_REQUEST, 1);
            }
            while (counts[1] != expected)
            {
                bundle.poll();
            }
        }
    }

    private static void serve(final Bundle bundle, final long[] counts, final long until)
    {
        while (counts[0] < until)
        {
            bundle.poll();
        }
    }

    /**
     * @param args warm-up round trips, measured round trips.
     */
    public static void main(final String[] args)
    {
        RankSupport.main("PollAllocationMain", () -> run(args));
    }

    private static void run(final String[] args)
    {
        final int warmup = Integer.parseInt(args[0]);
        final int measured = Integer.parseInt(args[1]);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        final long threadId = Thread.currentThread().getId();

        try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + job.rank());
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            final long[] counts = new long[2];
            endpoint.handler(H_REQUEST, (token, msg) ->
            {
                counts[0]++;
                if (0 == msg.dataLength())
                {
                    token.reply(H_REPLY, msg.arg(0));
                }
                else
                {
                    token.replyMedium(H_REPLY, msg.data(), 0, msg.dataLength(), msg.arg(0));
                }
            });
            endpoint.handler(H_REPLY, (token, msg) -> counts[1] += msg.arg(0) + msg.dataLength());
            Peers.mapAll(job, endpoint);
            final String transport = endpoint.translationTransport(1 - job.rank());
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[MEDIUM_BYTES]);
            final int total = warmup + measured;

            // The loops are methods called for the warm-up and again for the measurement: a branch first taken at the
            // measurement's start would deoptimise the compiled loop, and a deoptimisation allocates the objects the
            // compiler had kept in registers.
            final long before;
            if (0 == job.rank())
            {
                sendRoundTrips(bundle, endpoint, counts, payload, warmup / 2);
                sendRoundTrips(bundle, endpoint, counts, payload, warmup - warmup / 2);
                before = threads.getThreadAllocatedBytes(threadId);
                sendRoundTrips(bundle, endpoint, counts, payload, measured);
            }
            else
            {
                serve(bundle, counts, warmup / 2);
                serve(bundle, counts, warmup);
                before = threads.getThreadAllocatedBytes(threadId);
                serve(bundle, counts, total);
            }
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            System.out.println("rank " + job.rank() + " allocated " + allocated + " bytes in " + measured +
                " round trips over " + transport);
            job.barrier();
        }
    }
}
