package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.Route;

/**
 * A received message as the core sees it: a flyweight over a {@link MessageDescriptor} body, in a record of an
 * endpoint's receive queue ({@link QueueRecordDescriptor}) or in the datagram the NIC handed over
 * ({@link DirectDelivery}). Long messages were written into the
 * segment by the NIC; their data is read there.
 */
final class NetInbound implements InboundMessage
{
    private final NetEndpoint endpoint;
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int body;
    private int bodyLength;
    private int route;
    private boolean deposited;

    NetInbound(final NetEndpoint endpoint)
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
        this.buffer.wrap(buffer);
        this.body = body;
        this.bodyLength = bodyLength;
        this.route = route;
        this.deposited = deposited;
        return this;
    }

    int routeIndex()
    {
        return route;
    }

    @Override
    public int opcode()
    {
        return buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
    }

    @Override
    public int returnStatus()
    {
        return buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) & 0xFF;
    }

    @Override
    public int handler()
    {
        return buffer.getByte(body + MessageDescriptor.HANDLER_OFFSET) & 0xFF;
    }

    @Override
    public long tag()
    {
        return buffer.getLong(body + MessageDescriptor.TAG_OFFSET);
    }

    @Override
    public int argCount()
    {
        return buffer.getByte(body + MessageDescriptor.ARG_COUNT_OFFSET) & 0xFF;
    }

    @Override
    public int arg(final int index)
    {
        return buffer.getInt(body + MessageDescriptor.argOffset(index));
    }

    @Override
    public DirectBuffer dataBuffer()
    {
        return deposited ? endpoint.host().segment() : buffer;
    }

    @Override
    public int dataOffset()
    {
        return deposited ? (int)segmentOffset() : body + MessageDescriptor.HEADER_LENGTH;
    }

    @Override
    public int dataLength()
    {
        final int declared = buffer.getInt(body + MessageDescriptor.DATA_LENGTH_OFFSET);
        // The NIC checked the body; a record is never read beyond its end whatever it says.
        return deposited ? declared : Math.min(declared, bodyLength - MessageDescriptor.HEADER_LENGTH);
    }

    @Override
    public long segmentOffset()
    {
        return buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET);
    }

    @Override
    public Route replyRoute()
    {
        return endpoint.routeAt(routeIndex());
    }

    @Override
    public EndpointName sourceName()
    {
        return replyRoute().peer();
    }
}
