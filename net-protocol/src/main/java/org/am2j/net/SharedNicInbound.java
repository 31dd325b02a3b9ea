package org.am2j.net;

import org.agrona.DirectBuffer;
import org.am2j.spi.Route;

/**
 * A flyweight over a receive-queue record of an endpoint served by a shared NIC ({@link QueueRecordDescriptor}); a
 * long message whose data the host copied into the segment reads its data there.
 */
final class SharedNicInbound extends MessageFlyweight
{
    private final SharedNicQueues endpoint;
    private int route;
    private DirectBuffer segment;

    SharedNicInbound(final SharedNicQueues endpoint)
    {
        this.endpoint = endpoint;
    }

    /**
     * @param ring    the receive queue's buffer.
     * @param index   of the record.
     * @param length  of the record.
     * @param segment the segment the host copied the long message's data into, or null.
     * @return this.
     */
    SharedNicInbound wrap(final DirectBuffer ring, final int index, final int length, final DirectBuffer segment)
    {
        wrapMessage(ring, index + QueueRecordDescriptor.BODY_OFFSET, length - QueueRecordDescriptor.BODY_OFFSET);
        this.route = ring.getInt(index + QueueRecordDescriptor.ROUTE_OFFSET);
        this.segment = segment;
        return this;
    }

    @Override
    public DirectBuffer dataBuffer()
    {
        return null != segment ? segment : buffer;
    }

    @Override
    public int dataOffset()
    {
        return null != segment ? (int)segmentOffset() : super.dataOffset();
    }

    @Override
    public Route replyRoute()
    {
        return endpoint.routeAt(route);
    }
}
