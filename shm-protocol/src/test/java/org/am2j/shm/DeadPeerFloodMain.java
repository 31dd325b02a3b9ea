package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkData;
import static org.am2j.shm.RankSupport.checkEquals;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Message;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.core.stats.CounterSnapshot;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.CountersFileReader;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code DeadPeerTest}: processes that flood each other with requests over shared memory, one of
 * which the test kills with SIGKILL mid-flood. Each process floods one target with requests (one argument, the
 * request's id; short, or with {@link #MEDIUM_LENGTH} bytes of data), at most {@link #WINDOW} unresolved, and serves
 * the requests it gets with a short reply carrying the id.
 * <ul>
 *   <li>{@code pair ROLE DIR KIND}: two processes started directly (a dying rank would fail a launcher's job),
 *       {@code survivor} and {@code victim}, flooding each other; names are exchanged through files in DIR.</li>
 *   <li>{@code spmd DIR KIND VICTIM}: a rank of an SPMD job of P ranks (an external launcher's variables), rank r
 *       flooding rank r+1 and serving rank r-1 (mod P); the rendezvous tells the survivors of the lost rank.</li>
 * </ul>
 * The victim writes the id of every request it runs ({@code <victim>.ran}) and of every reply it gets
 * ({@code <victim>.got}) with one write call each, before anything else of the message, so a SIGKILL cannot take
 * them back. A survivor floods on until the test has killed the victim ({@code victim.killed}) and then:
 * <ul>
 *   <li>flooding the victim: until every request has exactly one outcome (replied, returned EUNREACHABLE, returned
 *       EOUTCOMEUNKNOWN; a replied one may also come back EOUTCOMEUNKNOWN), and {@link #AFTER_DEATH} more requests
 *       sent once a return showed the death known came back EUNREACHABLE;</li>
 *   <li>flooding a live rank: {@link #AFTER_KILL} more requests, every one replied;</li>
 *   <li>serving the victim: until every reply it sent the victim either reached it (its log) or came back.</li>
 * </ul>
 * It then checks the victim's logs (a request returned EUNREACHABLE never ran; a replied one ran; no request or reply
 * counted twice; nothing missing), prints {@code <label> ok: ...}, writes {@code <label>.done}, and serves until the
 * rank flooding it is done.
 */
public final class DeadPeerFloodMain
{
    static final int WINDOW = 16;
    static final int MEDIUM_LENGTH = 1024;
    static final int FLOODING_AFTER = 200;
    static final int AFTER_DEATH = 20;
    static final int AFTER_KILL = 200;
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;
    /** Longest a survivor may take, after it saw the kill, to settle everything. */
    private static final long SETTLE_MS = 20_000;

    private final Bundle bundle;
    private final Endpoint endpoint;
    private final Path dir;
    private final String label;
    private final String victimLabel;
    private final boolean medium;
    private final boolean victim;
    private final int target;
    private final boolean targetIsVictim;
    private final boolean servesVictim;
    private final String sourceLabel;
    private final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(MEDIUM_LENGTH));
    private final ByteBuffer record = ByteBuffer.allocate(Integer.BYTES);

    /** Of this process's requests. */
    private final BitSet replied = new BitSet();
    private final BitSet unreachable = new BitSet();
    private final BitSet unknown = new BitSet();
    private final BitSet resolved = new BitSet();
    private int sent;
    private int resolvedCount;
    /** The first id sent after a return showed the victim's death known (-1: none yet). */
    private int firstAfterDeath = -1;
    /** {@code System.nanoTime()} of the first return. */
    private long firstReturnNanos;
    private int repliedAndUnknown;
    /** Of the requests this process ran: ids, and the replies that came back. */
    private final BitSet served = new BitSet();
    private final BitSet replyUnreachable = new BitSet();
    private final BitSet replyUnknown = new BitSet();
    private FileChannel ranLog;
    private FileChannel gotLog;

    private DeadPeerFloodMain(
        final Bundle bundle, final Endpoint endpoint, final Path dir, final String label, final String victimLabel,
        final boolean medium, final int target, final String targetLabel, final String sourceLabel)
    {
        this.bundle = bundle;
        this.endpoint = endpoint;
        this.dir = dir;
        this.label = label;
        this.victimLabel = victimLabel;
        this.medium = medium;
        this.victim = label.equals(victimLabel);
        this.target = target;
        this.targetIsVictim = targetLabel.equals(victimLabel);
        this.servesVictim = sourceLabel.equals(victimLabel);
        this.sourceLabel = sourceLabel;
    }

    public static void main(final String[] args)
    {
        RankSupport.main("DeadPeerFloodMain " + String.join(" ", args), () ->
        {
            if ("pair".equals(args[0]))
            {
                pair(args[1], Path.of(args[2]), "medium".equals(args[3]));
            }
            else
            {
                spmd(Path.of(args[1]), "medium".equals(args[2]), Integer.parseInt(args[3]));
            }
        });
    }

    private static void pair(final String role, final Path dir, final boolean medium) throws Exception
    {
        final String other = "victim".equals(role) ? "survivor" : "victim";
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            publishName(dir, role, endpoint);
            awaitName(dir, other, endpoint, 0);
            new DeadPeerFloodMain(bundle, endpoint, dir, role, "victim", medium, 0, other, other).run();
        }
    }

    private static void spmd(final Path dir, final boolean medium, final int victimRank) throws Exception
    {
        try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final int rank = job.rank();
            final int size = job.size();
            System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank);
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            Peers.mapAll(job, endpoint);
            final int next = (rank + 1) % size;
            final int previous = (rank + size - 1) % size;
            check("shm".equals(endpoint.translationTransport(next)), "rank " + rank + ": rank " + next +
                " is reached by " + endpoint.translationTransport(next) + ", not shared memory");
            job.barrier();
            new DeadPeerFloodMain(bundle, endpoint, dir, "rank" + rank, "rank" + victimRank, medium, next,
                "rank" + next, "rank" + previous).run();
        }
    }

    private void run() throws Exception
    {
        endpoint.handler(H_REQUEST, this::onRequest);
        endpoint.handler(H_REPLY, this::onReply);
        endpoint.handler(0, this::onReturned);
        if (victim)
        {
            ranLog = FileChannel.open(dir.resolve(label + ".ran"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            gotLog = FileChannel.open(dir.resolve(label + ".got"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        }
        Files.writeString(dir.resolve(label + ".ready"), "ready");
        final Path killed = dir.resolve("victim.killed");
        final long deadline = RankSupport.deadline(victim ? 100_000 : 80_000);
        long killSeenAt = 0;
        int sentAtKill = 0;
        long nextLook = 0;
        boolean flooding = false;
        while (victim || !floodDone(killSeenAt, sentAtKill))
        {
            check(!RankSupport.expired(deadline), label + ": " + (victim ? "never killed" : "not done; " + counts()));
            check(0 == killSeenAt || System.nanoTime() - killSeenAt < SETTLE_MS * 1_000_000L,
                label + ": not settled " + SETTLE_MS + " ms after the kill; " + counts());
            while (sent - resolvedCount < WINDOW && mayStillSend(killSeenAt, sentAtKill))
            {
                sendRequest(sent++);
            }
            if (0 == bundle.poll())
            {
                RankSupport.idle(bundle, 200);
            }
            final long now = System.nanoTime();
            if (now - nextLook > 0)
            {
                nextLook = now + 5_000_000L;
                if (!flooding && replied.cardinality() >= FLOODING_AFTER)
                {
                    flooding = true;
                    Files.writeString(dir.resolve(label + ".flooding"), Integer.toString(sent));
                }
                if (0 == killSeenAt && Files.exists(killed))
                {
                    killSeenAt = now;
                    sentAtKill = sent;
                }
            }
        }
        final long settleMs = (System.nanoTime() - killSeenAt) / 1_000_000;
        final long firstReturnMs = 0 == firstReturnNanos ? -1 : (firstReturnNanos - killSeenAt) / 1_000_000;
        if (servesVictim)
        {
            awaitRepliesSettled();
        }
        final String summary = checkAgainstVictim();
        System.out.println(label + " ok: " + summary + " settleMs=" + settleMs + " firstReturnMs=" + firstReturnMs);
        Files.writeString(dir.resolve(label + ".done"), "done");
        // The rank flooding this one needs its requests answered until it is done (the victim never is).
        final Path sourceDone = dir.resolve(sourceLabel + ".done");
        final long serveDeadline = RankSupport.deadline(30_000);
        while (!servesVictim && !Files.exists(sourceDone))
        {
            check(!RankSupport.expired(serveDeadline), label + ": " + sourceLabel + " not done");
            for (int i = 0; i < 64; i++)
            {
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 1000);
                }
            }
        }
    }

    private boolean mayStillSend(final long killSeenAt, final int sentAtKill)
    {
        if (targetIsVictim)
        {
            return firstAfterDeath < 0 || sent < firstAfterDeath + AFTER_DEATH;
        }
        return 0 == killSeenAt || sent < sentAtKill + AFTER_KILL;
    }

    private boolean floodDone(final long killSeenAt, final int sentAtKill)
    {
        return 0 != killSeenAt && !mayStillSend(killSeenAt, sentAtKill) && resolvedCount == sent;
    }

    private void sendRequest(final int id)
    {
        final int status;
        if (medium)
        {
            RankSupport.fill(data, 0, MEDIUM_LENGTH, id);
            status = endpoint.requestMedium(target, H_REQUEST, data, 0, MEDIUM_LENGTH, id);
        }
        else
        {
            status = endpoint.request(target, H_REQUEST, id);
        }
        checkEquals(Am.OK, status, label + ": request " + id);
    }

    private void onRequest(final Token token, final Message msg)
    {
        final int id = msg.arg(0);
        final String what = label + ": request " + id;
        if (victim)
        {
            log(ranLog, id);
        }
        check(!served.get(id), what + " ran twice");
        served.set(id);
        checkEquals(medium ? MEDIUM_LENGTH : 0, msg.dataLength(), what + ": data length");
        checkData(msg.data(), 0, msg.dataLength(), id, what);
        token.reply(H_REPLY, id);
    }

    private void onReply(final Token token, final Message msg)
    {
        final int id = msg.arg(0);
        if (victim)
        {
            log(gotLog, id);
        }
        final String what = label + ": reply to request " + id;
        check(id >= 0 && id < sent && !replied.get(id), what + ": unknown or twice");
        check(!unreachable.get(id), what + " after it came back EUNREACHABLE (it never ran)");
        replied.set(id);
        if (unknown.get(id))
        {
            repliedAndUnknown++;
        }
        resolve(id);
    }

    private void onReturned(final Token token, final Message msg)
    {
        check(!victim, label + " (the victim): returned " + msg.returnStatus() + " " + msg.opcode());
        final ReturnStatus status = msg.returnStatus();
        final int id = msg.argCount() > 0 ? msg.arg(0) : -1;
        final String what = label + ": " + msg.opcode() + " " + id + " returned " + status;
        check(ReturnStatus.EUNREACHABLE == status || ReturnStatus.EOUTCOMEUNKNOWN == status, what +
            ": not a status of a dead destination");
        if (msg.opcode().isRequest())
        {
            check(targetIsVictim && H_REQUEST == msg.handlerIndex() && id >= 0 && id < sent, what +
                ": not a request of this process's to the victim");
            check(!unreachable.get(id) && !unknown.get(id), what + ": returned twice");
            if (firstAfterDeath < 0)
            {
                // The owner is known dead once anything came back: every later send is refused at once.
                firstAfterDeath = sent;
                firstReturnNanos = System.nanoTime();
            }
            if (ReturnStatus.EUNREACHABLE == status)
            {
                check(!replied.get(id), what + " after its reply came");
                unreachable.set(id);
                // Never taken by the dead process: it comes back whole.
                checkEquals(medium ? MEDIUM_LENGTH : 0, msg.dataLength(), what + ": data length");
                checkData(msg.data(), 0, msg.dataLength(), id, what);
            }
            else
            {
                check(id < firstAfterDeath, what + ": sent after the death was known, so refused at once");
                unknown.set(id);
                if (replied.get(id))
                {
                    repliedAndUnknown++;
                }
                // It may have run: it comes back without its data, or with it whole.
                checkData(msg.data(), 0, msg.dataLength(), id, what);
            }
            resolve(id);
        }
        else
        {
            check(servesVictim && H_REPLY == msg.handlerIndex() && served.get(id), what +
                ": not a reply of this process's to the victim");
            check(!replyUnreachable.get(id) && !replyUnknown.get(id), what + ": returned twice");
            (ReturnStatus.EUNREACHABLE == status ? replyUnreachable : replyUnknown).set(id);
        }
    }

    private void resolve(final int id)
    {
        if (!resolved.get(id))
        {
            resolved.set(id);
            resolvedCount++;
        }
    }

    private void log(final FileChannel log, final int id)
    {
        try
        {
            // Written to the kernel before anything else of the message: a SIGKILL cannot take it back.
            log.write(record.clear().putInt(id).flip());
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Serve on until every reply sent to the victim either reached it (its log says so) or came back.
     */
    private void awaitRepliesSettled() throws IOException
    {
        final long deadline = RankSupport.deadline(SETTLE_MS);
        while (true)
        {
            final BitSet missing = (BitSet)served.clone();
            missing.andNot(ids(victimLabel + ".got"));
            missing.andNot(replyUnreachable);
            missing.andNot(replyUnknown);
            if (missing.isEmpty())
            {
                return;
            }
            check(!RankSupport.expired(deadline), label + ": replies to the victim's requests " + missing +
                " neither reached it nor came back");
            for (int i = 0; i < 64; i++)
            {
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 1000);
                }
            }
        }
    }

    /**
     * Check what this survivor saw against what the victim wrote down.
     *
     * @return the summary.
     */
    private String checkAgainstVictim() throws IOException
    {
        final StringBuilder summary = new StringBuilder();
        if (targetIsVictim)
        {
            final BitSet ran = ids(victimLabel + ".ran");
            final BitSet both = (BitSet)unreachable.clone();
            both.and(ran);
            check(both.isEmpty(), label + ": requests returned EUNREACHABLE ran at the victim: " + both);
            final BitSet repliedNotRan = (BitSet)replied.clone();
            repliedNotRan.andNot(ran);
            check(repliedNotRan.isEmpty(), label + ": replied without running at the victim: " + repliedNotRan);
            final BitSet missing = new BitSet();
            missing.set(0, sent);
            missing.andNot(resolved);
            check(missing.isEmpty(), label + ": requests with no outcome: " + missing);
            // A replied request may come back EOUTCOMEUNKNOWN too (a box's head is published once per poll, after
            // its handlers ran); the ones that were not replied are unresolved ones, at most the window.
            final BitSet unknownOnly = (BitSet)unknown.clone();
            unknownOnly.andNot(replied);
            check(unknownOnly.cardinality() <= WINDOW, label + ": " + unknownOnly.cardinality() +
                " requests came back EOUTCOMEUNKNOWN unreplied, more than the window of " + WINDOW);
            check(unreachable.cardinality() + unknown.cardinality() > 0, label + ": nothing came back");
            final BitSet afterDeath = new BitSet();
            afterDeath.set(firstAfterDeath, sent);
            afterDeath.andNot(unreachable);
            check(afterDeath.isEmpty(), label + ": sent after the death was known and not refused: " + afterDeath);
            summary.append("sent=").append(sent).append(" replied=").append(replied.cardinality())
                .append(" EUNREACHABLE=").append(unreachable.cardinality())
                .append(" EOUTCOMEUNKNOWN=").append(unknown.cardinality())
                .append(" repliedAndEOUTCOMEUNKNOWN=").append(repliedAndUnknown)
                .append(" afterDeath=").append(sent - firstAfterDeath)
                .append(" missing=").append(missing.cardinality());
        }
        else
        {
            checkEquals(sent, replied.cardinality(), label + ": replies from a live rank");
            summary.append("sent=").append(sent).append(" replied=").append(replied.cardinality());
        }
        checkCounters();
        if (servesVictim)
        {
            final BitSet got = ids(victimLabel + ".got");
            final BitSet both = (BitSet)replyUnreachable.clone();
            both.and(got);
            check(both.isEmpty(), label + ": replies returned EUNREACHABLE reached the victim: " + both);
            summary.append(" served=").append(served.cardinality())
                .append(" repliesReachedVictim=").append(got.cardinality())
                .append(" repliesEUNREACHABLE=").append(replyUnreachable.cardinality())
                .append(" repliesEOUTCOMEUNKNOWN=").append(replyUnknown.cardinality());
        }
        return summary.toString();
    }

    /**
     * The transport's dead-peer counters, as {@code bin/am2j stat} reads them from this process's counters file,
     * agree with what came back: everything returned EOUTCOMEUNKNOWN was taken back from the dead block, everything
     * returned EUNREACHABLE was taken back or refused at its send.
     */
    private void checkCounters()
    {
        final long outcomeUnknown = unknown.cardinality() + replyUnknown.cardinality();
        final long unreachableCount = unreachable.cardinality() + replyUnreachable.cardinality();
        if (0 == outcomeUnknown + unreachableCount)
        {
            return;
        }
        final Map<String, Long> counts = new HashMap<>();
        final Path file = CountersFile.fileFor(CountersFile.defaultDirectory(), ProcessIdentity.currentPid());
        try (CountersFileReader reader = CountersFileReader.open(file))
        {
            for (final CounterSnapshot counter : reader.snapshot())
            {
                counts.merge(counter.label(), counter.value(), Long::sum);
            }
        }
        final String what = label + ": shm counters " + counts;
        checkEquals(1, counts.getOrDefault("shm peers_died", 0L), what + ": peers_died");
        checkEquals(outcomeUnknown, counts.getOrDefault("shm dead_peer_outcome_unknown", 0L),
            what + ": dead_peer_outcome_unknown");
        checkEquals(unreachableCount, counts.getOrDefault("shm dead_peer_unreachable", 0L) +
            counts.getOrDefault("shm dead_peer_refused", 0L), what + ": dead_peer_unreachable + dead_peer_refused");
    }

    private BitSet ids(final String file) throws IOException
    {
        final BitSet ids = new BitSet();
        final Path path = dir.resolve(file);
        if (!Files.exists(path))
        {
            return ids;
        }
        final ByteBuffer log = ByteBuffer.wrap(Files.readAllBytes(path));
        while (log.remaining() >= Integer.BYTES)
        {
            final int id = log.getInt();
            check(!ids.get(id), label + ": " + file + " has " + id + " twice");
            ids.set(id);
        }
        return ids;
    }

    private String counts()
    {
        return "sent=" + sent + " resolved=" + resolvedCount + " replied=" + replied.cardinality() +
            " EUNREACHABLE=" + unreachable.cardinality() + " EOUTCOMEUNKNOWN=" + unknown.cardinality() +
            " served=" + served.cardinality() + " repliesReturned=" +
            (replyUnreachable.cardinality() + replyUnknown.cardinality());
    }

    private static void publishName(final Path dir, final String role, final Endpoint endpoint) throws IOException
    {
        final Path tmp = dir.resolve(role + ".name.tmp");
        final byte[] name = endpoint.name().toBytes();
        try (OutputStream file = Files.newOutputStream(tmp); DataOutputStream out = new DataOutputStream(file))
        {
            out.writeLong(endpoint.tag());
            out.writeInt(name.length);
            out.write(name);
        }
        Files.move(tmp, dir.resolve(role + ".name"), StandardCopyOption.ATOMIC_MOVE);
    }

    private static void awaitName(final Path dir, final String role, final Endpoint endpoint, final int index)
        throws Exception
    {
        final Path file = dir.resolve(role + ".name");
        final long deadline = RankSupport.deadline(30_000);
        while (!Files.exists(file))
        {
            check(!RankSupport.expired(deadline), "no " + file);
            Thread.sleep(5);
        }
        try (InputStream stream = Files.newInputStream(file); DataInputStream in = new DataInputStream(stream))
        {
            final long tag = in.readLong();
            final byte[] name = new byte[in.readInt()];
            in.readFully(name);
            endpoint.map(index, EndpointName.fromBytes(name), tag);
        }
    }
}
