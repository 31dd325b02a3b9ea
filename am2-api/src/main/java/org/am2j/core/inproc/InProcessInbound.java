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
import org.agrona.UnsafeApi;
import org.am2j.api.EndpointName;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.Route;

/**
 * Flyweight over one record of an in-process receive queue; see {@link InProcessRecordDescriptor}. It is fixed to
 * one ring and reads the record's fields straight from its memory: the ring's reader handed over an index of a
 * committed record whose header lies inside the ring ({@link InProcessRing#read}), and the record is as its sender
 * in this process wrote it.
 */
final class InProcessInbound implements InboundMessage
{
    private final InProcessTransport transport;
    private final InProcessQueues endpoint;
    private final DirectBuffer buffer;
    private final long address;
    private int index;
    private int length;
    private Route replyRoute;

    InProcessInbound(final InProcessTransport transport, final InProcessQueues endpoint, final InProcessRing ring)
    {
        this.transport = transport;
        this.endpoint = endpoint;
        this.buffer = ring.buffer();
        this.address = ring.address();
    }

    /**
     * @param index  of the record's body in the ring.
     * @param length of the body, at least {@link InProcessRecordDescriptor#HEADER_LENGTH}.
     * @return this.
     */
    InProcessInbound wrap(final int index, final int length)
    {
        this.index = index;
        this.length = length;
        // Stored only when it changes (a reference store costs a garbage collector barrier).
        if (null != replyRoute)
        {
            replyRoute = null;
        }
        return this;
    }

    private int intAt(final int offset)
    {
        return UnsafeApi.getInt(null, address + index + offset);
    }

    private long longAt(final int offset)
    {
        return UnsafeApi.getLong(null, address + index + offset);
    }

    @Override
    public int opcode()
    {
        return intAt(OPCODE_OFFSET);
    }

    @Override
    public int returnStatus()
    {
        return intAt(RETURN_STATUS_OFFSET);
    }

    @Override
    public int handler()
    {
        return intAt(HANDLER_OFFSET);
    }

    @Override
    public long tag()
    {
        return longAt(TAG_OFFSET);
    }

    @Override
    public int argCount()
    {
        return intAt(ARG_COUNT_OFFSET);
    }

    @Override
    public int arg(final int i)
    {
        return intAt(ARGS_OFFSET + (i << 2));
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
        final int dataLength = intAt(DATA_LENGTH_OFFSET);
        // Inline data must lie inside the record: a record never claims bytes beyond its own length.
        return isDeposited() || dataLength <= length - HEADER_LENGTH ? dataLength : -1;
    }

    @Override
    public long segmentOffset()
    {
        return longAt(SEGMENT_OFFSET_OFFSET);
    }

    @Override
    public Route replyRoute()
    {
        Route route = replyRoute;
        if (null == route)
        {
            route = transport.routeTo(intAt(SOURCE_OFFSET));
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
