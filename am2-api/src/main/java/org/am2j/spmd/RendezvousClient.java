package org.am2j.spmd;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

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
import static org.am2j.spmd.RendezvousDescriptor.MAX_CONTRIBUTION;
import static org.am2j.spmd.RendezvousDescriptor.WELCOME;

/**
 * One rank's connection to the job's {@link RendezvousServer}: it joins the job, then runs the collectives in
 * lock-step with the other ranks (every rank calls the same collectives in the same order).
 * <p>
 * {@link #connect} retries with exponential back-off (10 ms doubling to 1 s) until the connect timeout, so ranks may
 * start before the server; it returns once every rank of the job has joined. A collective waits at most the collective
 * timeout (plus {@value #CLIENT_GRACE_MS} ms, so that the server, which knows which ranks are missing, usually reports
 * first).
 * <p>
 * Once a collective has failed (a rank died or left, a timeout, a lost server) the client is broken: that collective
 * and every later one throw {@link AmException} with {@link AmError#RESOURCE} and the same message, which names the
 * rank to blame when there is one.
 * <p>
 * Not thread-safe: one thread at a time (as {@link Job} ensures).
 */
public final class RendezvousClient implements AutoCloseable
{
    /** Extra time a client waits beyond the collective timeout before it gives up on its own. */
    static final long CLIENT_GRACE_MS = 2_000;

    private static final long FIRST_BACKOFF_MS = 10;
    private static final long MAX_BACKOFF_MS = 1_000;
    private static final int MAX_CONNECT_ATTEMPT_MS = 5_000;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final String server;
    private final int rank;
    private final int size;
    private final long collectiveTimeoutMs;
    /** How long a hello waits for the welcome: the server decides when joining has failed and says so. */
    private final long joinWaitMs;
    private final byte[] header = new byte[HEADER_LENGTH];
    private final ByteBuffer headerBuffer = ByteBuffer.wrap(header);
    private long completed;
    private String failure;
    private boolean closed;

    private RendezvousClient(
        final Socket socket,
        final String server,
        final int rank,
        final int size,
        final long collectiveTimeoutMs,
        final long joinWaitMs)
        throws IOException
    {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new BufferedOutputStream(socket.getOutputStream());
        this.server = server;
        this.rank = rank;
        this.size = size;
        this.collectiveTimeoutMs = collectiveTimeoutMs;
        this.joinWaitMs = joinWaitMs;
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
        final Socket socket = connectWithBackoff(serverAddress, server, rank, config.connectTimeoutMs());
        final RendezvousClient client;
        try
        {
            socket.setTcpNoDelay(true);
            client = new RendezvousClient(socket, server, rank, size, config.collectiveTimeoutMs(),
                Math.max(config.joinTimeoutMs(), config.collectiveTimeoutMs()));
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new AmException(AmError.RESOURCE, "rank " + rank + " cannot use its connection to the rendezvous" +
                " at " + server + ": " + ex.getMessage(), ex);
        }
        try
        {
            final ByteBuffer payload = ByteBuffer.allocate(4 + 2 + job.length);
            payload.putInt(size).putShort((short)job.length).put(job);
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
        final InetSocketAddress address, final String server, final int rank, final long timeoutMs)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
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
                closeQuietly(socket);
                failure = ex;
            }
            final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
            if (remainingMs <= 0)
            {
                throw new AmException(AmError.RESOURCE, "rank " + rank + " could not connect to the rendezvous at " +
                    server + " within " + timeoutMs + " ms: " + failure);
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
     * @return number of ranks in the job.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return number of collectives completed.
     */
    public long completed()
    {
        return completed;
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
        if (null == failure)
        {
            try
            {
                writeFrame(GOODBYE, null, completed);
            }
            catch (final IOException ignore)
            {
                // leaving anyway
            }
        }
        closeQuietly(socket);
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
        final int type;
        final ByteBuffer payload;
        try
        {
            final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
            socket.setSoTimeout((int)Math.max(1, Math.min(remainingMs, Integer.MAX_VALUE)));
            in.readFully(header);
            final String reason = checkHeader(answerType, collective);
            if (null != reason)
            {
                throw broken("rank " + rank + ": " + what + " got a bad frame from the rendezvous at " + server +
                    ": " + reason);
            }
            type = RendezvousDescriptor.type(headerBuffer);
            final byte[] bytes = new byte[RendezvousDescriptor.payloadLength(headerBuffer)];
            in.readFully(bytes);
            payload = ByteBuffer.wrap(bytes);
        }
        catch (final SocketTimeoutException ex)
        {
            throw broken("rank " + rank + ": " + what + " got no answer from the rendezvous at " + server +
                " within " + waitMs + " ms");
        }
        catch (final EOFException ex)
        {
            throw broken("rank " + rank + ": " + what + " lost the rendezvous at " + server +
                " (it closed the connection)");
        }
        catch (final IOException ex)
        {
            throw broken("rank " + rank + ": " + what + " lost the rendezvous at " + server + " (" +
                ex.getMessage() + ")");
        }
        if (type == FAILED)
        {
            final int blamed = payload.getInt();
            final String message = StandardCharsets.UTF_8.decode(payload).toString();
            throw broken("rank " + rank + ": " + what + " failed: " + message +
                (blamed >= 0 && !message.contains("rank " + blamed) ? " (rank " + blamed + ")" : ""));
        }
        return payload;
    }

    private String checkHeader(final int answerType, final long collective)
    {
        final String magicOrVersion = RendezvousDescriptor.checkMagicAndVersion(headerBuffer);
        if (null != magicOrVersion)
        {
            return magicOrVersion;
        }
        final int type = RendezvousDescriptor.type(headerBuffer);
        final long max = RendezvousDescriptor.maxServerPayload(type, size);
        if (max < 0)
        {
            return "unknown frame type " + type;
        }
        final int length = RendezvousDescriptor.payloadLength(headerBuffer);
        if (length < 0 || length > max)
        {
            return "payload length " + length + " of " + RendezvousDescriptor.typeName(type) + " is outside [0, " +
                max + "]";
        }
        if (type == FAILED)
        {
            return length >= 4 ? null : "FAILED payload of " + length + " bytes, expected at least 4";
        }
        if (type != answerType)
        {
            return RendezvousDescriptor.typeName(type) + " while waiting for " +
                RendezvousDescriptor.typeName(answerType);
        }
        if (RendezvousDescriptor.rank(headerBuffer) != rank)
        {
            return "frame for rank " + RendezvousDescriptor.rank(headerBuffer);
        }
        if (RendezvousDescriptor.collective(headerBuffer) != collective)
        {
            return "answer to collective #" + RendezvousDescriptor.collective(headerBuffer) + ", expected #" +
                collective;
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
        closeQuietly(socket);
        return new AmException(AmError.RESOURCE, failure);
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ignore)
        {
            // nothing more to do
        }
    }
}
