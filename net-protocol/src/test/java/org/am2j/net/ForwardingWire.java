package org.am2j.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A wire that hands everything to another one: the base of the tests' faulty wires, which override what they spoil.
 */
abstract class ForwardingWire implements Wire
{
    protected final Wire wire;

    ForwardingWire(final Wire wire)
    {
        this.wire = wire;
    }

    @Override
    public InetSocketAddress localAddress()
    {
        return wire.localAddress();
    }

    @Override
    public Destination destination(final InetSocketAddress address)
    {
        return wire.destination(address);
    }

    @Override
    public boolean send(final ByteBuffer datagram, final Destination to) throws IOException
    {
        return wire.send(datagram, to);
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

}
