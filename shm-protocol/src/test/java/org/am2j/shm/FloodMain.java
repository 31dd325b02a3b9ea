package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkData;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
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
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code FloodTest}: ranks 1..P-1 flood rank 0 with {@code n} requests each, short and medium mixed,
 * arguments (sender, sequence number, pattern...). Rank 0 checks that every sender's sequence numbers arrive exactly
 * once and in order, checks arguments and data, and replies to each; each sender checks its replies the same way and
 * waits for all of them. With {@code both}, rank 0 also sends {@code n0} requests to every sender while they flood
 * it, and waits for their replies. Usage: {@code FloodMain n oneway|both n0}.
 */
public final class FloodMain
{
    static final int H_FLOOD_SHORT = 1;
    static final int H_FLOOD_MEDIUM = 2;
    static final int H_REPLY_SHORT = 3;
    static final int H_REPLY_MEDIUM = 4;
    static final int H_FROM_ZERO = 5;
    static final int H_FROM_ZERO_REPLY = 6;
    static final int[] MEDIUM_SIZES = { 1, 100, 1000, 4096, 8192 };
    static final int SALT = 0x3333;
    static final int REPLY_SALT = 0x4444;

    private final Job job;
    private final Endpoint endpoint;
    private final int rank;
    private final int size;
    private final int n;
    private final boolean both;
    private final int n0;
    private final Map<EndpointName, Integer> ranks = new HashMap<>();
    private final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
    private final UnsafeBuffer replyData = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
    /** At rank 0: next sequence number expected from each sender, and next reply from each sender (both). */
    private final int[] nextFrom;
    private final int[] nextReplyFrom;
    /** At a sender: next reply expected from rank 0, next request expected from rank 0 (both). */
    private int nextReply;
    private int nextRequestFromZero;

    private FloodMain(final Job job, final Endpoint endpoint, final int n, final boolean both, final int n0)
    {
        this.job = job;
        this.endpoint = endpoint;
        this.rank = job.rank();
        this.size = job.size();
        this.n = n;
        this.both = both;
        this.n0 = n0;
        this.nextFrom = new int[size];
        this.nextReplyFrom = new int[size];
    }

