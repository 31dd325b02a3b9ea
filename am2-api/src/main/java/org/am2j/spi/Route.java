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
     * @return the name of the endpoint at the other end.
     */
    EndpointName peer();

    /**
     * @return the name of the transport the route belongs to.
     */
    String transport();
}
