package org.am2j.spi;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Where am2j keeps the files other processes of the node map: {@code /dev/shm/am2j-<user>/} (or
 * {@code <java.io.tmpdir>/am2j-<user>/} without a writable {@code /dev/shm}), with one directory per job and one for
 * counters files. Directories are mode 0700 and are removed when a process leaves them empty, so a normal exit leaves
 * nothing behind.
 */
public final class ShmDirectories
{
    private ShmDirectories()
    {
    }

    /**
     * @return the user's am2j directory.
     */
    public static Path userRoot()
    {
        final String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        final Path shm = Path.of("/dev/shm");
        final Path base = Files.isDirectory(shm) && Files.isWritable(shm) ?
            shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("am2j-" + user);
    }

    /**
     * Create a directory and its missing parents, mode 0700.
     *
     * @param directory to create.
     * @throws AmException {@link AmError#RESOURCE} naming the directory when it cannot be created.
     */
    public static void create(final Path directory)
    {
        try
        {
            if (!Files.isDirectory(directory))
            {
                Files.createDirectories(directory, attributes());
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (!Files.isDirectory(directory))
            {
                throw new AmException(AmError.RESOURCE, "cannot create directory " + directory + ": " + ex, ex);
            }
        }
    }

    /**
     * Remove a directory if it is empty, then each parent that becomes empty, up to and including the user's am2j
     * directory (never above it).
     *
     * @param directory to remove when empty.
     */
    public static void removeIfEmpty(final Path directory)
    {
        final Path root = userRoot().toAbsolutePath().normalize();
        Path current = directory.toAbsolutePath().normalize();
        while (null != current && current.startsWith(root) && deleteIfEmpty(current))
        {
            if (current.equals(root))
            {
                return;
            }
            current = current.getParent();
        }
    }

    /**
     * @param failure an exception from creating a file.
     * @return true when it says a directory vanished meanwhile (another process removed it, empty): try again.
     */
    public static boolean directoryVanished(final Throwable failure)
    {
        for (Throwable cause = failure; null != cause; cause = cause.getCause())
        {
            if (cause instanceof java.nio.file.NoSuchFileException)
            {
                return true;
            }
        }
        return false;
    }

    private static boolean deleteIfEmpty(final Path directory)
    {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory))
        {
            if (entries.iterator().hasNext())
            {
                return false;
            }
        }
        catch (final IOException ex)
        {
            return false;
        }
        try
        {
            return Files.deleteIfExists(directory);
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static FileAttribute<?>[] attributes()
    {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix") ?
            new FileAttribute<?>[] { PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")) } :
            new FileAttribute<?>[0];
    }
}
