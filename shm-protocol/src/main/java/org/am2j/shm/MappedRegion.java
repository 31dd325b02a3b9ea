package org.am2j.shm;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ShmDirectories;

/**
 * One memory-mapped file: a queue block, a segment or a doorbell. Created files are made by
 * {@link ShmDirectories#createMapped(Path, long)}: mode 0600 and fully allocated before they are mapped, so a full
 * {@code /dev/shm} is an error here and not a SIGBUS on first touch.
 */
final class MappedRegion
{
    final Path path;
    final UnsafeBuffer buffer;
    private final MappedByteBuffer mapped;
    int references = 1;

    private MappedRegion(final Path path, final MappedByteBuffer mapped)
    {
        this.path = path;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
    }

    /**
     * Create a new file of the given length, allocate it, and map it.
     *
     * @param path   of the new file; it must not exist.
     * @param length in bytes.
     * @return the mapping.
     * @throws AmException {@link AmError#RESOURCE} naming the path and size when the file cannot be created.
     */
    static MappedRegion create(final Path path, final int length)
    {
        try
        {
            return new MappedRegion(path, ShmDirectories.createMapped(path, length));
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new AmException(AmError.RESOURCE, "shared-memory file " + path + " already exists", ex);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new AmException(AmError.RESOURCE, "cannot create shared-memory file " + path + " of " + length +
                " bytes (" + ex.getMessage() + "); is " + path.getParent() + " full or not writable?", ex);
        }
    }

    /**
     * Map an existing file whole.
     *
     * @param path of the file.
     * @return the mapping.
     * @throws AmException {@link AmError#BAD_ARG} naming the path when it cannot be mapped.
     */
    static MappedRegion open(final Path path)
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long size = channel.size();
            if (size <= 0 || size > Integer.MAX_VALUE)
            {
                throw new AmException(AmError.BAD_ARG, "shared-memory file " + path + " has " + size +
                    " bytes, expected [1, " + Integer.MAX_VALUE + "]");
            }
            return new MappedRegion(path, channel.map(FileChannel.MapMode.READ_WRITE, 0, size));
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.BAD_ARG, "cannot map shared-memory file " + path + ": " + ex.getMessage(),
                ex);
        }
    }

    static void deleteQuietly(final Path path)
    {
        try
        {
            Files.deleteIfExists(path);
        }
        catch (final IOException ignore)
        {
            // Left for the stale-file sweep of the next process.
        }
    }
}
