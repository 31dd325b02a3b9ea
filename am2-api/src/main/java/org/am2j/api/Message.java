package org.am2j.api;

import org.agrona.DirectBuffer;

/**
 * A received message as its handler sees it: a flyweight over the transport's receive buffer, valid only while the
 * handler runs. Reading it allocates nothing.
 */
public interface Message
{
    /**
     * @return the message's opcode; for a returned message, the opcode it was sent with.
     */
    Opcode opcode();

    /**
     * @return true for a request (or a returned request).
     */
    boolean isRequest();

    /**
     * @return short, medium or long.
     */
    MessageCategory category();

    /**
     * @return the handler index the message named (for a returned message: the index it named at its destination).
     */
    int handlerIndex();

    /**
     * @return number of 32-bit arguments, 0 to {@link Am#MAX_SHORT}.
     */
    int argCount();

    /**
     * @param index of the argument.
     * @return the argument's value.
     * @throws AmException with {@link AmError#BAD_ARG} when index is outside [0, {@link #argCount()}).
     */
    int arg(int index);

    /**
     * The message's data: for a medium message a view of the payload where the transport received it (in place: for
     * shared memory the bulk block of the receiver's queue block, nothing copied), valid until the handler returns, so
     * a handler copies what it keeps; for a long message the region of the segment the data was written to. Empty for
     * short messages.
     *
     * @return a buffer holding exactly {@link #dataLength()} bytes from index 0.
     */
    DirectBuffer data();

    /**
     * @return number of data bytes, 0 to {@link Am#MAX_MEDIUM}.
     */
    int dataLength();

    /**
     * @return for a long message, the offset in the receiver's segment the data was written at; otherwise -1.
     */
    long segmentOffset();

    /**
     * @return true when this is a message that could not be delivered, delivered to handler 0 of its sender.
     */
    boolean isReturned();

    /**
     * @return why a returned message came back, or {@code null} for an ordinary message.
     */
    ReturnStatus returnStatus();
}
