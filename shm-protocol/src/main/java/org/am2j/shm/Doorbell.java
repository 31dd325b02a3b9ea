package org.am2j.shm;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A process's doorbell: a sequence number in a small shared file that the process sleeps on (a futex) while it waits
 * in {@code waitSema()}, and that a sender rings after queueing a message for a sleeping endpoint of that process.
 * One per process, so one sleep covers every endpoint of the process.
 * <pre>
 *  0  int  sequence number (the futex word)
 *  8  int  length of the wake address, 0 for none
 * 12  byte[52]  wake address, UTF-8 {@code host:port}
 * </pre>
 * The wake address is set when the process sleeps in its network transport's selector rather than on the futex
 * (see {@code Transport.wakeAddress()}): a ring then also sends a one-byte datagram there.
 */
final class Doorbell
{
    /** Bytes of a doorbell file. */
    static final int LENGTH = 64;

    private static final int SEQUENCE_OFFSET = 0;
    private static final int WAKE_LENGTH_OFFSET = 8;
    private static final int WAKE_ADDRESS_OFFSET = 12;
    /** Longest wake address. */
    static final int MAX_WAKE_ADDRESS = LENGTH - WAKE_ADDRESS_OFFSET;
    private static final ThreadLocal<UnsafeBuffer> TIMESPEC =
        ThreadLocal.withInitial(() -> new UnsafeBuffer(BufferUtil.allocateDirectAligned(16, 16)));

    private final MappedRegion region;
    private final long address;
    private java.net.InetSocketAddress wakeAddress;
    private boolean wakeAddressRead;

    Doorbell(final MappedRegion region)
    {
        this.region = region;
        this.address = region.buffer.addressOffset() + SEQUENCE_OFFSET;
    }

    MappedRegion region()
    {
        return region;
    }

    /**
     * @return the current sequence number: the ticket of a sleep about to start.
     */
    int ticket()
    {
        return region.buffer.getIntVolatile(SEQUENCE_OFFSET);
    }

    /**
     * Sleep until the doorbell rings after the ticket was taken, or the time passes.
     *
     * @param ticket from {@link #ticket()}.
     * @param nanos  longest sleep.
     */
    void await(final int ticket, final long nanos)
    {
        Futex.await(address, ticket, TIMESPEC.get(), nanos);
    }

    /**
     * Ring: advance the sequence number (so a sleeper that took an older ticket does not sleep) and wake sleepers.
     */
    void ring()
    {
        // Atomic add: concurrent rings never lose an increment, so the word always moves past every ticket taken
        // before the ring.
        region.buffer.getAndAddInt(SEQUENCE_OFFSET, 1);
        Futex.wakeAll(address);
        final java.net.InetSocketAddress wake = wakeAddress();
        if (null != wake)
        {
            WakeDatagrams.send(wake);
        }
    }

    /**
     * Publish where a sleeper of this (our own) process is woken besides the futex. Called before any endpoint
     * exists, so every peer that maps the doorbell later reads it.
     *
     * @param hostPort {@code host:port}.
     * @return true when it fitted.
     */
    boolean publishWakeAddress(final String hostPort)
    {
        final byte[] bytes = hostPort.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (bytes.length > MAX_WAKE_ADDRESS)
        {
            return false;
        }
        region.buffer.putBytes(WAKE_ADDRESS_OFFSET, bytes);
        // Ordered store of the length after the bytes: a reader that sees the length sees the address.
        region.buffer.putIntOrdered(WAKE_LENGTH_OFFSET, bytes.length);
        return true;
    }

    private java.net.InetSocketAddress wakeAddress()
    {
        if (!wakeAddressRead)
        {
            final int length = region.buffer.getIntVolatile(WAKE_LENGTH_OFFSET);
            if (length > 0 && length <= MAX_WAKE_ADDRESS)
            {
                final byte[] bytes = new byte[length];
                region.buffer.getBytes(WAKE_ADDRESS_OFFSET, bytes);
                wakeAddress = WakeDatagrams.parse(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
            }
            // Read once: the owner publishes it before any of its endpoints exists.
            wakeAddressRead = true;
        }
        return wakeAddress;
    }
}
