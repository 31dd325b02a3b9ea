package org.am2j.spi;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared-memory root and everything under it must be the user's own: a directory or file of another user, one
 * open to group or others, or a symbolic link is refused with an error that names it and says what to do.
 */
class ShmDirectoriesTest
{
    @TempDir
    Path temp;

    private final String savedRoot = System.getProperty(ShmDirectories.ROOT_PROPERTY);

    @AfterEach
    void restoreRoot()
    {
        if (null == savedRoot)
        {
            System.clearProperty(ShmDirectories.ROOT_PROPERTY);
        }
        else
        {
            System.setProperty(ShmDirectories.ROOT_PROPERTY, savedRoot);
        }
    }

    @Test
    void aPrivateDirectoryIsMadeAndAccepted()
    {
        final Path root = temp.resolve("root");
        System.setProperty(ShmDirectories.ROOT_PROPERTY, root.toString());
        ShmDirectories.create(root.resolve("job"));
        assertDoesNotThrow(() -> ShmDirectories.create(root.resolve("job")));
        assertTrue(Files.isDirectory(root.resolve("job")));
    }

    @Test
    void aDirectoryASweepRemovesWhileItIsMadeIsMadeAgain() throws InterruptedException
    {
        // Another process's stale-file sweep removes job directories it finds empty; one made at that moment must
        // still be made and checked, not fail because it vanished between the two.
        final Path root = temp.resolve("root");
        final Path job = root.resolve("job");
        System.setProperty(ShmDirectories.ROOT_PROPERTY, root.toString());
        ShmDirectories.create(job);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong removals = new AtomicLong();
        final Thread sweeper = new Thread(() ->
        {
            while (running.get())
            {
                try
                {
                    if (Files.deleteIfExists(job))
                    {
                        removals.incrementAndGet();
                        // A sweep runs once per process start, not back to back: one that removed the directory at
                        // every attempt would outlast the bounded retries, which only a directory that keeps
                        // vanishing for another reason should.
                        LockSupport.parkNanos(100_000);
                    }
                }
                catch (final IOException ignore)
                {
                    // made again meanwhile and not empty: not possible here, nothing is put in it
                }
            }
        }, "sweeper");
        sweeper.start();
        // Two ranks make it at the same time too: one's creation can find it made by the other, then removed.
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread other = new Thread(() ->
        {
            try
            {
                while (running.get())
                {
                    ShmDirectories.create(job);
                }
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
            }
        }, "other rank");
        other.start();
        try
        {
            for (int i = 0; (i < 20_000 || removals.get() < 100) && null == failure.get(); i++)
            {
                ShmDirectories.create(job);
            }
        }
        finally
        {
            running.set(false);
            sweeper.join();
            other.join();
        }
        assertEquals(null, failure.get(), "the other rank's creation");
        assertTrue(removals.get() >= 100, "the sweeper removed the directory " + removals.get() + " times");
    }

    @Test
    void aWorldWritableRootIsRefusedNamingItAndTheFix() throws IOException
    {
        final Path root = Files.createDirectory(temp.resolve("open"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        System.setProperty(ShmDirectories.ROOT_PROPERTY, root.toString());

        final AmException ex = assertThrows(AmException.class, () -> ShmDirectories.create(root.resolve("job")));

        assertEquals(AmError.RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains(root + " is writable by other users") &&
            ex.getMessage().contains("chmod 700"), ex.getMessage());
        assertFalse(Files.exists(root.resolve("job")), "nothing is made in an untrusted root");
    }

    @Test
    void aDirectoryOthersMayReadIsRefused() throws IOException
    {
        final Path root = Files.createDirectory(temp.resolve("readable"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-x---"));

        final AmException ex = assertThrows(AmException.class, () -> ShmDirectories.checkPrivate(root, true));

        assertTrue(ex.getMessage().contains(root + " is open to other users"), ex.getMessage());
    }

    @Test
    void aWorldWritableJobDirectoryUnderAPrivateRootIsRefused() throws IOException
    {
        final Path root = temp.resolve("root");
        System.setProperty(ShmDirectories.ROOT_PROPERTY, root.toString());
        ShmDirectories.create(root);
        final Path job = Files.createDirectory(root.resolve("job"));
        Files.setPosixFilePermissions(job, PosixFilePermissions.fromString("rwxrwxrwx"));

        final AmException ex = assertThrows(AmException.class, () -> ShmDirectories.create(job));

        assertTrue(ex.getMessage().contains(job + " is writable by other users"), ex.getMessage());
    }

    @Test
    void aSymbolicLinkIsNeverFollowed() throws IOException
    {
        final Path root = temp.resolve("root");
        System.setProperty(ShmDirectories.ROOT_PROPERTY, root.toString());
        ShmDirectories.create(root);
        final Path elsewhere = temp.resolve("elsewhere");
        ShmDirectories.create(elsewhere);
        final Path link = Files.createSymbolicLink(root.resolve("job"), elsewhere);

        final AmException ex = assertThrows(AmException.class, () -> ShmDirectories.create(link.resolve("inner")));

        assertTrue(ex.getMessage().contains(link + " is a symbolic link"), ex.getMessage());
        assertFalse(Files.exists(elsewhere.resolve("inner")), "nothing is made through the link");
    }

    @Test
    void filesMustBePrivateRegularFilesNotLinks() throws IOException
    {
        final Path root = temp.resolve("root");
        ShmDirectories.create(root);
        final Path file = Files.createFile(root.resolve("f"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        assertDoesNotThrow(() -> ShmDirectories.checkPrivate(file, false));

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        final AmException open = assertThrows(AmException.class, () -> ShmDirectories.checkPrivate(file, false));
        assertTrue(open.getMessage().contains(file + " is writable by other users") &&
            open.getMessage().contains("chmod 600"), open.getMessage());

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        final Path link = Files.createSymbolicLink(root.resolve("link"), file);
        final AmException linked = assertThrows(AmException.class, () -> ShmDirectories.checkPrivate(link, false));
        assertTrue(linked.getMessage().contains(link + " is a symbolic link"), linked.getMessage());

        final AmException directory = assertThrows(AmException.class, () -> ShmDirectories.checkPrivate(root, false));
        assertTrue(directory.getMessage().contains("is not a regular file"), directory.getMessage());
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused() throws IOException
    {
        final Path root = Files.createDirectory(temp.resolve("foreign"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final UserPrincipal nobody;
        try
        {
            nobody = root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(root, nobody);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            Assumptions.abort("cannot give a directory to user nobody here (needs root): " + ex);
            return;
        }
        Assumptions.assumeFalse(nobody.getName().equals(System.getProperty("user.name")), "running as nobody");

        final AmException ex = assertThrows(AmException.class, () -> ShmDirectories.checkPrivate(root, true));

        assertTrue(ex.getMessage().contains(root + " belongs to nobody"), ex.getMessage());
    }
}
