package org.am2j.spi;

import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;

/**
 * The route to an endpoint that no longer exists or cannot be reached any more: requests come back with
 * {@link ReturnStatus#EBADENDPOINT}, replies with {@link ReturnStatus#EREPLYREJECTED}. Transports hand it over as the
 * inverse mapping of a message whose sender has gone.
 *
 * @param peer      name of the endpoint that is gone, or null when it is not known.
 * @param transport name of the transport the route belongs to.
 */
public record DeadRoute(EndpointName peer, String transport) implements Route
{
    @Override
    public int send(final OutboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        return null != opcode && opcode.isRequest() ?
            ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
    }
}
