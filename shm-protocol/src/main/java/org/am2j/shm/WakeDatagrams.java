package org.am2j.shm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.am2j.spi.HostPort;

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
    private static long failures;

    private WakeDatagrams()
    {
    }

    /**
     * @param text {@code host:port} or {@code [ipv6-address]:port}, as a doorbell publishes it ({@link HostPort}).
     * @return the address, resolved, or null when the text is not one (the doorbell's owner wrote it, not this
     * process: the sleeper then wakes at the end of its slice).
     */
    static InetSocketAddress parse(final String text)
    {
        final InetSocketAddress address = HostPort.tryParse(text);
        return null == address ? null : HostPort.resolve(address);
    }

    /**
     * Send a wake-up. A failure is logged (the first one only) and otherwise ignored: the sleeper wakes at the end of
     * its slice. The socket is closed after a failure and opened again by the next wake-up, so a passing error (no
     * buffer space, an interface going down) costs the wake-ups sent while it lasts, not every later one.
     *
     * @param to the sleeper's wake address.
     * @return true when the datagram was handed to the socket.
     */
    static boolean send(final InetSocketAddress to)
    {
        synchronized (LOCK)
        {
            try
            {
                if (null == channel)
                {
                    channel = DatagramChannel.open();
                    channel.configureBlocking(false);
                }
                // Non-blocking: 0 when the socket's buffer is full, which a one-byte datagram meets only if the
                // receiver's host is flooded; the sleeper then wakes at the end of its slice.
                return channel.send(WAKE.clear(), to) > 0;
            }
            catch (final IOException | RuntimeException ex)
            {
                failures++;
                if (1 == failures)
                {
                    LOGGER.log(System.Logger.Level.WARNING, "am2j shm: cannot send a wake-up datagram to " + to + " (" +
                        ex + "); the sleeper wakes at the end of its time slice. Later failures are not logged.");
                }
                closeChannel();
                return false;
            }
        }
    }

    /**
     * @return wake-ups that failed with an error since the process started.
     */
    static long failures()
    {
        synchronized (LOCK)
        {
            return failures;
        }
    }

    private static void closeChannel()
    {
        final DatagramChannel failed = channel;
        channel = null;
        if (null != failed)
        {
            try
            {
                failed.close();
            }
            catch (final IOException ignored)
            {
                // Closing a socket that failed: nothing more to do with it.
            }
        }
    }
}
