package org.am2j.net;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A wire whose outgoing datagrams a test can cut off (they vanish, as on a broken link) and let through again.
 */
final class GateWire extends ForwardingWire
{
    volatile boolean closed;

    GateWire(final Wire wire)
    {
        super(wire);
    }

    @Override
    public boolean send(final ByteBuffer datagram, final Destination to) throws IOException
    {
        return closed || wire.send(datagram, to);
    }
}
