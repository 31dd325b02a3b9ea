package org.am2j.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;

/**
 * The network's limit for the ping-pong: plain UDP between two processes over loopback, with no messaging layer.
 * Each side receives on one non-blocking {@link DatagramChannel} bound to {@code 127.0.0.1} (an ephemeral port; or an
 * address given to {@link #open(InetAddress)}, for a path other than loopback) with
 * {@link DatagramChannel#receive}, and sends with {@link DatagramChannel#write} from a second one connected to the
 * other side's, as the net protocol's NIC does (one receiving socket for all peers, a connected send socket per
 * peer); socket buffers of {@value #SOCKET_BYTES} bytes (the net protocol's default {@code socketBytes}), direct
 * buffers. (Sending with an address from the receiving socket, as this limit did before the NIC's connected sockets,
 * is about 0.6-0.9 us slower a round trip here.) Waiting is a busy loop on {@code receive} with
 * {@link Thread#onSpinWait()} after each empty one.
 * <p>
 * <b>Ping-pong.</b> The initiator sends a ping of {@value #SHORT_BYTES} bytes carrying a sequence number and spins
 * until the pong with that number comes back; the responder answers every ping with a pong of the same size and
 * number. {@value #SHORT_BYTES} bytes is about what a short AM request is on the net protocol's wire (its 72-byte
 * wire header and 64-byte message header), so the limit moves as many bytes as the AM round trip it is compared with.
 * Loopback does not lose datagrams of a ping-pong, but should one go, the initiator sends the ping again after
 * {@value #RESEND_MS} ms (the round trip then counts the wait; {@link #resends()} says how often: on a loaded
 * machine a responder descheduled for that long causes a resend too, and the repeated ping is answered again and
 * its extra pong ignored) and gives up after {@value #MAX_RESENDS} resends of one ping. Both sides keep the last sequence number of the pair in step, like
 * {@link CacheLinePingPong}: the responder counts the distinct pings it answered, and both must run sessions of the
 * same lengths in the same order.
 * <p>
 * <b>Stream.</b> The sender sends datagrams of {@value #STREAM_BYTES} bytes as fast as its socket takes them (a send
 * of 0 bytes means the send buffer is full: it spins and sends again, counted in {@link #sendFullSpins()}), then an
 * end marker. The receiver counts what arrives in a {@link UdpStreamTally} until it has every datagram, or
 * {@value #END_GRACE_MS} ms after the end marker, or after {@value #QUIET_MS} ms without a datagram of the stream
 * ({@value #FIRST_WAIT_MS} ms before the first one): UDP drops what a receiver that falls behind has no room for,
 * the end marker included. Each stream carries a run number that both sides count in step, so late datagrams of an
 * earlier stream are ignored.
 * <p>
 * Datagram layout (native byte order; the rest of a datagram is a fixed pattern):
 * <pre>
 *   0      4       8              16
 *   +------+-------+--------------+--------------------------------
 *   | type | index |   sequence   |  pattern up to the datagram's length
 *   +------+-------+--------------+--------------------------------
 *   type: 1 ping, 2 pong, 3 stream data, 4 stream end; index: of a data datagram in its stream, or the stream's
 *   datagrams in the end marker; sequence: of a ping or pong, or the stream's run number
 * </pre>
 */
final class UdpPingPong implements AutoCloseable
{
    /** Bytes of a ping or a pong: about a short AM request on the net protocol's wire (72 + 64 header bytes). */
    static final int SHORT_BYTES = 136;
    /** Bytes of a stream datagram: 8 KiB, as the AM bandwidth's medium messages carry. */
    static final int STREAM_BYTES = 8192;
    /** Socket send and receive buffer sizes, as the net protocol's default {@code socketBytes}. */
    static final int SOCKET_BYTES = 4 << 20;
    /** Wait for a pong before the ping is sent again. */
    static final long RESEND_MS = 100;
    /** Resends of one ping before the ping-pong gives up. */
    static final int MAX_RESENDS = 50;
    /** How long the receiver of a stream goes on after the end marker. */
    static final long END_GRACE_MS = 10;
    /** How long the receiver of a stream waits for the next datagram before it takes the stream as over. */
    static final long QUIET_MS = 100;
    /** How long the receiver of a stream waits for its first datagram. */
    static final long FIRST_WAIT_MS = 2_000;

    /** Type of a ping. */
    static final int PING = 1;
    /** Type of a pong. */
    static final int PONG = 2;
    /** Type of a stream's data datagram. */
    static final int DATA = 3;
    /** Type of a stream's end marker. */
    static final int END = 4;
    /** Offset of a datagram's type. */
    static final int TYPE_OFFSET = 0;
    /** Offset of a datagram's index. */
    static final int INDEX_OFFSET = 4;
    /** Offset of a datagram's sequence or run number. */
    static final int SEQUENCE_OFFSET = 8;
    /** Bytes of the header; shorter datagrams are ignored. */
    static final int HEADER_BYTES = 16;

