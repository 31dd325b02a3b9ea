package org.am2j.net;

import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportProvider;

/**
 * Provides the network transport {@code net} ({@link NetTransport}) through {@link java.util.ServiceLoader}.
 */
public final class NetTransportProvider implements TransportProvider
{
    @Override
    public String name()
    {
        return NetTransport.NAME;
    }

    @Override
    public Transport open(final TransportContext context)
    {
        final SharedNicConfig shared = SharedNicConfig.of(context);
        return shared.nicsPerNode > 0 ? new SharedNicTransport(context, shared) : new NetTransport(context);
    }
}
