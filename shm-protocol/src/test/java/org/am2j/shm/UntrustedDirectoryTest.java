package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ShmDirectories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transport refuses a shared-memory root or job directory it cannot trust (open to other users, or a symbolic
 * link) before it sweeps or makes anything there, and never maps a file of the job directory that is open to others
 * or reached through a symbolic link.
 */
class UntrustedDirectoryTest
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
    void aWorldWritableRootIsAClearErrorAndIsLeftUntouched() throws Exception
    {
        final Path root = Files.createDirectory(temp.resolve("am2j-someone"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        // A stale-looking file a sweep would delete in a trusted root.
        final Path planted = Files.createDirectory(root.resolve("job")).resolve(ShmTransportTest.deadPid() +
            "-1-0.bell");
        Files.createFile(planted);
        System.setProperty(ShmDirectories.ROOT_PROPERTY, root.toString());

        final AmException ex = assertThrows(AmException.class, Fixture::new);

        assertEquals(AmError.RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains(root.toString()) && ex.getMessage().contains("writable by other users") &&
            ex.getMessage().contains("chmod 700"), ex.getMessage());
        assertTrue(Files.exists(planted), "nothing was swept in an untrusted root");
        try (Stream<Path> entries = Files.list(root))
        {
            assertEquals(1, entries.count(), "nothing was made in an untrusted root");
        }
    }

    @Test
    void aJobDirectoryThatIsASymbolicLinkIsRefused() throws IOException
    {
        final Path root = temp.resolve("root");
        System.setProperty(ShmDirectories.ROOT_PROPERTY, root.toString());
        ShmDirectories.create(root);
        final Path elsewhere = temp.resolve("elsewhere");
        ShmDirectories.create(elsewhere);
        final Path link = Files.createSymbolicLink(root.resolve("linked"), elsewhere);

        final AmException ex = assertThrows(AmException.class, () -> new Fixture("dir", link.toString()).close());

        assertTrue(ex.getMessage().contains("symbolic link"), ex.getMessage());
        try (Stream<Path> entries = Files.list(elsewhere))
        {
            assertEquals(0, entries.count(), "nothing was made through the link");
        }
    }

    @Test
    void aFileOpenToOthersOrALinkIsNotMapped() throws IOException
    {
        final Path root = temp.resolve("root");
        ShmDirectories.create(root);
        final Path file = root.resolve("1-2-3.qb");
        MappedRegion.createFile(file, 4096);
        MappedRegion.open(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        final AmException open = assertThrows(AmException.class, () -> MappedRegion.open(file));
        assertTrue(open.getMessage().contains(file.toString()), open.getMessage());

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        final Path link = Files.createSymbolicLink(root.resolve("4-5-6.qb"), file);
        final AmException linked = assertThrows(AmException.class, () -> MappedRegion.open(link));
        assertTrue(linked.getMessage().contains("symbolic link"), linked.getMessage());
        assertFalse(SealedMemory.isAddress(link));
    }
}
