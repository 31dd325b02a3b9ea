package org.am2j.net;

import org.agrona.DirectBuffer;
import org.am2j.spi.Route;

/**
 * A send-queue record a dead shared NIC never took, presented to its sender's core as a returned message (its return
 * status already set in the record), with the route it was sent by.
 */
final class ReturnedRecord extends MessageFlyweight
{
    private final Route route;

    ReturnedRecord(final DirectBuffer buffer, final int index, final int length, final Route route)
    {
        wrapMessage(buffer, index + QueueRecordDescriptor.BODY_OFFSET, length - QueueRecordDescriptor.BODY_OFFSET);
        this.route = route;
    }

    @Override
    public DirectBuffer dataBuffer()
    {
        return buffer;
    }

    @Override
    public int dataOffset()
    {
        return dataOffsetInBody();
    }

    @Override
    public int dataLength()
    {
        return dataLengthInBody();
    }

    @Override
    public Route replyRoute()
    {
        return route;
    }
}
