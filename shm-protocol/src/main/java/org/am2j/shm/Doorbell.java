package org.am2j.shm;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A process's doorbell: a sequence number in a small shared file that the process sleeps on (a futex) while it waits
 * in {@code waitSema()}, and that a sender rings after queueing a message for a sleeping endpoint of that process.
 * One per process, so one sleep covers every endpoint of the process.
 * <pre>
 *  0  int  sequence number (the futex word)
 * </pre>
 */
final class Doorbell
{
    /** Bytes of a doorbell file. */
    static final int LENGTH = 64;

    private static final int SEQUENCE_OFFSET = 0;
    private static final ThreadLocal<UnsafeBuffer> TIMESPEC =
        ThreadLocal.withInitial(() -> new UnsafeBuffer(BufferUtil.allocateDirectAligned(16, 16)));

    private final MappedRegion region;
    private final long address;

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
    }
}
