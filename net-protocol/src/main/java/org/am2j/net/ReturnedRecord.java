package org.am2j.net;

import org.agrona.DirectBuffer;
import org.am2j.spi.Route;

/**
 * A message a dead shared NIC never took (a send-queue record) or took and never resolved (an {@link InFlightLog}
 * record), presented to its sender's core as a returned message (its return status already set in the body), with the
 * route it was sent by.
 */
final class ReturnedRecord extends MessageFlyweight
{
    private final Route route;

    /**
     * @param buffer holds a send-queue record.
     * @param index  the record's offset.
     * @param length the record's length.
     * @param route  the route it was sent by.
     */
    ReturnedRecord(final DirectBuffer buffer, final int index, final int length, final Route route)
    {
        this(route, buffer, index + QueueRecordDescriptor.BODY_OFFSET, length - QueueRecordDescriptor.BODY_OFFSET);
    }

    /**
     * @param route      the route it was sent by.
     * @param buffer     holds a message body.
     * @param body       the body's offset.
     * @param bodyLength the body's length.
     */
    ReturnedRecord(final Route route, final DirectBuffer buffer, final int body, final int bodyLength)
    {
        wrapMessage(buffer, body, bodyLength);
        this.route = route;
    }

    @Override
    public Route replyRoute()
    {
        return route;
    }
}
