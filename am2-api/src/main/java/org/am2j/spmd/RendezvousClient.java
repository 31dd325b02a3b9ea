package org.am2j.spmd;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ProcessIdentity;

import static org.am2j.spmd.RendezvousDescriptor.ALL_GATHER;
import static org.am2j.spmd.RendezvousDescriptor.ALL_GATHER_DONE;
import static org.am2j.spmd.RendezvousDescriptor.BARRIER;
import static org.am2j.spmd.RendezvousDescriptor.BARRIER_DONE;
import static org.am2j.spmd.RendezvousDescriptor.FAILED;
import static org.am2j.spmd.RendezvousDescriptor.GOODBYE;
import static org.am2j.spmd.RendezvousDescriptor.HELLO;
import static org.am2j.spmd.RendezvousDescriptor.MAX_CONTRIBUTION;
import static org.am2j.spmd.RendezvousDescriptor.WELCOME;

/**
 * One rank's connection to the job's {@link RendezvousServer}: it joins the job, then runs the collectives in
 * lock-step with the other ranks (every rank calls the same collectives in the same order).
 * <p>
 * {@link #connect} retries with exponential back-off (10 ms doubling to 1 s) until the connect timeout, so ranks may
 * start before the server, and says every few seconds (to the configuration's log) that it is still trying; it returns
 * once every rank of the job has joined. A collective waits at most the collective
 * timeout (plus {@value #CLIENT_GRACE_MS} ms, so that the server, which knows which ranks are missing, usually reports
 * first).
 * <p>
 * A daemon thread ({@link RendezvousReader}) reads what the server sends from the start, so that a rank lost at any
 * time is handed to the {@link RankLostListener} at once, not only when a collective runs.
 * <p>
 * Once a collective has failed (a rank died or left, a timeout, a lost server) the client is broken: that collective
 * and every later one throw {@link AmException} with {@link AmError#RESOURCE} and the same message, which names the
 * rank to blame when there is one.
 * <p>
 * Not thread-safe: one thread at a time (as {@link Job} ensures); the listener is called on the reader's thread.
 */
public final class RendezvousClient implements AutoCloseable
{
    /** Extra time a client waits beyond the collective timeout before it gives up on its own. */
    static final long CLIENT_GRACE_MS = 2_000;

    /** Longest wait in {@link #close()} for the server to close the connection after the goodbye. */
    private static final long GOODBYE_LINGER_MS = 1_000;

    private static final long FIRST_BACKOFF_MS = 10;
    private static final long MAX_BACKOFF_MS = 1_000;
    private static final int MAX_CONNECT_ATTEMPT_MS = 5_000;

    private final Socket socket;
    private final OutputStream out;
    private final String server;
    private final int rank;
    private final int size;
    private final long collectiveTimeoutMs;
    /** How long a hello waits for the welcome: the server decides when joining has failed and says so. */
    private final long joinWaitMs;
    private final byte[] header = new byte[RendezvousDescriptor.HEADER_LENGTH];
    private final ByteBuffer headerBuffer = ByteBuffer.wrap(header);
    private final RendezvousReader reader;
    private long completed;
    private String failure;
    private boolean closed;

