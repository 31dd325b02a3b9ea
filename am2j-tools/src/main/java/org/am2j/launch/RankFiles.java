package org.am2j.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import org.am2j.core.stats.CountersFile;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.ShmDirectories;

/**
 * The launcher's clean-up after a rank it reaped: a rank that was killed (SIGKILL, a crash) could not remove its
 * shared-memory files, and without this they would stay until the next am2j process of the user sweeps stale files.
 * Removed are the rank's counters file and the files named {@code <pid>-<start ms>...} in the job directories of the
 * rank's shared-memory root, where that pid with that start time is no longer alive (so a file of a new process that
 * happens to reuse the pid stays). Symbolic links are never followed; directories left empty are removed.
 */
final class RankFiles
{
    private RankFiles()
    {
    }

    /**
     * @param shmRoot            the rank's shared-memory root.
     * @param countersDirectory  the directory of the rank's counters file.
     * @param pid                of the rank, which has exited.
     * @return the number of files removed.
     */
    static int removeAfterExit(final Path shmRoot, final Path countersDirectory, final long pid)
    {
        int removed = 0;
        final Path counters = CountersFile.fileFor(countersDirectory, pid);
        if (!ProcessIdentity.isAlive(pid, ProcessIdentity.UNKNOWN_START_TIME) && deleteRegular(counters))
        {
            removed++;
            ShmDirectories.removeIfEmpty(countersDirectory);
        }
        if (!Files.isDirectory(shmRoot, LinkOption.NOFOLLOW_LINKS))
        {
            return removed;
        }
        final String prefix = pid + "-";
        try (DirectoryStream<Path> jobs = Files.newDirectoryStream(shmRoot))
        {
            for (final Path job : jobs)
            {
                if (!Files.isDirectory(job, LinkOption.NOFOLLOW_LINKS))
                {
                    continue;
                }
                boolean any = false;
                try (DirectoryStream<Path> files = Files.newDirectoryStream(job, prefix + "*"))
                {
                    for (final Path file : files)
                    {
                        if (isDeadProcessFile(file.getFileName().toString(), pid) && deleteRegular(file))
                        {
                            removed++;
                            any = true;
                        }
                    }
                }
                if (any)
                {
                    ShmDirectories.removeIfEmpty(job);
                }
            }
        }
        catch (final IOException | RuntimeException ignore)
        {
            // A directory another process removes meanwhile: what is left is swept by the next am2j process.
        }
        return removed;
    }

    /**
     * @param name of a file in a job directory.
     * @param pid  of the reaped rank.
     * @return true when the name is {@code <pid>-<start ms>[-...]} and that process is gone.
     */
    static boolean isDeadProcessFile(final String name, final long pid)
    {
        final String[] parts = name.split("[-.]");
        if (parts.length < 3 || !parts[0].equals(Long.toString(pid)))
        {
            return false;
        }
        try
        {
            return !ProcessIdentity.isAlive(pid, Long.parseLong(parts[1]));
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static boolean deleteRegular(final Path file)
    {
        try
        {
            return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