    private static final long RESEND_NS = TimeUnit.MILLISECONDS.toNanos(RESEND_MS);
    private static final long END_GRACE_NS = TimeUnit.MILLISECONDS.toNanos(END_GRACE_MS);
    private static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(QUIET_MS);
    private static final long FIRST_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(FIRST_WAIT_MS);

    private final DatagramChannel channel;
    private final InetAddress host;
    private final ByteBuffer sendBuffer = ByteBuffer.allocateDirect(STREAM_BYTES).order(ByteOrder.nativeOrder());
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(STREAM_BYTES).order(ByteOrder.nativeOrder());
    private final UdpStreamTally tally = new UdpStreamTally();
    private InetSocketAddress peer;
    /** Connected to {@link #peer}: what this side sends from. */
    private DatagramChannel sendChannel;
    private long sequence;
    private long run;
    private long resends;
    private long sendFullSpins;

    private UdpPingPong(final DatagramChannel channel, final InetAddress host)
    {
        this.channel = channel;
        this.host = host;
        for (int i = 0; i < STREAM_BYTES; i++)
        {
            sendBuffer.put(i, (byte)(i * 31 + 7));
        }
    }

    /**
     * @return {@code 127.0.0.1}, whatever the JVM prefers.
     */
    static InetAddress loopback()
    {
        try
        {
            return InetAddress.getByAddress("localhost", new byte[]{ 127, 0, 0, 1 });
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("four bytes are an IPv4 address", ex);
        }
    }

    /**
     * Open a non-blocking UDP socket on an IPv4 address of this machine and an ephemeral port: for a ping-pong
     * across a network path (two network namespaces joined by a veth pair) rather than loopback.
     *
     * @param host the IPv4 address to bind to; the send sockets bind to it too.
     * @return the socket's side of the ping-pong, its peer not yet known.
     * @throws IOException when the socket cannot be opened or bound.
     */
    static UdpPingPong open(final InetAddress host) throws IOException
    {
        return new UdpPingPong(openBound(host, null), host);
    }

    /**
     * @return the address this side is bound to.
     */
    InetAddress host()
    {
        return host;
    }

