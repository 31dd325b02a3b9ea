package org.am2j.spmd;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

import static org.am2j.spmd.RendezvousDescriptor.ALL_GATHER;
import static org.am2j.spmd.RendezvousDescriptor.ALL_GATHER_DONE;
import static org.am2j.spmd.RendezvousDescriptor.BARRIER;
import static org.am2j.spmd.RendezvousDescriptor.BARRIER_DONE;
import static org.am2j.spmd.RendezvousDescriptor.FAILED;
import static org.am2j.spmd.RendezvousDescriptor.GOODBYE;
import static org.am2j.spmd.RendezvousDescriptor.HEADER_LENGTH;
import static org.am2j.spmd.RendezvousDescriptor.HELLO;
import static org.am2j.spmd.RendezvousDescriptor.MAX_FAILURE_CHARS;
import static org.am2j.spmd.RendezvousDescriptor.WELCOME;

/**
 * The rendezvous server of one SPMD job: every rank connects to it over TCP, says hello, and then runs the job's
 * collectives (barrier, all-gather) through it in lock-step. The frames are those of {@link RendezvousDescriptor}.
 * <p>
 * am2j's launcher runs the server in its own process; under an external launcher rank 0 runs it (see {@link Spmd}).
 * <p>
 * <b>Threading.</b> One daemon thread owns a selector, every connection and all job state; the public methods only
 * read volatile fields or a latch, and {@link #close()} stops the thread.
 * <p>
 * <b>Failure.</b> Collective number {@code k} completes when every rank has entered it. When a rank disconnects
 * without saying goodbye, sends a bad frame, or a collective outlives the collective timeout, the job has failed: every
 * rank connected is sent a {@code FAILED} frame naming the cause, and every later collective is answered with it, so
 * no rank hangs. A rank that leaves cleanly ({@link Job#close()}) makes the collectives that would need it fail in
 * the same way. The first cause is kept. It is logged when ranks are waiting on it (joining or in a collective) or
 * when it is a protocol error; a rank that disconnects while no collective is under way is not logged, since a
 * program may well exit without closing its job after its last collective, and later collectives report it anyway.
 * <p>
 * <b>Bad input.</b> A frame with a wrong magic, version, type, rank or collective number, or a length above the bound
 * of its type, closes that connection with a logged reason; payloads are allocated only after their length has been
 * checked against that bound, so memory stays within size x {@link RendezvousDescriptor#MAX_CONTRIBUTION} plus one
 * frame per connection. At most {@value #MAX_UNJOINED} connections may wait to say hello, each for at most the
 * connect timeout.
 */
public final class RendezvousServer implements AutoCloseable
{
    /** Most connections that may be open without having said hello. */
    static final int MAX_UNJOINED = 64;

    private static final long SELECT_TIMEOUT_MS = 100;
    private static final int MAX_FRAMES_PER_READ = 16;
    private static final int MAX_LISTED_RANKS = 16;

    private final int size;
    private final String jobId;
    private final long connectTimeoutNs;
    private final long collectiveTimeoutNs;
    private final long collectiveTimeoutMs;
    private final Consumer<String> log;
    private final ServerSocketChannel acceptor;
    private final Selector selector;
    private final InetSocketAddress address;
    private final CountDownLatch departures;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String failureView;

    // Everything below is owned by the server thread.
    private final Peer[] peers;
    private final boolean[] joined;
    private final boolean[] departed;
    private final boolean[] arrived;
    private final byte[][] contributions;
    private final List<Peer> unjoined = new ArrayList<>();
    private final long startNs;
    private int joinedCount;
    private boolean welcomed;
    private long completed;
    private int pendingType;
    private int pendingCount;
    private int firstArrived;
    private long pendingSinceNs;
    private String failure;
    private int failureRank = -1;

