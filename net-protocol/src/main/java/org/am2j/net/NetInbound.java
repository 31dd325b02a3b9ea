package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.Route;

/**
 * A received message as the core sees it: a flyweight over a record of an endpoint's receive queue
 * ({@link QueueRecordDescriptor} around a {@link MessageDescriptor} body). Long messages were written into the
 * segment by the NIC; their data is read there.
 */
final class NetInbound implements InboundMessage
{
    private final NetEndpoint endpoint;
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int body;
    private int recordLength;
    private boolean deposited;

    NetInbound(final NetEndpoint endpoint)
    {
        this.endpoint = endpoint;
    }

    NetInbound wrap(final DirectBuffer ring, final int index, final int length)
    {
        buffer.wrap(ring);
        this.body = index + QueueRecordDescriptor.BODY_OFFSET;
        this.recordLength = length;
        this.deposited = 0 != ring.getInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET);
        return this;
    }

    int routeIndex()
    {
        return buffer.getInt(body - QueueRecordDescriptor.BODY_OFFSET + QueueRecordDescriptor.ROUTE_OFFSET);
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
        return deposited ? declared : Math.min(declared,
            recordLength - QueueRecordDescriptor.BODY_OFFSET - MessageDescriptor.HEADER_LENGTH);
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
