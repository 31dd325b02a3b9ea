package org.am2j.core;

import org.am2j.api.EndpointName;
import org.am2j.spi.MessageSink;
import org.am2j.spi.Route;
import org.am2j.spi.TransportQueues;

/**
 * A transport endpoint of a test transport that has no address, reaches nothing and never has a message; tests
 * override what their transport does.
 */
class IdleTransportQueues implements TransportQueues
{
    @Override
    public String address()
    {
        return null;
    }

    @Override
    public void named(final EndpointName name)
    {
    }

    @Override
    public Route connect(final EndpointName destination, final long tag)
    {
        return null;
    }

    @Override
    public int poll(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        return 0;
    }

    @Override
    public boolean hasPending()
    {
        return false;
    }

    @Override
    public void sleeping(final boolean sleeping)
    {
    }

    @Override
    public void tagChanged(final long tag)
    {
    }

    @Override
    public void close()
    {
    }
}
