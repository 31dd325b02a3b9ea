package org.am2j.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Where and how am2j makes the files other processes of the node map: under the shared-memory root, by default
 * {@code /dev/shm/am2j-<user>/} (or {@code <java.io.tmpdir>/am2j-<user>/} without a writable {@code /dev/shm}), else
 * the directory {@value #ROOT_PROPERTY} / {@value #ROOT_VARIABLE} names: one directory per job, one for counters files
 * and the node identity ({@link NodeIdentity}). Directories are mode 0700 and are removed when a process leaves them empty, so a normal exit leaves
 * nothing behind; files are mode 0600 and fully allocated before they are mapped.
 */
public final class ShmDirectories
{
    /** System property naming the shared-memory root; the launcher sets one per emulated node. */
    public static final String ROOT_PROPERTY = "am2j.shm.root";
    /** Environment variable naming the shared-memory root when {@value #ROOT_PROPERTY} is not set. */
    public static final String ROOT_VARIABLE = "AM2J_SHM_ROOT";

    /** Times a directory is made when a concurrent sweep removes it before it is checked. */
    private static final int CREATE_ATTEMPTS = 100;
    private static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-------");
    private static final int ZERO_CHUNK = 64 * 1024;

    private ShmDirectories()
    {
    }

    /**
     * @return the shared-memory root: {@value #ROOT_PROPERTY}, else {@value #ROOT_VARIABLE}, else the user's am2j
     * directory in {@code /dev/shm} (or the temporary directory).
     * @throws AmException {@link AmError#BAD_ARG} when the setting is not an absolute path.
     */
    public static Path userRoot()
    {
        final Settings settings = Settings.system();
        final Setting setting = new Setting(ROOT_PROPERTY, ROOT_VARIABLE);
        final String configured = settings.value(setting);
        if (null == configured)
        {
            return defaultRoot();
        }
        final Path root = Path.of(configured);
        if (!root.isAbsolute())
        {
            throw settings.invalid(setting, "an absolute path");
        }
        return root.normalize();
    }

    /**
     * @return the user's am2j directory in {@code /dev/shm} (or the temporary directory without a writable
     * {@code /dev/shm}), whatever {@value #ROOT_VARIABLE} says.
     */
    public static Path defaultRoot()
    {
        final String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        final Path shm = Path.of("/dev/shm");
        final Path base = Files.isDirectory(shm) && Files.isWritable(shm) ?
            shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("am2j-" + user);
    }

    /**
     * Create a directory and its missing parents, mode 0700, checking on the way that the shared-memory root and each
     * directory between it and this one (or this one alone when it is not under the root) is the user's own, closed
     * to group and others, and not a symbolic link ({@link #checkPrivate(Path, boolean)}): a directory another user
     * made or can write could be used to read, replace or scribble on the files other processes map.
     *
     * @param directory to create.
     * @throws AmException {@link AmError#RESOURCE} naming the directory when it cannot be created, or naming the first
     *                     directory that cannot be trusted and what to do about it.
     */
    public static void create(final Path directory)
    {
        final Path target = directory.toAbsolutePath().normalize();
        final Path root = userRoot().toAbsolutePath().normalize();
        if (target.startsWith(root))
        {
            // Each directory from the root down is checked before anything is made in it.
            Path current = root;
            createOne(current);
            for (final Path name : root.relativize(target))
            {
                if (!name.toString().isEmpty())
                {
                    current = current.resolve(name);
                    createOne(current);
                }
            }
        }
        else
        {
            createOne(target);
        }
    }

    /**
     * Create a directory (its missing parents too) unless it exists, then check that it is the user's own and
     * private ({@link #checkPrivate(Path, boolean)}). Another process's stale-file sweep removes job directories it
     * finds empty, and may do so between the creation and the check: the directory is then made again (a sweep runs
     * once as each process starts, so it cannot keep winning; the bound turns a directory that keeps vanishing for
     * another reason into an error that names it).
     */
    private static void createOne(final Path directory)
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS))
                {
                    Files.createDirectories(directory, attributes());
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                // Failed, or made and removed again by a sweep before createDirectories could see it (it then
                // reports the directory as existing): look again, a bounded number of times.
                if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS))
                {
                    if (attempt < CREATE_ATTEMPTS)
                    {
                        continue;
                    }
                    throw new AmException(AmError.RESOURCE, "cannot create directory " + directory + ": " + ex, ex);
                }
            }
            try
            {
                checkPrivate(directory, true);
                return;
            }
            catch (final AmException ex)
            {
                if (attempt >= CREATE_ATTEMPTS || !directoryVanished(ex))
                {
                    throw ex;
                }
            }
        }
    }

    /**
     * Check that a file or directory am2j is about to trust (map, read or create files in) is this process's user's
     * own: not a symbolic link (never followed), of the expected kind, owned by the user and without any permission
     * bit for group or others. Does nothing on a file system without POSIX attributes.
     *
     * @param path      to check.
     * @param directory true for a directory, false for a regular file.
     * @throws AmException {@link AmError#RESOURCE} naming the path, what is wrong and what to do about it.
     */
    public static void checkPrivate(final Path path, final boolean directory)
    {
        if (!path.getFileSystem().supportedFileAttributeViews().contains("posix"))
        {
            return;
        }
        final PosixFileAttributes attributes;
        try
        {
            attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.RESOURCE, "cannot read the attributes of " + path + ": " + ex, ex);
        }
        final String kind = directory ? "directory" : "file";
        if (attributes.isSymbolicLink())
        {
            throw untrusted(path, kind, "is a symbolic link (am2j never follows one)", "remove the link");
        }
        if (directory ? !attributes.isDirectory() : !attributes.isRegularFile())
        {
            throw untrusted(path, kind, "is not a " + (directory ? "directory" : "regular file"), "remove it");
        }
        final String owner = attributes.owner().getName();
        if (!isOwnedBySelf(path, owner))
        {
            throw untrusted(path, kind, "belongs to " + owner + ", not to " + System.getProperty("user.name"),
                "have its owner remove it");
        }
        final Set<PosixFilePermission> permissions = attributes.permissions();
        for (final PosixFilePermission permission : permissions)
        {
            if (permission != PosixFilePermission.OWNER_READ && permission != PosixFilePermission.OWNER_WRITE &&
                permission != PosixFilePermission.OWNER_EXECUTE)
            {
                final String mode = PosixFilePermissions.toString(permissions);
                throw untrusted(path, kind, (permissions.contains(PosixFilePermission.GROUP_WRITE) ||
                    permissions.contains(PosixFilePermission.OTHERS_WRITE) ? "is writable by other users" :
                    "is open to other users") + " (mode " + mode + ")",
                    "chmod " + (directory ? "700" : "600") + " it if only you have used it, else remove it");
            }
        }
    }

    private static AmException untrusted(final Path path, final String kind, final String problem, final String fix)
    {
        return new AmException(AmError.RESOURCE, "shared-memory " + kind + " " + path + " " + problem +
            "; am2j maps only its user's own private files: " + fix + " (am2j makes it again), or set " +
            ROOT_VARIABLE + " to a directory of your own (or " + NodeIdentity.NODE_VARIABLE + " for the node " +
            "identity alone; see docs/am2-api.md)");
    }

    private static boolean isOwnedBySelf(final Path path, final String ownerName)
    {
        final Integer self = selfUid();
        if (null != self)
        {
            try
            {
                return self.equals(Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS));
            }
            catch (final IOException | RuntimeException ex)
            {
                // no unix view: compare names below
            }
        }
        return ownerName.equals(System.getProperty("user.name"));
    }

    private static volatile Integer selfUid;

    /**
     * @return this process's effective user id, from the owner of {@code /proc/self}, or null where that is not
     * available (compare user names then).
     */
    private static Integer selfUid()
    {
        Integer uid = selfUid;
        if (null == uid)
        {
            try
            {
                uid = (Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid");
                selfUid = uid;
            }
            catch (final IOException | RuntimeException ex)
            {
                return null;
            }
        }
        return uid;
    }

    /**
     * Create a new file of mode 0600, write it full of zeros (so its space is allocated now: a full file system is an
     * error here, not a SIGBUS at first touch), and map it read-write. A file left half-made is deleted.
     *
     * @param path   of the new file; it must not exist.
     * @param length in bytes.
     * @return the mapping; it stays valid after this returns.
     * @throws IOException {@link java.nio.file.FileAlreadyExistsException} when the file exists, else why it could
     *                     not be made; callers say which file it was for.
     */
    public static MappedByteBuffer createMapped(final Path path, final long length) throws IOException
    {
        final boolean posix = path.getFileSystem().supportedFileAttributeViews().contains("posix");
        final FileAttribute<?>[] attributes = posix ?
            new FileAttribute<?>[] { PosixFilePermissions.asFileAttribute(FILE_PERMISSIONS) } : new FileAttribute<?>[0];
        boolean created = false;
        try (FileChannel channel = FileChannel.open(path,
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE), attributes))
        {
            created = true;
            if (posix)
            {
                Files.setPosixFilePermissions(path, FILE_PERMISSIONS);
            }
            fill(channel, length);
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        }
        catch (final IOException | RuntimeException ex)
        {
            if (created)
            {
                Files.deleteIfExists(path);
            }
            throw ex;
        }
    }

    /**
     * Write a file full of zeros up to a length, so its space is allocated now (a full file system or a memory limit is
     * an {@link IOException} here, not a SIGBUS at first touch of a mapping).
     *
     * @param channel of the file, open for writing.
     * @param length  in bytes.
     * @throws IOException when the space cannot be had.
     */
    public static void fill(final FileChannel channel, final long length) throws IOException
    {
        final ByteBuffer zeros = ByteBuffer.allocateDirect((int)Math.min(ZERO_CHUNK, Math.max(length, 1)));
        long position = 0;
        while (position < length)
        {
            zeros.clear().limit((int)Math.min(zeros.capacity(), length - position));
            position += channel.write(zeros, position);
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
        while (null != current && current.startsWith(root) && deleteQuietly(current))
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

    /**
     * Delete a directory and everything under it; symbolic links are removed, never followed. What cannot be deleted
     * stays.
     *
     * @param directory to delete.
     */
    public static void deleteTree(final Path directory)
    {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS))
        {
            return;
        }
        try
        {
            Files.walkFileTree(directory, new SimpleFileVisitor<>()
            {
                @Override
                public FileVisitResult visitFile(
                    final Path file, final BasicFileAttributes attributes)
                {
                    deleteQuietly(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(final Path file, final IOException ex)
                {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path dir, final IOException ex)
                {
                    deleteQuietly(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        catch (final IOException ignore)
        {
            // what could not be deleted stays; the caller's job is over either way
        }
    }

    /**
     * @param path a file, or an empty directory.
     * @return true when this call deleted it; false when it was not there or could not be deleted (e.g. a
     * directory that is not empty), which is not an error.
     */
    public static boolean deleteQuietly(final Path path)
    {
        try
        {
            return Files.deleteIfExists(path);
        }
        catch (final IOException ignore)
        {
            // a directory that is not empty (another user of it), or a file another process removes or holds
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
