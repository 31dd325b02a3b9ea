package org.am2j.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * The NIC's interface to the network: one non-blocking UDP socket (a {@link DatagramChannel} sending from and
 * receiving into direct buffers) and a selector to sleep in.
 */
final class UdpWire implements Wire
{
    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress localAddress;

    UdpWire(final InetAddress bind, final InetAddress advertised, final int port, final int socketBytes)
    {
        DatagramChannel opened = null;
        Selector openedSelector = null;
        try
        {
            opened = DatagramChannel.open(bind instanceof java.net.Inet6Address ?
                StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            opened.setOption(StandardSocketOptions.SO_RCVBUF, socketBytes);
            opened.setOption(StandardSocketOptions.SO_SNDBUF, socketBytes);
            opened.bind(new InetSocketAddress(bind, port));
            opened.configureBlocking(false);
            openedSelector = Selector.open();
            opened.register(openedSelector, SelectionKey.OP_READ);
            final int boundPort = ((InetSocketAddress)opened.getLocalAddress()).getPort();
            this.localAddress = new InetSocketAddress(advertised, boundPort);
        }
        catch (final IOException | RuntimeException ex)
        {
            closeQuietly(openedSelector);
            closeQuietly(opened);
            throw new AmException(AmError.RESOURCE, "am2j net: cannot open a UDP socket on " + bind.getHostAddress() +
                ":" + port + " (" + ex + "); set am2j.net.host / am2j.net.port", ex);
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
    public boolean send(final ByteBuffer datagram, final InetSocketAddress to) throws IOException
    {
        return channel.send(datagram, to) > 0;
    }

    @Override
    public InetSocketAddress receive(final ByteBuffer into) throws IOException
    {
        final SocketAddress from = channel.receive(into);
        return (InetSocketAddress)from;
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

    @Override
    public Selector selector()
    {
        return selector;
    }

    @Override
    public void close()
    {
        closeQuietly(selector);
        closeQuietly(channel);
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        if (null != closeable)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ex)
            {
                // closing at shutdown: nothing left to do with the error
            }
        }
    }

    @Override
    public String toString()
    {
        return "udp " + localAddress;
    }
}
