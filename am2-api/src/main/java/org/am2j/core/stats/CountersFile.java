package org.am2j.core.stats;

import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.ShmDirectories;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Pattern;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

import static org.am2j.core.stats.CountersFileDescriptor.*;

/**
 * This process's memory-mapped counters file, {@code <directory>/<pid>.counters} (layout:
 * {@link CountersFileDescriptor}), where {@link EndpointCounters} keep their counters so that {@code bin/am2j stat}
 * (in the am2j-tools module) can read them live from another process.
 * <p>
 * {@link #create(Path, int)} first removes the files of dead processes (found by pid <em>and</em> start time), then
 * creates the file with mode 0600, writes every byte of it so that a full file system fails there with an
 * {@link AmException} rather than later with a SIGBUS, maps it, and writes the header. {@link #close()} deletes the
 * file; a shutdown hook deletes it too if the process exits without closing it.
 * <p>
 * Close the file after every {@link EndpointCounters} over it is closed: then the mapping is released at once.
 * While counters are still allocated, closing deletes the file but leaves the mapping to the garbage collector, so a
 * late increment never touches unmapped memory.
 */
public final class CountersFile implements AutoCloseable
{
    /** System property naming the counters directory. */
    public static final String DIRECTORY_PROP_NAME = "am2j.counters.dir";

    /** Environment variable naming the counters directory, used when the system property is not set. */
    public static final String DIRECTORY_ENV_NAME = "AM2J_COUNTERS_DIR";

    /** Suffix of counters file names, after the owner's pid. */
    public static final String FILE_SUFFIX = ".counters";

    /** A number of counters enough for about a hundred endpoints with three transports each (2.5 MiB). */
    public static final int DEFAULT_MAX_COUNTERS = 4096;

    private static final Pattern PID_DIGITS = Pattern.compile("[0-9]{1,18}");

    private final Path path;
    private final int maxCounters;
    private final long ownerPid;
    private final long ownerStartTimeMs;
    private final MappedByteBuffer mappedFile;
    private final SynchronizedCountersManager countersManager;
    private final Thread deleteOnExit;
    private boolean closed;

    private CountersFile(
        final Path path,
        final int maxCounters,
        final MappedByteBuffer mappedFile,
        final SynchronizedCountersManager countersManager)
    {
        this.path = path;
        this.maxCounters = maxCounters;
        this.ownerPid = ProcessIdentity.currentPid();
        this.ownerStartTimeMs = ProcessIdentity.currentStartTimeMs();
        this.mappedFile = mappedFile;
        this.countersManager = countersManager;
        this.deleteOnExit = new Thread(this::deleteFile, "am2j-counters-file-delete");
    }

