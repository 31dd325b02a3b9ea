package org.am2j.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.agrona.CloseHelper;

/**
 * Sends one-byte wake datagrams ({@link WireDescriptor#WAKE_LENGTH}) between a host and the shared NIC that serves
 * it: a host wakes a NIC asleep in its selector, the NIC wakes a host asleep in its own. One unbound non-blocking
 * socket, used by one thread at a time (the NIC's thread; a host's sends hold the lock of its link).
 */
final class WakeSender implements AutoCloseable
{
    private final DatagramChannel channel;
    private final ByteBuffer wake = ByteBuffer.allocateDirect(WireDescriptor.WAKE_LENGTH);

    WakeSender()
    {
        try
        {
            channel = DatagramChannel.open();
            channel.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException("am2j net: cannot open a socket for wake datagrams", ex);
        }
    }

    /**
     * @param to the sleeper's socket.
     * @return true when sent (a full socket buffer means wake datagrams are already waiting there).
     */
    boolean wake(final InetSocketAddress to)
    {
        wake.clear();
        try
        {
            return channel.send(wake, to) > 0;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    @Override
    public void close()
    {
        CloseHelper.quietClose(channel);
    }
}
