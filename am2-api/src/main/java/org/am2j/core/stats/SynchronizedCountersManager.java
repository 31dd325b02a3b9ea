package org.am2j.core.stats;

import java.util.function.Consumer;
import java.util.function.IntSupplier;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * A {@link CountersManager} whose allocation and freeing may be called from any thread: over the sections of a
 * {@link CountersFile} (see {@link CountersFile#countersManager()}), or over private memory
 * ({@link #inMemory(int)}) for a process that runs without a counters file.
 * <p>
 * Invariant: the free list, the high-water mark, the record states, {@link #allocated} and {@link #closed} change only
 * while holding this object's monitor. Counter values are not guarded: they belong to their writers. Once the file is
 * closed no counter is allocated; freeing stays possible (the mapping outlives the file while counters are allocated)
 * until the mapping is {@linkplain #closeAndTryRelease() released}, which happens only when none is.
 * <p>
 * Allocation failures are {@link AmException}s: {@link AmError#RESOURCE} when the buffers are full,
 * {@link AmError#NOT_INIT} when the file is closed.
 * <p>
 * Why not Agrona's {@code ConcurrentCountersManager}: it makes allocation thread-safe in the same way (a lock around
 * Agrona's own allocation and free-list code, which this class reuses by extending {@link CountersManager}), but it has
 * no notion of a counters file that closes while counters are still allocated, and reports a full buffer with an
 * {@code IllegalStateException} where the API promises an {@link AmException}. What this class adds is that
 * lifecycle, the count of allocated counters it needs, and the errors; the layout, the reader and the records are
 * Agrona's.
 */
public final class SynchronizedCountersManager extends CountersManager
{
    private final String description;
    private int allocated;
    private boolean closed;
    private boolean released;

    /**
     * @param metaDataBuffer the metadata section.
     * @param valuesBuffer   the values section.
     * @param description    where the counters are, for messages (e.g. the counters file's path).
     */
    SynchronizedCountersManager(
        final AtomicBuffer metaDataBuffer, final AtomicBuffer valuesBuffer, final String description)
    {
        super(metaDataBuffer, valuesBuffer);
        this.description = description;
    }

    /**
     * A thread-safe manager over private (not shared) memory, for a process whose counters file cannot be created:
     * its counters count, but no other process can read them.
     *
     * @param maxCounters how many counters it holds, from 1 to {@link CountersFileDescriptor#MAX_COUNTERS_LIMIT}.
     * @return the manager.
     */
    public static SynchronizedCountersManager inMemory(final int maxCounters)
    {
        AmException.checkRange("maxCounters", maxCounters, 1, CountersFileDescriptor.MAX_COUNTERS_LIMIT + 1);
        return new SynchronizedCountersManager(
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                CountersFileDescriptor.metadataSectionLength(maxCounters), CountersFileDescriptor.CACHE_LINE_LENGTH)),
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                CountersFileDescriptor.valuesSectionLength(maxCounters), CountersFileDescriptor.CACHE_LINE_LENGTH)),
            "in private memory");
    }

    /**
     * {@inheritDoc}
     */
    public synchronized int allocate(final String label, final int typeId)
    {
        return counted(() -> super.allocate(label, typeId));
    }

    /**
     * {@inheritDoc}
     */
    public synchronized int allocate(
        final String label, final int typeId, final Consumer<MutableDirectBuffer> keyFunc)
    {
        return counted(() -> super.allocate(label, typeId, keyFunc));
    }

    /**
     * {@inheritDoc}
     */
    public synchronized int allocate(
        final int typeId,
        final DirectBuffer keyBuffer,
        final int keyOffset,
        final int keyLength,
        final DirectBuffer labelBuffer,
        final int labelOffset,
        final int labelLength)
    {
        return counted(
            () -> super.allocate(typeId, keyBuffer, keyOffset, keyLength, labelBuffer, labelOffset, labelLength));
    }

    /**
     * {@inheritDoc}
     */
    public synchronized void free(final int counterId)
    {
        if (released)
        {
            throw new IllegalStateException(
                "counter not allocated: id=" + counterId + ", the counters " + description + " are closed");
        }

        super.free(counterId);
        allocated--;
    }

    /**
     * {@inheritDoc}
     */
    public synchronized int available()
    {
        return closed ? 0 : super.available();
    }

    /**
     * {@inheritDoc}
     */
    public synchronized void setCounterLabel(final int counterId, final String label)
    {
        checkNotReleased();
        super.setCounterLabel(counterId, label);
    }

    /**
     * {@inheritDoc}
     */
    public synchronized void appendToLabel(final int counterId, final String label)
    {
        checkNotReleased();
        super.appendToLabel(counterId, label);
    }

    /**
     * {@inheritDoc}
     */
    public synchronized void setCounterKey(final int counterId, final Consumer<MutableDirectBuffer> keyFunc)
    {
        checkNotReleased();
        super.setCounterKey(counterId, keyFunc);
    }

    /**
     * {@inheritDoc}
     */
    public synchronized void setCounterKey(
        final int counterId, final DirectBuffer keyBuffer, final int offset, final int length)
    {
        checkNotReleased();
        super.setCounterKey(counterId, keyBuffer, offset, length);
    }

    /**
     * Refuse further allocation and, when no counter is allocated, mark the sections released.
     *
     * @return true when the caller may now unmap the sections: no counter is allocated and none can be.
     */
    synchronized boolean closeAndTryRelease()
    {
        closed = true;
        if (!released && 0 == allocated)
        {
            released = true;
            return true;
        }

        return false;
    }

    /** One allocation, under the monitor: refused once closed, counted when done, a full buffer an AmException. */
    private int counted(final IntSupplier allocation)
    {
        if (closed)
        {
            throw new AmException(
                AmError.NOT_INIT, "the counters " + description + " are closed: no counter can be allocated");
        }
        try
        {
            final int counterId = allocation.getAsInt();
            allocated++;
            return counterId;
        }
        catch (final IllegalStateException ex)
        {
            throw new AmException(
                AmError.RESOURCE,
                "the counters " + description + " are full: all " + capacity() + " counters are allocated" +
                " (maxCounters)",
                ex);
        }
    }

    private void checkNotReleased()
    {
        if (released)
        {
            throw new IllegalStateException("the counters " + description + " are closed");
        }
    }
}
