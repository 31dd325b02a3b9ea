package org.am2j.shm;

import static org.am2j.shm.PacketDescriptor.ARG_COUNT_OFFSET;
import static org.am2j.shm.PacketDescriptor.HANDLER_OFFSET;
import static org.am2j.shm.PacketDescriptor.OPCODE_OFFSET;

import org.am2j.spi.InboundMessage;

/**
 * A packet of a queue block ({@link PacketDescriptor}) as the core reads a message: the header fields and arguments,
 * read as they are (the core checks each). The flyweights that hand packets over extend it: {@link ShmInbound} for a
 * received packet, {@link ReturnedPacket} for one taken back from a dead process's block.
 */
abstract class PacketView implements InboundMessage
{
    /** The queue whose buffer holds the packet (a fast box's packets lie in the same buffer). */
    PacketQueue queue;
    /** Offset of the packet in the queue's buffer. */
    int packet;

    @Override
    public final int opcode()
    {
        return queue.packetByte(packet, OPCODE_OFFSET);
    }

    @Override
    public final int handler()
    {
        return queue.packetByte(packet, HANDLER_OFFSET);
    }

    @Override
    public final long tag()
    {
        return queue.packetTag(packet);
    }

    @Override
    public final int argCount()
    {
        return queue.packetByte(packet, ARG_COUNT_OFFSET);
    }

    @Override
    public final int arg(final int index)
    {
        return queue.packetArg(packet, index);
    }
}
