package org.am2j.shm;

import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportProvider;

/**
 * Provides the shared-memory transport {@code shm}.
 */
public final class ShmTransportProvider implements TransportProvider
{
    @Override
    public String name()
    {
        return ShmTransport.NAME;
    }

    @Override
    public Transport open(final TransportContext context)
    {
        return new ShmTransport(context);
    }
}
