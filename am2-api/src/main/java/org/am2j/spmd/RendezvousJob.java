package org.am2j.spmd;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.am2j.spmd.RendezvousDescriptor.ALL_GATHER;
import static org.am2j.spmd.RendezvousDescriptor.ALL_GATHER_DONE;
import static org.am2j.spmd.RendezvousDescriptor.BARRIER;
import static org.am2j.spmd.RendezvousDescriptor.BARRIER_DONE;
import static org.am2j.spmd.RendezvousDescriptor.FAILED;
import static org.am2j.spmd.RendezvousDescriptor.GOODBYE;
import static org.am2j.spmd.RendezvousDescriptor.HELLO;
import static org.am2j.spmd.RendezvousDescriptor.MAX_FAILURE_CHARS;
import static org.am2j.spmd.RendezvousDescriptor.RANK_LOST;
import static org.am2j.spmd.RendezvousDescriptor.WELCOME;

/**
 * The rendezvous protocol's state machine for one job, driven by the frames of its {@link RendezvousConnection}s and
 * by the clock ({@link #checkTimeouts(long)}): which ranks have joined, which collective is under way and who has
 * entered it, and why the job failed.
 * <p>
 * Collective number {@code k} completes when every rank has entered it. When a rank disconnects without saying
 * goodbye, sends a bad frame, or a collective outlives the collective timeout, the job has failed: every rank connected
 * is sent a {@code FAILED} frame naming the cause, and every later collective is answered with it, so no rank hangs.
 * A rank that leaves cleanly ({@link Job#close()}) makes the collectives that would need it fail in the same way. The
 * first cause is kept. A rank whose connection closes without a goodbye after the welcome is also announced to every
 * other rank with a {@code RANK_LOST} frame (one per lost rank, failed job or not), so that their transports treat
 * its process as dead. It is logged when ranks are waiting on it (joining or in a collective) or when it is a protocol
 * error; a rank that disconnects while no collective is under way is not logged, since a program may well exit
 * without closing its job after its last collective, and later collectives report it anyway.
 * <p>
 * Owned by the server thread, except {@link #everyRankJoined()}, which any thread may read.
 */
final class RendezvousJob implements RendezvousConnection.Listener
{
    /** Most connections that may be open without having said hello. */
    static final int MAX_UNJOINED = 64;

    /** Longest time between two reports of the ranks the server is waiting for while they join. */
    static final long WAITING_REPORT_MS = 5_000;

    private static final int MAX_LISTED_RANKS = 16;

    private final int size;
    private final String jobId;
    private final long connectTimeoutNs;
    private final long collectiveTimeoutNs;
    private final long collectiveTimeoutMs;
    private final long joinTimeoutNs;
    private final long joinTimeoutMs;
    private final long waitingReportNs;
    private final Consumer<String> log;
    private final CountDownLatch departures;
    /** {@link #welcomed} for other threads: set once, when the last rank joins, before any rank is welcomed. */
    private volatile boolean welcomedView;

    private final RendezvousConnection[] peers;
    private final boolean[] joined;
    private final boolean[] departed;
    private final boolean[] arrived;
    private final byte[][] contributions;
    private final long[] processIds;
    private final List<RendezvousConnection> unjoined = new ArrayList<>();
    private final long startNs;
    private int joinedCount;
    private boolean welcomed;
    private long completed;
    private int pendingType;
    private int pendingCount;
    private int firstArrived;
    private long pendingSinceNs;
    private long nextWaitingReportNs;
    private String failure;
    private int failureRank = -1;

    /**
     * @param size    number of ranks.
     * @param jobId   id every rank must present.
     * @param config  timeouts and log.
     * @param startNs when the server started, {@link System#nanoTime()}.
     */
    RendezvousJob(final int size, final String jobId, final RendezvousConfig config, final long startNs)
    {
        this.size = size;
        this.jobId = jobId;
        this.connectTimeoutNs = TimeUnit.MILLISECONDS.toNanos(config.connectTimeoutMs());
        this.collectiveTimeoutMs = config.collectiveTimeoutMs();
        this.collectiveTimeoutNs = TimeUnit.MILLISECONDS.toNanos(collectiveTimeoutMs);
        this.joinTimeoutMs = config.joinTimeoutMs();
        this.joinTimeoutNs = TimeUnit.MILLISECONDS.toNanos(joinTimeoutMs);
        // a report at least every few seconds, and at least one before the job fails
        this.waitingReportNs = TimeUnit.MILLISECONDS.toNanos(Math.max(1, Math.min(WAITING_REPORT_MS, joinTimeoutMs / 2)));
        this.log = config.log();
        this.departures = new CountDownLatch(size);
        this.peers = new RendezvousConnection[size];
        this.joined = new boolean[size];
        this.departed = new boolean[size];
        this.arrived = new boolean[size];
        this.contributions = new byte[size][];
        this.processIds = new long[size];
        this.startNs = startNs;
        this.nextWaitingReportNs = startNs + waitingReportNs;
    }

