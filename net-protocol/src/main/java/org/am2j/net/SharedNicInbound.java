package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.Route;

/**
 * A flyweight over a receive-queue record of an endpoint served by a shared NIC ({@link QueueRecordDescriptor}); a
 * long message whose data the host copied into the segment reads its data there.
 */
final class SharedNicInbound implements InboundMessage
{
    private final SharedNicEndpoint endpoint;
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int body;
    private int bodyLength;
    private int route;
    private DirectBuffer segment;

    SharedNicInbound(final SharedNicEndpoint endpoint)
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
        buffer.wrap(ring);
        this.body = index + QueueRecordDescriptor.BODY_OFFSET;
        this.bodyLength = length - QueueRecordDescriptor.BODY_OFFSET;
        this.route = ring.getInt(index + QueueRecordDescriptor.ROUTE_OFFSET);
        this.segment = segment;
        return this;
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
        return null != segment ? segment : buffer;
    }

    @Override
    public int dataOffset()
    {
        return null != segment ? (int)segmentOffset() : body + MessageDescriptor.HEADER_LENGTH;
    }

    @Override
    public int dataLength()
    {
        final int declared = buffer.getInt(body + MessageDescriptor.DATA_LENGTH_OFFSET);
        // The NIC checked the body; a record is never read beyond its end whatever it says.
        return Math.min(declared, bodyLength - MessageDescriptor.HEADER_LENGTH);
    }

    @Override
    public long segmentOffset()
    {
        return buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET);
    }

    @Override
    public Route replyRoute()
    {
        return endpoint.routeAt(route);
    }

    @Override
    public EndpointName sourceName()
    {
        return replyRoute().peer();
    }
}