    /**
     * @return the port this side is bound to.
     */
    int port()
    {
        try
        {
            return ((InetSocketAddress)channel.getLocalAddress()).getPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @param address the other side's address.
     * @param port    the other side's port.
     */
    void peer(final InetAddress address, final int port)
    {
        peer = new InetSocketAddress(address, port);
        CloseHelper.quietClose(sendChannel);
        sendChannel = null;
        try
        {
            sendChannel = openBound(host, peer);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a socket connected to " + peer, ex);
        }
    }

    /**
     * @param host      the address to bind to, on an ephemeral port.
     * @param connectTo the socket to connect to (a send socket), or null for the receiving socket.
     * @return a non-blocking socket with buffers of {@value #SOCKET_BYTES} bytes.
     * @throws IOException when it cannot be opened, bound or connected.
     */
    private static DatagramChannel openBound(final InetAddress host, final InetSocketAddress connectTo)
        throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        try
        {
            if (null == connectTo)
            {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BYTES);
            }
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BYTES);
            channel.bind(new InetSocketAddress(host, 0));
            if (null != connectTo)
            {
                channel.connect(connectTo);
            }
            channel.configureBlocking(false);
            return channel;
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * @return pings sent again because their pong did not come within {@value #RESEND_MS} ms.
     */
    long resends()
    {
        return resends;
    }

    /**
     * @return sends that found the socket's send buffer full (sent 0 bytes) and were tried again.
     */
    long sendFullSpins()
    {
        return sendFullSpins;
    }

    /**
     * The initiator's side of a session: n round trips, each timed with {@link System#nanoTime()}.
     *
     * @param n         round trips.
     * @param histogram receives the time of each round trip in ns.
     * @throws UncheckedIOException  when the socket fails.
     * @throws IllegalStateException when a ping is not answered after {@value #MAX_RESENDS} resends.
     */
    void roundTrips(final int n, final Histogram histogram)
    {
        long s = sequence;
        for (int i = 0; i < n; i++)
        {
            s++;
            final long start = System.nanoTime();
            send(PING, 0, s, SHORT_BYTES);
            awaitPong(s, start);
            LatencySummary.record(histogram, System.nanoTime() - start);
        }
        sequence = s;
    }

    private void awaitPong(final long s, final long start)
    {
        long sentAt = start;
        int resent = 0;
        for (;;)
        {
            final int length = receive();
            if (length < 0)
            {
                Thread.onSpinWait();
                final long now = System.nanoTime();
                if (now - sentAt > RESEND_NS)
                {
                    if (++resent > MAX_RESENDS)
                    {
                        throw new IllegalStateException("no pong to ping " + s + " from " + peer + " after " +
                            MAX_RESENDS + " resends");
                    }
                    resends++;
                    send(PING, 0, s, SHORT_BYTES);
                    sentAt = now;
                }
            }
            else if (length >= HEADER_BYTES && receiveBuffer.getInt(TYPE_OFFSET) == PONG &&
                receiveBuffer.getLong(SEQUENCE_OFFSET) == s)
            {
                return;
            }
        }
    }

    /**
     * The responder's side of a session: answer pings until n distinct ones, newer than the last session's, have
     * been answered. Every ping is answered, a repeated one too (its pong may have been lost).
     *
     * @param n round trips of the session.
     * @throws UncheckedIOException when the socket fails.
     */
    void respond(final int n)
    {
        long last = sequence;
        int answered = 0;
        while (answered < n)
        {
            final int length = receive();
            if (length < 0)
            {
                Thread.onSpinWait();
            }
            else if (length >= HEADER_BYTES && receiveBuffer.getInt(TYPE_OFFSET) == PING)
            {
                final long s = receiveBuffer.getLong(SEQUENCE_OFFSET);
                send(PONG, 0, s, SHORT_BYTES);
                if (s > last)
                {
                    last = s;
                    answered++;
                }
            }
        }
        sequence = last;
    }

    /**
     * The sender's side of a stream: {@code count} datagrams of {@value #STREAM_BYTES} bytes as fast as the socket
     * takes them, then the end marker.
     *
     * @param count datagrams.
     * @throws UncheckedIOException when the socket fails.
     */
    void stream(final int count)
    {
        final long r = ++run;
        for (int i = 0; i < count; i++)
        {
            send(DATA, i, r, STREAM_BYTES);
        }
        send(END, count, r, HEADER_BYTES);
    }

    /**
     * The receiver's side of a stream: count what arrives, as the class comment says.
     *
     * @param count datagrams the sender sends.
     * @return what arrived; the same object each call, valid until the next.
     * @throws UncheckedIOException when the socket fails.
     */
    UdpStreamTally sink(final int count)
    {
        final long r = ++run;
        final UdpStreamTally tally = this.tally;
        tally.reset();
        long lastNs = System.nanoTime();
        long waitNs = FIRST_WAIT_NS;
        while (tally.datagrams() < count)
        {
            final int length = receive();
            final long now = System.nanoTime();
            if (length < 0)
            {
                if (now - lastNs > waitNs)
                {
                    break;
                }
                Thread.onSpinWait();
            }
            else if (length >= HEADER_BYTES && receiveBuffer.getLong(SEQUENCE_OFFSET) == r)
            {
                final int type = receiveBuffer.getInt(TYPE_OFFSET);
                if (type == DATA)
                {
                    tally.record(length, now);
                    lastNs = now;
                    waitNs = Math.min(waitNs, QUIET_NS);
                }
                else if (type == END)
                {
                    lastNs = now;
                    waitNs = END_GRACE_NS;
                }
            }
        }
        return tally;
    }

    private void send(final int type, final int index, final long s, final int length)
    {
        final ByteBuffer buffer = sendBuffer;
        buffer.clear().limit(length);
        buffer.putInt(TYPE_OFFSET, type).putInt(INDEX_OFFSET, index).putLong(SEQUENCE_OFFSET, s);
        if (null == sendChannel)
        {
            throw new IllegalStateException("no peer yet: peer(port) comes first");
        }
        try
        {
            while (sendChannel.write(buffer) == 0)
            {
                sendFullSpins++;
                Thread.onSpinWait();
            }
        }
        catch (final PortUnreachableException ex)
        {
            // The kernel's report of an earlier datagram that found no socket (the other side not up yet, or gone),
            // returned by this write instead of sending: a lost datagram, which the ping's resend and the stream's
            // tally handle like any other.
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("send to " + peer, ex);
        }
    }

    /**
     * @return the length of the datagram now in the receive buffer, or -1 when none was waiting.
     */
    private int receive()
    {
        final ByteBuffer buffer = receiveBuffer;
        buffer.clear();
        try
        {
            return null == channel.receive(buffer) ? -1 : buffer.position();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("receive on " + channel, ex);
        }
    }

    @Override
    public void close()
    {
        // nothing is left to send or receive
        CloseHelper.quietCloseAll(sendChannel, channel);
    }
}
