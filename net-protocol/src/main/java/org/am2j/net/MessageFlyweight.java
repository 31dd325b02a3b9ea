package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.InboundMessage;

/**
 * A message as the core sees it, read from a {@link MessageDescriptor} body wherever that lies: a receive-queue record,
 * a datagram the NIC handed over, a send-queue record coming back. Subclasses say where the data of a long message is
 * and which route leads back.
 */
abstract class MessageFlyweight implements InboundMessage
{
    /** The buffer holding the body. */
    final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    /** Offset of the body in {@link #buffer}. */
    int body;
    /** Bytes of the body. */
    int bodyLength;

    /**
     * @param holder     the buffer holding the body.
     * @param body       its offset.
     * @param bodyLength its length.
     */
    final void wrapMessage(final DirectBuffer holder, final int body, final int bodyLength)
    {
        this.buffer.wrap(holder);
        this.body = body;
        this.bodyLength = bodyLength;
    }

    @Override
    public final int opcode()
    {
        return buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
    }

    @Override
    public final int returnStatus()
    {
        return buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) & 0xFF;
    }

    @Override
    public final int handler()
    {
        return buffer.getByte(body + MessageDescriptor.HANDLER_OFFSET) & 0xFF;
    }

    @Override
    public final long tag()
    {
        return buffer.getLong(body + MessageDescriptor.TAG_OFFSET);
    }

    @Override
    public final int argCount()
    {
        return buffer.getByte(body + MessageDescriptor.ARG_COUNT_OFFSET) & 0xFF;
    }

    @Override
    public final int arg(final int index)
    {
        return buffer.getInt(body + MessageDescriptor.argOffset(index));
    }

    @Override
    public final long segmentOffset()
    {
        return buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET);
    }

    /**
     * @return the data length the body declares.
     */
    final int declaredDataLength()
    {
        return buffer.getInt(body + MessageDescriptor.DATA_LENGTH_OFFSET);
    }

    /**
     * @return the buffer holding the data: the body's by default.
     */
    @Override
    public DirectBuffer dataBuffer()
    {
        return buffer;
    }

    /**
     * @return the offset of the data: in the body by default.
     */
    @Override
    public int dataOffset()
    {
        return body + MessageDescriptor.HEADER_LENGTH;
    }

    /**
     * @return the length of the data carried in the body, by default: the NIC checked the body, and a record is
     *         never read beyond its end whatever it declares.
     */
    @Override
    public int dataLength()
    {
        return Math.min(declaredDataLength(), bodyLength - MessageDescriptor.HEADER_LENGTH);
    }

    @Override
    public final EndpointName sourceName()
    {
        return replyRoute().peer();
    }
}
