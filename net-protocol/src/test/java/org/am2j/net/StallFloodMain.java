package org.am2j.net;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.fail;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Message;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of a 2-rank job in which both ranks flood each other with requests, each tagged with a unique id and
 * replied with the same id, while something outside stops one of them (SIGSTOP, SIGCONT): a stall of a JVM.
 * Each rank keeps, per id, what happened to its own requests (replied, or returned to handler 0 with which status)
 * and to the other rank's (ran here; the reply returned here), and fails at once when an id runs twice, is replied
 * twice or comes back twice. After the flood the ranks wait until every request is accounted for, exchange their
 * records and check the rule on both sides:
 * <ul>
 *   <li>every request was replied or returned, none both (sent = delivered + returned);</li>
 *   <li>a returned request never ran at the peer;</li>
 *   <li>every request that ran got its reply delivered or the reply returned to the replier, not both;</li>
 *   <li>nothing came back with a status other than ECONGESTION (no peer died).</li>
 * </ul>
 * Arguments: a directory shared with the controller (a test or {@code perf/scripts/stall-demo.sh}) and the flood's
 * time limit in seconds. Each rank writes {@code rank-R.pid}, then {@code rank-R.flooding} once it has had
 * {@link #FLOODING_AFTER} replies; it floods until the file {@code stop} appears in the directory.
 */
public final class StallFloodMain
{
    /** Requests a rank keeps unresolved (neither replied nor returned) at most. */
    static final int WINDOW = 64;
    /** Replies after which a rank says it is flooding. */
    static final int FLOODING_AFTER = 500;
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;
    /** All-gather contributions are limited to 64 KiB: bit sets travel in pieces of this many bytes. */
    private static final int PIECE = 60_000;

    private final Path dir;
    private final long floodSeconds;
    private Job job;
    private int rank;
    private int peer;
    private Endpoint endpoint;

    private int sent;
    /** Own requests whose reply came back. */
    private final BitSet replied = new BitSet();
    /** Own requests returned to handler 0. */
    private final BitSet returnedRequests = new BitSet();
    /** The peer's requests whose handler ran here. */
    private final BitSet ranHere = new BitSet();
    /** Replies to the peer's requests returned here (to the replier). */
    private final BitSet returnedReplies = new BitSet();
    private final int[] requestStatuses = new int[256];
    private final int[] replyStatuses = new int[256];
    private int repliedCount;
    private int returnedRequestCount;
    private int ranCount;
    private int returnedReplyCount;

    private StallFloodMain(final Path dir, final long floodSeconds)
    {
        this.dir = dir;
        this.floodSeconds = floodSeconds;
    }

    public static void main(final String[] args)
    {
        RankSupport.main("StallFloodMain", () -> new StallFloodMain(Path.of(args[0]), Long.parseLong(args[1])).run());
    }

    private void run() throws Exception
    {
        job = Spmd.init();
        rank = job.rank();
        check(2 == job.size(), "StallFloodMain runs on exactly 2 ranks, not " + job.size());
        peer = 1 - rank;
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank);
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, this::onReturned);
            endpoint.handler(H_REQUEST, this::onRequest);
            endpoint.handler(H_REPLY, this::onReply);
            mapPeer();
            Files.writeString(dir.resolve("rank-" + rank + ".pid"), Long.toString(ProcessIdentity.currentPid()));
            job.barrier();
            flood(bundle);
            drain(bundle);
            verify();
            job.barrier();
        }
        job.close();
    }

    private void mapPeer()
    {
        final byte[] name = endpoint.name().toBytes();
        final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name)
            .array());
        final ByteBuffer entry = ByteBuffer.wrap(all[peer]);
        final long tag = entry.getLong();
        final byte[] bytes = new byte[entry.remaining()];
        entry.get(bytes);
        endpoint.map(0, EndpointName.fromBytes(bytes), tag);
    }

    private void flood(final Bundle bundle) throws Exception
    {
        final Path stop = dir.resolve("stop");
        final long deadline = RankSupport.deadline(floodSeconds * 1000);
        long nextLook = 0;
        boolean flooding = false;
        while (true)
        {
            final long now = System.nanoTime();
            if (now - nextLook > 0)
            {
                nextLook = now + 10_000_000L;
                if (Files.exists(stop))
                {
                    break;
                }
                check(!RankSupport.expired(deadline), "rank " + rank + ": no stop after " + floodSeconds + " s");
                if (!flooding && repliedCount >= FLOODING_AFTER)
                {
                    flooding = true;
                    Files.writeString(dir.resolve("rank-" + rank + ".flooding"), Integer.toString(sent));
                }
            }
            while (sent - repliedCount - returnedRequestCount < WINDOW)
            {
                final int status = endpoint.request(0, H_REQUEST, sent);
                check(Am.OK == status, "rank " + rank + ": request " + sent + " refused with " + status);
                sent++;
            }
            if (0 == bundle.poll())
            {
                RankSupport.idle(bundle, 200);
            }
        }
    }

    /**
     * Poll until both ranks' counts say that every request and every reply is resolved: each rank's requests
     * replied or returned, each request that ran replied or its reply returned.
     */
    private void drain(final Bundle bundle)
    {
        final long deadline = RankSupport.deadline(30_000);
        while (true)
        {
            final long until = RankSupport.deadline(200);
            while (!RankSupport.expired(until))
            {
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 200);
                }
            }
            final byte[][] all = job.allGather(ByteBuffer.allocate(5 * Integer.BYTES).putInt(sent)
                .putInt(repliedCount).putInt(returnedRequestCount).putInt(ranCount).putInt(returnedReplyCount).array());
            final ByteBuffer me = ByteBuffer.wrap(all[rank]);
            final ByteBuffer other = ByteBuffer.wrap(all[peer]);
            final boolean resolved = resolved(me, other) && resolved(other, me);
            if (resolved)
            {
                return;
            }
            if (RankSupport.expired(deadline))
            {
                fail("rank " + rank + ": not every message was resolved within 30 s after the flood: " +
                    counts() + " (something was lost)");
            }
        }
    }

    private static boolean resolved(final ByteBuffer mine, final ByteBuffer others)
    {
        final int sent = mine.getInt(0);
        final int replied = mine.getInt(4);
        final int returned = mine.getInt(8);
        final int ran = mine.getInt(12);
        final int returnedReplies = mine.getInt(16);
        final int othersReplied = others.getInt(4);
        return sent == replied + returned && ran == othersReplied + returnedReplies;
    }

    private void verify()
    {
        final BitSet peerRan = gather(ranHere);
        final BitSet peerReturnedReplies = gather(returnedReplies);
        final BitSet peerReplied = gather(replied);
        System.out.println("rank " + rank + " counts: " + counts());

        // My requests: replied or returned, never both; a returned one never ran at the peer; none missing.
        final List<String> faults = new ArrayList<>();
        expectEmpty(faults, and(replied, returnedRequests), "requests both replied and returned");
        expectEmpty(faults, and(returnedRequests, peerRan), "requests returned that ran at the peer");
        final BitSet all = new BitSet();
        all.set(0, sent);
        final BitSet missing = (BitSet)all.clone();
        missing.andNot(replied);
        missing.andNot(returnedRequests);
        expectEmpty(faults, missing, "requests neither replied nor returned");
        final BitSet notRan = (BitSet)replied.clone();
        notRan.andNot(peerRan);
        expectEmpty(faults, notRan, "requests replied that the peer never ran");
        // Replies to my requests that ran at the peer: delivered here or returned to the peer, never both.
        expectEmpty(faults, and(replied, peerReturnedReplies), "replies both delivered and returned to the replier");
        final BitSet ranUnresolved = (BitSet)peerRan.clone();
        ranUnresolved.andNot(replied);
        ranUnresolved.andNot(peerReturnedReplies);
        expectEmpty(faults, ranUnresolved, "requests that ran at the peer whose reply was neither delivered nor " +
            "returned");
        // The peer's requests that ran here: check against what the peer saw.
        final BitSet ranButPeerGotNothing = (BitSet)ranHere.clone();
        ranButPeerGotNothing.andNot(peerReplied);
        ranButPeerGotNothing.andNot(returnedReplies);
        expectEmpty(faults, ranButPeerGotNothing, "peer requests that ran here and whose reply vanished");
        for (int s = 0; s < requestStatuses.length; s++)
        {
            if (s != ReturnStatus.ECONGESTION.code() && (0 != requestStatuses[s] || 0 != replyStatuses[s]))
            {
                faults.add((requestStatuses[s] + replyStatuses[s]) + " returned with " + ReturnStatus.fromCode(s) +
                    " though no peer died");
            }
        }
        check(faults.isEmpty(), "rank " + rank + ": accounting broken: " + String.join("; ", faults));
        System.out.println("rank " + rank + " accounting ok: sent " + sent + " = replied " + repliedCount +
            " + returned " + returnedRequestCount + "; none both, none run twice; of " + ranCount +
            " peer requests run here " + (ranCount - returnedReplyCount) + " replies delivered, " +
            returnedReplyCount + " returned here");
        System.out.println("rank " + rank + " nic: " + NicCountersOf.giveUps(ProcessIdentity.currentPid()));
    }

    private static BitSet and(final BitSet a, final BitSet b)
    {
        final BitSet both = (BitSet)a.clone();
        both.and(b);
        return both;
    }

    private static void expectEmpty(final List<String> faults, final BitSet ids, final String what)
    {
        if (!ids.isEmpty())
        {
            final StringBuilder first = new StringBuilder();
            ids.stream().limit(20).forEach((id) -> first.append(' ').append(id));
            faults.add(ids.cardinality() + " " + what + " (ids" + first + (ids.cardinality() > 20 ? " ..." : "") +
                ")");
        }
    }

    /**
     * @return the peer's copy of the bit set, gathered in pieces that fit the all-gather's limit.
     */
    private BitSet gather(final BitSet mine)
    {
        final byte[] bytes = mine.toByteArray();
        final byte[][] lengths = job.allGather(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
        final int mineLength = bytes.length;
        final int peerLength = ByteBuffer.wrap(lengths[peer]).getInt();
        final byte[] peers = new byte[peerLength];
        for (int at = 0; at < Math.max(mineLength, peerLength); at += PIECE)
        {
            final byte[] piece = Arrays.copyOfRange(bytes, Math.min(at, mineLength),
                Math.min(at + PIECE, mineLength));
            final byte[][] got = job.allGather(piece);
            System.arraycopy(got[peer], 0, peers, at, got[peer].length);
        }
        return BitSet.valueOf(peers);
    }

    private String counts()
    {
        return "sent=" + sent + " replied=" + repliedCount + " returned=" + returnedRequestCount +
            statuses(requestStatuses) + " ranHere=" + ranCount + " repliesReturnedHere=" + returnedReplyCount +
            statuses(replyStatuses);
    }

    private static String statuses(final int[] counts)
    {
        final StringBuilder text = new StringBuilder(" (");
        for (int s = 0; s < counts.length; s++)
        {
            if (0 != counts[s])
            {
                text.append(text.length() > 2 ? " " : "").append(ReturnStatus.fromCode(s)).append('=')
                    .append(counts[s]);
            }
        }
        return text.append(')').toString();
    }

    private void onRequest(final Token token, final Message msg)
    {
        final int id = msg.arg(0);
        check(id >= 0, "rank " + rank + ": request id " + id);
        check(!ranHere.get(id), "rank " + rank + ": the peer's request " + id + " ran twice");
        ranHere.set(id);
        ranCount++;
        token.reply(H_REPLY, id);
    }

    private void onReply(final Token token, final Message msg)
    {
        final int id = msg.arg(0);
        check(id >= 0 && id < sent, "rank " + rank + ": reply to unknown request " + id);
        check(!replied.get(id), "rank " + rank + ": reply to request " + id + " delivered twice");
        check(!returnedRequests.get(id), "rank " + rank + ": reply to request " + id + " delivered after the " +
            "request was returned");
        replied.set(id);
        repliedCount++;
    }

    private void onReturned(final Token token, final Message msg)
    {
        check(msg.isReturned() && 1 == msg.argCount(), "rank " + rank + ": handler 0 got a message that is not a " +
            "returned one of ours");
        final int id = msg.arg(0);
        final int status = msg.returnStatus().code();
        if (H_REQUEST == msg.handlerIndex())
        {
            check(id >= 0 && id < sent, "rank " + rank + ": returned unknown request " + id);
            check(!returnedRequests.get(id), "rank " + rank + ": request " + id + " returned twice");
            check(!replied.get(id), "rank " + rank + ": request " + id + " returned after its reply came");
            returnedRequests.set(id);
            returnedRequestCount++;
            requestStatuses[status]++;
        }
        else
        {
            check(H_REPLY == msg.handlerIndex(), "rank " + rank + ": returned message for handler " +
                msg.handlerIndex());
            check(ranHere.get(id), "rank " + rank + ": returned reply to a request that never ran here: " + id);
            check(!returnedReplies.get(id), "rank " + rank + ": reply " + id + " returned twice");
            returnedReplies.set(id);
            returnedReplyCount++;
            replyStatuses[status]++;
        }
    }
}
