package org.am2j.spi;

import org.agrona.DirectBuffer;
import org.am2j.api.Am;

/**
 * A message on its way out, as the core hands it to a {@link Route}: a mutable frame the core reuses (one per thread
 * and handler nesting depth), so sending allocates nothing. Every field has been validated by the core, except that
 * a long message's segment range is checked by whoever writes the segment.
 */
public final class OutboundMessage
{
    private int opcode;
    private int returnStatus;
    private int handler;
    private long tag;
    private int argCount;
    private final int[] args = new int[Am.MAX_SHORT];
    private DirectBuffer data;
    private int dataOffset;
    private int dataLength;
    private long segmentOffset = -1;
    private int sourceEndpointId;

    /**
     * Set the header of the frame; data is cleared.
     *
     * @param opcode       {@link org.am2j.api.Opcode#code()}.
     * @param returnStatus 0, or the status of a returned message.
     * @param handler      index at the destination.
     * @param tag          to carry.
     * @return this.
     */
    public OutboundMessage header(final int opcode, final int returnStatus, final int handler, final long tag)
    {
        this.opcode = opcode;
        this.returnStatus = returnStatus;
        this.handler = handler;
        this.tag = tag;
        this.data = null;
        this.dataOffset = 0;
        this.dataLength = 0;
        this.segmentOffset = -1;
        return this;
    }

    /**
     * @param argCount 0 to 8.
     * @param a0       argument 0.
     * @param a1       argument 1.
     * @param a2       argument 2.
     * @param a3       argument 3.
     * @param a4       argument 4.
     * @param a5       argument 5.
     * @param a6       argument 6.
     * @param a7       argument 7.
     * @return this.
     */
    public OutboundMessage args(
        final int argCount, final int a0, final int a1, final int a2, final int a3,
        final int a4, final int a5, final int a6, final int a7)
    {
        this.argCount = argCount;
        args[0] = a0;
        args[1] = a1;
        args[2] = a2;
        args[3] = a3;
        args[4] = a4;
        args[5] = a5;
        args[6] = a6;
        args[7] = a7;
        return this;
    }

    /**
     * @param data          buffer, null for short messages.
     * @param dataOffset    in the buffer.
     * @param dataLength    number of bytes.
     * @param segmentOffset for long messages, else -1.
     * @return this.
     */
    public OutboundMessage data(final DirectBuffer data, final int dataOffset, final int dataLength, final long segmentOffset)
    {
        this.data = data;
        this.dataOffset = dataOffset;
        this.dataLength = dataLength;
        this.segmentOffset = segmentOffset;
        return this;
    }

    /**
     * Turn the frame into a returned message, keeping everything else: its data then travels inline whatever its
     * category (a returned long message is not written into any segment).
     *
     * @param returnStatus the {@link org.am2j.api.ReturnStatus#code()} it comes back with.
     * @return this.
     */
    public OutboundMessage returnStatus(final int returnStatus)
    {
        this.returnStatus = returnStatus;
        return this;
    }

    /**
     * @param sourceEndpointId id of the sending endpoint in its process.
     * @return this.
     */
    public OutboundMessage source(final int sourceEndpointId)
    {
        this.sourceEndpointId = sourceEndpointId;
        return this;
    }

    /**
     * @return {@link org.am2j.api.Opcode#code()}.
     */
    public int opcode()
    {
        return opcode;
    }

    /**
     * @return 0, or the status of a returned message.
     */
    public int returnStatus()
    {
        return returnStatus;
    }

    /**
     * @return handler index at the destination.
     */
    public int handler()
    {
        return handler;
    }

    /**
     * @return the tag to carry.
     */
    public long tag()
    {
        return tag;
    }

    /**
     * @return number of arguments.
     */
    public int argCount()
    {
        return argCount;
    }

    /**
     * @param index 0 to 7.
     * @return the argument.
     */
    public int arg(final int index)
    {
        return args[index];
    }

    /**
     * @return data buffer, null for short messages.
     */
    public DirectBuffer data()
    {
        return data;
    }

    /**
     * @return offset of the data in {@link #data()}.
     */
    public int dataOffset()
    {
        return dataOffset;
    }

    /**
     * @return number of data bytes.
     */
    public int dataLength()
    {
        return dataLength;
    }

    /**
     * @return segment offset of a long message, else -1.
     */
    public long segmentOffset()
    {
        return segmentOffset;
    }

    /**
     * @return id of the sending endpoint in its process.
     */
    public int sourceEndpointId()
    {
        return sourceEndpointId;
    }
}