    private RendezvousServer(
        final int size,
        final String jobId,
        final RendezvousConfig config,
        final ServerSocketChannel acceptor,
        final Selector selector,
        final InetSocketAddress address)
    {
        this.size = size;
        this.jobId = jobId;
        this.connectTimeoutNs = TimeUnit.MILLISECONDS.toNanos(config.connectTimeoutMs());
        this.collectiveTimeoutMs = config.collectiveTimeoutMs();
        this.collectiveTimeoutNs = TimeUnit.MILLISECONDS.toNanos(collectiveTimeoutMs);
        this.log = config.log();
        this.acceptor = acceptor;
        this.selector = selector;
        this.address = address;
        this.departures = new CountDownLatch(size);
        this.peers = new Peer[size];
        this.joined = new boolean[size];
        this.departed = new boolean[size];
        this.arrived = new boolean[size];
        this.contributions = new byte[size][];
        this.startNs = System.nanoTime();
        this.thread = new Thread(this::run, "am2j-rendezvous-" + jobId);
        this.thread.setDaemon(true);
    }

    /**
     * Listen for the ranks of a job and start serving them.
     *
     * @param bindAddress where to listen; port 0 picks a free port (see {@link #address()}).
     * @param size        number of ranks in the job, 1 to {@link SpmdEnvironment#MAX_SIZE}.
     * @param jobId       id every rank must present in its hello.
     * @param config      timeouts and log.
     * @return the running server.
     * @throws AmException {@link AmError#BAD_ARG} for a bad argument, {@link AmError#RESOURCE} when the address
     *                     cannot be bound.
     */
    public static RendezvousServer start(
        final InetSocketAddress bindAddress, final int size, final String jobId, final RendezvousConfig config)
    {
        AmException.checkNotNull("bindAddress", bindAddress);
        AmException.checkRange("size", size, 1, SpmdEnvironment.MAX_SIZE + 1L);
        AmException.checkNotNull("jobId", jobId);
        AmException.checkNotNull("config", config);
        Selector selector = null;
        ServerSocketChannel acceptor = null;
        try
        {
            selector = Selector.open();
            acceptor = ServerSocketChannel.open();
            acceptor.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            acceptor.bind(bindAddress, Math.min(size, 1024) + 16);
            acceptor.configureBlocking(false);
            acceptor.register(selector, SelectionKey.OP_ACCEPT);
            final InetSocketAddress bound = (InetSocketAddress)acceptor.getLocalAddress();
            final RendezvousServer server = new RendezvousServer(size, jobId, config, acceptor, selector, bound);
            server.thread.start();
            return server;
        }
        catch (final IOException ex)
        {
            closeQuietly(acceptor);
            closeQuietly(selector);
            throw new AmException(AmError.RESOURCE, "cannot listen on " + bindAddress + " for the rendezvous of job '" +
                jobId + "': " + ex.getMessage(), ex);
        }
    }

    /**
     * @return the address the server listens on, with the actual port.
     */
    public InetSocketAddress address()
    {
        return address;
    }

    /**
     * @return number of ranks in the job.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return the job id the ranks must present.
     */
    public String jobId()
    {
        return jobId;
    }

    /**
     * @return why the job can run no more collectives (a rank died, left or timed out), or {@code null} while it can.
     */
    public String failure()
    {
        return failureView;
    }

    /**
     * Wait until every rank has left the job, by saying goodbye or by disconnecting.
     *
     * @param timeout longest wait.
     * @param unit    of the timeout.
     * @return true when every rank has left, false when the time ran out first.
     * @throws InterruptedException when the waiting thread is interrupted.
     */
    public boolean awaitDeparture(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return departures.await(timeout, unit);
    }

