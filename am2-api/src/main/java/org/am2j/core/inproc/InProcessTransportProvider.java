package org.am2j.core.inproc;

import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportProvider;

/**
 * Provides the built-in transport {@code inproc} between endpoints of the same process.
 */
public final class InProcessTransportProvider implements TransportProvider
{
    @Override
    public String name()
    {
        return InProcessTransport.NAME;
    }

    @Override
    public Transport open(final TransportContext context)
    {
        return new InProcessTransport(context);
    }
}
