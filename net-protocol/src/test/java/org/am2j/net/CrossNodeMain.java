package org.am2j.net;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkData;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program: every rank sends every other rank every message kind (short with 0..8 arguments; medium and long
 * with 0..8 arguments and 0, 1, 63, 64, 1500, 4095, 8192 bytes), one at a time, and checks the reply, which echoes
 * arguments and data; the receiver checks each request too. It checks that each translation uses the expected
 * transport (same JVM, when it holds several ranks as threads: {@code inproc}; same node: {@code shm} when shared
 * memory is open, else {@code net}; other nodes: {@code net}) and, at the end, that the per-transport counters show
 * each request on that transport only.
 * <p>
 * Arguments: rounds, and {@code multi} (shared memory and network open) or {@code net} (network only).
 */
public final class CrossNodeMain
{
    static final int[] SIZES = {0, 1, 63, 64, 1500, 4095, 8192};
    /** Messages to each peer per round: 9 short, 63 medium, 63 long. */
    static final int MESSAGES = 9 + 2 * 9 * SIZES.length;
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;
    private static final int REGION = Am.MAX_LONG;

    private final int rounds;
    private final boolean shmOpen;
    private Job job;
    private int rank;
    private int size;
    private Endpoint endpoint;
    private final Map<EndpointName, Integer> ranks = new HashMap<>();
    private int[] nextRequest;
    private int[] nextReply;
    private long handled;

    private CrossNodeMain(final int rounds, final boolean shmOpen)
    {
        this.rounds = rounds;
        this.shmOpen = shmOpen;
    }

    public static void main(final String[] args)
    {
        RankSupport.main("CrossNodeMain", () -> new CrossNodeMain(Integer.parseInt(args[0]), "multi".equals(args[1])).run());
    }