    public static void main(final String[] args)
    {
        RankSupport.main("FloodMain", () ->
        {
            final int n = Integer.parseInt(args[0]);
            final boolean both = "both".equals(args[1]);
            final int n0 = Integer.parseInt(args[2]);
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" +
                    job.rank());
                final Endpoint endpoint = bundle.allocateEndpoint();
                endpoint.tag(Tags.fresh());
                new FloodMain(job, endpoint, n, both, n0).run(bundle);
            }
        });
    }

    private void run(final Bundle bundle)
    {
        endpoint.handler(0, (token, msg) -> fail("rank " + rank + ": returned message " + msg.returnStatus() + " " +
            msg.opcode() + " handler " + msg.handlerIndex()));
        if (0 == rank)
        {
            endpoint.handler(H_FLOOD_SHORT, this::onFlood);
            endpoint.handler(H_FLOOD_MEDIUM, this::onFlood);
            endpoint.handler(H_FROM_ZERO_REPLY, this::onReplyToZero);
        }
        else
        {
            endpoint.handler(H_REPLY_SHORT, this::onFloodReply);
            endpoint.handler(H_REPLY_MEDIUM, this::onFloodReply);
            endpoint.handler(H_FROM_ZERO, this::onRequestFromZero);
        }
        Peers.mapAll(job, endpoint);
        for (int q = 0; q < size; q++)
        {
            ranks.put(endpoint.translationName(q), q);
            check(q == rank || "shm".equals(endpoint.translationTransport(q)),
                "rank " + rank + ": translation " + q + " uses " + endpoint.translationTransport(q));
        }
        job.barrier();
        final long start = System.nanoTime();

        if (0 == rank)
        {
            if (both)
            {
                for (int seq = 0; seq < n0; seq++)
                {
                    for (int q = 1; q < size; q++)
                    {
                        checkEquals(Am.OK, endpoint.request(q, H_FROM_ZERO, seq, pattern(q, seq, 0, SALT)),
                            "request to " + q);
                    }
                }
            }
            final long expectedRequests = (long)(size - 1) * n;
            final long expectedReplies = both ? (long)(size - 1) * n0 : 0;
            await(bundle, () -> sum(nextFrom) >= expectedRequests && sum(nextReplyFrom) >= expectedReplies,
                () -> "requests per sender " + Arrays.toString(nextFrom) + " replies per sender " +
                    Arrays.toString(nextReplyFrom));
            for (int q = 1; q < size; q++)
            {
                checkEquals(n, nextFrom[q], "requests from " + q);
                checkEquals(both ? n0 : 0, nextReplyFrom[q], "replies from " + q);
            }
        }
        else
        {
            for (int seq = 0; seq < n; seq++)
            {
                sendFlood(seq);
            }
            await(bundle, () -> nextReply >= n && nextRequestFromZero >= (both ? n0 : 0),
                () -> "replies " + nextReply + " of " + n + ", requests from 0: " + nextRequestFromZero);
            checkEquals(n, nextReply, "replies");
            checkEquals(both ? n0 : 0, nextRequestFromZero, "requests from rank 0");
        }
        final long micros = (System.nanoTime() - start) / 1000;
        final EndpointStatistics statistics = endpoint.statistics();
        System.out.println("rank " + rank + " ok in " + micros + " us: backoffs=" +
            statistics.get("shm", EndpointStatistics.Counter.QUEUE_FULL_BACKOFFS) + " drops=" +
            statistics.get("shm", EndpointStatistics.Counter.DROPS));
        job.barrier();
    }

    private static long sum(final int[] values)
    {
        long sum = 0;
        for (final int v : values)
        {
            sum += v;
        }
        return sum;
    }

    private void sendFlood(final int seq)
    {
        final int argCount = 2 + seq % 7;
        final boolean medium = 0 == seq % 3;
        final int length = medium ? MEDIUM_SIZES[(seq / 3) % MEDIUM_SIZES.length] : 0;
        if (medium)
        {
            RankSupport.fill(data, 0, length, pattern(rank, seq, -1, SALT));
        }
        final int status = endpoint.requestN(0, medium ? MessageCategory.MEDIUM : MessageCategory.SHORT,
            medium ? H_FLOOD_MEDIUM : H_FLOOD_SHORT, medium ? data : null, 0, length, -1, false, argCount,
            rank, seq, pattern(rank, seq, 2, SALT), pattern(rank, seq, 3, SALT), pattern(rank, seq, 4, SALT),
            pattern(rank, seq, 5, SALT), pattern(rank, seq, 6, SALT), pattern(rank, seq, 7, SALT));
        checkEquals(Am.OK, status, "rank " + rank + ": flood request " + seq);
    }

    private int source(final Token token)
    {
        final Integer s = ranks.get(token.sourceName());
        if (null == s)
        {
            fail("rank " + rank + ": message from unknown source " + token.sourceName());
        }
        return s;
    }

    /** At rank 0. */
    private void onFlood(final Token token, final Message msg)
    {
        final int s = source(token);
        check(msg.argCount() >= 2, "flood message with " + msg.argCount() + " arguments from " + s);
        checkEquals(s, msg.arg(0), "sender argument of a message from " + s);
        final int seq = msg.arg(1);
        final String what = "rank 0: flood message " + seq + " from " + s;
        if (seq != nextFrom[s])
        {
            fail(what + ": expected sequence number " + nextFrom[s] + (seq < nextFrom[s] ? " (duplicate or reordered)" :
                " (lost " + (seq - nextFrom[s]) + ")"));
        }
        nextFrom[s]++;
        checkEquals(2 + seq % 7, msg.argCount(), what + ": argument count");
        for (int i = 2; i < msg.argCount(); i++)
        {
            checkEquals(pattern(s, seq, i, SALT), msg.arg(i), what + ": argument " + i);
        }
        final boolean medium = 0 == seq % 3;
        checkEquals(medium ? H_FLOOD_MEDIUM : H_FLOOD_SHORT, msg.handlerIndex(), what + ": handler");
        final int length = medium ? MEDIUM_SIZES[(seq / 3) % MEDIUM_SIZES.length] : 0;
        checkEquals(length, msg.dataLength(), what + ": data length");
        checkData(msg.data(), 0, length, pattern(s, seq, -1, SALT), what);

        if (0 == seq % 4)
        {
            final int replyLength = 64 + seq % 100;
            RankSupport.fill(replyData, 0, replyLength, pattern(s, seq, -1, REPLY_SALT));
            token.replyMedium(H_REPLY_MEDIUM, replyData, 0, replyLength, seq, pattern(s, seq, 1, REPLY_SALT));
        }
        else
        {
            token.reply(H_REPLY_SHORT, seq, pattern(s, seq, 1, REPLY_SALT));
        }
    }

    /** At a sender. */
    private void onFloodReply(final Token token, final Message msg)
    {
        checkEquals(0, source(token), "rank " + rank + ": source of a flood reply");
        final int seq = msg.arg(0);
        final String what = "rank " + rank + ": reply " + seq;
        if (seq != nextReply)
        {
            fail(what + ": expected reply " + nextReply);
        }
        nextReply++;
        checkEquals(pattern(rank, seq, 1, REPLY_SALT), msg.arg(1), what + ": argument 1");
        final boolean medium = 0 == seq % 4;
        checkEquals(medium ? H_REPLY_MEDIUM : H_REPLY_SHORT, msg.handlerIndex(), what + ": handler");
        final int length = medium ? 64 + seq % 100 : 0;
        checkEquals(length, msg.dataLength(), what + ": data length");
        checkData(msg.data(), 0, length, pattern(rank, seq, -1, REPLY_SALT), what);
    }

    /** At a sender, both directions. */
    private void onRequestFromZero(final Token token, final Message msg)
    {
        checkEquals(0, source(token), "rank " + rank + ": source of a request from rank 0");
        final int seq = msg.arg(0);
        if (seq != nextRequestFromZero)
        {
            fail("rank " + rank + ": request " + seq + " from rank 0, expected " + nextRequestFromZero);
        }
        nextRequestFromZero++;
        checkEquals(pattern(rank, seq, 0, SALT), msg.arg(1), "rank " + rank + ": request " + seq + " argument 1");
        token.reply(H_FROM_ZERO_REPLY, seq, rank);
    }

    /** At rank 0, both directions. */
    private void onReplyToZero(final Token token, final Message msg)
    {
        final int s = source(token);
        final int seq = msg.arg(0);
        if (seq != nextReplyFrom[s])
        {
            fail("rank 0: reply " + seq + " from " + s + ", expected " + nextReplyFrom[s]);
        }
        nextReplyFrom[s]++;
        checkEquals(s, msg.arg(1), "rank 0: reply " + seq + " from " + s + " argument 1");
    }

    private interface Condition
    {
        boolean done();
    }

    private interface Description
    {
        String describe();
    }

    private void await(final Bundle bundle, final Condition done, final Description state)
    {
        final long deadline = RankSupport.deadline(40_000);
        while (!done.done())
        {
            if (0 == bundle.poll())
            {
                if (RankSupport.expired(deadline))
                {
                    fail("rank " + rank + ": incomplete after 40 s: " + state.describe());
                }
                RankSupport.idle(bundle, 500);
            }
        }
    }
}
