package org.am2j.spmd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

import org.agrona.CloseHelper;

import static org.am2j.spmd.RendezvousDescriptor.HEADER_LENGTH;
import static org.am2j.spmd.RendezvousDescriptor.HELLO;

/**
 * One rank's connection to the {@link RendezvousServer}: the peer record (its rank once it said hello, whether it is
 * open and whether it left cleanly) and the framing of {@link RendezvousDescriptor} over a non-blocking channel.
 * <p>
 * Reading fills a fixed header buffer, checks the header (magic, version, type, payload bound, and the rank against
 * the one of the connection's hello), and only then allocates the payload, so memory stays bounded whatever a peer
 * sends. Complete frames, bad frames and disconnections are handed to a {@link Listener}. Writing queues frames and
 * writes what the socket takes, asking the selector for writability while something is left. Owned by the server
 * thread.
 */
final class RendezvousConnection
{
    /** Most frames read from one connection per readiness event, so one busy rank cannot starve the others. */
    static final int MAX_FRAMES_PER_READ = 16;

    /**
     * What the protocol does with the frames and the fate of a connection.
     */
    interface Listener
    {
        /**
         * @param connection the frame came on.
         * @param type       of the frame, checked to be a client frame type.
         * @param rank       in the header.
         * @param collective number in the header.
         * @param payload    of the frame, of a length within the bound of its type.
         */
        void onFrame(RendezvousConnection connection, int type, int rank, long collective, ByteBuffer payload);

        /**
         * @param connection that was closed by its peer or failed.
         * @param reason     what happened.
         */
        void onDisconnected(RendezvousConnection connection, String reason);

        /**
         * @param connection that sent a frame which breaks the protocol.
         * @param reason     what was wrong with it.
         */
        void onBadFrame(RendezvousConnection connection, String reason);
    }

    final SocketChannel channel;
    final String remote;
    final long acceptedNs;
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH);
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
    private final Listener listener;
    private SelectionKey key;
    private ByteBuffer payload;
    /** The rank this connection said hello as, -1 until then. */
    int rank = -1;
    boolean open = true;
    /** The rank said goodbye before closing. */
    boolean leftCleanly;

    RendezvousConnection(
        final SocketChannel channel, final String remote, final long acceptedNs, final Listener listener)
    {
        this.channel = channel;
        this.remote = remote;
        this.acceptedNs = acceptedNs;
        this.listener = listener;
    }

    void key(final SelectionKey key)
    {
        this.key = key;
    }

    /**
     * Read what the channel has, up to {@value #MAX_FRAMES_PER_READ} frames, handing each to the listener.
     *
     * @throws IOException when the channel fails.
     */
    void read() throws IOException
    {
        for (int frames = 0; frames < MAX_FRAMES_PER_READ && open; frames++)
        {
            if (null == payload)
            {
                if (channel.read(header) < 0)
                {
                    listener.onDisconnected(this, "it closed the connection");
                    return;
                }
                if (header.hasRemaining())
                {
                    return;
                }
                final String reason = checkHeader();
                if (null != reason)
                {
                    listener.onBadFrame(this, reason);
                    return;
                }
                // the length was checked against the bound of the frame type: the allocation is bounded
                payload = ByteBuffer.allocate(RendezvousDescriptor.payloadLength(header));
            }
            if (payload.hasRemaining())
            {
                if (channel.read(payload) < 0)
                {
                    listener.onDisconnected(this, "it closed the connection in the middle of a frame");
                    return;
                }
                if (payload.hasRemaining())
                {
                    return;
                }
            }
            final ByteBuffer complete = payload;
            complete.flip();
            final int type = RendezvousDescriptor.type(header);
            final int frameRank = RendezvousDescriptor.rank(header);
            final long collective = RendezvousDescriptor.collective(header);
            header.clear();
            payload = null;
            listener.onFrame(this, type, frameRank, collective, complete);
        }
    }

    private String checkHeader()
    {
        final String reason = RendezvousDescriptor.checkHeader(header, RendezvousDescriptor::maxClientPayload);
        if (null != reason)
        {
            return reason;
        }
        final int type = RendezvousDescriptor.type(header);
        final int frameRank = RendezvousDescriptor.rank(header);
        if (rank < 0)
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
            if (frameRank != rank)
            {
                return "wrong rank " + frameRank + " in a frame on the connection of rank " + rank;
            }
        }
        return null;
    }

    /**
     * Queue a frame to the rank and write what the socket takes.
     *
     * @param type       of the frame.
     * @param body       its payload, or {@code null} for none.
     * @param collective number of the frame.
     */
    void send(final int type, final ByteBuffer body, final long collective)
    {
        final ByteBuffer frameHeader = ByteBuffer.allocate(HEADER_LENGTH);
        final int length = null == body ? 0 : body.remaining();
        RendezvousDescriptor.writeHeader(frameHeader, type, rank, length, collective);
        out.add(frameHeader);
        if (null != body && body.hasRemaining())
        {
            out.add(body);
        }
        flush();
    }

    /**
     * Write one frame at once, best effort, to a connection about to be closed: the frame is small enough for an
     * empty socket buffer.
     *
     * @param type      of the frame.
     * @param frameRank for the header.
     * @param body      the payload.
     */
    void sendLast(final int type, final int frameRank, final ByteBuffer body)
    {
        final ByteBuffer frameHeader = ByteBuffer.allocate(HEADER_LENGTH);
        RendezvousDescriptor.writeHeader(frameHeader, type, frameRank, body.remaining(), 0);
        try
        {
            channel.write(new ByteBuffer[]{ frameHeader, body });
        }
        catch (final IOException ignore)
        {
            // the connection is closed next either way
        }
    }

    /**
     * Write the queued frames the socket takes; ask for writability while some are left.
     */
    void flush()
    {
        if (!open)
        {
            return;
        }
        try
        {
            while (!out.isEmpty())
            {
                final ByteBuffer buffer = out.peek();
                channel.write(buffer);
                if (buffer.hasRemaining())
                {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
                out.poll();
            }
            key.interestOps(SelectionKey.OP_READ);
        }
        catch (final IOException ex)
        {
            listener.onDisconnected(this, "write failed: " + ex.getMessage());
        }
        catch (final CancelledKeyException ex)
        {
            listener.onDisconnected(this, "its selection key was cancelled");
        }
    }

    /**
     * Close the channel and drop what was not written. Closing twice is harmless.
     */
    void close()
    {
        open = false;
        out.clear();
        if (null != key)
        {
            key.cancel();
        }
        CloseHelper.quietClose(channel);
    }
}
