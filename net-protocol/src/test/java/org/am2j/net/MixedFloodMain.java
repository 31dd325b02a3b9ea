package org.am2j.net;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkData;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.nio.ByteBuffer;
import java.util.BitSet;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.Message;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program: every rank but 0 floods rank 0 with requests, alternately short and medium, keeping a window of them
 * outstanding, with both media open and small queues: with 8 ranks on 2 nodes, ranks 1-3 reach rank 0 through shared
 * memory and ranks 4-7 through the network. Rank 0 checks that each request arrives exactly once (and a medium one
 * with its data), replies to each, that when the first sender's last request arrives every other sender has at least
 * {@code 1/}{@link #MIN_SHARE_AT_FIRST_FINISH} of its requests delivered, and at the end that its per-transport counters saw the same-node senders'
 * requests on shared memory only and the others' on the network only. Each sender times its flood from a common barrier to
 * its last reply; rank 0 gathers the times and fails when the slowest sender took more than {@link #MAX_SPREAD}
 * times the fastest: the receiver's polling must not starve either medium.
 * <p>
 * Arguments: requests per sender.
 */
public final class MixedFloodMain
{
    /** The slowest sender's time over the fastest's beyond which a medium counts as starved. */
    static final double MAX_SPREAD = 3.0;
    /**
     * When the first sender is done, every other must have at least 1/this of its requests delivered: a medium the
     * receiver never polled would be near 0. Not stricter: on 2 CPUs the shared-memory senders are measured at 12-20%
     * when the first network sender finishes (and then finish in a fraction of the time), with 8- and 64-packet
     * queues alike, so it is not their back-off on a full queue; the cause is not found yet.
     */
    static final int MIN_SHARE_AT_FIRST_FINISH = 50;
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;
    private static final int WINDOW = 32;
    private static final int MEDIUM_BYTES = 256;

    private final int requests;
    private Job job;
    private int rank;
    private int size;
    private Endpoint endpoint;
    private BitSet[] seen;
    private int[] counts;
    private boolean firstFinished;
    private String firstFinishProgress = "";
    private String[] nodes;
    private long received;
    private int replies;

    private MixedFloodMain(final int requests)
    {
        this.requests = requests;
    }

    public static void main(final String[] args)
    {
        RankSupport.main("MixedFloodMain", () -> new MixedFloodMain(Integer.parseInt(args[0])).run());
    }

    private void run() throws Exception
    {
        job = Spmd.init();
        rank = job.rank();
        size = job.size();
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank);
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, (token, msg) -> fail("rank " + rank + ": returned message " + msg.returnStatus()));
            endpoint.handler(H_REQUEST, this::onRequest);
            endpoint.handler(H_REPLY, this::onReply);
            mapRankZero();
            seen = new BitSet[size];
            counts = new int[size];
            for (int q = 0; q < size; q++)
            {
                seen[q] = new BitSet(requests);
            }
            job.barrier();
            final long start = System.nanoTime();
            if (0 == rank)
            {
                receive(bundle);
            }
            else
            {
                flood(bundle);
            }
            final long elapsedNs = System.nanoTime() - start;
            final byte[][] times = job.allGather(ByteBuffer.allocate(Long.BYTES).putLong(elapsedNs).array());
            if (0 == rank)
            {
                checkCountersAndSpread(times);
            }
            job.barrier();
        }
        job.close();
    }

    private void mapRankZero()
    {
        final byte[] name = endpoint.name().toBytes();
        final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name)
            .array());
        nodes = new String[all.length];
        for (int q = 0; q < all.length; q++)
        {
            final ByteBuffer entry = ByteBuffer.wrap(all[q]);
            final long tag = entry.getLong();
            final byte[] bytes = new byte[entry.remaining()];
            entry.get(bytes);
            final EndpointName peer = EndpointName.fromBytes(bytes);
            nodes[q] = peer.node();
            if (0 == q)
            {
                endpoint.map(0, peer, tag);
            }
        }
    }

    private void flood(final Bundle bundle)
    {
        final UnsafeBuffer data = new UnsafeBuffer(new byte[MEDIUM_BYTES]);
        final long deadline = RankSupport.deadline(60_000);
        int sent = 0;
        while (replies < requests)
        {
            while (sent < requests && sent - replies < WINDOW)
            {
                if (0 == (sent & 1))
                {
                    checkEquals(Am.OK, endpoint.request(0, H_REQUEST, rank, sent), "short request " + sent);
                }
                else
                {
                    RankSupport.fill(data, 0, MEDIUM_BYTES, pattern(rank, sent, 0, 7));
                    checkEquals(Am.OK, endpoint.requestMedium(0, H_REQUEST, data, 0, MEDIUM_BYTES, rank, sent),
                        "medium request " + sent);
                }
                sent++;
            }
            if (0 == bundle.poll())
            {
                if (RankSupport.expired(deadline))
                {
                    fail("sender " + rank + ": " + replies + " replies of " + requests + " after 60 s");
                }
                RankSupport.idle(bundle, 200);
            }
        }
    }

    private void receive(final Bundle bundle)
    {
        final long expected = (long)(size - 1) * requests;
        final long deadline = RankSupport.deadline(60_000);
        while (received < expected)
        {
            if (0 == bundle.poll())
            {
                if (RankSupport.expired(deadline))
                {
                    fail("rank 0: " + received + " requests of " + expected + " after 60 s");
                }
                RankSupport.idle(bundle, 200);
            }
        }
    }

    private void onRequest(final Token token, final Message msg)
    {
        final int sender = msg.arg(0);
        final int seq = msg.arg(1);
        check(sender > 0 && sender < size && seq >= 0 && seq < requests, "request from " + sender + " seq " + seq);
        check(!seen[sender].get(seq), "request " + seq + " of sender " + sender + " arrived twice");
        seen[sender].set(seq);
        if (++counts[sender] == requests && !firstFinished)
        {
            // Starvation, checked directly: when the first sender is done, no other one may be left far behind.
            firstFinished = true;
            final StringBuilder progress = new StringBuilder();
            for (int q = 1; q < size; q++)
            {
                progress.append(q).append(':').append(counts[q]).append(' ');
                check(counts[q] >= requests / MIN_SHARE_AT_FIRST_FINISH, "a medium starved: when sender " + sender +
                    " finished, sender " + q + " had " + counts[q] + " of " + requests + " requests delivered");
            }
            firstFinishProgress = progress.toString().trim();
        }
        if (0 != (seq & 1))
        {
            checkEquals(MEDIUM_BYTES, msg.dataLength(), "medium request " + seq + " of sender " + sender);
            checkData(msg.data(), 0, MEDIUM_BYTES, pattern(sender, seq, 0, 7),
                "medium request " + seq + " of sender " + sender);
        }
        received++;
        token.reply(H_REPLY, seq);
    }

    private void onReply(final Token token, final Message msg)
    {
        replies++;
    }

    private void checkCountersAndSpread(final byte[][] times)
    {
        long sameNode = 0;
        long otherNode = 0;
        long fastest = Long.MAX_VALUE;
        long slowest = 0;
        final StringBuilder millis = new StringBuilder();
        for (int q = 1; q < size; q++)
        {
            checkEquals(requests, seen[q].cardinality(), "requests of sender " + q);
            if (nodes[0].equals(nodes[q]))
            {
                sameNode++;
            }
            else
            {
                otherNode++;
            }
            final long ns = ByteBuffer.wrap(times[q]).getLong();
            fastest = Math.min(fastest, ns);
            slowest = Math.max(slowest, ns);
            millis.append(q).append(':').append(ns / 1_000_000).append(' ');
        }
        final EndpointStatistics statistics = endpoint.statistics();
        checkEquals(sameNode * requests, statistics.get("shm", EndpointStatistics.Counter.REQUESTS_RECEIVED),
            "requests received over shm");
        checkEquals(otherNode * requests, statistics.get("net", EndpointStatistics.Counter.REQUESTS_RECEIVED),
            "requests received over net");
        check(sameNode > 0 && otherNode > 0, "both media carried senders: " + sameNode + " same-node, " + otherNode +
            " on other nodes");
        System.out.println("flood ok: " + sameNode + " shm senders, " + otherNode + " net senders, " + requests +
            " requests each, exactly once; delivered per sender when the first finished " + firstFinishProgress +
            "; ms per sender " + millis.toString().trim() + "; slowest / fastest " +
            String.format(java.util.Locale.ROOT, "%.2f", (double)slowest / fastest));
        check(slowest <= MAX_SPREAD * fastest, "a medium starved: the slowest sender took " + slowest / 1_000_000 +
            " ms, the fastest " + fastest / 1_000_000 + " ms (more than " + MAX_SPREAD + "x)");
    }
}
