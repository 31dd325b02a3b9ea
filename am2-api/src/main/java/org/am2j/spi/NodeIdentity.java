package org.am2j.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Pattern;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * The identity of this process's node: the shared-memory domain itself, so that two processes are on one node exactly
 * when they can map each other's files.
 * <p>
 * The identity is a random id kept in the file {@value #FILE_NAME} of the shared-memory root
 * ({@link ShmDirectories#userRoot()}, e.g. {@code /dev/shm/am2j-<user>/node-id}). The first process to need it writes
 * a fresh id to a private temporary file and publishes it with a hard link, which either makes the complete file
 * appear at once or fails because another process published first; every later process reads the published id. The
 * file is never rewritten or removed while the root exists, so every process of the domain sees one id. Two hosts (or
 * two containers with their own {@code /dev/shm}) have different files and so different ids, whatever their host names
 * are and whether those resolve; the launcher's emulated nodes each get a root of their own.
 * <p>
 * The root must be a directory, not a symbolic link, owned by this process's user and writable by nobody else; the file
 * must be a regular file of that user, not a symbolic link, writable by nobody else. Anything else is an
 * {@link AmError#RESOURCE} error that says what to remove or change.
 * <p>
 * The override {@value #NODE_PROPERTY} (system property) or {@value #NODE_VARIABLE} (environment variable) replaces
 * the id, for special cases only: processes that name the same override must share the shared-memory root, and
 * processes that name different ones are treated as being on different nodes.
 */
public final class NodeIdentity
{
    /** Name of the file, in the shared-memory root, that holds the node identity. */
    public static final String FILE_NAME = "node-id";
    /** System property that overrides the node identity. */
    public static final String NODE_PROPERTY = "am2j.node";
    /** Environment variable that overrides the node identity when {@value #NODE_PROPERTY} is not set. */
    public static final String NODE_VARIABLE = "AM2J_NODE_ID";
    /** Hex digits of a generated id: 64 random bits. */
    public static final int ID_DIGITS = 16;

    private static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-------");
    private static final Pattern VALID_ID = Pattern.compile("[0-9a-f]{" + ID_DIGITS + "}");
    private static final LinkOption[] NO_FOLLOW = { LinkOption.NOFOLLOW_LINKS };
    private static volatile String local;

    private NodeIdentity()
    {
    }

    /**
     * @return this process's node identity: the override when {@value #NODE_PROPERTY} or {@value #NODE_VARIABLE} is
     * set, else the id of the shared-memory root (read or created once per process).
     * @throws AmException {@link AmError#RESOURCE} when the root or its id file cannot be trusted or made.
     */
    public static String local()
    {
        final String override = override();
        if (null != override)
        {
            return override;
        }
        String id = local;
        if (null == id)
        {
            synchronized (NodeIdentity.class)
            {
                id = local;
                if (null == id)
                {
                    id = of(ShmDirectories.userRoot());
                    local = id;
                }
            }
        }
        return id;
    }

    /**
     * @return the override of the node identity ({@value #NODE_PROPERTY}, else {@value #NODE_VARIABLE}), trimmed, or
     * {@code null} when neither is set.
     */
    public static String override()
    {
        return Settings.system().value(new Setting(NODE_PROPERTY, NODE_VARIABLE));
    }

    /**
     * Read the node identity of a shared-memory root, creating the root (mode 0700) and its id when missing.
     *
     * @param root the shared-memory root.
     * @return its id, {@value #ID_DIGITS} lowercase hex digits.
     * @throws AmException {@link AmError#RESOURCE} when the root or its id file cannot be trusted or made.
     */
    public static String of(final Path root)
    {
        AmException.checkNotNull("root", root);
        ShmDirectories.create(root);
        final Path file = root.resolve(FILE_NAME);
        final boolean posix = root.getFileSystem().supportedFileAttributeViews().contains("posix");
        final String fresh = newId();
        // Named by the fresh id's 64 random bits, not a clock: threads of one process that race here read the same
        // nanoTime often enough to collide on the name.
        final Path temporary = root.resolve("." + FILE_NAME + "-" + ProcessIdentity.currentPid() + "-" + fresh);
        try
        {
            // CREATE_NEW never follows a symbolic link (O_EXCL): the temporary file is ours and new.
            writeNew(temporary, fresh, posix);
            if (posix)
            {
                checkOwn(root, Files.getOwner(temporary, NO_FOLLOW), true);
            }
            try
            {
                // A hard link publishes the complete file atomically, or fails when another process published first:
                // the id, once visible, never changes.
                Files.createLink(file, temporary);
                return fresh;
            }
            catch (final FileAlreadyExistsException ex)
            {
                return readPublished(file, posix ? Files.getOwner(temporary, NO_FOLLOW) : null);
            }
            catch (final UnsupportedOperationException ex)
            {
                // A file system without hard links: a rename without replacing, which has a short race in which two
                // processes may each publish; the later one's id stays.
                if (!Files.exists(file, NO_FOLLOW))
                {
                    Files.move(temporary, file);
                    return fresh;
                }
                return readPublished(file, posix ? Files.getOwner(temporary, NO_FOLLOW) : null);
            }
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.RESOURCE, "cannot read or create the node identity " + file + ": " + ex +
                "; make the directory writable, or set " + NODE_VARIABLE + " (see docs/am2-api.md, Node identity)", ex);
        }
        finally
        {
            // a leftover temporary file is harmless: its name is never read
            ShmDirectories.deleteQuietly(temporary);
            removeTemporariesOfGoneProcesses(root);
        }
    }

    /**
     * Remove the temporary files of processes that died between writing and removing them (a SIGKILL there): their
     * names carry the writer's pid, and a pid with no live process is not writing. A live process under a reused pid
     * keeps its file until a later look. Once per call of {@link #of}, which a process makes once per root.
     */
    private static void removeTemporariesOfGoneProcesses(final Path root)
    {
        final String prefix = "." + FILE_NAME + "-";
        try (DirectoryStream<Path> temporaries = Files.newDirectoryStream(root, prefix + "*"))
        {
            for (final Path temporary : temporaries)
            {
                final String name = temporary.getFileName().toString();
                final int end = name.indexOf('-', prefix.length());
                final long pid = end < 0 ? -1 : parsePid(name.substring(prefix.length(), end));
                if (pid > 0 && !ProcessIdentity.isAlive(pid, ProcessIdentity.UNKNOWN_START_TIME))
                {
                    ShmDirectories.deleteQuietly(temporary);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // a leftover temporary file is harmless: the next process to read the id looks again
        }
    }

    private static long parsePid(final String digits)
    {
        try
        {
            return Long.parseLong(digits);
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * @param id a candidate id read from a file.
     * @return true when it is {@value #ID_DIGITS} lowercase hex digits.
     */
    static boolean isValidId(final String id)
    {
        return VALID_ID.matcher(id).matches();
    }

    private static String newId()
    {
        final long bits = new SecureRandom().nextLong();
        final String hex = Long.toHexString(bits);
        return "0".repeat(ID_DIGITS - hex.length()) + hex;
    }

    private static void writeNew(final Path path, final String id, final boolean posix) throws IOException
    {
        final EnumSet<StandardOpenOption> options = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (FileChannel channel = posix ?
            FileChannel.open(path, options, PosixFilePermissions.asFileAttribute(FILE_PERMISSIONS)) :
            FileChannel.open(path, options))
        {
            if (posix)
            {
                Files.setPosixFilePermissions(path, FILE_PERMISSIONS);
            }
            final ByteBuffer bytes = ByteBuffer.wrap((id + "\n").getBytes(StandardCharsets.US_ASCII));
            while (bytes.hasRemaining())
            {
                channel.write(bytes);
            }
            channel.force(true);
        }
    }

    /**
     * @param path      the root directory or the published file.
     * @param self      who must own it.
     * @param directory true for the root (a directory), false for the file (a regular file).
     * @throws AmException when it is a symbolic link, of the other kind, someone else's, or writable by others.
     */
    private static void checkOwn(final Path path, final UserPrincipal self, final boolean directory) throws IOException
    {
        final PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, NO_FOLLOW);
        if (attributes.isSymbolicLink() || (directory ? !attributes.isDirectory() : !attributes.isRegularFile()))
        {
            throw untrusted(path, "is not a " + (directory ? "directory" : "regular file") +
                " (a symbolic link is not followed)");
        }
        if (!self.equals(attributes.owner()))
        {
            throw untrusted(path, "belongs to " + attributes.owner().getName() + ", not to " + self.getName());
        }
        final Set<PosixFilePermission> permissions = attributes.permissions();
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) ||
            permissions.contains(PosixFilePermission.OTHERS_WRITE))
        {
            throw untrusted(path, "is writable by other users (mode " +
                PosixFilePermissions.toString(permissions) + (directory ? "); chmod 700 it" : ")"));
        }
    }

    private static String readPublished(final Path file, final UserPrincipal self) throws IOException
    {
        if (null != self)
        {
            checkOwn(file, self, false);
        }
        final ByteBuffer bytes = ByteBuffer.allocate(ID_DIGITS + 2);
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
        {
            while (bytes.hasRemaining() && channel.read(bytes) >= 0)
            {
                // read up to one byte more than a valid file holds
            }
        }
        final String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII);
        final String id = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        if (!isValidId(id))
        {
            throw untrusted(file, "does not hold a node identity (" + ID_DIGITS + " hex digits)");
        }
        return id;
    }

    private static AmException untrusted(final Path path, final String why)
    {
        return new AmException(AmError.RESOURCE, "node identity: " + path + " " + why + "; remove it (am2j makes it " +
            "again) or set " + NODE_VARIABLE + " (see docs/am2-api.md, Node identity)");
    }
}
