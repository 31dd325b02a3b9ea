package org.am2j.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;

/**
 * A wire whose outgoing datagrams a test can cut off (they vanish, as on a broken link) and let through again.
 */
final class GateWire implements Wire
{
    private final Wire wire;
    volatile boolean closed;

    GateWire(final Wire wire)
    {
        this.wire = wire;
    }

    @Override
    public InetSocketAddress localAddress()
    {
        return wire.localAddress();
    }

    @Override
    public boolean send(final ByteBuffer datagram, final InetSocketAddress to) throws IOException
    {
        return closed || wire.send(datagram, to);
    }

    @Override
    public InetSocketAddress receive(final ByteBuffer into) throws IOException
    {
        return wire.receive(into);
    }

    @Override
    public void await(final long nanos) throws IOException
    {
        wire.await(nanos);
    }

    @Override
    public void wakeup()
    {
        wire.wakeup();
    }

    @Override
    public void close()
    {
        wire.close();
    }

    @Override
    public Selector selector()
    {
        return wire.selector();
    }
}
