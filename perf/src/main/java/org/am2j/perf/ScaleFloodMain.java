package org.am2j.perf;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code am2j scale}: an all-to-all of short requests. Every rank sends the same number of requests
 * to every other rank, peers in turn, with at most {@code window} waiting for their replies, while serving the
 * requests of the others; with two ranks this is a ping-pong flood. An untimed pass of a tenth of the requests warms
 * up; the timed pass runs from a barrier until this rank has every reply and every request of its peers.
 * <p>
 * Arguments: requests per rank (split evenly over its peers), the window, the seconds it may take. Each rank prints
 * {@code scale.flood rank= ranks= round_trips= seconds=}.
 */
public final class ScaleFloodMain
{
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;

    private long replies;
    private long requests;

    private ScaleFloodMain()
    {
    }

    /**
     * @param args requests per rank, window, seconds.
     */
    public static void main(final String[] args)
    {
        new ScaleFloodMain().run(Long.parseLong(args[0]), Integer.parseInt(args[1]), Long.parseLong(args[2]));
    }

    private void run(final long perRank, final int window, final long seconds)
    {
        final long deadline = ScaleRank.deadline(seconds);
        try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final int rank = job.rank();
            final int size = job.size();
            if (size < 2)
            {
                throw new IllegalArgumentException("an all-to-all needs at least 2 ranks");
            }
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(H_REQUEST, (token, msg) ->
            {
                requests++;
                token.reply(H_REPLY, msg.arg(0));
            });
            endpoint.handler(H_REPLY, (token, msg) -> replies++);
            final long[] tags = new long[size];
            final EndpointName[] names = ScaleRank.exchangeNames(job, endpoint, tags);
            for (int q = 0; q < size; q++)
            {
                endpoint.map(q, names[q], tags[q]);
            }
            final long perPeer = Math.max(1, perRank / (size - 1));
            job.barrier();
            pass(job, bundle, endpoint, Math.max(1, perPeer / 10), window, deadline);
            job.barrier();
            final long begin = System.nanoTime();
            pass(job, bundle, endpoint, perPeer, window, deadline);
            final double elapsed = (System.nanoTime() - begin) / 1e9;
            System.out.println(ScaleLine.format("flood", new ScaleLine.Flood(rank, size, perPeer * (size - 1),
                MachineReport.round(elapsed, 1_000_000))));
            job.barrier();
        }
    }

    private void pass(
        final Job job, final Bundle bundle, final Endpoint endpoint, final long perPeer, final int window,
        final long deadline)
    {
        final int size = job.size();
        final int rank = job.rank();
        replies = 0;
        requests = 0;
        final long total = perPeer * (size - 1);
        long sent = 0;
        while (sent < total)
        {
            while (sent - replies >= window)
            {
                ScaleRank.pollOrSleep(bundle, deadline, "replies");
            }
            final int q = (int)((rank + 1 + sent % (size - 1)) % size);
            endpoint.request(q, H_REQUEST, (int)sent);
            sent++;
        }
        while (replies < total || requests < total)
        {
            ScaleRank.pollOrSleep(bundle, deadline, replies + " of " + total + " replies, " + requests + " of " +
                total + " requests");
        }
    }
}
