package org.am2j.spmd;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A hand-driven rendezvous connection for tests: sends frames as given (well-formed or not) and reads the server's.
 */
final class RawRank implements AutoCloseable
{
    private static final int READ_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final DataInputStream in;

    RawRank(final InetSocketAddress server) throws IOException
    {
        socket = new Socket();
        socket.connect(server, READ_TIMEOUT_MS);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        in = new DataInputStream(socket.getInputStream());
    }

    void send(final int type, final int rank, final int length, final long collective, final byte[] payload)
        throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(RendezvousDescriptor.HEADER_LENGTH);
        RendezvousDescriptor.writeHeader(header, type, rank, length, collective);
        socket.getOutputStream().write(header.array());
        if (null != payload)
        {
            socket.getOutputStream().write(payload);
        }
        socket.getOutputStream().flush();
    }

    void sendBytes(final byte[] bytes) throws IOException
    {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** The process id a raw rank presents in its hello: {@value} plus its rank. */
    static final long PROCESS_ID_BASE = 0x5EED_0000_0000L;

    void hello(final int rank, final int size, final String job) throws IOException
    {
        final byte[] jobBytes = job.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer payload = ByteBuffer.allocate(14 + jobBytes.length);
        payload.putInt(size).putLong(PROCESS_ID_BASE + rank).putShort((short)jobBytes.length).put(jobBytes);
        send(RendezvousDescriptor.HELLO, rank, payload.capacity(), 0, payload.array());
    }

    /**
     * @return type of the next frame from the server; its payload is kept in {@link #lastPayload()}.
     */
    int readFrame() throws IOException
    {
        final byte[] header = new byte[RendezvousDescriptor.HEADER_LENGTH];
        in.readFully(header);
        final ByteBuffer buffer = ByteBuffer.wrap(header);
        final int length = RendezvousDescriptor.payloadLength(buffer);
        if (length < 0 || length > 1 << 20)
        {
            throw new IOException("bad length " + length);
        }
        lastPayload = new byte[length];
        in.readFully(lastPayload);
        return RendezvousDescriptor.type(buffer);
    }

    private byte[] lastPayload = new byte[0];

    byte[] lastPayload()
    {
        return lastPayload;
    }

    /**
     * @return the message of the FAILED frame just read.
     */
    String lastFailure()
    {
        return new String(lastPayload, 4, lastPayload.length - 4, StandardCharsets.UTF_8);
    }

    /**
     * @return true when the server closes the connection (end of stream or reset) before the read timeout, after
     * at most a few frames.
     */
    boolean closedByServer() throws IOException
    {
        final InputStream stream = socket.getInputStream();
        final byte[] sink = new byte[4096];
        try
        {
            for (int i = 0; i < 64; i++)
            {
                if (stream.read(sink) < 0)
                {
                    return true;
                }
            }
            return false;
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final SocketException ex)
        {
            return true;
        }
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