    private RendezvousClient(
        final Socket socket,
        final String server,
        final int rank,
        final int size,
        final long collectiveTimeoutMs,
        final long joinWaitMs,
        final int hostRank,
        final RankLostListener listener)
        throws IOException
    {
        this.socket = socket;
        final DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new BufferedOutputStream(socket.getOutputStream());
        this.server = server;
        this.rank = rank;
        this.size = size;
        this.collectiveTimeoutMs = collectiveTimeoutMs;
        this.joinWaitMs = joinWaitMs;
        this.reader = new RendezvousReader(in, rank, size, hostRank, listener);
        final Thread thread = new Thread(reader, "am2j-rendezvous-rank-" + rank);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Connect to the rendezvous server, say hello, and wait until every rank of the job has joined.
     *
     * @param serverAddress of the server; an unresolved address is resolved at each attempt.
     * @param rank          of this process, 0 to size - 1.
     * @param size          number of ranks, 1 to {@link SpmdEnvironment#MAX_SIZE}.
     * @param jobId         of the job, as the server knows it.
     * @param config        timeouts.
     * @return the joined client.
     * @throws AmException {@link AmError#BAD_ARG} for a bad argument; {@link AmError#RESOURCE} when the server cannot
     *                     be reached within the connect timeout, refuses this rank, or the job fails before every
     *                     rank has joined.
     */
    public static RendezvousClient connect(
        final InetSocketAddress serverAddress,
        final int rank,
        final int size,
        final String jobId,
        final RendezvousConfig config)
    {
        return connect(serverAddress, rank, size, jobId, config, -1, (lost, processId) -> { });
    }

    /**
     * Connect to the rendezvous server, say hello, and wait until every rank of the job has joined; hear of lost ranks
     * from then on.
     *
     * @param serverAddress of the server; an unresolved address is resolved at each attempt.
     * @param rank          of this process, 0 to size - 1.
     * @param size          number of ranks, 1 to {@link SpmdEnvironment#MAX_SIZE}.
     * @param jobId         of the job, as the server knows it.
     * @param config        timeouts.
     * @param hostRank      the rank whose process runs the server (its loss is that rank's), or -1.
     * @param listener      told of every rank lost after the welcome, on the reader's thread.
     * @return the joined client.
     * @throws AmException as {@link #connect(InetSocketAddress, int, int, String, RendezvousConfig)}.
     */
    public static RendezvousClient connect(
        final InetSocketAddress serverAddress,
        final int rank,
        final int size,
        final String jobId,
        final RendezvousConfig config,
        final int hostRank,
        final RankLostListener listener)
    {
        AmException.checkNotNull("listener", listener);
        AmException.checkNotNull("serverAddress", serverAddress);
        AmException.checkRange("size", size, 1, SpmdEnvironment.MAX_SIZE + 1L);
        AmException.checkRange("rank", rank, 0, size);
        AmException.checkNotNull("jobId", jobId);
        AmException.checkNotNull("config", config);
        final byte[] job = jobId.getBytes(StandardCharsets.UTF_8);
        if (job.length > RendezvousDescriptor.MAX_JOB_ID_BYTES)
        {
            throw new AmException(AmError.BAD_ARG, "jobId has " + job.length + " UTF-8 bytes, allowed [0, " +
                RendezvousDescriptor.MAX_JOB_ID_BYTES + "]");
        }
        final String server = serverAddress.getHostString() + ":" + serverAddress.getPort();
        final Socket socket = connectWithBackoff(serverAddress, server, rank, config, hostRank);
        final RendezvousClient client;
        try
        {
            socket.setTcpNoDelay(true);
            client = new RendezvousClient(socket, server, rank, size, config.collectiveTimeoutMs(),
                Math.max(config.joinTimeoutMs(), config.collectiveTimeoutMs()), hostRank, listener);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(socket);
            throw new AmException(AmError.RESOURCE, "rank " + rank + " cannot use its connection to the rendezvous" +
                " at " + server + ": " + ex.getMessage(), ex);
        }
        try
        {
            final ByteBuffer payload = ByteBuffer.allocate(4 + 8 + 2 + job.length);
            payload.putInt(size).putLong(ProcessIdentity.currentProcessId()).putShort((short)job.length).put(job);
            client.exchange(HELLO, payload.array(), WELCOME, "joining job '" + jobId + "'");
            return client;
        }
        catch (final RuntimeException ex)
        {
            client.close();
            throw ex;
        }
    }

    private static Socket connectWithBackoff(
        final InetSocketAddress address, final String server, final int rank, final RendezvousConfig config,
        final int hostRank)
    {
        final long timeoutMs = config.connectTimeoutMs();
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final String whoServes = 0 == hostRank ? "; rank 0 serves it: is rank 0 running, and does " +
            SpmdEnvironment.AM2J_BOOTSTRAP + " name an address of its machine?" : "";
        // a report every few seconds, and one before the last attempt if none came yet, as the server reports ranks
        final long reportNs = TimeUnit.MILLISECONDS.toNanos(RendezvousJob.WAITING_REPORT_MS);
        long nextReportNs = startNs + reportNs;
        boolean reported = false;
        long backoffMs = FIRST_BACKOFF_MS;
        while (true)
        {
            final Socket socket = new Socket();
            IOException failure;
            try
            {
                final InetSocketAddress resolved = address.isUnresolved() ?
                    new InetSocketAddress(address.getHostString(), address.getPort()) : address;
                if (resolved.isUnresolved())
                {
                    throw new UnknownHostException("cannot resolve " + address.getHostString());
                }
                final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                socket.connect(resolved, (int)Math.max(1, Math.min(remainingMs, MAX_CONNECT_ATTEMPT_MS)));
                return socket;
            }
            catch (final IOException ex)
            {
                CloseHelper.quietClose(socket);
                failure = ex;
            }
            final long nowNs = System.nanoTime();
            final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - nowNs);
            if (remainingMs <= 0)
            {
                throw new AmException(AmError.RESOURCE, "rank " + rank + " could not connect to the rendezvous at " +
                    server + " within " + timeoutMs + " ms (" + RendezvousConfig.CONNECT_TIMEOUT_VARIABLE + "): " +
                    failure + whoServes);
            }
            if (nowNs - nextReportNs >= 0 || !reported && backoffMs >= remainingMs)
            {
                reported = true;
                nextReportNs = nowNs + reportNs;
                config.log().accept("rank " + rank + " cannot reach the rendezvous at " + server + " yet after " +
                    TimeUnit.NANOSECONDS.toMillis(nowNs - startNs) / 1000.0 + " s (" + failure.getMessage() + "); " +
                    "it keeps trying until " + timeoutMs / 1000.0 + " s (" + RendezvousConfig.CONNECT_TIMEOUT_VARIABLE +
                    ")" + whoServes);
            }
            try
            {
                Thread.sleep(Math.min(backoffMs, remainingMs));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AmException(AmError.RESOURCE, "rank " + rank + " was interrupted while connecting to the" +
                    " rendezvous at " + server, ex);
            }
            backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
        }
    }

    /**
     * @return rank of this client.
     */
    public int rank()
    {
        return rank;
    }

    /**
     * Wait until every rank has entered this barrier.
     *
     * @throws AmException {@link AmError#RESOURCE} when the job has failed or the wait timed out,
     *                     {@link AmError#NOT_INIT} when the client is closed.
     */
    public void barrier()
    {
        exchange(BARRIER, null, BARRIER_DONE, "barrier #" + (completed + 1));
    }

    /**
     * Give a contribution and receive the contributions of every rank.
     *
     * @param mine this rank's contribution, 0 to {@link RendezvousDescriptor#MAX_CONTRIBUTION} bytes.
     * @return the contributions in rank order, {@code result[rank()]} a copy of {@code mine}.
     * @throws AmException {@link AmError#BAD_ARG} when {@code mine} is null or too long; {@link AmError#RESOURCE}
     *                     when the job has failed or the wait timed out; {@link AmError#NOT_INIT} when closed.
     */
    public byte[][] allGather(final byte[] mine)
    {
        checkContribution(mine);
        final ByteBuffer result = exchange(ALL_GATHER, mine, ALL_GATHER_DONE, "allGather #" + (completed + 1));
        return decodeAllGather(result);
    }

    /**
     * @param mine a contribution to an all-gather.
     * @throws AmException {@link AmError#BAD_ARG} when it is null or longer than
     *                     {@link RendezvousDescriptor#MAX_CONTRIBUTION} bytes.
     */
    static void checkContribution(final byte[] mine)
    {
        AmException.checkNotNull("mine", mine);
        if (mine.length > MAX_CONTRIBUTION)
        {
            throw new AmException(AmError.BAD_ARG, "mine has " + mine.length + " bytes, allowed [0, " +
                MAX_CONTRIBUTION + "]");
        }
    }

    /**
     * Leave the job: tell the server (unless the job has failed) and close the connection. Closing twice is harmless.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        reader.closing();
        if (null == failure)
        {
            try
            {
                writeFrame(GOODBYE, null, completed);
                // let the server read the goodbye and close first: closing now could reset the connection
                socket.shutdownOutput();
                reader.awaitEnd(GOODBYE_LINGER_MS);
            }
            catch (final IOException ignore)
            {
                // leaving anyway
            }
        }
        CloseHelper.quietClose(socket);
    }

    private ByteBuffer exchange(final int type, final byte[] payload, final int answerType, final String what)
    {
        if (closed)
        {
            throw new AmException(AmError.NOT_INIT, "rank " + rank + ": " + what + " on a closed rendezvous client");
        }
        if (null != failure)
        {
            throw new AmException(AmError.RESOURCE, failure);
        }
        final long collective = type == HELLO ? 0 : completed + 1;
        final long waitMs = (type == HELLO ? joinWaitMs : collectiveTimeoutMs) + CLIENT_GRACE_MS;
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        try
        {
            writeFrame(type, payload, collective);
        }
        catch (final IOException ex)
        {
            // the server may have told us why before it closed: look for a FAILED frame, briefly
            final long shortDeadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            try
            {
                readAnswer(answerType, collective, shortDeadlineNs, 1000, what);
            }
            catch (final AmException ignore)
            {
                // fall through to the write failure, unless a FAILED frame set the failure
            }
            throw broken(null != failure ? failure :
                "rank " + rank + ": " + what + " lost the rendezvous at " + server + " (" + ex.getMessage() + ")");
        }
        final ByteBuffer answer = readAnswer(answerType, collective, deadlineNs, waitMs, what);
        completed = collective;
        return answer;
    }

    private ByteBuffer readAnswer(
        final int answerType, final long collective, final long deadlineNs, final long waitMs, final String what)
    {
        final RendezvousReader.Frame frame;
        try
        {
            frame = reader.next(deadlineNs);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw broken("rank " + rank + ": " + what + " was interrupted while waiting for the rendezvous at " +
                server);
        }
        if (null == frame)
        {
            throw broken("rank " + rank + ": " + what + " got no answer from the rendezvous at " + server +
                " within " + waitMs + " ms");
        }
        if (null != frame.lost())
        {
            throw broken("rank " + rank + ": " + what + " lost the rendezvous at " + server + " (" + frame.lost() +
                ")");
        }
        final ByteBuffer payload = frame.payload();
        if (frame.type() == FAILED)
        {
            if (payload.remaining() < 4)
            {
                throw broken("rank " + rank + ": " + what + " got a bad frame from the rendezvous at " + server +
                    ": FAILED payload of " + payload.remaining() + " bytes, expected at least 4");
            }
            final int blamed = payload.getInt();
            final String message = StandardCharsets.UTF_8.decode(payload).toString();
            throw broken("rank " + rank + ": " + what + " failed: " + message +
                (blamed >= 0 && !message.contains("rank " + blamed) ? " (rank " + blamed + ")" : ""));
        }
        final String reason = checkAnswer(frame, answerType, collective);
        if (null != reason)
        {
            throw broken("rank " + rank + ": " + what + " got a bad frame from the rendezvous at " + server +
                ": " + reason);
        }
        return payload;
    }

    private String checkAnswer(final RendezvousReader.Frame frame, final int answerType, final long collective)
    {
        if (frame.type() != answerType)
        {
            return RendezvousDescriptor.typeName(frame.type()) + " while waiting for " +
                RendezvousDescriptor.typeName(answerType);
        }
        if (frame.rank() != rank)
        {
            return "frame for rank " + frame.rank();
        }
        if (frame.collective() != collective)
        {
            return "answer to collective #" + frame.collective() + ", expected #" + collective;
        }
        return null;
    }

    private byte[][] decodeAllGather(final ByteBuffer payload)
    {
        final String what = "allGather #" + completed;
        if (payload.remaining() < 4 || payload.getInt() != size)
        {
            throw broken("rank " + rank + ": " + what + " got a result that does not hold " + size + " contributions");
        }
        final byte[][] result = new byte[size][];
        for (int r = 0; r < size; r++)
        {
            final int length = payload.remaining() >= 4 ? payload.getInt() : -1;
            if (length < 0 || length > MAX_CONTRIBUTION || length > payload.remaining())
            {
                throw broken("rank " + rank + ": " + what + " got a malformed contribution of rank " + r);
            }
            result[r] = new byte[length];
            payload.get(result[r]);
        }
        if (payload.hasRemaining())
        {
            throw broken("rank " + rank + ": " + what + " got " + payload.remaining() + " trailing bytes");
        }
        return result;
    }

    private void writeFrame(final int type, final byte[] payload, final long collective) throws IOException
    {
        final int length = null == payload ? 0 : payload.length;
        RendezvousDescriptor.writeHeader(headerBuffer, type, rank, length, collective);
        out.write(header);
        if (length > 0)
        {
            out.write(payload);
        }
        out.flush();
    }

    private AmException broken(final String message)
    {
        if (null == failure)
        {
            failure = message;
        }
        CloseHelper.quietClose(socket);
        return new AmException(AmError.RESOURCE, failure);
    }
}
