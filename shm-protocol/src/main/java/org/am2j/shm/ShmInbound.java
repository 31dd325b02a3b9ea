package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.*;
import static org.am2j.shm.QueueBlockDescriptor.BULK_BLOCK_LENGTH;
import static org.am2j.shm.QueueBlockDescriptor.BULK_READY;
import static org.am2j.shm.QueueBlockDescriptor.state;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.spi.Route;

/**
 * Flyweight over a ready packet (see {@link PacketDescriptor}) as the core sees it. Fields are read as they are;
 * the data is located once per message: the packet's bulk block (only if its flag says this sender made it ready),
 * or, for a long message, the segment it was deposited in. A long message that came through the bulk queue is copied
 * into the segment here, before its handler runs.
 */
final class ShmInbound extends PacketView
{
    private static final byte[] NONE = new byte[0];

    private final ShmQueues endpoint;
    private final UnsafeBuffer buffer;
    private final UnsafeBuffer bulkView = new UnsafeBuffer(NONE);
    /**
     * The packet's sender, looked up from its inverse mapping (slot, generation) once, when the packet was wrapped:
     * the reply route and the source name come from it, so neither a writer that changes the packet nor a mapping
     * that changes while its handler runs can make the reply go to another peer than the one the handler was told
     * about. Stored only when it changes (a reference store costs a garbage collector barrier).
     */
    private ShmPeer sender;
    private DirectBuffer data;
    private int dataOffset;

    /**
     * @param endpoint the endpoint whose queue this reads.
     * @param queue    the one queue whose packets this flyweight is pointed at.
     */
    ShmInbound(final ShmQueues endpoint, final PacketQueue queue)
    {
        this.endpoint = endpoint;
        this.queue = queue;
        this.buffer = queue.buffer;
    }

    /**
     * Point the flyweight at a ready packet, unless its inverse mapping names another process than the one that made
     * it ready (the pid in its READY state): such a packet was spoiled by a faulty writer, and replying to or
     * returning it would reach a process that did not send it. A mapping that names no sender at all (an unused slot,
     * a sender whose queue block is gone) is handed over: its replies and returns go nowhere (a dead route, counted).
     *
     * @param packet      offset of a READY packet.
     * @param packetState its state as read.
     * @return this, or null when the packet's sender does not validate.
     */
    ShmInbound wrap(final int packet, final long packetState)
    {
        this.packet = packet;
        final int inverse = queue.packetInt(packet, SLOT_OFFSET);
        final ShmPeer sender = endpoint.inversePeer(inverse & 0xFFFF, inverse >>> 16);
        if (this.sender != sender)
        {
            this.sender = sender;
        }
        if (ShmPeer.UNKNOWN_PID != sender.pid && sender.pid != QueueBlockDescriptor.pid(packetState))
        {
            return null;
        }
        final int opcode = opcode();
        if (0 == dataLength() && Opcode.REQUEST_LONG.code() != opcode && Opcode.REPLY_LONG.code() != opcode)
        {
            // A message without data, the common case, in a few instructions the poll loop inlines.
            data = null;
            dataOffset = 0;
        }
        else
        {
            locateData(packetState);
        }
        return this;
    }

    private void locateData(final long packetState)
    {
        data = null;
        dataOffset = 0;
        final int length = dataLength();
        final boolean deposit = Opcode.REQUEST_LONG.code() == opcode() || Opcode.REPLY_LONG.code() == opcode();
        final boolean returned = 0 != returnStatus();
        if (0 == length)
        {
            if (deposit && !returned)
            {
                // Nothing to write: the message names a place in the segment, which the core checks.
                data = endpoint.host().segment();
                dataOffset = (int)segmentOffset();
            }
            return;
        }
        final int bulk = buffer.getShort(packet + BULK_INDEX_OFFSET) & 0xFFFF;
        if (NO_BULK != bulk)
        {
            // The block must be one this packet's sender made ready: a packet naming another block is malformed.
            if (bulk >= queue.bulkDepth || length > BULK_BLOCK_LENGTH ||
                state(BULK_READY, QueueBlockDescriptor.pid(packetState)) !=
                buffer.getLongVolatile(queue.bulkFlagOffset(bulk)))
            {
                return;
            }
            bulkView.wrap(buffer, queue.bulkBlockOffset(bulk), BULK_BLOCK_LENGTH);
            data = bulkView;
            if (deposit && !returned)
            {
                final AtomicBuffer segment = endpoint.host().segment();
                final int offset = (int)segmentOffset();
                if (null != segment && 0 == endpoint.host().checkSegment(offset, length))
                {
                    segment.putBytes(offset, bulkView, 0, length);
                    data = segment;
                    dataOffset = offset;
                }
            }
        }
        else if (deposit && !returned)
        {
            // Deposited by the sender into our shared-memory segment: valid only if that is still our segment.
            final AtomicBuffer segment = endpoint.sharedSegment();
            if (null != segment && segment == endpoint.host().segment())
            {
                data = segment;
                dataOffset = (int)segmentOffset();
            }
        }
    }

    @Override
    public int returnStatus()
    {
        return queue.packetByte(packet, RETURN_STATUS_OFFSET);
    }

    @Override
    public DirectBuffer dataBuffer()
    {
        return data;
    }

    @Override
    public int dataOffset()
    {
        return dataOffset;
    }

    @Override
    public int dataLength()
    {
        return queue.packetShort(packet, DATA_LENGTH_OFFSET);
    }

    @Override
    public long segmentOffset()
    {
        return queue.packetInt(packet, SEGMENT_OFFSET_OFFSET);
    }

    @Override
    public Route replyRoute()
    {
        return sender.route;
    }

    @Override
    public EndpointName sourceName()
    {
        return replyRoute().peer();
    }
}
