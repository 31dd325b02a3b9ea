package org.am2j.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * The NIC's interface to the network: one non-blocking UDP socket (a {@link DatagramChannel} sending from and
 * receiving into direct buffers) and a selector to sleep in.
 * <p>
 * The first {@code connectedLimit} peers also get a send socket of their own, connected to the peer (bound to the
 * same local address, any port): a connected UDP socket's kernel path keeps its route instead of looking it up for
 * every datagram, and Java's {@code write} on it does less than {@code send} with an address; a loopback ping-pong
 * takes about 0.6 to 0.9 us less per round trip. Every datagram carries the port of the receiving socket
 * ({@link WireDescriptor#SOURCE_PORT_OFFSET}), because its source port is now the send socket's. Peers beyond the
 * limit, or whose connect fails, are sent to from the receiving socket.
 */
final class UdpWire implements Wire
{
    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress localAddress;
    private final InetAddress bind;
    private final int socketBytes;
    private final int connectedLimit;
    /** The connected destinations made so far, by address; guarded by itself. */
    private final HashMap<InetSocketAddress, ConnectedDestination> connected = new HashMap<>();
    private boolean closed;

    /**
     * A destination with a send socket connected to it.
     */
    private static final class ConnectedDestination extends Destination
    {
        final DatagramChannel channel;

        ConnectedDestination(final InetSocketAddress address, final DatagramChannel channel)
        {
            super(address);
            this.channel = channel;
        }
    }

    /**
     * @param bind           local address of the sockets.
     * @param advertised     the address peers reach this one at.
     * @param port           port of the receiving socket, 0 for any.
     * @param socketBytes    send and receive buffer sizes.
     * @param connectedLimit how many peers get a connected send socket (0: none).
     */
    UdpWire(final InetAddress bind, final InetAddress advertised, final int port, final int socketBytes,
        final int connectedLimit)
    {
        this.bind = bind;
        this.socketBytes = socketBytes;
        this.connectedLimit = connectedLimit;
        DatagramChannel opened = null;
        Selector openedSelector = null;
        try
        {
            opened = openBound(port);
            opened.setOption(StandardSocketOptions.SO_RCVBUF, socketBytes);
            openedSelector = Selector.open();
            opened.register(openedSelector, SelectionKey.OP_READ);
            final int boundPort = ((InetSocketAddress)opened.getLocalAddress()).getPort();
            this.localAddress = new InetSocketAddress(advertised, boundPort);
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(openedSelector);
            CloseHelper.quietClose(opened);
            throw new AmException(AmError.RESOURCE, "am2j net: cannot open a UDP socket on " + bind.getHostAddress() +
                ":" + port + " (" + ex + ")", ex);
        }
        this.channel = opened;
        this.selector = openedSelector;
    }

    @Override
    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    @Override
    public Destination destination(final InetSocketAddress address)
    {
        synchronized (connected)
        {
            // One socket per address: a peer process that restarted on the same address (a new peer to the NIC)
            // shares the socket of its earlier incarnation rather than taking another of the limited ones.
            final ConnectedDestination known = connected.get(address);
            if (null != known)
            {
                return known;
            }
            if (!closed && connected.size() < connectedLimit)
            {
                final DatagramChannel sendChannel = openConnected(address);
                if (null != sendChannel)
                {
                    final ConnectedDestination made = new ConnectedDestination(address, sendChannel);
                    connected.put(address, made);
                    return made;
                }
            }
        }
        return new Destination(address);
    }

    /**
     * @param port local port, 0 for any.
     * @return a non-blocking socket of the bind address's family, bound to it, with the send buffer size set.
     */
    private DatagramChannel openBound(final int port) throws IOException
    {
        final DatagramChannel opened = DatagramChannel.open(bind instanceof java.net.Inet6Address ?
            StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        try
        {
            opened.setOption(StandardSocketOptions.SO_SNDBUF, socketBytes);
            opened.bind(new InetSocketAddress(bind, port));
            opened.configureBlocking(false);
            return opened;
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(opened);
            throw ex;
        }
    }

    private DatagramChannel openConnected(final InetSocketAddress address)
    {
        DatagramChannel opened = null;
        try
        {
            opened = openBound(0);
            opened.connect(address);
            return opened;
        }
        catch (final IOException | RuntimeException ex)
        {
            // The peer stays reachable through the receiving socket: a connected socket only makes sending cheaper.
            CloseHelper.quietClose(opened);
            return null;
        }
    }

    @Override
    public boolean send(final ByteBuffer datagram, final Destination to) throws IOException
    {
        if (to instanceof ConnectedDestination)
        {
            final DatagramChannel sendChannel = ((ConnectedDestination)to).channel;
            try
            {
                return sendChannel.write(datagram) > 0;
            }
            catch (final SocketException ex)
            {
                // A connected socket reports an ICMP error for an earlier datagram ("port unreachable": the peer's
                // socket was closed then; "host unreachable" or "prohibited" from a firewall) on its next write,
                // which then sends nothing and leaves the buffer as it was. The report is consumed: this datagram goes
                // out on the second try. (A closed channel is not a SocketException and is not retried.)
                return sendChannel.write(datagram) > 0;
            }
        }
        return channel.send(datagram, to.address) > 0;
    }

    @Override
    public InetSocketAddress receive(final ByteBuffer into) throws IOException
    {
        return (InetSocketAddress)channel.receive(into);
    }

    @Override
    public void await(final long nanos) throws IOException
    {
        if (nanos <= 0)
        {
            selector.selectNow();
        }
        else
        {
            // A selector counts in milliseconds: round up, so a short timer wait sleeps a little long rather than
            // spinning.
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
        }
        selector.selectedKeys().clear();
    }

    @Override
    public void wakeup()
    {
        selector.wakeup();
    }

    /**
     * @return how many peers have a connected send socket.
     */
    int connectedCount()
    {
        synchronized (connected)
        {
            return connected.size();
        }
    }

    @Override
    public void close()
    {
        synchronized (connected)
        {
            closed = true;
            for (final ConnectedDestination destination : connected.values())
            {
                CloseHelper.quietClose(destination.channel);
            }
            connected.clear();
        }
        CloseHelper.quietClose(selector);
        CloseHelper.quietClose(channel);
    }

    @Override
    public String toString()
    {
        return "udp " + localAddress;
    }
}
