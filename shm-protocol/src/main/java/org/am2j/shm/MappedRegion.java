package org.am2j.shm;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.ShmDirectories;

/**
 * One memory-mapped file: a queue block, a segment or a doorbell. Created files are, where Linux allows it, sealed
 * memory files ({@link SealedMemory}): no process can shrink them under a mapping, and they have no directory entry
 * (their address is {@code /proc/<pid>/fd/<fd>}). Elsewhere, or with {@code am2j.shm.sealed=false}, they are files in
 * the job directory made by {@link ShmDirectories#createMapped(Path, long)}. Either way they are mode 0600 (or
 * reachable only through the owner's {@code /proc} entry) and fully allocated before they are mapped, so a full
 * {@code /dev/shm} or a memory limit is an error here and not a SIGBUS on first touch.
 */
final class MappedRegion
{
    /** Where other processes open the file: a path in the job directory or a {@code /proc/<pid>/fd/<fd>} address. */
    final Path path;
    final UnsafeBuffer buffer;
    /** The identity of the file mapped ({@code BasicFileAttributes.fileKey()}), to tell a reused address. */
    final Object fileKey;
    private final MappedByteBuffer mapped;
    /** The owner's descriptor of a sealed memory file, -1 for a file with a name or a mapping of another's file. */
    private int fd;
    int references = 1;

    private MappedRegion(final Path path, final MappedByteBuffer mapped, final Object fileKey, final int fd)
    {
        this.path = path;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.fileKey = fileKey;
        this.fd = fd;
    }

    /**
     * Create a new file of the given length, allocate it, and map it: a sealed memory file named after
     * {@code path}'s file name where possible, else the file {@code path}.
     *
     * @param path   of the new file; it must not exist.
     * @param length in bytes.
     * @param sealed false for a file {@code path} even where sealed memory files work ({@link ShmConfig#sealed}).
     * @return the mapping.
     * @throws AmException {@link AmError#RESOURCE} naming the path and size when the file cannot be created.
     */
    static MappedRegion create(final Path path, final int length, final boolean sealed)
    {
        return sealed && null == SealedMemory.unavailable() ?
            createSealed(path.getFileName().toString(), length) : createFile(path, length);
    }

    /**
     * Create a new file in a directory, allocate it, and map it (where sealed memory files are not available).
     *
     * @param path   of the new file; it must not exist.
     * @param length in bytes.
     * @return the mapping.
     * @throws AmException {@link AmError#RESOURCE} naming the path and size when the file cannot be created.
     */
    static MappedRegion createFile(final Path path, final int length)
    {
        try
        {
            return new MappedRegion(path, ShmDirectories.createMapped(path, length), null, -1);
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

    private static MappedRegion createSealed(final String name, final int length)
    {
        int fd = -1;
        try
        {
            fd = SealedMemory.create("am2j-" + name);
            final Path own = Path.of("/proc/self/fd/" + fd);
            try (FileChannel channel = FileChannel.open(own, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                ShmDirectories.fill(channel, length);
                SealedMemory.seal(fd);
                final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
                final Object key = Files.readAttributes(own, BasicFileAttributes.class).fileKey();
                return new MappedRegion(SealedMemory.address(ProcessIdentity.currentPid(), fd), mapped, key, fd);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (fd >= 0)
            {
                SealedMemory.closeQuietly(fd);
            }
            throw new AmException(AmError.RESOURCE, "cannot create the shared memory file " + name + " of " + length +
                " bytes (" + ex.getMessage() + "); is memory short (memfd_create, a cgroup limit) or are too many " +
                "files open?", ex);
        }
    }

    /**
     * Map an existing file whole: a sealed memory file by its {@code /proc/<pid>/fd/<fd>} address (its target must be
     * an am2j memory file of this user), or a file in a job directory (a regular file of this user's, closed to
     * others, never through a symbolic link).
     *
     * @param path of the file.
     * @return the mapping.
     * @throws AmException {@link AmError#BAD_ARG} naming the path when it cannot be mapped.
     */
    static MappedRegion open(final Path path)
    {
        final boolean sealed = SealedMemory.isAddress(path);
        try
        {
            if (sealed)
            {
                final String target = Files.readSymbolicLink(path).toString();
                if (!target.startsWith("/memfd:am2j-"))
                {
                    throw new AmException(AmError.BAD_ARG, "shared-memory address " + path + " names " + target +
                        ", not an am2j memory file");
                }
            }
            else
            {
                ShmDirectories.checkPrivate(path, false);
            }
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.BAD_ARG, "cannot map shared-memory file " + path + ": " + ex.getMessage() +
                (sealed ? " (is its process gone? Processes in other PID namespaces, or not allowed to read each " +
                "other's /proc/<pid>/fd, must all run with " + SealedMemory.DISABLE_VARIABLE + "=false)" :
                " (is its process gone?)"), ex);
        }
        try (FileChannel channel = sealed ?
            FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE) :
            FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
        {
            final long size = channel.size();
            if (size <= 0 || size > Integer.MAX_VALUE)
            {
                throw new AmException(AmError.BAD_ARG, "shared-memory file " + path + " has " + size +
                    " bytes, expected [1, " + Integer.MAX_VALUE + "]");
            }
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
            return new MappedRegion(path, mapped, fileKey(path), -1);
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.BAD_ARG, "cannot map shared-memory file " + path + ": " + ex.getMessage(),
                ex);
        }
    }

    /**
     * @param path of a file.
     * @return its identity now (following a {@code /proc} address to the file), or null when it cannot be read.
     */
    static Object fileKey(final Path path)
    {
        try
        {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * Whether the file mapped here is still open under its address: its owner has not removed it (closed the
     * descriptor of a sealed memory file, deleted a named file). A fact of the kernel's, which no write into the
     * mapping can fake: a sender asks it before it believes a queue block's state word that says the block is not
     * open. A system call (a {@code stat}); for the rare path only.
     *
     * @return true while the address names the file mapped.
     */
    boolean stillNamesFile()
    {
        return null != fileKey && fileKey.equals(fileKey(path));
    }

    /**
     * Remove the file this process created: close the descriptor of a sealed memory file (it goes away with the last
     * mapping), or delete the file. The mapping stays valid either way.
     */
    void delete()
    {
        if (fd >= 0)
        {
            final int owned = fd;
            fd = -1;
            SealedMemory.closeQuietly(owned);
        }
        else if (!SealedMemory.isAddress(path))
        {
            deleteQuietly(path);
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
