package org.am2j.spmd;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.am2j.spmd.RendezvousDescriptor.HEADER_LENGTH;
import static org.am2j.spmd.RendezvousDescriptor.RANK_LOST;
import static org.am2j.spmd.RendezvousDescriptor.WELCOME;

/**
 * Reads every frame the rendezvous server sends one rank, on a daemon thread of its own, so that news of a lost rank
 * ({@link RendezvousDescriptor#RANK_LOST}) reaches the rank at once, also while it runs no collective. Answers to
 * collectives (and {@code FAILED}) are queued for the rank's {@link RendezvousClient}; a lost rank is handed to the
 * {@link RankLostListener} on the reader's thread. A frame with a bad magic, version, type or length, or the end of
 * the connection, ends the reader with a {@link Frame#lost} entry that says why.
 * <p>
 * When the server runs inside a rank's process (rank 0 under an external launcher), losing the server unexpectedly
 * means losing that rank: the listener hears of it too.
 */
final class RendezvousReader implements Runnable
{
    /**
     * One entry of the queue: a frame, or why the connection ended.
     *
     * @param type       the frame type, or 0 for the end of the connection.
     * @param rank       the header's rank field.
     * @param collective the header's collective number.
     * @param payload    the frame's payload, or null.
     * @param lost       why the connection ended, or null for a frame.
     */
    record Frame(int type, int rank, long collective, ByteBuffer payload, String lost)
    {
    }

    private final DataInputStream in;
    private final int size;
    private final int hostRank;
    private final int rank;
    private final RankLostListener listener;
    private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    private final byte[] header = new byte[HEADER_LENGTH];
    private final ByteBuffer headerBuffer = ByteBuffer.wrap(header);
    private final boolean[] lostRanks;
    /** Process ids of the ranks, from the welcome; written and read by the reader thread only. */
    private long[] processIds;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean closing;

    /**
     * @param in       the connection's input.
     * @param rank     this client's rank.
     * @param size     number of ranks.
     * @param hostRank the rank whose process hosts the server, or -1 when no rank's does.
     * @param listener told of lost ranks.
     */
    RendezvousReader(
        final DataInputStream in, final int rank, final int size, final int hostRank, final RankLostListener listener)
    {
        this.in = in;
        this.rank = rank;
        this.size = size;
        this.hostRank = hostRank;
        this.listener = listener;
        this.lostRanks = new boolean[size];
    }

    /**
     * The client is closing the connection on purpose: its end is no news.
     */
    void closing()
    {
        closing = true;
    }

    /**
     * Wait until the server has closed the connection (after this client's goodbye), so that closing the socket
     * cannot reset the connection before the server has read the goodbye (a reset may discard it, and the server
     * would take a clean leave for a lost rank).
     *
     * @param timeoutMs longest wait.
     */
    void awaitEnd(final long timeoutMs)
    {
        try
        {
            ended.await(timeoutMs, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @param deadlineNs {@link System#nanoTime()} after which to give up.
     * @return the next frame or end-of-connection entry, or null at the deadline.
     * @throws InterruptedException when the waiting thread is interrupted.
     */
    Frame next(final long deadlineNs) throws InterruptedException
    {
        return frames.poll(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    @Override
    public void run()
    {
        String why;
        try
        {
            while (true)
            {
                in.readFully(header);
                final String reason = check();
                if (null != reason)
                {
                    why = "a bad frame: " + reason;
                    break;
                }
                final int type = RendezvousDescriptor.type(headerBuffer);
                final byte[] bytes = new byte[RendezvousDescriptor.payloadLength(headerBuffer)];
                in.readFully(bytes);
                final ByteBuffer payload = ByteBuffer.wrap(bytes);
                if (type == RANK_LOST)
                {
                    onRankLost(payload.getInt());
                    continue;
                }
                if (type == WELCOME)
                {
                    why = readProcessIds(payload.duplicate());
                    if (null != why)
                    {
                        break;
                    }
                }
                frames.add(new Frame(type, RendezvousDescriptor.rank(headerBuffer),
                    RendezvousDescriptor.collective(headerBuffer), payload, null));
            }
        }
        catch (final EOFException ex)
        {
            why = "it closed the connection";
        }
        catch (final IOException ex)
        {
            why = String.valueOf(ex.getMessage());
        }
        frames.add(new Frame(0, rank, 0, null, why));
        if (!closing && hostRank >= 0 && hostRank != rank)
        {
            onRankLost(hostRank);
        }
        ended.countDown();
    }

    private String check()
    {
        final String reason = RendezvousDescriptor.checkHeader(
            headerBuffer, type -> RendezvousDescriptor.maxServerPayload(type, size));
        if (null != reason)
        {
            return reason;
        }
        final int type = RendezvousDescriptor.type(headerBuffer);
        final int length = RendezvousDescriptor.payloadLength(headerBuffer);
        if (type == RANK_LOST && length != RendezvousDescriptor.RANK_LOST_PAYLOAD)
        {
            return "RANK_LOST payload of " + length + " bytes, expected " + RendezvousDescriptor.RANK_LOST_PAYLOAD;
        }
        return null;
    }

    private String readProcessIds(final ByteBuffer payload)
    {
        if (payload.remaining() != 4 + 8 * size || payload.getInt() != size)
        {
            return "a WELCOME that does not hold the process ids of " + size + " ranks";
        }
        final long[] ids = new long[size];
        for (int r = 0; r < size; r++)
        {
            ids[r] = payload.getLong();
        }
        processIds = ids;
        return null;
    }

    private void onRankLost(final int lost)
    {
        if (null == processIds || lost < 0 || lost >= size || lost == rank || lostRanks[lost])
        {
            return;
        }
        lostRanks[lost] = true;
        listener.onRankLost(lost, processIds[lost]);
    }
}
