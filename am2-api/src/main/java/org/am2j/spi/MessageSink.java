package org.am2j.spi;

/**
 * The core's receiver of messages: a transport's poll hands it each message in turn.
 */
public interface MessageSink
{
    /**
     * Validate the message, run its handler (or return it to its sender), and return. The message's buffers may be
     * reused once this returns.
     *
     * @param message a flyweight over the transport's receive buffer.
     */
    void onMessage(InboundMessage message);
}