    /**
     * Stop serving and close every connection. Ranks still connected see the connection close. Closing twice is
     * harmless.
     */
    @Override
    public void close()
    {
        running = false;
        selector.wakeup();
        if (Thread.currentThread() != thread)
        {
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run()
    {
        try
        {
            while (running)
            {
                selector.select(SELECT_TIMEOUT_MS);
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext())
                {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    handle(key);
                }
                checkTimeouts(System.nanoTime());
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            fail(-1, "the rendezvous server of job '" + jobId + "' stopped: " + ex, true);
        }
        finally
        {
            for (final Peer peer : peers)
            {
                if (null != peer)
                {
                    closeChannel(peer);
                }
            }
            for (final Peer peer : unjoined)
            {
                closeChannel(peer);
            }
            closeQuietly(acceptor);
            closeQuietly(selector);
        }
    }

    private void handle(final SelectionKey key)
    {
        if (!key.isValid())
        {
            return;
        }
        if (key.isAcceptable())
        {
            accept();
            return;
        }
        final Peer peer = (Peer)key.attachment();
        try
        {
            if (key.isReadable())
            {
                read(peer);
            }
            if (peer.open && key.isValid() && key.isWritable())
            {
                flush(peer);
            }
        }
        catch (final CancelledKeyException ex)
        {
            disconnected(peer, "its selection key was cancelled");
        }
        catch (final IOException ex)
        {
            disconnected(peer, "I/O error: " + ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            badFrame(peer, "unexpected " + ex);
        }
    }

    private void accept()
    {
        while (true)
        {
            final SocketChannel channel;
            try
            {
                channel = acceptor.accept();
            }
            catch (final IOException ex)
            {
                log.accept("cannot accept a connection: " + ex.getMessage());
                return;
            }
            if (null == channel)
            {
                return;
            }
            final String remote = remoteAddress(channel);
            if (unjoined.size() >= MAX_UNJOINED)
            {
                log.accept("refused the connection from " + remote + ": " + MAX_UNJOINED +
                    " connections have not said hello yet");
                closeQuietly(channel);
                continue;
            }
            try
            {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                final Peer peer = new Peer(channel, remote, System.nanoTime());
                peer.key = channel.register(selector, SelectionKey.OP_READ, peer);
                unjoined.add(peer);
            }
            catch (final IOException ex)
            {
                log.accept("cannot set up the connection from " + remote + ": " + ex.getMessage());
                closeQuietly(channel);
            }
        }
    }

    private void read(final Peer peer) throws IOException
    {
        for (int frames = 0; frames < MAX_FRAMES_PER_READ && peer.open; frames++)
        {
            if (null == peer.payload)
            {
                if (peer.channel.read(peer.header) < 0)
                {
                    disconnected(peer, "it closed the connection");
                    return;
                }
                if (peer.header.hasRemaining())
                {
                    return;
                }
                final String reason = checkHeader(peer);
                if (null != reason)
                {
                    badFrame(peer, reason);
                    return;
                }
                // the length was checked against the bound of the frame type: the allocation is bounded
                peer.payload = ByteBuffer.allocate(RendezvousDescriptor.payloadLength(peer.header));
            }
            if (peer.payload.hasRemaining())
            {
                if (peer.channel.read(peer.payload) < 0)
                {
                    disconnected(peer, "it closed the connection in the middle of a frame");
                    return;
                }
                if (peer.payload.hasRemaining())
                {
                    return;
                }
            }
            final ByteBuffer payload = peer.payload;
            payload.flip();
            final int type = RendezvousDescriptor.type(peer.header);
            final int rank = RendezvousDescriptor.rank(peer.header);
            final long collective = RendezvousDescriptor.collective(peer.header);
            peer.header.clear();
            peer.payload = null;
            onFrame(peer, type, rank, collective, payload);
        }
    }

    private String checkHeader(final Peer peer)
    {
        final ByteBuffer header = peer.header;
        final String magicOrVersion = RendezvousDescriptor.checkMagicAndVersion(header);
        if (null != magicOrVersion)
        {
            return magicOrVersion;
        }
        final int type = RendezvousDescriptor.type(header);
        final int max = RendezvousDescriptor.maxClientPayload(type);
        if (max < 0)
        {
            return "unknown frame type " + type;
        }
        final int length = RendezvousDescriptor.payloadLength(header);
        if (length < 0 || length > max)
        {
            return "payload length " + length + " of " + RendezvousDescriptor.typeName(type) +
                " is outside [0, " + max + "]";
        }
        final int rank = RendezvousDescriptor.rank(header);
        if (peer.rank < 0)
        {
            if (type != HELLO)
            {
                return "first frame is " + RendezvousDescriptor.typeName(type) + ", expected HELLO";
            }
        }
        else
        {
            if (type == HELLO)
            {
                return "second HELLO";
            }
            if (rank != peer.rank)
            {
                return "wrong rank " + rank + " in a frame on the connection of rank " + peer.rank;
            }
        }
        return null;
    }

    private void onFrame(
        final Peer peer, final int type, final int rank, final long collective, final ByteBuffer payload)
    {
        switch (type)
        {
            case HELLO:
                onHello(peer, rank, payload);
                break;
            case BARRIER:
            case ALL_GATHER:
                onCollective(peer, type, collective, payload);
                break;
            case GOODBYE:
                onGoodbye(peer);
                break;
            default:
                badFrame(peer, "unexpected frame type " + type);
                break;
        }
    }

    private void onHello(final Peer peer, final int rank, final ByteBuffer payload)
    {
        if (payload.remaining() < 6)
        {
            badFrame(peer, "HELLO payload of " + payload.remaining() + " bytes, expected at least 6");
            return;
        }
        final int claimedSize = payload.getInt();
        final int jobLength = payload.getShort() & 0xFFFF;
        if (jobLength != payload.remaining())
        {
            badFrame(peer, "HELLO job id length " + jobLength + " does not match the " + payload.remaining() +
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
            final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH);
            final ByteBuffer message = failedPayload(-1, reason);
            RendezvousDescriptor.writeHeader(header, FAILED, rank, message.remaining(), 0);
            try
            {
                // best effort: the frame is small enough for an empty socket buffer
                peer.channel.write(new ByteBuffer[]{ header, message });
            }
            catch (final IOException ignore)
            {
                // the connection is closed below either way
            }
            closeChannel(peer);
            return;
        }

        unjoined.remove(peer);
        peer.rank = rank;
        peers[rank] = peer;
        joined[rank] = true;
        joinedCount++;
        if (joinedCount == size)
        {
            welcomed = true;
            for (final Peer p : peers)
            {
                if (null != p)
                {
                    send(p, WELCOME, null, 0);
                }
            }
        }
    }

    private void onCollective(final Peer peer, final int type, final long collective, final ByteBuffer payload)
    {
        final int rank = peer.rank;
        if (!welcomed)
        {
            badFrame(peer, RendezvousDescriptor.typeName(type) + " before every rank had joined");
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
            badFrame(peer, RendezvousDescriptor.typeName(type) + " for collective #" + collective + ", expected #" +
                expected);
            return;
        }
        if (arrived[rank])
        {
            badFrame(peer, "entered collective #" + collective + " twice");
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
        for (final Peer p : peers)
        {
            if (null != p && p.open)
            {
                send(p, doneType, null == result ? null : result.duplicate(), completed);
            }
        }
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

    private void onGoodbye(final Peer peer)
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
            failureView = failure;
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

    private void disconnected(final Peer peer, final String reason)
    {
        if (peer.open)
        {
            remove(peer, "rank " + peer.rank + " disconnected from the rendezvous of job '" + jobId +
                "' before the job ended (" + reason + "): its process died or closed its connection", false);
        }
    }

    private void badFrame(final Peer peer, final String reason)
    {
        if (peer.open)
        {
            final String who = peer.rank >= 0 ? "rank " + peer.rank : "the connection from " + peer.remote;
            log.accept("closed " + who + ": " + reason);
            remove(peer, "rank " + peer.rank + " sent a bad rendezvous frame (" + reason +
                ") and its connection was closed", true);
        }
    }

    private void remove(final Peer peer, final String failure, final boolean always)
    {
        closeChannel(peer);
        if (peer.rank < 0)
        {
            unjoined.remove(peer);
            return;
        }
        peers[peer.rank] = null;
        if (!peer.leftCleanly)
        {
            departed(peer.rank);
            fail(peer.rank, failure, always);
        }
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
    private void fail(final int rank, final String message, final boolean always)
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
        failureView = message;
        clearPending();
        for (final Peer p : peers)
        {
            if (null != p && p.open)
            {
                sendFailed(p);
            }
        }
    }

    private void checkTimeouts(final long nowNs)
    {
        for (final Iterator<Peer> it = unjoined.iterator(); it.hasNext(); )
        {
            final Peer peer = it.next();
            if (nowNs - peer.acceptedNs > connectTimeoutNs)
            {
                log.accept("closed the connection from " + peer.remote + ": no HELLO within " +
                    TimeUnit.NANOSECONDS.toMillis(connectTimeoutNs) + " ms");
                it.remove();
                closeChannel(peer);
            }
        }
        if (null != failure)
        {
            return;
        }
        if (!welcomed && nowNs - startNs > collectiveTimeoutNs)
        {
            fail(-1, "ranks " + listRanks(joined) + " of job '" + jobId + "' did not join within " +
                collectiveTimeoutMs + " ms", true);
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

    private void sendFailed(final Peer peer)
    {
        send(peer, FAILED, failedPayload(failureRank, failure), completed);
    }

    private static ByteBuffer failedPayload(final int blamedRank, final String message)
    {
        final String text = message.length() > MAX_FAILURE_CHARS ? message.substring(0, MAX_FAILURE_CHARS) : message;
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer payload = ByteBuffer.allocate(4 + bytes.length);
        payload.putInt(blamedRank).put(bytes).flip();
        return payload;
    }

    private void send(final Peer peer, final int type, final ByteBuffer payload, final long collective)
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH);
        final int length = null == payload ? 0 : payload.remaining();
        RendezvousDescriptor.writeHeader(header, type, peer.rank, length, collective);
        peer.out.add(header);
        if (null != payload && payload.hasRemaining())
        {
            peer.out.add(payload);
        }
        flush(peer);
    }

    private void flush(final Peer peer)
    {
        if (!peer.open)
        {
            return;
        }
        try
        {
            while (!peer.out.isEmpty())
            {
                final ByteBuffer buffer = peer.out.peek();
                peer.channel.write(buffer);
                if (buffer.hasRemaining())
                {
                    peer.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
                peer.out.poll();
            }
            peer.key.interestOps(SelectionKey.OP_READ);
        }
        catch (final IOException ex)
        {
            disconnected(peer, "write failed: " + ex.getMessage());
        }
        catch (final CancelledKeyException ex)
        {
            disconnected(peer, "its selection key was cancelled");
        }
    }

    private static void closeChannel(final Peer peer)
    {
        peer.open = false;
        peer.out.clear();
        if (null != peer.key)
        {
            peer.key.cancel();
        }
        closeQuietly(peer.channel);
    }

    private static String remoteAddress(final SocketChannel channel)
    {
        try
        {
            return String.valueOf(channel.getRemoteAddress());
        }
        catch (final IOException ex)
        {
            return "an unknown address";
        }
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        if (null != closeable)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ignore)
            {
                // nothing more to do
            }
        }
    }

    /**
     * One connection: reading state (a fixed header buffer, then a payload buffer of the checked length) and the
     * frames waiting to be written.
     */
    private static final class Peer
    {
        final SocketChannel channel;
        final String remote;
        final long acceptedNs;
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH);
        final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
        SelectionKey key;
        ByteBuffer payload;
        int rank = -1;
        boolean open = true;
        boolean leftCleanly;

        Peer(final SocketChannel channel, final String remote, final long acceptedNs)
        {
            this.channel = channel;
            this.remote = remote;
            this.acceptedNs = acceptedNs;
        }
    }
}
