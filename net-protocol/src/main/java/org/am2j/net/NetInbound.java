package org.am2j.net;

import org.agrona.DirectBuffer;
import org.am2j.spi.Route;

/**
 * A received message as the core sees it: a flyweight over a {@link MessageDescriptor} body, in a record of an
 * endpoint's receive queue ({@link QueueRecordDescriptor}) or in the datagram the NIC handed over
 * ({@link DirectDelivery}). Long messages were written into the
 * segment by the NIC; their data is read there.
 */
final class NetInbound extends MessageFlyweight
{
    private final NetQueues endpoint;
    private int route;
    private boolean deposited;

    NetInbound(final NetQueues endpoint)
    {
        this.endpoint = endpoint;
    }

    /**
     * @param ring   a receive queue's buffer.
     * @param index  the record's offset in it.
     * @param length the record's length.
     * @return this, over the record.
     */
    NetInbound wrap(final DirectBuffer ring, final int index, final int length)
    {
        return wrapBody(ring, index + QueueRecordDescriptor.BODY_OFFSET, length - QueueRecordDescriptor.BODY_OFFSET,
            ring.getInt(index + QueueRecordDescriptor.ROUTE_OFFSET),
            0 != ring.getInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET));
    }

    /**
     * @param buffer     holds the message body ({@link MessageDescriptor}): a receive queue record's, or a
     *                   datagram's the NIC handed over ({@link DirectDelivery}).
     * @param body       its offset.
     * @param bodyLength its length.
     * @param route      index of its inverse-mapping route in the endpoint's table.
     * @param deposited  whether a long message's data was written into the segment (the body then ends after its
     *                   header).
     * @return this, over the body.
     */
    NetInbound wrapBody(final DirectBuffer buffer, final int body, final int bodyLength, final int route,
        final boolean deposited)
    {
        wrapMessage(buffer, body, bodyLength);
        this.route = route;
        this.deposited = deposited;
        return this;
    }

    @Override
    public DirectBuffer dataBuffer()
    {
        return deposited ? endpoint.host.segment() : buffer;
    }

    @Override
    public int dataOffset()
    {
        return deposited ? (int)segmentOffset() : super.dataOffset();
    }

    @Override
    public int dataLength()
    {
        return deposited ? declaredDataLength() : super.dataLength();
    }

    @Override
    public Route replyRoute()
    {
        return endpoint.routeAt(route);
    }
}
