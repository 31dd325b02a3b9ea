package org.am2j.core.inproc;

import static org.am2j.core.inproc.InProcessRecordDescriptor.ARGS_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.ARG_COUNT_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.DATA_LENGTH_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.HANDLER_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.HEADER_LENGTH;
import static org.am2j.core.inproc.InProcessRecordDescriptor.OPCODE_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.RETURN_STATUS_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.SEGMENT_OFFSET_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.SOURCE_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.TAG_OFFSET;

import org.agrona.DirectBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.Route;

/**
 * Flyweight over one record of an in-process receive queue; see {@link InProcessRecordDescriptor}.
 */
final class InProcessInbound implements InboundMessage
{
    private final InProcessTransport transport;
    private final InProcessQueues endpoint;
    private DirectBuffer buffer;
    private int index;
    private int length;
    private Route replyRoute;

    InProcessInbound(final InProcessTransport transport, final InProcessQueues endpoint)
    {
        this.transport = transport;
        this.endpoint = endpoint;
    }

    InProcessInbound wrap(final DirectBuffer buffer, final int index, final int length)
    {
        this.buffer = buffer;
        this.index = index;
        this.length = length;
        this.replyRoute = null;
        return this;
    }

    @Override
    public int opcode()
    {
        return buffer.getInt(index + OPCODE_OFFSET);
    }

    @Override
    public int returnStatus()
    {
        return buffer.getInt(index + RETURN_STATUS_OFFSET);
    }

    @Override
    public int handler()
    {
        return buffer.getInt(index + HANDLER_OFFSET);
    }

    @Override
    public long tag()
    {
        return buffer.getLong(index + TAG_OFFSET);
    }

    @Override
    public int argCount()
    {
        return buffer.getInt(index + ARG_COUNT_OFFSET);
    }

    @Override
    public int arg(final int i)
    {
        return buffer.getInt(index + ARGS_OFFSET + (i << 2));
    }

    @Override
    public DirectBuffer dataBuffer()
    {
        return isDeposited() ? endpoint.host().segment() : buffer;
    }

    @Override
    public int dataOffset()
    {
        return isDeposited() ? (int)segmentOffset() : index + HEADER_LENGTH;
    }

    @Override
    public int dataLength()
    {
        final int dataLength = buffer.getInt(index + DATA_LENGTH_OFFSET);
        // Inline data must lie inside the record: a record never claims bytes beyond its own length.
        return isDeposited() || dataLength <= length - HEADER_LENGTH ? dataLength : -1;
    }

    @Override
    public long segmentOffset()
    {
        return buffer.getLong(index + SEGMENT_OFFSET_OFFSET);
    }

    @Override
    public Route replyRoute()
    {
        Route route = replyRoute;
        if (null == route)
        {
            route = transport.routeTo(buffer.getInt(index + SOURCE_OFFSET));
            replyRoute = route;
        }
        return route;
    }

    @Override
    public EndpointName sourceName()
    {
        return replyRoute().peer();
    }

    private boolean isDeposited()
    {
        return segmentOffset() >= 0;
    }
}
