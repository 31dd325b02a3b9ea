package org.am2j.perf;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code am2j scale}: the cost of an empty poll as the number of mapped peers grows, and the memory
 * those peers take. Rank 0 maps the other ranks one after another; at each count of the list it has sent one request
 * to each mapped peer and had the reply (so every transport has set up what it keeps per peer), then times
 * {@code polls} calls of {@link Bundle#poll()} that find nothing, five times, and measures the heap after a
 * collection and the direct and mapped buffers. A first round before the first count is not reported. The other ranks serve until rank 0 is done, asleep in
 * {@code waitSema}.
 * <p>
 * Arguments: the medium's label (for the lines), the peer counts ascending (e.g. {@code 1,8,32}, the largest at
 * most the ranks less one), the polls of one timing, and the seconds it may take. Rank 0 prints, for each count,
 * {@code scale.poll medium= peers= ns_per_poll= ns_per_poll_min= heap_b= direct_b= mapped_b=}.
 */
public final class ScalePollMain
{
    private static final int H_PING = 1;
    private static final int H_PONG = 2;
    private static final int H_DONE = 3;
    private static final int TIMINGS = 5;

    private int pongs;
    private boolean done;

    private ScalePollMain()
    {
    }

    /**
     * @param args medium label, peer counts, polls, seconds.
     */
    public static void main(final String[] args)
    {
        final int[] counts = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        new ScalePollMain().run(args[0], counts, Integer.parseInt(args[2]), Long.parseLong(args[3]));
    }

    private void run(final String medium, final int[] counts, final int polls, final long seconds)
    {
        final long deadline = ScaleRank.deadline(seconds);
        try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(H_PING, (token, msg) -> token.reply(H_PONG));
            endpoint.handler(H_PONG, (token, msg) -> pongs++);
            endpoint.handler(H_DONE, (token, msg) -> done = true);
            final long[] tags = new long[job.size()];
            final EndpointName[] names = ScaleRank.exchangeNames(job, endpoint, tags);
            final int largest = counts[counts.length - 1];
            if (largest > job.size() - 1)
            {
                throw new IllegalArgumentException(largest + " peers need " + (largest + 1) + " ranks, not " +
                    job.size());
            }
            job.barrier();
            if (0 == job.rank())
            {
                int mapped = 0;
                // A first round, not reported, so that what start-up left behind is collected before the first
                // figure and classes the measurement itself needs are loaded.
                warmUp(bundle, polls);
                for (final int count : counts)
                {
                    while (mapped < count)
                    {
                        mapped++;
                        endpoint.map(mapped, names[mapped], tags[mapped]);
                        endpoint.request(mapped, H_PING);
                    }
                    while (pongs < mapped)
                    {
                        ScaleRank.pollOrSleep(bundle, deadline, "replies of " + mapped + " peers");
                    }
                    measure(count, bundle, polls);
                }
                for (int q = 1; q <= mapped; q++)
                {
                    endpoint.request(q, H_DONE);
                }
                for (int q = mapped + 1; q < job.size(); q++)
                {
                    endpoint.map(q, names[q], tags[q]);
                    endpoint.request(q, H_DONE);
                }
            }
            else
            {
                while (!done)
                {
                    ScaleRank.pollOrSleep(bundle, deadline, "rank 0 to finish");
                }
            }
            // Nobody leaves while a peer may still need its acknowledgements.
            job.barrier();
        }
    }

    private static void warmUp(final Bundle bundle, final int polls)
    {
        for (int i = 0; i < Math.max(polls, 100_000); i++)
        {
            bundle.poll();
        }
        heapAfterCollection();
    }

    /**
     * @return the least heap in use after each of three collections: what is live, less what a collection that
     * ran late would still count.
     */
    private static long heapAfterCollection()
    {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++)
        {
            System.gc();
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    private static void measure(final int peers, final Bundle bundle, final int polls)
    {
        for (int i = 0; i < Math.max(polls, 100_000); i++)
        {
            bundle.poll();
        }
        final double[] ns = new double[TIMINGS];
        for (int t = 0; t < TIMINGS; t++)
        {
            int handled = 0;
            final long begin = System.nanoTime();
            for (int i = 0; i < polls; i++)
            {
                handled += bundle.poll();
            }
            ns[t] = (double)(System.nanoTime() - begin) / polls;
            if (0 != handled)
            {
                throw new IllegalStateException("an empty poll handled " + handled + " messages");
            }
        }
        Arrays.sort(ns);
        final long heap = heapAfterCollection();
        long direct = 0;
        long mapped = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if ("direct".equals(pool.getName()))
            {
                direct = pool.getMemoryUsed();
            }
            else if ("mapped".equals(pool.getName()))
            {
                mapped = pool.getMemoryUsed();
            }
        }
        System.out.println(ScaleLine.format("poll", new ScaleLine.Poll(peers, MachineReport.round(ns[TIMINGS / 2], 10),
            MachineReport.round(ns[0], 10), heap, direct, mapped)));
    }
}
