package org.am2j.net;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program for many ranks on few CPUs: every rank sends {@code K} short requests to every other rank, all at
 * once, and waits for every reply, while serving the requests of all the others; each request and reply carries
 * arguments derived from (source, destination, sequence) that the other end checks, and each peer's requests and
 * replies must come in order and exactly {@code K} times. Waits sleep in {@code waitSema}.
 * <p>
 * Arguments: {@code K}, and the seconds a rank may wait in all.
 */
public final class ManyRanksMain
{
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;

    private final int perPeer;
    private final long waitMillis;
    private int rank;
    private final Map<EndpointName, Integer> ranks = new HashMap<>();
    private int[] requestsFrom;
    private int[] repliesFrom;
    private long requests;
    private long replies;

    private ManyRanksMain(final int perPeer, final long waitMillis)
    {
        this.perPeer = perPeer;
        this.waitMillis = waitMillis;
    }

    public static void main(final String[] args)
    {
        RankSupport.main("ManyRanksMain",
            () -> new ManyRanksMain(Integer.parseInt(args[0]), 1000L * Long.parseLong(args[1])).run());
    }

    private void run()
    {
        final Job job = Spmd.init();
        rank = job.rank();
        final int size = job.size();
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank);
        requestsFrom = new int[size];
        repliesFrom = new int[size];
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, (token, msg) -> fail("rank " + rank + ": returned message " + msg.returnStatus() +
                " handler " + msg.handlerIndex()));
            endpoint.handler(H_REQUEST, this::onRequest);
            endpoint.handler(H_REPLY, this::onReply);
            final byte[] name = endpoint.name().toBytes();
            final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name)
                .array());
            for (int q = 0; q < size; q++)
            {
                final ByteBuffer buffer = ByteBuffer.wrap(all[q]);
                final long tag = buffer.getLong();
                final byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                final EndpointName peer = EndpointName.fromBytes(bytes);
                endpoint.map(q, peer, tag);
                ranks.put(peer, q);
            }
            job.barrier();

            final long deadline = RankSupport.deadline(waitMillis);
            for (int m = 0; m < perPeer; m++)
            {
                for (int step = 1; step < size; step++)
                {
                    final int q = (rank + step) % size;
                    endpoint.request(q, H_REQUEST, m, pattern(rank, q, m, 0), pattern(rank, q, m, 1), rank);
                }
            }
            final long expected = (long)(size - 1) * perPeer;
            while (replies < expected || requests < expected)
            {
                if (0 == bundle.poll())
                {
                    if (RankSupport.expired(deadline))
                    {
                        throw fail("rank " + rank + ": after " + waitMillis + " ms, " + replies + " of " + expected +
                            " replies and " + requests + " of " + expected + " requests; replies by rank " +
                            java.util.Arrays.toString(repliesFrom) + ", requests by rank " +
                            java.util.Arrays.toString(requestsFrom));
                    }
                    RankSupport.idle(bundle, 1000);
                }
            }
            for (int q = 0; q < size; q++)
            {
                if (q != rank)
                {
                    checkEquals(perPeer, repliesFrom[q], "rank " + rank + ": replies from rank " + q);
                    checkEquals(perPeer, requestsFrom[q], "rank " + rank + ": requests from rank " + q);
                }
            }
            System.out.println("rank " + rank + " ok: " + replies + " replies, " + requests + " requests");
            // Nobody leaves while a peer may still need this rank's network acknowledgements.
            job.barrier();
        }
        job.close();
    }

    private int sender(final Token token, final int claimed)
    {
        final Integer from = ranks.get(token.sourceName());
        check(null != from, "rank " + rank + ": message from an unknown endpoint " + token.sourceName());
        checkEquals(from, claimed, "rank " + rank + ": the rank a message says it comes from");
        return from;
    }

    private void onRequest(final Token token, final org.am2j.api.Message msg)
    {
        final int from = sender(token, msg.arg(3));
        final int m = requestsFrom[from]++;
        checkEquals(m, msg.arg(0), "rank " + rank + ": sequence of a request from rank " + from);
        checkEquals(pattern(from, rank, m, 0), msg.arg(1), "rank " + rank + ": request " + m + " from " + from);
        checkEquals(pattern(from, rank, m, 1), msg.arg(2), "rank " + rank + ": request " + m + " from " + from);
        requests++;
        token.reply(H_REPLY, m, msg.arg(1) ^ 0x5a5a5a5a, msg.arg(2) ^ 0x5a5a5a5a, rank);
    }

    private void onReply(final Token token, final org.am2j.api.Message msg)
    {
        final int from = sender(token, msg.arg(3));
        final int m = repliesFrom[from]++;
        checkEquals(m, msg.arg(0), "rank " + rank + ": sequence of a reply from rank " + from);
        checkEquals(pattern(rank, from, m, 0) ^ 0x5a5a5a5a, msg.arg(1), "rank " + rank + ": reply " + m);
        checkEquals(pattern(rank, from, m, 1) ^ 0x5a5a5a5a, msg.arg(2), "rank " + rank + ": reply " + m);
        replies++;
    }
}