    /**
     * @return true once every rank has joined: no rank has left {@link Spmd#init()} before that; any thread.
     */
    boolean everyRankJoined()
    {
        return welcomedView;
    }

    /**
     * @return the latch that counts down as ranks leave; any thread.
     */
    CountDownLatch departures()
    {
        return departures;
    }

    /**
     * @return true when another connection may wait to say hello ({@value #MAX_UNJOINED} at most).
     */
    boolean canAccept()
    {
        return unjoined.size() < MAX_UNJOINED;
    }

    /**
     * @param connection a new connection, to say hello within the connect timeout.
     */
    void accepted(final RendezvousConnection connection)
    {
        unjoined.add(connection);
    }

    /**
     * Close every connection: the server is stopping.
     */
    void closeAll()
    {
        for (final RendezvousConnection peer : peers)
        {
            if (null != peer)
            {
                peer.close();
            }
        }
        for (final RendezvousConnection peer : unjoined)
        {
            peer.close();
        }
    }

    @Override
    public void onFrame(
        final RendezvousConnection peer, final int type, final int rank, final long collective, final ByteBuffer payload)
    {
        switch (type)
        {
            case HELLO -> onHello(peer, rank, payload);
            case BARRIER, ALL_GATHER -> onCollective(peer, type, collective, payload);
            case GOODBYE -> onGoodbye(peer);
            default -> onBadFrame(peer, "unexpected frame type " + type);
        }
    }

    private void onHello(final RendezvousConnection peer, final int rank, final ByteBuffer payload)
    {
        if (payload.remaining() < 14)
        {
            onBadFrame(peer, "HELLO payload of " + payload.remaining() + " bytes, expected at least 14");
            return;
        }
        final int claimedSize = payload.getInt();
        final long processId = payload.getLong();
        final int jobLength = payload.getShort() & 0xFFFF;
        if (jobLength != payload.remaining())
        {
            onBadFrame(peer, "HELLO job id length " + jobLength + " does not match the " + payload.remaining() +
                " bytes that follow");
            return;
        }
        final byte[] jobBytes = new byte[jobLength];
        payload.get(jobBytes);
        final String job = new String(jobBytes, StandardCharsets.UTF_8);

        final String reason;
        if (rank < 0 || rank >= size)
        {
            reason = "rank " + rank + " is outside [0, " + size + ") of job '" + jobId + "'";
        }
        else if (claimedSize != size)
        {
            reason = "rank " + rank + " expects a job of " + claimedSize + " ranks, job '" + jobId + "' has " + size;
        }
        else if (!job.equals(jobId))
        {
            reason = "rank " + rank + " belongs to job '" + job + "', this rendezvous serves job '" + jobId + "'";
        }
        else if (joined[rank])
        {
            reason = "rank " + rank + " has already joined job '" + jobId + "'";
        }
        else if (null != failure)
        {
            reason = failure;
        }
        else
        {
            reason = null;
        }
        if (null != reason)
        {
            log.accept("refused the connection from " + peer.remote + ": " + reason);
            unjoined.remove(peer);
            peer.sendLast(FAILED, rank, failedPayload(-1, reason));
            peer.close();
            return;
        }

        unjoined.remove(peer);
        peer.rank = rank;
        peers[rank] = peer;
        processIds[rank] = processId;
        joined[rank] = true;
        joinedCount++;
        if (joinedCount == size)
        {
            welcomed = true;
            // volatile store before the WELCOME frames: a rank that has left Spmd.init() was joined in every view
            welcomedView = true;
            final ByteBuffer welcome = ByteBuffer.allocate(4 + 8 * size);
            welcome.putInt(size);
            for (final long id : processIds)
            {
                welcome.putLong(id);
            }
            welcome.flip();
            broadcast(WELCOME, welcome, 0);
        }
    }

