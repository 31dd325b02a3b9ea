package org.am2j.shm;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.Route;

/**
 * Flyweight over a packet this process wrote into the queue block of a process that died, presented to the sending
 * endpoint's core as a returned message: the packet's own fields, the status it comes back with, and its data only
 * where the data is known to be intact (see {@link DeadPeerReturns}). The core runs handler 0 with it and counts it
 * by status, as it does every returned message.
 */
final class ReturnedPacket extends PacketView
{
    private final UnsafeBuffer data = new UnsafeBuffer(new byte[0]);
    private int status;
    private int dataLength;
    private Route route;

    /**
     * @param queue      a queue of the dead process's block (the packet's offset is in its buffer).
     * @param packet     offset of the packet (of the queue or of a fast box in the same block).
     * @param status     the return status.
     * @param dataOffset offset of the message's data in the queue's buffer, or -1 when it comes back without it.
     * @param dataLength length of the data, 0 when it comes back without it.
     * @param route      the route the message was sent by.
     * @return this.
     */
    ReturnedPacket wrap(
        final PacketQueue queue, final int packet, final int status, final int dataOffset, final int dataLength,
        final Route route)
    {
        this.queue = queue;
        this.packet = packet;
        this.status = status;
        this.route = route;
        if (dataOffset >= 0 && dataLength > 0)
        {
            data.wrap(queue.buffer, dataOffset, dataLength);
            this.dataLength = dataLength;
        }
        else
        {
            this.dataLength = 0;
        }
        return this;
    }

    @Override
    public int returnStatus()
    {
        return status;
    }

    @Override
    public DirectBuffer dataBuffer()
    {
        return 0 == dataLength ? null : data;
    }

    @Override
    public int dataOffset()
    {
        return 0;
    }

    @Override
    public int dataLength()
    {
        return dataLength;
    }

    @Override
    public long segmentOffset()
    {
        return -1;
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