    /**
     * Create this process's counters file in a directory.
     *
     * @param directory   where counters files live, created with mode 0700 when missing; see
     *                    {@link #defaultDirectory()}.
     * @param maxCounters how many counters the file holds, from 1 to
     *                    {@link CountersFileDescriptor#MAX_COUNTERS_LIMIT}.
     * @return the open file, which the caller closes.
     * @throws AmException {@link AmError#BAD_ARG} for a bad argument, {@link AmError#IN_USE} when this process already
     *                     has an open counters file in the directory, {@link AmError#RESOURCE} when the directory or
     *                     file cannot be created or filled (the message names the path and the size).
     */
    public static CountersFile create(final Path directory, final int maxCounters)
    {
        AmException.checkNotNull("directory", directory);
        AmException.checkRange("maxCounters", maxCounters, 1, MAX_COUNTERS_LIMIT + 1);

        final Path path = fileFor(directory, ProcessIdentity.currentPid());
        final long fileLength = fileLength(maxCounters);
        MappedByteBuffer mapped = null;
        for (int attempt = 0; null == mapped; attempt++)
        {
            createDirectory(directory);
            removeStaleFiles(directory);
            try
            {
                mapped = createAndMap(path, fileLength, maxCounters);
            }
            catch (final AmException ex)
            {
                // A process that left the directory empty may have removed it just now: make it again.
                if (attempt >= 2 || !ShmDirectories.directoryVanished(ex))
                {
                    throw ex;
                }
            }
        }
        final MappedByteBuffer mappedFile = mapped;

        final int metadataLength = metadataSectionLength(maxCounters);
        final int valuesLength = valuesSectionLength(maxCounters);
        final UnsafeBuffer header = new UnsafeBuffer(mappedFile, 0, HEADER_LENGTH);
        final UnsafeBuffer metadata = new UnsafeBuffer(mappedFile, metadataSectionOffset(), metadataLength);
        final UnsafeBuffer values = new UnsafeBuffer(mappedFile, valuesSectionOffset(metadataLength), valuesLength);
        writeHeader(header, metadataLength, valuesLength);

        final CountersFile file = new CountersFile(
            path, maxCounters, mappedFile, new SynchronizedCountersManager(metadata, values, "in file " + path));
        try
        {
            Runtime.getRuntime().addShutdownHook(file.deleteOnExit);
        }
        catch (final IllegalStateException ex)
        {
            file.close();
            throw new AmException(AmError.NOT_INIT, "the JVM is shutting down: no counters file is created", ex);
        }

        return file;
    }

    /**
     * The directory counters files live in unless told otherwise: the system property {@value #DIRECTORY_PROP_NAME},
     * else the environment variable {@value #DIRECTORY_ENV_NAME}, else {@code /dev/shm/am2j-<user>/counters} when
     * {@code /dev/shm} is a writable directory, else {@code <java.io.tmpdir>/am2j-<user>/counters}.
     *
     * @return the default counters directory (not created here).
     */
    public static Path defaultDirectory()
    {
        final String configured = Settings.system().value(new Setting(DIRECTORY_PROP_NAME, DIRECTORY_ENV_NAME));
        return null != configured ? Paths.get(configured) : ShmDirectories.userRoot().resolve("counters");
    }

    /**
     * @param directory a counters directory.
     * @param pid       a process id.
     * @return the path of that process's counters file in the directory.
     */
    public static Path fileFor(final Path directory, final long pid)
    {
        return directory.resolve(pid + FILE_SUFFIX);
    }

