package org.am2j.shm;

import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A route's mapping of its destination's segment, when that segment lives in shared memory, so that a long message
 * is written straight into it (one copy instead of two). The destination's queue block names the segment and bumps
 * its generation when it changes; the mapping follows the generation, mapped once per process through
 * {@link MappedFiles}. Thread-safe: the threads of a PAR bundle may send through one route.
 */
final class PeerSegment
{
    private final QueueBlock block;
    private final MappedFiles mappedFiles;
    private MappedRegion region;
    /** Stored after {@link #region} in {@link #remap}: a thread that reads the new generation sees its mapping. */
    private volatile int generation = -1;

    /**
     * @param block       the destination's queue block, which names its segment.
     * @param mappedFiles this process's mappings.
     */
    PeerSegment(final QueueBlock block, final MappedFiles mappedFiles)
    {
        this.block = block;
        this.mappedFiles = mappedFiles;
    }

    /**
     * @return the destination's segment when it lives in shared memory, mapped; else null (long messages then travel
     *         through the bulk queue and the receiver checks them).
     */
    UnsafeBuffer buffer()
    {
        final int current = block.segmentGeneration();
        if (current != generation)
        {
            remap(current);
        }
        final MappedRegion mapped = region;
        return null == mapped ? null : mapped.buffer;
    }

    private synchronized void remap(final int current)
    {
        if (current == generation)
        {
            return;
        }
        mappedFiles.release(region);
        region = null;
        final String path = block.segmentPath();
        final int length = block.segmentLength();
        if (null != path && length > 0)
        {
            try
            {
                final MappedRegion mapped = mappedFiles.acquire(Path.of(path));
                if (mapped.buffer.capacity() >= length)
                {
                    region = mapped;
                }
                else
                {
                    mappedFiles.release(mapped);
                }
            }
            catch (final RuntimeException ex)
            {
                // The segment went away: long messages travel through the bulk queue and the receiver checks them.
                region = null;
            }
        }
        generation = current;
    }

    /**
     * Release the mapping.
     */
    synchronized void close()
    {
        mappedFiles.release(region);
        region = null;
    }
}
