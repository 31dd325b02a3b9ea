package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkData;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.ShmDirectories;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code AllKindsTest}: every rank sends every other rank every message kind with every argument
 * count 0..8 and payload sizes 0, 1, 63, 64, 4095, 8192, in two phases:
 * <ol>
 *   <li>short, medium, and long into the receiver's segment from {@code allocateSegment} (shared memory: the sender
 *       deposits straight into it);</li>
 *   <li>long into a user segment set with {@code segment(...)} (private memory: through the bulk queue).</li>
 * </ol>
 * Message k from sender s to receiver q is fully determined by (s, k): its kind, handler, argument count, arguments,
 * data and segment offset. Messages of one sender to one receiver arrive in order (one packet queue), so each side
 * knows which message it is looking at and verifies every field. Every request is answered with the reply kind
 * k mod 3 (short, medium, long), also determined by (q, k), which the requester verifies the same way.
 * Usage: {@code AllKindsMain [rounds]}.
 */
public final class AllKindsMain
{
    static final int[] SIZES = { 0, 1, 63, 64, 4095, 8192 };
    static final int ARG_COUNTS = Am.MAX_SHORT + 1;
    static final int SHORTS = ARG_COUNTS;
    static final int PER_KIND = ARG_COUNTS * SIZES.length;
    /** Messages of phase 1 per sender and receiver: short, medium, long into the shared segment. */
    static final int PHASE1 = SHORTS + 2 * PER_KIND;
    /** Messages of both phases per sender and receiver. */
    static final int MESSAGES = PHASE1 + PER_KIND;
    /** Room for one long message in a segment, with up to 63 bytes of misalignment. */
    static final int SLOT = Am.MAX_LONG + 64;

    static final int H_SHORT = 2;
    static final int H_MEDIUM = 3;
    static final int H_LONG = 4;
    static final int H_REPLY_SHORT = 10;
    static final int H_REPLY_MEDIUM = 11;
    static final int H_REPLY_LONG = 12;
    static final int REQUEST_SALT = 0x1111;
    static final int REPLY_SALT = 0x2222;

    private final Job job;
    private final Endpoint endpoint;
    private final int rank;
    private final int size;
    private final int rounds;
    private final int messages;
    private final int segmentLength;
    private final Map<EndpointName, Integer> ranks = new HashMap<>();
    private final UnsafeBuffer requestData = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
    private final UnsafeBuffer replyData = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
    /** Next message index expected from each sender (requests) and each responder (replies). */
    private final int[] nextRequest;
    private final int[] nextReply;
    /** The segment from allocateSegment (phase 1). */
    private AtomicBuffer sharedSegment;
    private long handled;
    private long replies;

    private AllKindsMain(final Job job, final Endpoint endpoint, final int rounds)
    {
        this.job = job;
        this.endpoint = endpoint;
        this.rank = job.rank();
        this.size = job.size();
        this.rounds = rounds;
        this.messages = rounds * MESSAGES;
        this.segmentLength = 2 * size * messages * SLOT;
        this.nextRequest = new int[size];
        this.nextReply = new int[size];
    }

