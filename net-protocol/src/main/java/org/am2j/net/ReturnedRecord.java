package org.am2j.net;

import org.agrona.DirectBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.Route;

/**
 * A send-queue record a dead shared NIC never took, presented to its sender's core as a returned message (its return
 * status already set in the record), with the route it was sent by.
 */
final class ReturnedRecord implements InboundMessage
{
    private final DirectBuffer buffer;
    private final int body;
    private final int bodyLength;
    private final Route route;

    ReturnedRecord(final DirectBuffer buffer, final int index, final int length, final Route route)
    {
        this.buffer = buffer;
        this.body = index + QueueRecordDescriptor.BODY_OFFSET;
        this.bodyLength = length - QueueRecordDescriptor.BODY_OFFSET;
        this.route = route;
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
        return buffer;
    }

    @Override
    public int dataOffset()
    {
        return body + MessageDescriptor.HEADER_LENGTH;
    }

    @Override
    public int dataLength()
    {
        return Math.min(buffer.getInt(body + MessageDescriptor.DATA_LENGTH_OFFSET),
            bodyLength - MessageDescriptor.HEADER_LENGTH);
    }

    @Override
    public long segmentOffset()
    {
        return buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET);
    }

    @Override
    public Route replyRoute()
    {
        return route;
    }

    @Override
    public EndpointName sourceName()
    {
        return route.peer();
    }
}
