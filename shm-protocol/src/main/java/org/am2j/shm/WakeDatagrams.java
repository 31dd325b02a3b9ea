package org.am2j.shm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * Sends the one-byte datagrams that wake a process asleep in its network transport's selector (when the network
 * transport, not the futex doorbell, is where that process's {@code waitSema()} sleeps). One unbound socket per
 * process, opened when first needed; used only when a receiver sleeps, so a lock is cheap enough.
 */
final class WakeDatagrams
{
    private static final System.Logger LOGGER = System.getLogger("org.am2j.shm");
    private static final Object LOCK = new Object();
    private static DatagramChannel channel;
    private static final ByteBuffer WAKE = ByteBuffer.allocateDirect(1).put(0, (byte)'W');
    private static boolean failed;

    private WakeDatagrams()
    {
    }

    /**
     * @param text {@code host:port}.
     * @return the address, or null when the text is not one.
     */
    static InetSocketAddress parse(final String text)
    {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0)
        {
            return null;
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        try
        {
            final int port = Integer.parseInt(text.substring(colon + 1));
            return port > 0 && port <= 65535 ? new InetSocketAddress(InetAddress.getByName(host), port) : null;
        }
        catch (final NumberFormatException | UnknownHostException ex)
        {
            return null;
        }
    }

    /**
     * Send a wake-up; failures are logged once and otherwise ignored (the sleeper wakes at the end of its slice).
     *
     * @param to the sleeper's wake address.
     */
    static void send(final InetSocketAddress to)
    {
        synchronized (LOCK)
        {
            if (failed)
            {
                return;
            }
            try
            {
                if (null == channel)
                {
                    channel = DatagramChannel.open();
                    channel.configureBlocking(false);
                }
                channel.send(WAKE.clear(), to);
            }
            catch (final IOException | RuntimeException ex)
            {
                failed = true;
                LOGGER.log(System.Logger.Level.WARNING, "am2j shm: cannot send wake-up datagrams (" + ex +
                    "); sleepers in a network selector wake at the end of their time slice");
            }
        }
    }
}
