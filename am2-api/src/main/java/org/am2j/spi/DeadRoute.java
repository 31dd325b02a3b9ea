package org.am2j.spi;

import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;

/**
 * The route to an endpoint that no longer exists or cannot be reached any more: requests come back with
 * {@link ReturnStatus#EBADENDPOINT}, replies with {@link ReturnStatus#EREPLYREJECTED}. Transports hand it over as the
 * inverse mapping of a message whose sender has gone.
 */
public final class DeadRoute implements Route
{
    private final EndpointName peer;
    private final String transport;

    /**
     * @param peer      name of the endpoint that is gone, or null when it is not known.
     * @param transport name of the transport the route belongs to.
     */
    public DeadRoute(final EndpointName peer, final String transport)
    {
        this.peer = peer;
        this.transport = transport;
    }

    @Override
    public int send(final OutboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        return null != opcode && opcode.isRequest() ?
            ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
    }

    @Override
    public EndpointName peer()
    {
        return peer;
    }

    @Override
    public String transport()
    {
        return transport;
    }
}