    public static void main(final String[] args)
    {
        RankSupport.main("AllKindsMain", () ->
        {
            final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1;
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" +
                    job.rank());
                final Endpoint endpoint = bundle.allocateEndpoint();
                endpoint.tag(Tags.fresh());
                new AllKindsMain(job, endpoint, rounds).run(bundle);
            }
        });
    }

    // ---------------------------------------------------------------------------------------------------------------
    // What message k of sender s is
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Messages are numbered in the order they are sent: phase 1 sends {@code rounds} times the {@link #PHASE1}
     * messages, phase 2 {@code rounds} times the {@link #PER_KIND} long messages.
     *
     * @return the index of message k in one round's list of {@link #MESSAGES}.
     */
    int local(final int k)
    {
        final int phase1Messages = rounds * PHASE1;
        return k < phase1Messages ? k % PHASE1 : PHASE1 + (k - phase1Messages) % PER_KIND;
    }

    MessageCategory requestCategory(final int k)
    {
        final int i = local(k);
        return i < SHORTS ? MessageCategory.SHORT : i < SHORTS + PER_KIND ? MessageCategory.MEDIUM :
            MessageCategory.LONG;
    }

    boolean phase1(final int k)
    {
        return local(k) < PHASE1;
    }

    int requestArgCount(final int k)
    {
        final int i = local(k);
        return i < SHORTS ? i : (i - SHORTS) % ARG_COUNTS;
    }

    int requestLength(final int k)
    {
        final int i = local(k);
        return i < SHORTS ? 0 : SIZES[((i - SHORTS) / ARG_COUNTS) % SIZES.length];
    }

    int requestHandler(final int k)
    {
        switch (requestCategory(k))
        {
            case SHORT:
                return H_SHORT;
            case MEDIUM:
                return H_MEDIUM;
            default:
                return H_LONG;
        }
    }

    /** Where the long request k of sender s goes in its receiver's segment: the first half. */
    long requestSegmentOffset(final int sender, final int k)
    {
        return (long)(sender * messages + k) * SLOT + (k % 61);
    }

    static int requestSeed(final int sender, final int k)
    {
        return pattern(sender, k, -1, REQUEST_SALT);
    }

    static MessageCategory replyCategory(final int k)
    {
        switch (k % 3)
        {
            case 0:
                return MessageCategory.SHORT;
            case 1:
                return MessageCategory.MEDIUM;
            default:
                return MessageCategory.LONG;
        }
    }

    static int replyHandler(final int k)
    {
        return H_REPLY_SHORT + k % 3;
    }

    static int replyArgCount(final int k)
    {
        return (k * 7 + 3) % ARG_COUNTS;
    }

    static int replyLength(final int responder, final int k)
    {
        return MessageCategory.SHORT == replyCategory(k) ? 0 : SIZES[(k / 3 + responder) % SIZES.length];
    }

    /** Where the long reply to request k goes in the requester's segment: the second half. */
    long replySegmentOffset(final int responder, final int k)
    {
        return (long)(size + responder) * messages * SLOT + (long)k * SLOT + (k % 53);
    }

    static int replySeed(final int responder, final int k)
    {
        return pattern(responder, k, -1, REPLY_SALT);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The run
    // ---------------------------------------------------------------------------------------------------------------

    private void run(final Bundle bundle) throws Exception
    {
        endpoint.handler(0, (token, msg) -> fail("rank " + rank + ": returned message " + msg.returnStatus() +
            " " + msg.opcode() + " handler " + msg.handlerIndex() + " args " + msg.argCount() +
            (msg.argCount() > 0 ? " a0=" + msg.arg(0) : "")));
        endpoint.handler(H_SHORT, this::onRequest);
        endpoint.handler(H_MEDIUM, this::onRequest);
        endpoint.handler(H_LONG, this::onRequest);
        endpoint.handler(H_REPLY_SHORT, this::onReply);
        endpoint.handler(H_REPLY_MEDIUM, this::onReply);
        endpoint.handler(H_REPLY_LONG, this::onReply);

        sharedSegment = endpoint.allocateSegment(segmentLength);
        check(sharedSegment == endpoint.segment(), "allocateSegment did not install the segment");
        checkEquals(segmentLength, sharedSegment.capacity(), "allocated segment capacity");
        checkSharedSegmentFile();

        Peers.mapAll(job, endpoint);
        for (int q = 0; q < size; q++)
        {
            ranks.put(endpoint.translationName(q), q);
            final String transport = endpoint.translationTransport(q);
            if (q != rank && !"shm".equals(transport))
            {
                fail("rank " + rank + ": translation " + q + " uses transport " + transport + ", expected shm");
            }
            if (q == rank && !"inproc".equals(transport))
            {
                fail("rank " + rank + ": translation to itself uses transport " + transport + ", expected inproc");
            }
        }
        checkEquals(size, ranks.size(), "distinct endpoint names");

        final long expectedPerPeer1 = (long)rounds * PHASE1;
        final long expectedPerPeer2 = (long)rounds * MESSAGES;
        job.barrier();

        // Phase 1: short, medium, long into shared-memory segments.
        sendAll(true);
        awaitAll((size - 1) * expectedPerPeer1, bundle, "phase 1");
        job.barrier();

        // Phase 2: long into user segments that are not in shared memory.
        final UnsafeBuffer userSegment = new UnsafeBuffer(ByteBuffer.allocateDirect(segmentLength));
        endpoint.segment(userSegment);
        check(userSegment == endpoint.segment(), "segment(user) did not install the segment");
        job.barrier();
        sendAll(false);
        awaitAll((size - 1) * expectedPerPeer2, bundle, "phase 2");
        for (int q = 0; q < size; q++)
        {
            if (q != rank)
            {
                checkEquals(rounds * MESSAGES, nextRequest[q], "rank " + rank + ": requests handled from " + q);
                checkEquals(rounds * MESSAGES, nextReply[q], "rank " + rank + ": replies received from " + q);
            }
        }
        System.out.println("rank " + rank + " ok: handled " + handled + " requests, received " + replies +
            " replies");
        job.barrier();
    }

    private void checkSharedSegmentFile()
    {
        final String prefix = ProcessIdentity.currentPid() + "-";
        final String files = RankSupport.listSharedFiles(job.jobId());
        check(java.util.Arrays.stream(files.split(" ")).anyMatch(name ->
            (name.startsWith(prefix) || name.startsWith("memfd:am2j-" + prefix)) && name.contains(".seg")),
            "rank " + rank + ": allocateSegment made no .seg file: " + files);
    }

    private void sendAll(final boolean phase1)
    {
        final int from = phase1 ? 0 : rounds * PHASE1;
        final int to = phase1 ? rounds * PHASE1 : rounds * MESSAGES;
        for (int k = from; k < to; k++)
        {
            for (int d = 1; d < size; d++)
            {
                send((rank + d) % size, k);
            }
        }
    }

    private void send(final int q, final int k)
    {
        final MessageCategory category = requestCategory(k);
        final int argCount = requestArgCount(k);
        final int length = requestLength(k);
        final int seed = requestSeed(rank, k);
        if (length > 0)
        {
            RankSupport.fill(requestData, 0, length, seed);
        }
        final long segmentOffset = MessageCategory.LONG == category ? requestSegmentOffset(rank, k) : -1;
        final int status = endpoint.requestN(q, category, requestHandler(k),
            MessageCategory.SHORT == category ? null : requestData, 0, length, segmentOffset, false, argCount,
            arg(rank, k, 0, REQUEST_SALT), arg(rank, k, 1, REQUEST_SALT), arg(rank, k, 2, REQUEST_SALT),
            arg(rank, k, 3, REQUEST_SALT), arg(rank, k, 4, REQUEST_SALT), arg(rank, k, 5, REQUEST_SALT),
            arg(rank, k, 6, REQUEST_SALT), arg(rank, k, 7, REQUEST_SALT));
        checkEquals(Am.OK, status, "rank " + rank + ": request " + k + " to " + q + " returned");
    }

    private static int arg(final int who, final int k, final int i, final int salt)
    {
        return pattern(who, k, i, salt);
    }

    private int sourceRank(final Token token, final String what)
    {
        final EndpointName source = token.sourceName();
        final Integer s = null == source ? null : ranks.get(source);
        if (null == s)
        {
            fail("rank " + rank + ": " + what + " from unknown source " + source);
        }
        return s;
    }

    private void onRequest(final Token token, final Message msg)
    {
        final int s = sourceRank(token, "request");
        final int k = nextRequest[s]++;
        final String what = "rank " + rank + ": request " + k + " from " + s;
        check(token.isRequest() && msg.isRequest() && !msg.isReturned(), what + ": not a plain request");
        checkEquals(endpoint.tag(), token.messageTag(), what + ": message tag");
        check(token.destination() == endpoint, what + ": destination endpoint");
        check(requestCategory(k) == msg.category(), what + ": category " + msg.category() + ", expected " +
            requestCategory(k));
        checkEquals(requestHandler(k), msg.handlerIndex(), what + ": handler index");
        checkArgs(msg, requestArgCount(k), s, k, REQUEST_SALT, what);
        final int length = requestLength(k);
        checkEquals(length, msg.dataLength(), what + ": data length");
        final int seed = requestSeed(s, k);
        if (MessageCategory.LONG == msg.category())
        {
            final long offset = requestSegmentOffset(s, k);
            checkEquals(offset, msg.segmentOffset(), what + ": segment offset");
            check(phase1(k) == (endpoint.segment() == sharedSegment), what + ": arrived in the wrong phase");
            checkData(msg.data(), 0, length, seed, what + " (data)");
            checkData(endpoint.segment(), (int)offset, length, seed, what + " (segment bytes)");
        }
        else
        {
            checkEquals(-1, msg.segmentOffset(), what + ": segment offset of a " + msg.category() + " message");
            checkData(msg.data(), 0, length, seed, what + " (data)");
        }
        handled++;

        final MessageCategory category = replyCategory(k);
        final int replyLength = replyLength(rank, k);
        if (replyLength > 0)
        {
            RankSupport.fill(replyData, 0, replyLength, replySeed(rank, k));
        }
        final int status = token.replyN(category, replyHandler(k),
            MessageCategory.SHORT == category ? null : replyData, 0, replyLength,
            MessageCategory.LONG == category ? replySegmentOffset(rank, k) : -1, replyArgCount(k),
            arg(rank, k, 0, REPLY_SALT), arg(rank, k, 1, REPLY_SALT), arg(rank, k, 2, REPLY_SALT),
            arg(rank, k, 3, REPLY_SALT), arg(rank, k, 4, REPLY_SALT), arg(rank, k, 5, REPLY_SALT),
            arg(rank, k, 6, REPLY_SALT), arg(rank, k, 7, REPLY_SALT));
        checkEquals(Am.OK, status, what + ": reply returned");
    }

    private void onReply(final Token token, final Message msg)
    {
        final int q = sourceRank(token, "reply");
        final int k = nextReply[q]++;
        final String what = "rank " + rank + ": reply " + k + " from " + q;
        check(!token.isRequest() && !msg.isRequest() && !msg.isReturned(), what + ": not a plain reply");
        check(replyCategory(k) == msg.category(), what + ": category " + msg.category() + ", expected " +
            replyCategory(k));
        checkEquals(replyHandler(k), msg.handlerIndex(), what + ": handler index");
        checkArgs(msg, replyArgCount(k), q, k, REPLY_SALT, what);
        final int length = replyLength(q, k);
        checkEquals(length, msg.dataLength(), what + ": data length");
        final int seed = replySeed(q, k);
        checkData(msg.data(), 0, length, seed, what + " (data)");
        if (MessageCategory.LONG == msg.category())
        {
            final long offset = replySegmentOffset(q, k);
            checkEquals(offset, msg.segmentOffset(), what + ": segment offset");
            checkData(endpoint.segment(), (int)offset, length, seed, what + " (segment bytes)");
        }
        replies++;
    }

    private static void checkArgs(
        final Message msg, final int argCount, final int who, final int k, final int salt, final String what)
    {
        checkEquals(argCount, msg.argCount(), what + ": argument count");
        for (int i = 0; i < argCount; i++)
        {
            if (msg.arg(i) != pattern(who, k, i, salt))
            {
                final int[] got = new int[argCount];
                for (int j = 0; j < argCount; j++)
                {
                    got[j] = msg.arg(j);
                }
                fail(what + ": argument " + i + " is " + msg.arg(i) + ", expected " + pattern(who, k, i, salt) +
                    "; all: " + Arrays.toString(got));
            }
        }
    }

    private void awaitAll(final long expected, final Bundle bundle, final String phase)
    {
        final long deadline = RankSupport.deadline(45_000);
        while (handled < expected || replies < expected)
        {
            if (0 == bundle.poll())
            {
                if (RankSupport.expired(deadline))
                {
                    fail("rank " + rank + ": " + phase + " incomplete after 45 s: handled " + handled + " of " +
                        expected + " requests, received " + replies + " of " + expected + " replies; per peer " +
                        "requests " + Arrays.toString(nextRequest) + " replies " + Arrays.toString(nextReply));
                }
                RankSupport.idle(bundle, 500);
            }
        }
    }
}
