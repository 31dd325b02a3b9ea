package org.am2j.spi;

import org.am2j.api.EndpointName;

/**
 * A transport's path to one destination endpoint: the translation table entry's send path, or, handed to the core
 * with each received message, the inverse mapping that replies and returned messages travel back by.
 * <p>
 * {@link #send(OutboundMessage)} never blocks and never throws for a condition of the destination: it answers
 * {@link #SENT}, {@link #FULL} (the core backs off, polls, and tries again), or a
 * {@link org.am2j.api.ReturnStatus#code()} when the destination refused the message at the sender (a tag mismatch
 * read from its queue block, a freed endpoint): the core then returns the message to the sender's handler 0.
 */
public interface Route
{
    /** The message was handed to the destination. */
    int SENT = 0;

    /** The destination's queue is full: nothing was sent. */
    int FULL = -1;

    /**
     * @param message to send; its data may be read only during this call.
     * @return {@link #SENT}, {@link #FULL} or a return-status code, 1 or more.
     */
    int send(OutboundMessage message);

    /**
     * Send a short message (no data, return status 0) from its fields, with the results of
     * {@link #send(OutboundMessage)}. The core calls this for the first attempt of every short request and reply
     * (never for a returned message), so that a transport that can write the fields straight into the destination
     * does not read them back from a frame; the default fills {@code scratch} and sends it.
     * <p>
     * Any answer but {@link #SENT} must leave nothing sent: the core then builds the frame and sends the same message
     * again through {@link #send(OutboundMessage)}, which retries, backs off or returns it.
     *
     * @param scratch  a frame the caller does not need back: the default fills it, an override may ignore it.
     * @param opcode   {@link org.am2j.api.Opcode#REQUEST_SHORT} or {@link org.am2j.api.Opcode#REPLY_SHORT}'s code (an
     *                 override passes any other opcode to this default).
     * @param handler  the handler index at the destination.
     * @param tag      the tag the message carries.
     * @param source   the sending endpoint's id.
     * @param argCount 0 to {@link org.am2j.api.Am#MAX_SHORT}.
     * @param a0       argument 0 (0 when unused), and so on to {@code a7}.
     * @param a1       argument 1.
     * @param a2       argument 2.
     * @param a3       argument 3.
     * @param a4       argument 4.
     * @param a5       argument 5.
     * @param a6       argument 6.
     * @param a7       argument 7.
     * @return {@link #SENT}, {@link #FULL} or a return-status code, 1 or more.
     */
    default int sendShort(
        final OutboundMessage scratch, final int opcode, final int handler, final long tag, final int source,
        final int argCount, final int a0, final int a1, final int a2, final int a3, final int a4, final int a5,
        final int a6, final int a7)
    {
        return send(scratch.header(opcode, 0, handler, tag).args(argCount, a0, a1, a2, a3, a4, a5, a6, a7)
            .source(source));
    }

    /**
     * @return the name of the endpoint at the other end.
     */
    EndpointName peer();

    /**
     * @return the name of the transport the route belongs to.
     */
    String transport();
}
