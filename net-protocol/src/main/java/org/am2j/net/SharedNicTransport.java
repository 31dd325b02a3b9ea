package org.am2j.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.CloseHelper;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportQueues;

/**
 * The network transport {@code net} of a process served by a shared NIC ({@link SharedNicProcess}): its endpoints'
 * network queue blocks are files the NIC process maps too ({@link SharedNicQueues}); it sends by writing send-queue
 * records and receives by reading receive queues, and never touches a socket but its own wake socket. A thread with
 * nothing to do sleeps in that socket's selector: the NIC, after it fills a receive queue of a sleeping endpoint,
 * and the senders of other transports send it a one-byte datagram ({@link #wakeAddress()}).
 */
final class SharedNicTransport extends NetworkTransport
{
    private final SharedNicLink link;
    private final int queueBytes;
    private final long pid;
    private final DatagramChannel wakeChannel;
    private final Selector selector;
    private final ByteBuffer drain = ByteBuffer.allocateDirect(64);
    private final AtomicLong wakeups = new AtomicLong();
    private final Object blockLock = new Object();

    SharedNicTransport(final TransportContext context, final SharedNicConfig shared)
    {
        final NetConfig config = new NetConfig(context);
        this.queueBytes = config.queueBytes;
        this.pid = context.pid();
        this.link = new SharedNicLink(shared);
        try
        {
            this.wakeChannel = DatagramChannel.open();
            wakeChannel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            wakeChannel.configureBlocking(false);
            this.selector = Selector.open();
            wakeChannel.register(selector, SelectionKey.OP_READ);
        }
        catch (final IOException ex)
        {
            link.close();
            throw new AmException(AmError.RESOURCE, "am2j net: cannot open the wake socket on loopback: " + ex, ex);
        }
    }

    @Override
    public TransportQueues attach(final EndpointHost host)
    {
        return new SharedNicQueues(link, host, queueBytes, pid, wakePort());
    }

    /**
     * @return true: a thread sleeps in the wake socket's selector.
     */
    @Override
    public boolean canBlock()
    {
        return true;
    }

    @Override
    public String wakeAddress()
    {
        return "udp:127.0.0.1:" + wakePort();
    }

    int wakePort()
    {
        try
        {
            return ((InetSocketAddress)wakeChannel.getLocalAddress()).getPort();
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.RESOURCE, "am2j net: the wake socket is closed", ex);
        }
    }

    @Override
    public long prepareBlock()
    {
        return wakeups.get();
    }

    @Override
    public void block(final long ticket, final long nanos)
    {
        if (wakeups.get() != ticket)
        {
            return;
        }
        synchronized (blockLock)
        {
            try
            {
                if (wakeups.get() == ticket)
                {
                    selector.select(Math.max(1, nanos / 1_000_000L));
                }
                selector.selectedKeys().clear();
                drain.clear();
                while (null != wakeChannel.receive(drain))
                {
                    drain.clear();
                }
            }
            catch (final IOException ex)
            {
                // Closed at shutdown: the sleeper's loop checks its queues and goes on.
            }
        }
    }

    @Override
    public void wakeup()
    {
        wakeups.incrementAndGet();
        selector.wakeup();
    }

    @Override
    public void processGone(final long processId)
    {
        if (link.nicDead())
        {
            return;
        }
        link.command(NicCommandDescriptor.DEAD, NicCommandDescriptor.DEAD_PROCESS_OFFSET + Long.BYTES,
            (command) -> command.buffer().putLong(command.offset() + NicCommandDescriptor.DEAD_PROCESS_OFFSET, processId),
            null, 0);
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(selector, wakeChannel);
        link.close();
    }

    SharedNicLink link()
    {
        return link;
    }

    @Override
    public String toString()
    {
        return "net over the " + link.describe();
    }
}
