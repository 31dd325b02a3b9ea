package org.am2j.net;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.Transport;

/**
 * What the network transport is whether its NIC runs in this process ({@link NetTransport}) or in a node's shared
 * NIC process ({@link SharedNicTransport}): its name, its cost, the endpoints it reaches (those with a network
 * address), and no segments of its own.
 */
abstract class NetworkTransport implements Transport
{
    @Override
    public String name()
    {
        return NetTransport.NAME;
    }

    @Override
    public int cost()
    {
        return 100;
    }

    @Override
    public boolean isNetwork()
    {
        return true;
    }

    @Override
    public boolean canReach(final EndpointName name)
    {
        return null != name.address(NetTransport.NAME);
    }

    @Override
    public AtomicBuffer allocateSegment(final EndpointHost host, final int length)
    {
        return null;
    }
}
