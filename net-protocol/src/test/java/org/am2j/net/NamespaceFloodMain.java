package org.am2j.net;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkData;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.Message;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of the tests over two emulated hosts ({@link VethPair}): ranks on one host must reach each other over
 * shared memory and the others over the network, and every message must be delivered exactly once, every reply
 * must arrive, and nothing may come back to handler 0.
 * <p>
 * Phases, separated by barriers:
 * <ol>
 * <li><b>Ping-pong</b> with every other rank in turn: {@code pings} short requests, one outstanding, each answered
 * by a reply echoing its arguments, checked in order at both ends.</li>
 * <li><b>8 KiB flood</b>: {@code mediums} medium requests of 8192 bytes (a pattern of sender, receiver and sequence
 * number) to each target, round-robin over the targets with {@value #MEDIUM_WINDOW} outstanding; the receiver checks
 * the bytes and that each arrives once, and replies; the sender checks that each reply arrives once.</li>
 * <li><b>Request flood</b>: {@code shorts} short requests to each target, {@value #SHORT_WINDOW} outstanding,
 * checked the same way.</li>
 * </ol>
 * The targets of the floods are the ranks on the other host ({@code cross}) or every other rank ({@code all}). Each
 * rank checks that its translations use the expected transport ({@code inproc} to the ranks of its own JVM, when it
 * holds several as threads; {@code shm} to the others of its host; {@code net} across hosts), serves until every
 * request meant for it has arrived,
 * then checks its per-transport counters against what it sent and received and that no message came back, and prints
 * {@code rank R ok: ...} with its network retransmissions.
 * <p>
 * Arguments: the host of each rank as a string of letters in rank order (e.g. {@code aabb}), {@code cross} or
 * {@code all}, pings, mediums, shorts (per peer or target), and a time limit in seconds for the whole program.
 */
public final class NamespaceFloodMain
{
    static final int MEDIUM_BYTES = 8192;
    static final int MEDIUM_WINDOW = 16;
    static final int SHORT_WINDOW = 64;
    private static final int H_PING = 1;
    private static final int H_PONG = 2;
    private static final int H_MEDIUM = 3;
    private static final int H_MEDIUM_REPLY = 4;
    private static final int H_SHORT = 5;
    private static final int H_SHORT_REPLY = 6;

    private final String layout;
    private final boolean crossOnly;
    private final int pings;
    private final int mediums;
    private final int shorts;
    private final long deadline;
    private Job job;
    private int rank;
    private int size;
    private Endpoint endpoint;
    private Bundle bundle;
    private final Map<EndpointName, Integer> ranks = new HashMap<>();
    private int[] pingsSeen;
    private int[] pongsSeen;
    private BitSet[] mediumsSeen;
    private BitSet[] mediumRepliesSeen;
    private BitSet[] shortsSeen;
    private BitSet[] shortRepliesSeen;
    private long repliesInFlood;
    private long returned;
    /** Milliseconds of the ping-pong (to the barrier after it), the 8 KiB flood and the request flood. */
    private final long[] phaseMillis = new long[3];

    private NamespaceFloodMain(final String[] args)
    {
        this.layout = args[0];
        this.crossOnly = "cross".equals(args[1]);
        check(crossOnly || "all".equals(args[1]), "targets must be 'cross' or 'all', not " + args[1]);
        this.pings = Integer.parseInt(args[2]);
        this.mediums = Integer.parseInt(args[3]);
        this.shorts = Integer.parseInt(args[4]);
        this.deadline = RankSupport.deadline(Long.parseLong(args[5]) * 1000);
    }

    public static void main(final String[] args)
    {
        RankSupport.main("NamespaceFloodMain", () -> new NamespaceFloodMain(args).run());
    }

    private void run() throws Exception
    {
        job = Spmd.init();
        rank = job.rank();
        size = job.size();
        checkEquals(layout.length(), size, "ranks in the layout '" + layout + "' against the job's size");
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank +
            " node=" + job.node() + " of " + job.nodes() + " host=" +
            Files.readString(Path.of("/proc/sys/kernel/hostname")).trim());
        pingsSeen = new int[size];
        pongsSeen = new int[size];
        mediumsSeen = bitSets();
        mediumRepliesSeen = bitSets();
        shortsSeen = bitSets();
        shortRepliesSeen = bitSets();
        try (Bundle b = Am.allocateBundle(BundleKind.SEQ))
        {
            bundle = b;
            endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, this::onReturned);
            endpoint.handler(H_PING, this::onPing);
            endpoint.handler(H_PONG, this::onPong);
            endpoint.handler(H_MEDIUM, this::onMedium);
            endpoint.handler(H_MEDIUM_REPLY, (token, msg) -> onFloodReply(token, msg, mediumRepliesSeen, mediums));
            endpoint.handler(H_SHORT, this::onShort);
            endpoint.handler(H_SHORT_REPLY, (token, msg) -> onFloodReply(token, msg, shortRepliesSeen, shorts));
            mapAll();
            checkTransports();
            job.barrier();

            long start = System.nanoTime();
            pingPong();
            job.barrier();
            phaseMillis[0] = millisSince(start);

            final List<Integer> targets = targetsOf(rank);
            final UnsafeBuffer data = new UnsafeBuffer(new byte[MEDIUM_BYTES]);
            start = System.nanoTime();
            flood(targets, mediums, MEDIUM_WINDOW, "8 KiB flood", (q, seq) ->
            {
                RankSupport.fill(data, 0, MEDIUM_BYTES, pattern(rank, q, seq, 3));
                return endpoint.requestMedium(q, H_MEDIUM, data, 0, MEDIUM_BYTES, rank, seq);
            });
            phaseMillis[1] = millisSince(start);
            start = System.nanoTime();
            flood(targets, shorts, SHORT_WINDOW, "request flood", (q, seq) -> endpoint.request(q, H_SHORT, rank, seq));
            phaseMillis[2] = millisSince(start);
            awaitFloodsIn();
            checkCounters(targets);
            job.barrier();
        }
        job.close();
    }

    private static long millisSince(final long startNs)
    {
        return (System.nanoTime() - startNs) / 1_000_000;
    }

    private BitSet[] bitSets()
    {
        final BitSet[] sets = new BitSet[size];
        for (int q = 0; q < size; q++)
        {
            sets[q] = new BitSet();
        }
        return sets;
    }

    private boolean sameHost(final int p, final int q)
    {
        return layout.charAt(p) == layout.charAt(q);
    }

    /**
     * @return true when rank q is a thread of this rank's JVM (its endpoint names this process).
     */
    private boolean sameJvm(final int q)
    {
        return endpoint.translationName(q).processId() == endpoint.name().processId();
    }

    /**
     * @return the transport that must carry this rank's messages to rank q.
     */
    private String transportTo(final int q)
    {
        return sameJvm(q) ? "inproc" : sameHost(rank, q) ? "shm" : "net";
    }

    private List<Integer> targetsOf(final int sender)
    {
        final List<Integer> targets = new ArrayList<>();
        for (int q = 0; q < size; q++)
        {
            if (q != sender && !(crossOnly && sameHost(sender, q)))
            {
                targets.add(q);
            }
        }
        return targets;
    }

    private void mapAll()
    {
        final byte[] name = endpoint.name().toBytes();
        final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name)
            .array());
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

    private void checkTransports()
    {
        for (int q = 0; q < size; q++)
        {
            if (q == rank)
            {
                continue;
            }
            final boolean sameNode = endpoint.translationName(q).node().equals(endpoint.name().node());
            check(sameNode == sameHost(rank, q), "rank " + rank + ": rank " + q + " is on host " + layout.charAt(q) +
                " and this rank on " + layout.charAt(rank) + ", but their endpoint names give the nodes '" +
                endpoint.translationName(q).node() + "' and '" + endpoint.name().node() + "'");
            check(!sameJvm(q) || sameHost(rank, q), "rank " + rank + ": rank " + q + " is on host " +
                layout.charAt(q) + " and this rank on " + layout.charAt(rank) + ", but both are in one JVM");
            final String expected = transportTo(q);
            final String transport = endpoint.translationTransport(q);
            check(expected.equals(transport), "rank " + rank + ": translation " + q + " uses " + transport +
                ", expected " + expected);
        }
    }

    private void serve(final String what)
    {
        if (RankSupport.expired(deadline))
        {
            fail("rank " + rank + ": out of time waiting for " + what);
        }
        if (0 == bundle.poll())
        {
            RankSupport.idle(bundle, 200);
        }
    }

    private void pingPong()
    {
        for (int step = 1; step < size; step++)
        {
            final int q = (rank + step) % size;
            for (int i = 0; i < pings; i++)
            {
                checkEquals(Am.OK, endpoint.request(q, H_PING, rank, i), "rank " + rank + ": ping " + i + " to " + q);
                while (pongsSeen[q] == i)
                {
                    serve("pong " + i + " from rank " + q);
                }
            }
        }
        // Handlers run only inside polls: serve the others' pings before the barrier, where this rank polls no more.
        for (int q = 0; q < size; q++)
        {
            while (q != rank && pingsSeen[q] < pings)
            {
                serve("pings of rank " + q + " (" + pingsSeen[q] + " of " + pings + ")");
            }
        }
    }

    /** Sends one flood message. */
    @FunctionalInterface
    private interface Sender
    {
        int send(int target, int seq);
    }

    private void flood(
        final List<Integer> targets, final int perTarget, final int window, final String what, final Sender sender)
    {
        final long total = (long)perTarget * targets.size();
        repliesInFlood = 0;
        long sent = 0;
        while (repliesInFlood < total)
        {
            while (sent < total && sent - repliesInFlood < window)
            {
                final int q = targets.get((int)(sent % targets.size()));
                final int seq = (int)(sent / targets.size());
                checkEquals(Am.OK, sender.send(q, seq), "rank " + rank + ": " + what + " request " + seq + " to " + q);
                sent++;
            }
            serve(what + " replies (" + repliesInFlood + " of " + total + ")");
        }
    }

    private void awaitFloodsIn()
    {
        for (int s = 0; s < size; s++)
        {
            final boolean target = s != rank && targetsOf(s).contains(rank);
            final int mediumsExpected = target ? mediums : 0;
            final int shortsExpected = target ? shorts : 0;
            while (mediumsSeen[s].cardinality() < mediumsExpected || shortsSeen[s].cardinality() < shortsExpected)
            {
                serve("the floods of rank " + s + " (" + mediumsSeen[s].cardinality() + " of " + mediumsExpected +
                    " 8 KiB, " + shortsSeen[s].cardinality() + " of " + shortsExpected + " short)");
            }
            checkEquals(mediumsExpected, mediumsSeen[s].cardinality(), "rank " + rank + ": 8 KiB requests of " + s);
            checkEquals(shortsExpected, shortsSeen[s].cardinality(), "rank " + rank + ": short requests of " + s);
        }
    }

    private void checkCounters(final List<Integer> targets)
    {
        final EndpointStatistics statistics = endpoint.statistics();
        final Map<String, long[]> outAndIn = new HashMap<>();
        for (final String transport : List.of("inproc", "shm", "net"))
        {
            outAndIn.put(transport, new long[2]);
        }
        for (int q = 0; q < size; q++)
        {
            if (q == rank)
            {
                continue;
            }
            final long[] counts = outAndIn.get(transportTo(q));
            counts[0] += pings + (targets.contains(q) ? (long)mediums + shorts : 0);
            counts[1] += pings + (targetsOf(q).contains(rank) ? (long)mediums + shorts : 0);
        }
        for (final Map.Entry<String, long[]> counts : outAndIn.entrySet())
        {
            final String over = " over " + counts.getKey();
            final long out = counts.getValue()[0];
            final long in = counts.getValue()[1];
            checkEquals(out, statistics.get(counts.getKey(), EndpointStatistics.Counter.REQUESTS_SENT),
                "rank " + rank + ": requests sent" + over);
            checkEquals(in, statistics.get(counts.getKey(), EndpointStatistics.Counter.REQUESTS_RECEIVED),
                "rank " + rank + ": requests received" + over);
            checkEquals(out, statistics.get(counts.getKey(), EndpointStatistics.Counter.REPLIES_RECEIVED),
                "rank " + rank + ": replies received" + over);
        }
        final long netOut = outAndIn.get("net")[0];
        final long netIn = outAndIn.get("net")[1];
        final long shmOut = outAndIn.get("shm")[0];
        final long shmIn = outAndIn.get("shm")[1];
        for (final ReturnStatus status : ReturnStatus.values())
        {
            checkEquals(0, statistics.returned(status), "rank " + rank + ": messages returned with " + status);
        }
        checkEquals(0, returned, "rank " + rank + ": messages handler 0 got");
        System.out.println("rank " + rank + " ok: " + pings + " pings with each of " + (size - 1) + " ranks, " +
            mediums + " 8 KiB and " + shorts + " short requests to each of " + targets.size() + " targets, " +
            "each exactly once with its reply; net requests out " + netOut + " in " + netIn + ", shm out " + shmOut +
            " in " + shmIn + ", inproc out " + outAndIn.get("inproc")[0] + " in " + outAndIn.get("inproc")[1] +
            "; net retransmits " + statistics.get("net", EndpointStatistics.Counter.RETRANSMITS) +
            "; returned 0; ms ping-pong " + phaseMillis[0] + ", 8 KiB flood " + phaseMillis[1] + ", request flood " +
            phaseMillis[2]);
    }

    private int sender(final Token token, final Message msg, final String what)
    {
        final Integer from = ranks.get(token.sourceName());
        check(null != from, "rank " + rank + ": " + what + " from an unknown endpoint " + token.sourceName());
        checkEquals(from, msg.arg(0), "rank " + rank + ": " + what + " names its sender");
        return from;
    }

    private void onReturned(final Token token, final Message msg)
    {
        returned++;
        fail("rank " + rank + ": a message came back: " + msg.returnStatus() + ", handler " + msg.handlerIndex() +
            ", arguments " + msg.argCount());
    }

    private void onPing(final Token token, final Message msg)
    {
        final int from = sender(token, msg, "ping");
        checkEquals(pingsSeen[from]++, msg.arg(1), "rank " + rank + ": ping from " + from);
        token.reply(H_PONG, from, msg.arg(1));
    }

    private void onPong(final Token token, final Message msg)
    {
        final Integer from = ranks.get(token.sourceName());
        check(null != from, "rank " + rank + ": pong from an unknown endpoint " + token.sourceName());
        checkEquals(rank, msg.arg(0), "rank " + rank + ": pong from " + from + " names the pinger");
        checkEquals(pongsSeen[from]++, msg.arg(1), "rank " + rank + ": pong from " + from);
    }

    private void onMedium(final Token token, final Message msg)
    {
        final int from = sender(token, msg, "8 KiB request");
        final int seq = msg.arg(1);
        check(seq >= 0 && seq < mediums, "rank " + rank + ": 8 KiB request " + seq + " of " + from + " out of range");
        check(!mediumsSeen[from].get(seq), "rank " + rank + ": 8 KiB request " + seq + " of " + from + " twice");
        mediumsSeen[from].set(seq);
        checkEquals(MEDIUM_BYTES, msg.dataLength(), "rank " + rank + ": length of 8 KiB request " + seq);
        checkData(msg.data(), 0, MEDIUM_BYTES, pattern(from, rank, seq, 3),
            "rank " + rank + ": 8 KiB request " + seq + " of " + from);
        token.reply(H_MEDIUM_REPLY, rank, seq);
    }

    private void onShort(final Token token, final Message msg)
    {
        final int from = sender(token, msg, "short request");
        final int seq = msg.arg(1);
        check(seq >= 0 && seq < shorts, "rank " + rank + ": short request " + seq + " of " + from + " out of range");
        check(!shortsSeen[from].get(seq), "rank " + rank + ": short request " + seq + " of " + from + " twice");
        shortsSeen[from].set(seq);
        token.reply(H_SHORT_REPLY, rank, seq);
    }

    private void onFloodReply(final Token token, final Message msg, final BitSet[] seen, final int perTarget)
    {
        final int from = sender(token, msg, "flood reply");
        final int seq = msg.arg(1);
        check(seq >= 0 && seq < perTarget, "rank " + rank + ": reply " + seq + " of " + from + " out of range");
        check(!seen[from].get(seq), "rank " + rank + ": reply " + seq + " of " + from + " twice");
        seen[from].set(seq);
        repliesInFlood++;
    }
}
