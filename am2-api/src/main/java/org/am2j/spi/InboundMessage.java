package org.am2j.spi;

import org.agrona.DirectBuffer;
import org.am2j.api.EndpointName;

/**
 * A received message as a transport presents it to the core: raw fields read from its receive buffer, not yet
 * validated. The core checks every field before use, so a transport may hand over what a faulty peer wrote.
 */
public interface InboundMessage
{
    /**
     * @return the opcode code ({@link org.am2j.api.Opcode#code()}); any int.
     */
    int opcode();

    /**
     * @return 0 for an ordinary message, else the {@link org.am2j.api.ReturnStatus#code()} of a returned message.
     */
    int returnStatus();

    /**
     * @return the handler index; any int.
     */
    int handler();

    /**
     * @return the tag the message carried.
     */
    long tag();

    /**
     * @return the argument count; any int.
     */
    int argCount();

    /**
     * @param index 0 to 7.
     * @return the argument.
     */
    int arg(int index);

    /**
     * @return for medium messages the buffer holding the data; for long messages the segment it was deposited in.
     */
    DirectBuffer dataBuffer();

    /**
     * @return offset of the data in {@link #dataBuffer()}.
     */
    int dataOffset();

    /**
     * @return number of data bytes; any int.
     */
    int dataLength();

    /**
     * @return for long messages the segment offset the data was written at, else -1.
     */
    long segmentOffset();

    /**
     * The core asks for a request's route once, when it dispatches the request (before its handler runs), and the
     * handler's reply goes by what it got then, whatever the transport's mapping says later.
     *
     * @return the inverse mapping: the route replies and returned messages go back by.
     */
    Route replyRoute();

    /**
     * @return the name of the sending endpoint.
     */
    EndpointName sourceName();
}