    private void onCollective(final RendezvousConnection peer, final int type, final long collective, final ByteBuffer payload)
    {
        final int rank = peer.rank;
        if (!welcomed)
        {
            onBadFrame(peer, RendezvousDescriptor.typeName(type) + " before every rank had joined");
            return;
        }
        if (null != failure)
        {
            sendFailed(peer);
            return;
        }
        final long expected = completed + 1;
        if (collective != expected)
        {
            onBadFrame(peer, RendezvousDescriptor.typeName(type) + " for collective #" + collective + ", expected #" +
                expected);
            return;
        }
        if (arrived[rank])
        {
            onBadFrame(peer, "entered collective #" + collective + " twice");
            return;
        }
        if (0 == pendingType)
        {
            pendingType = type;
            pendingSinceNs = System.nanoTime();
            firstArrived = rank;
        }
        else if (pendingType != type)
        {
            fail(rank, "collective #" + collective + " mismatch: rank " + firstArrived + " called " +
                RendezvousDescriptor.collectiveName(pendingType) + " but rank " + rank + " called " +
                RendezvousDescriptor.collectiveName(type), true);
            return;
        }
        arrived[rank] = true;
        if (type == ALL_GATHER)
        {
            final byte[] contribution = new byte[payload.remaining()];
            payload.get(contribution);
            contributions[rank] = contribution;
        }
        pendingCount++;
        if (pendingCount == size)
        {
            complete();
        }
    }

    private void complete()
    {
        completed++;
        ByteBuffer result = null;
        if (pendingType == ALL_GATHER)
        {
            int length = 4;
            for (final byte[] c : contributions)
            {
                length += 4 + c.length;
            }
            result = ByteBuffer.allocate(length);
            result.putInt(size);
            for (final byte[] c : contributions)
            {
                result.putInt(c.length).put(c);
            }
            result.flip();
        }
        final int doneType = pendingType == ALL_GATHER ? ALL_GATHER_DONE : BARRIER_DONE;
        clearPending();
        broadcast(doneType, result, completed);
    }

    private void clearPending()
    {
        pendingType = 0;
        pendingCount = 0;
        firstArrived = -1;
        for (int i = 0; i < size; i++)
        {
            arrived[i] = false;
            contributions[i] = null;
        }
    }

    private void onGoodbye(final RendezvousConnection peer)
    {
        final int rank = peer.rank;
        peer.leftCleanly = true;
        departed(rank);
        if (null == failure)
        {
            final boolean waiting = pendingType != 0;
            failure = "rank " + rank + " left job '" + jobId + "' (closed it) after collective #" + completed +
                ", so no later collective can complete";
            failureRank = rank;
            if (waiting)
            {
                for (int r = 0; r < size; r++)
                {
                    if (arrived[r] && null != peers[r])
                    {
                        sendFailed(peers[r]);
                    }
                }
                clearPending();
            }
        }
    }

    @Override
    public void onDisconnected(final RendezvousConnection peer, final String reason)
    {
        if (peer.open)
        {
            remove(peer, "rank " + peer.rank + " disconnected from the rendezvous of job '" + jobId +
                "' before the job ended (" + reason + "): its process died or closed its connection", false);
        }
    }

    @Override
    public void onBadFrame(final RendezvousConnection peer, final String reason)
    {
        if (peer.open)
        {
            final String who = peer.rank >= 0 ? "rank " + peer.rank : "the connection from " + peer.remote;
            log.accept("closed " + who + ": " + reason);
            remove(peer, "rank " + peer.rank + " sent a bad rendezvous frame (" + reason +
                ") and its connection was closed", true);
        }
    }

    private void remove(final RendezvousConnection peer, final String failure, final boolean always)
    {
        peer.close();
        if (peer.rank < 0)
        {
            unjoined.remove(peer);
            return;
        }
        peers[peer.rank] = null;
        if (!peer.leftCleanly)
        {
            departed(peer.rank);
            if (welcomed)
            {
                announceLost(peer.rank);
            }
            fail(peer.rank, failure, always);
        }
    }

    /**
     * Tell every other connected rank that {@code rank} is gone, so that its transports stop waiting for it.
     */
    private void announceLost(final int rank)
    {
        final ByteBuffer payload = ByteBuffer.allocate(RendezvousDescriptor.RANK_LOST_PAYLOAD);
        payload.putInt(rank).flip();
        broadcast(RANK_LOST, payload, 0);
    }

    private void departed(final int rank)
    {
        if (!departed[rank])
        {
            departed[rank] = true;
            departures.countDown();
        }
    }

