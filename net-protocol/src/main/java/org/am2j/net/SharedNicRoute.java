package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;

/**
 * A path from an endpoint served by a shared NIC to a remote endpoint: {@link #send(OutboundMessage)} writes a record
 * into the endpoint's send queue of the message's channel (the NIC takes the channel's credit as it drains it) and
 * wakes the NIC when it sleeps. A full queue answers {@link #FULL}; the core backs off and polls. The first request
 * of a route is preceded by the endpoint's name announcement, as with a process's own NIC.
 */
final class SharedNicRoute implements Route
{
    private final SharedNicQueues endpoint;
    private final SharedNicLink link;
    final int peerIndex;
    final int remoteEndpointId;
    private volatile EndpointName peerName;
    private volatile boolean announced;
    /** Index in the endpoint's inverse-route table; -1 for a route the host made by connecting. */
    int inverseIndex = -1;

    SharedNicRoute(final SharedNicQueues endpoint, final int peerIndex, final int remoteEndpointId,
        final EndpointName peerName)
    {
        this.endpoint = endpoint;
        this.link = endpoint.link;
        this.peerIndex = peerIndex;
        this.remoteEndpointId = remoteEndpointId;
        this.peerName = peerName;
    }

    @Override
    public int send(final OutboundMessage message)
    {
        if (link.nicDead())
        {
            return ReturnStatus.EUNREACHABLE.code();
        }
        final Opcode opcode = Opcode.fromCode(message.opcode());
        final boolean replyChannel = null == opcode || !opcode.isRequest() || 0 != message.returnStatus();
        final ManyToOneRingBuffer queue = endpoint.sendQueue(replyChannel);
        if (!replyChannel && !announced && !queueName(queue, message.tag()))
        {
            return FULL;
        }
        final DirectBuffer data = message.data();
        final int dataLength = null == data ? 0 : message.dataLength();
        final boolean queued =
            NetRoute.queueRecord(queue, peerIndex, message, dataLength, endpoint.wireId, remoteEndpointId);
        link.ring();
        return queued ? SENT : FULL;
    }

    private synchronized boolean queueName(final ManyToOneRingBuffer queue, final long tag)
    {
        if (announced)
        {
            return true;
        }
        announced = NetRoute.queueName(queue, peerIndex, endpoint.wireId, remoteEndpointId, endpoint.encodedName,
            tag);
        return announced;
    }

    @Override
    public EndpointName peer()
    {
        EndpointName name = peerName;
        if (null == name && inverseIndex >= 0)
        {
            name = endpoint.nameOf(inverseIndex);
            peerName = name;
        }
        return name;
    }

    @Override
    public String transport()
    {
        return NetTransport.NAME;
    }

    @Override
    public String toString()
    {
        return "net route " + endpoint.wireId + " -> " + remoteEndpointId + " via peer " + peerIndex + " of the " +
            link.describe();
    }
}
