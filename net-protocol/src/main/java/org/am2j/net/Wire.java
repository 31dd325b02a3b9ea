package org.am2j.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * What the NIC sends datagrams through and receives them from. {@link UdpWire} is the real one; tests wrap it to
 * drop, duplicate and reorder datagrams.
 */
interface Wire extends AutoCloseable
{
    /**
     * @return the address peers send to.
     */
    InetSocketAddress localAddress();

    /**
     * What to send a peer's datagrams to; called once per peer, by any thread.
     *
     * @param address the peer NIC's address.
     * @return a destination for {@link #send(ByteBuffer, Destination)}; never null.
     */
    default Destination destination(final InetSocketAddress address)
    {
        return new Destination(address);
    }

    /**
     * Send one datagram without blocking.
     *
     * @param datagram from its position to its limit; the position is not kept.
     * @param to       a destination this wire (or the wire it wraps) made.
     * @return true when the datagram was handed to the operating system, false when its buffer was full.
     * @throws IOException when the socket fails.
     */
    boolean send(ByteBuffer datagram, Destination to) throws IOException;

    /**
     * Receive one datagram without blocking.
     *
     * @param into cleared buffer; on return its position is the datagram's length.
     * @return the sender's address, or null when no datagram was waiting.
     * @throws IOException when the socket fails.
     */
    InetSocketAddress receive(ByteBuffer into) throws IOException;

    /**
     * Sleep until a datagram may be waiting, {@link #wakeup()} is called, or the time passes.
     *
     * @param nanos longest sleep.
     * @throws IOException when the selector fails.
     */
    void await(long nanos) throws IOException;

    /**
     * End an {@link #await(long)} in progress or make the next one return at once.
     */
    void wakeup();

    /**
     * Close the socket.
     */
    @Override
    void close();
}