    private void run() throws Exception
    {
        job = Spmd.init();
        rank = job.rank();
        size = job.size();
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank);
        nextRequest = new int[size];
        nextReply = new int[size];
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, (token, msg) -> fail("rank " + rank + ": returned message " + msg.returnStatus() +
                " handler " + msg.handlerIndex() + " args " + msg.argCount()));
            endpoint.handler(H_REQUEST, this::onRequest);
            endpoint.handler(H_REPLY, this::onReply);
            final AtomicBuffer segment = endpoint.allocateSegment(2 * size * REGION);
            check(null != segment, "no segment");
            mapAll();
            int sameJvmPeers = 0;
            int sameNodePeers = 0;
            int otherNodePeers = 0;
            for (int q = 0; q < size; q++)
            {
                final String transport = endpoint.translationTransport(q);
                final boolean sameNode = endpoint.translationName(q).node().equals(endpoint.name().node());
                final boolean sameJvm = endpoint.translationName(q).processId() == endpoint.name().processId();
                final String expected = q == rank || sameJvm ? "inproc" : sameNode && shmOpen ? "shm" : "net";
                check(expected.equals(transport), "rank " + rank + ": translation " + q + " uses " + transport +
                    ", expected " + expected);
                if (q != rank)
                {
                    if ("inproc".equals(transport))
                    {
                        sameJvmPeers++;
                    }
                    else if ("shm".equals(transport))
                    {
                        sameNodePeers++;
                    }
                    else
                    {
                        otherNodePeers++;
                    }
                }
            }
            job.barrier();
            final int perPeer = rounds * MESSAGES;
            for (int step = 1; step < size; step++)
            {
                final int q = (rank + step) % size;
                for (int m = 0; m < perPeer; m++)
                {
                    send(q, m);
                    final long deadline = RankSupport.deadline(20_000);
                    while (nextReply[q] == m)
                    {
                        serve(bundle, deadline, "reply " + m + " from rank " + q);
                    }
                }
            }
            // Serve the others until every one of them has sent us everything.
            final long deadline = RankSupport.deadline(30_000);
            for (int q = 0; q < size; q++)
            {
                while (q != rank && nextRequest[q] < perPeer)
                {
                    serve(bundle, deadline, "requests from rank " + q);
                }
            }
            final EndpointStatistics statistics = endpoint.statistics();
            final long shmRequests = statistics.get("shm", EndpointStatistics.Counter.REQUESTS_SENT);
            final long netRequests = statistics.get("net", EndpointStatistics.Counter.REQUESTS_SENT);
            checkEquals((long)sameJvmPeers * perPeer, statistics.get("inproc", EndpointStatistics.Counter.REQUESTS_SENT),
                "rank " + rank + ": requests sent in-process");
            checkEquals((long)sameNodePeers * perPeer, shmRequests, "rank " + rank + ": requests sent over shm");
            checkEquals((long)otherNodePeers * perPeer, netRequests, "rank " + rank + ": requests sent over net");
            // Replies travel by the medium of their request: as many replies on each transport as requests came in.
            long shmHandled = 0;
            long netHandled = 0;
            for (int q = 0; q < size; q++)
            {
                if (q != rank && !"inproc".equals(endpoint.translationTransport(q)))
                {
                    if ("shm".equals(endpoint.translationTransport(q)))
                    {
                        shmHandled += nextRequest[q];
                    }
                    else
                    {
                        netHandled += nextRequest[q];
                    }
                }
            }
            checkEquals(shmHandled, statistics.get("shm", EndpointStatistics.Counter.REPLIES_SENT),
                "rank " + rank + ": replies sent over shm");
            checkEquals(netHandled, statistics.get("net", EndpointStatistics.Counter.REPLIES_SENT),
                "rank " + rank + ": replies sent over net");
            checkEquals(shmHandled, statistics.get("shm", EndpointStatistics.Counter.REQUESTS_RECEIVED),
                "rank " + rank + ": requests received over shm");
            checkEquals(netHandled, statistics.get("net", EndpointStatistics.Counter.REQUESTS_RECEIVED),
                "rank " + rank + ": requests received over net");
            System.out.println("rank " + rank + " ok: handled " + handled + " requests; shm " + shmRequests +
                " net " + netRequests);
            job.barrier();
        }
        job.close();
    }

    private void serve(final Bundle bundle, final long deadline, final String what)
    {
        if (RankSupport.expired(deadline))
        {
            fail("rank " + rank + ": timed out waiting for " + what);
        }
        if (0 == bundle.poll())
        {
            RankSupport.idle(bundle, 200);
        }
    }

    private void mapAll()
    {
        final byte[] name = endpoint.name().toBytes();
        final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name).array());
        for (int q = 0; q < all.length; q++)
        {
            final ByteBuffer buffer = ByteBuffer.wrap(all[q]);
            final long tag = buffer.getLong();
            final byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            final EndpointName peer = EndpointName.fromBytes(bytes);
            endpoint.map(q, peer, tag);
            ranks.put(peer, q);
        }
    }

    private static MessageCategory category(final int m)
    {
        final int index = m % MESSAGES;
        return index < 9 ? MessageCategory.SHORT : index < 9 + 9 * SIZES.length ? MessageCategory.MEDIUM :
            MessageCategory.LONG;
    }

    private static int argCount(final int m)
    {
        final int index = m % MESSAGES;
        return index < 9 ? index : (index - 9) % 9;
    }

    private static int length(final int m)
    {
        final int index = m % MESSAGES;
        return index < 9 ? 0 : SIZES[((index - 9) % (9 * SIZES.length)) / 9];
    }

    private void send(final int q, final int m)
    {
        final MessageCategory category = category(m);
        final int argc = argCount(m);
        final int length = length(m);
        final int seed = pattern(rank, q, m, 99);
        final org.agrona.concurrent.UnsafeBuffer data = new org.agrona.concurrent.UnsafeBuffer(new byte[Math.max(1, length)]);
        RankSupport.fill(data, 0, length, seed);
        final int[] a = new int[8];
        for (int i = 0; i < argc; i++)
        {
            a[i] = pattern(rank, q, m, i);
        }
        endpoint.requestN(q, category, H_REQUEST, MessageCategory.SHORT == category ? null : data, 0, length,
            MessageCategory.LONG == category ? (long)rank * REGION : -1, false, argc,
            a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    }

    private void checkMessage(final int from, final int to, final int m, final Message msg, final String what)
    {
        checkEquals(argCount(m), msg.argCount(), what + " argument count");
        for (int i = 0; i < msg.argCount(); i++)
        {
            checkEquals(pattern(from, to, m, i), msg.arg(i), what + " argument " + i);
        }
        checkEquals(length(m), msg.dataLength(), what + " length");
        checkData(msg.data(), 0, msg.dataLength(), pattern(from, to, m, 99), what + " data");
    }

    private void onRequest(final Token token, final Message msg)
    {
        final Integer from = ranks.get(token.sourceName());
        check(null != from, "rank " + rank + ": request from an unknown endpoint " + token.sourceName());
        final int m = nextRequest[from]++;
        checkMessage(from, rank, m, msg, "rank " + rank + ": request " + m + " from " + from);
        handled++;
        final MessageCategory category = category(m);
        final int argc = msg.argCount();
        final int[] a = new int[8];
        for (int i = 0; i < argc; i++)
        {
            a[i] = msg.arg(i);
        }
        final DirectBuffer data = msg.data();
        token.replyN(category, H_REPLY, MessageCategory.SHORT == category ? null : data, 0, msg.dataLength(),
            MessageCategory.LONG == category ? (long)(size + rank) * REGION : -1, argc,
            a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    }

    private void onReply(final Token token, final Message msg)
    {
        final Integer from = ranks.get(token.sourceName());
        check(null != from, "rank " + rank + ": reply from an unknown endpoint " + token.sourceName());
        final int m = nextReply[from]++;
        checkMessage(rank, from, m, msg, "rank " + rank + ": reply " + m + " from " + from);
    }
}
