package org.am2j.shm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.ShmDirectories;

/**
 * Finds and removes the shared-memory files of dead processes. Every file am2j makes is named
 * {@code <pid>-<start ms>-...}: its owner's pid and start time, so a file is stale exactly when that process is gone
 * (a live process that merely reuses the pid has another start time). Job directories left empty are removed.
 */
final class StaleFiles
{
    private StaleFiles()
    {
    }

    /**
     * Sweep every job directory under the user's root.
     *
     * @param userRoot e.g. {@code /dev/shm/am2j-<user>}.
     * @return number of files removed.
     */
    static int sweep(final Path userRoot)
    {
        int removed = 0;
        if (!Files.isDirectory(userRoot, LinkOption.NOFOLLOW_LINKS))
        {
            return 0;
        }
        try (DirectoryStream<Path> jobs = Files.newDirectoryStream(userRoot))
        {
            for (final Path job : jobs)
            {
                // A symbolic link is never followed: sweeping through one could delete another directory's files.
                if (Files.isDirectory(job, LinkOption.NOFOLLOW_LINKS) &&
                    !"counters".equals(job.getFileName().toString()))
                {
                    removed += sweepDirectory(job);
                    ShmDirectories.removeIfEmpty(job);
                }
            }
        }
        catch (final IOException ignore)
        {
            // Another process may be sweeping or creating at the same time: what is left waits for the next start.
        }
        return removed;
    }

    static int sweepDirectory(final Path directory)
    {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory))
        {
            for (final Path file : files)
            {
                if (isStale(file.getFileName().toString()) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
                {
                    MappedRegion.deleteQuietly(file);
                    removed++;
                }
            }
        }
        catch (final IOException ignore)
        {
            // As above.
        }
        return removed;
    }

    /**
     * @param fileName of a file in a job directory.
     * @return true when it is an am2j file whose owner process is gone.
     */
    static boolean isStale(final String fileName)
    {
        final String[] parts = fileName.split("[-.]");
        if (parts.length < 3)
        {
            return false;
        }
        try
        {
            final long pid = Long.parseLong(parts[0]);
            final long startMs = Long.parseLong(parts[1]);
            return !ProcessIdentity.isAlive(pid, startMs);
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }
}
