package org.am2j.net;

import org.agrona.DirectBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;

/**
 * The names a peer announces for its endpoints, as they arrive ({@link PeerNames} keeps them): kept when the
 * announcement's destination is an open endpoint whose tag accepts the announcement's (the tag of the requests that
 * follow it) and the budgets allow; held, when the tag is not accepted, until a request vouches for it; refused and
 * counted otherwise. Part of the {@link FrameReader}. Agent thread.
 */
final class NameAnnouncements
{
    private final NicCounters counters;
    private final EndpointTable endpoints;
    private final PeerTable peers;

    NameAnnouncements(final NicCounters counters, final EndpointTable endpoints, final PeerTable peers)
    {
        this.counters = counters;
        this.endpoints = endpoints;
        this.peers = peers;
    }

    /**
     * A name announcement arrived; either way it is taken.
     */
    void onAnnouncement(final Peer peer, final boolean replyChannel, final DirectBuffer buffer, final int body,
        final int sourceEndpoint, final int dataLength)
    {
        if (replyChannel || dataLength > EndpointName.MAX_ENCODED_LENGTH)
        {
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        if (peer.names.knows(sourceEndpoint))
        {
            return;
        }
        final ServedQueues destination =
            endpoints.byId(buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        if (null == destination || destination.isClosed())
        {
            counters.increment(NicEvent.NAMES_REFUSED);
            return;
        }
        final byte[] bytes = new byte[dataLength];
        buffer.getBytes(body + MessageDescriptor.HEADER_LENGTH, bytes);
        final EndpointName name;
        try
        {
            name = EndpointName.fromBytes(bytes);
        }
        catch (final RuntimeException ex)
        {
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        if (!Tags.accepts(destination.tag(), buffer.getLong(body + MessageDescriptor.TAG_OFFSET)))
        {
            // Held until a request with a tag the destination accepts vouches for it.
            if (PeerNames.HELD_NOW != peer.names.hold(sourceEndpoint, bytes, peers))
            {
                counters.increment(NicEvent.NAMES_REFUSED);
            }
            return;
        }
        if (!peer.names.announced(sourceEndpoint, bytes, peers))
        {
            counters.increment(NicEvent.NAMES_REFUSED);
            return;
        }
        peer.knowProcessBy(name);
    }

    /**
     * A request from a peer's endpoint whose name the route lacks carried a tag its destination accepts: it vouches
     * for a name held for that endpoint.
     *
     * @return true when the endpoint's name is known now.
     */
    boolean vouched(final Peer peer, final int sourceEndpoint)
    {
        if (!peer.names.vouch(sourceEndpoint, peers))
        {
            return false;
        }
        peer.knowProcessBy(peer.name(sourceEndpoint));
        return true;
    }
}