    /**
     * Delete the counters files in a directory whose owner is dead: no process has the recorded pid, or the process
     * that has it started at another time than recorded. A file with an unreadable header is judged by the pid in its
     * name, and left alone while a process other than this one has that pid (it may still be writing the header).
     * Errors deleting a file are ignored: another process may be deleting it too.
     *
     * @param directory a counters directory; nothing happens when it does not exist.
     * @return how many files were deleted.
     */
    public static int removeStaleFiles(final Path directory)
    {
        if (!Files.isDirectory(directory))
        {
            return 0;
        }

        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + FILE_SUFFIX))
        {
            for (final Path file : files)
            {
                if (isStale(file) && ShmDirectories.deleteQuietly(file))
                {
                    removed++;
                }
            }
        }
        catch (final IOException | RuntimeException ignore)
        {
            // best effort: a directory that cannot be listed is reported by the creation that follows
        }

        return removed;
    }

    /**
     * @return the manager of the file's counters; its allocation and freeing are thread-safe, and allocation throws
     * {@link AmException} when the file is full or closed.
     */
    public CountersManager countersManager()
    {
        return countersManager;
    }

    /**
     * @return where the file is.
     */
    public Path path()
    {
        return path;
    }

    /**
     * @return how many counters the file holds.
     */
    public int maxCounters()
    {
        return maxCounters;
    }

    /**
     * @return the pid recorded in the header: this process's.
     */
    public long ownerPid()
    {
        return ownerPid;
    }

    /**
     * @return the start time recorded in the header: this process's, in epoch ms, or 0 when unknown.
     */
    public long ownerStartTimeMs()
    {
        return ownerStartTimeMs;
    }

    /**
     * @return true once {@link #close()} has been called.
     */
    public synchronized boolean isClosed()
    {
        return closed;
    }

    /**
     * Delete the file, refuse further allocation, and unmap it when no counter is allocated. Idempotent.
     */
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;

        try
        {
            Runtime.getRuntime().removeShutdownHook(deleteOnExit);
        }
        catch (final IllegalStateException ignore)
        {
            // the JVM is shutting down: the hook deletes the file as well
        }

        deleteFile();
        if (countersManager.closeAndTryRelease())
        {
            IoUtil.unmap(mappedFile);
        }
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "CountersFile{path=" + path + ", maxCounters=" + maxCounters + ", closed=" + isClosed() + '}';
    }

    private void deleteFile()
    {
        ShmDirectories.deleteQuietly(path);
        ShmDirectories.removeIfEmpty(path.getParent());
    }

    private static void createDirectory(final Path directory)
    {
        try
        {
            ShmDirectories.create(directory);
        }
        catch (final AmException ex)
        {
            throw new AmException(AmError.RESOURCE, "cannot create counters directory " + directory, ex);
        }
    }

    private static MappedByteBuffer createAndMap(final Path path, final long fileLength, final int maxCounters)
    {
        try
        {
            return ShmDirectories.createMapped(path, fileLength);
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new AmException(
                AmError.IN_USE, "counters file " + path + " already exists and belongs to this live process", ex);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new AmException(
                AmError.RESOURCE,
                "cannot create counters file " + path + " of " + fileLength + " bytes (maxCounters = " + maxCounters +
                "): " + ex + "; is its file system full? Another directory can be set with -D" +
                DIRECTORY_PROP_NAME + "=DIR",
                ex);
        }
    }

    private static void writeHeader(final UnsafeBuffer header, final int metadataLength, final int valuesLength)
    {
        final byte[] label = truncatedUtf8(ProcessIdentity.currentCommandLabel(), MAX_OWNER_LABEL_LENGTH);

        header.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        header.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        header.putLong(OWNER_PID_OFFSET, ProcessIdentity.currentPid());
        header.putLong(OWNER_START_TIME_OFFSET, ProcessIdentity.currentStartTimeMs());
        header.putInt(METADATA_SECTION_LENGTH_OFFSET, metadataLength);
        header.putInt(VALUES_SECTION_LENGTH_OFFSET, valuesLength);
        header.putInt(OWNER_LABEL_LENGTH_OFFSET, label.length);
        header.putBytes(OWNER_LABEL_OFFSET, label);

        // release: a reader that acquires the magic sees every field above
        header.putLongRelease(MAGIC_OFFSET, MAGIC);
    }

    static byte[] truncatedUtf8(final String text, final int maxLength)
    {
        String value = text;
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        while (bytes.length > maxLength)
        {
            int end = Math.min(value.length() - 1, maxLength);
            if (end > 0 && Character.isHighSurrogate(value.charAt(end - 1)))
            {
                end--;
            }
            value = value.substring(0, end);
            bytes = value.getBytes(StandardCharsets.UTF_8);
        }

        return bytes;
    }

    private static boolean isStale(final Path file)
    {
        final long pidFromName = pidFromName(file);
        if (pidFromName <= 0)
        {
            return false;
        }

        final CountersFileOwner owner;
        try
        {
            owner = CountersFileOwner.read(file);
        }
        catch (final IOException ex)
        {
            return false;
        }

        if (null != owner)
        {
            return !owner.isAlive();
        }

        return pidFromName == ProcessIdentity.currentPid() || !ProcessIdentity.isAlive(pidFromName, 0);
    }

    private static long pidFromName(final Path file)
    {
        final String name = file.getFileName().toString();
        final String digits = name.substring(0, name.length() - FILE_SUFFIX.length());
        return PID_DIGITS.matcher(digits).matches() ? Long.parseLong(digits) : -1;
    }
}