    /**
     * The job has failed: keep the first cause and tell every connected rank. The cause is logged when ranks are
     * waiting for it right now (joining or in a collective), or when {@code always}; otherwise it reaches the ranks
     * as the answer to their next collective, and a job whose ranks simply exit after their last collective logs
     * nothing.
     */
    void fail(final int rank, final String message, final boolean always)
    {
        if (always || !welcomed || 0 != pendingType)
        {
            log.accept(message);
        }
        if (null != failure)
        {
            return;
        }
        failure = message;
        failureRank = rank;
        clearPending();
        broadcast(FAILED, failedPayload(failureRank, failure), completed);
    }

    /**
     * Send a frame to every rank connected.
     *
     * @param payload its payload, each rank sent a view of it (its position untouched), or {@code null} for none.
     */
    private void broadcast(final int type, final ByteBuffer payload, final long collective)
    {
        for (final RendezvousConnection p : peers)
        {
            if (null != p && p.open)
            {
                p.send(type, null == payload ? null : payload.duplicate(), collective);
            }
        }
    }

    /**
     * Close connections that never said hello in time, and fail the job when it outlives its join or collective
     * timeout.
     *
     * @param nowNs {@link System#nanoTime()}.
     */
    void checkTimeouts(final long nowNs)
    {
        for (final Iterator<RendezvousConnection> it = unjoined.iterator(); it.hasNext(); )
        {
            final RendezvousConnection peer = it.next();
            if (nowNs - peer.acceptedNs > connectTimeoutNs)
            {
                log.accept("closed the connection from " + peer.remote + ": no HELLO within " +
                    TimeUnit.NANOSECONDS.toMillis(connectTimeoutNs) + " ms");
                it.remove();
                peer.close();
            }
        }
        if (null != failure)
        {
            return;
        }
        if (!welcomed && nowNs - startNs > joinTimeoutNs)
        {
            fail(-1, "ranks " + listRanks(joined) + " of job '" + jobId + "' did not join within " + joinTimeoutMs +
                " ms (" + joinedCount + " of " + size + " joined; a rank that never started or cannot reach the " +
                "rendezvous; the time is set by " + RendezvousConfig.JOIN_TIMEOUT_VARIABLE + " or -D" +
                RendezvousConfig.JOIN_TIMEOUT_PROP + ")", true);
        }
        else if (!welcomed && nowNs - nextWaitingReportNs >= 0)
        {
            nextWaitingReportNs = nowNs + waitingReportNs;
            log.accept("waiting for ranks " + listRanks(joined) + " of job '" + jobId + "' to join: " + joinedCount +
                " of " + size + " joined after " + TimeUnit.NANOSECONDS.toSeconds(nowNs - startNs) + " s; the job " +
                "fails if they have not joined after " + joinTimeoutMs / 1000.0 + " s (" +
                RendezvousConfig.JOIN_TIMEOUT_VARIABLE + ")");
        }
        else if (0 != pendingType && nowNs - pendingSinceNs > collectiveTimeoutNs)
        {
            fail(-1, "collective #" + (completed + 1) + " (" + RendezvousDescriptor.collectiveName(pendingType) +
                ") of job '" + jobId + "' timed out after " + collectiveTimeoutMs + " ms: ranks " +
                listRanks(arrived) + " never entered it", true);
        }
    }

    private String listRanks(final boolean[] present)
    {
        final StringBuilder sb = new StringBuilder("[");
        int missing = 0;
        for (int r = 0; r < present.length; r++)
        {
            if (!present[r])
            {
                if (missing < MAX_LISTED_RANKS)
                {
                    sb.append(missing == 0 ? "" : ", ").append(r);
                }
                missing++;
            }
        }
        if (missing > MAX_LISTED_RANKS)
        {
            sb.append(", ... (").append(missing).append(" in all)");
        }
        return sb.append(']').toString();
    }

    private void sendFailed(final RendezvousConnection peer)
    {
        peer.send(FAILED, failedPayload(failureRank, failure), completed);
    }

    private static ByteBuffer failedPayload(final int blamedRank, final String message)
    {
        final String text = message.length() > MAX_FAILURE_CHARS ? message.substring(0, MAX_FAILURE_CHARS) : message;
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer payload = ByteBuffer.allocate(4 + bytes.length);
        payload.putInt(blamedRank).put(bytes).flip();
        return payload;
    }
}
