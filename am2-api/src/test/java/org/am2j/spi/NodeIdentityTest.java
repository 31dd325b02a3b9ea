package org.am2j.spi;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node identity is the shared-memory root's id: one per root, the same for every process and thread that reads
 * it, and refused when the root or its file could have been planted by someone else.
 */
class NodeIdentityTest
{
    @TempDir
    Path temp;

    @Test
    void oneRootHasOneIdAndAnotherRootAnother() throws Exception
    {
        final Path root = temp.resolve("am2j-user");
        final String first = NodeIdentity.of(root);

        assertTrue(NodeIdentity.isValidId(first), first);
        assertEquals(first, NodeIdentity.of(root));
        assertEquals(first + "\n", Files.readString(root.resolve(NodeIdentity.FILE_NAME), StandardCharsets.US_ASCII));
        assertNotEquals(first, NodeIdentity.of(temp.resolve("other-root")));
        assertEquals("rw-------", PosixFilePermissions.toString(
            Files.getPosixFilePermissions(root.resolve(NodeIdentity.FILE_NAME))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
        try (Stream<Path> files = Files.list(root))
        {
            assertEquals(List.of(NodeIdentity.FILE_NAME), files.map(p -> p.getFileName().toString()).toList(),
                "no temporary file left");
        }
    }

    /**
     * A process killed between writing its temporary file and removing it leaves the file behind: the next reader of
     * the id removes it, and leaves the temporary file of a live process alone.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theTemporaryFileOfAGoneProcessIsRemovedAndALiveOnesKept() throws Exception
    {
        final Path root = temp.resolve("am2j-user");
        NodeIdentity.of(root);
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final Path ofGone = root.resolve("." + NodeIdentity.FILE_NAME + "-" + gone.pid() + "-0123456789abcdef");
        final Path ofLive = root.resolve("." + NodeIdentity.FILE_NAME + "-" + ProcessHandle.current().pid() + "-x");
        Files.createFile(ofGone);
        Files.createFile(ofLive);

        NodeIdentity.of(root);

        assertTrue(Files.notExists(ofGone), "a gone process's temporary file is removed");
        assertTrue(Files.exists(ofLive), "a live process's temporary file is kept");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void racingCreatorsAllReadTheOneIdThatWasPublished() throws Exception
    {
        final int threads = 8;
        for (int round = 0; round < 20; round++)
        {
            final Path root = temp.resolve("race" + round);
            final CountDownLatch start = new CountDownLatch(1);
            final ExecutorService pool = Executors.newFixedThreadPool(threads);
            try
            {
                final List<Future<String>> ids = new ArrayList<>();
                for (int t = 0; t < threads; t++)
                {
                    final Callable<String> read = () ->
                    {
                        start.await();
                        return NodeIdentity.of(root);
                    };
                    ids.add(pool.submit(read));
                }
                start.countDown();
                final Set<String> distinct = new HashSet<>();
                for (final Future<String> id : ids)
                {
                    distinct.add(id.get());
                }
                assertEquals(1, distinct.size(), "round " + round + ": " + distinct);
                assertEquals(distinct.iterator().next() + "\n",
                    Files.readString(root.resolve(NodeIdentity.FILE_NAME), StandardCharsets.US_ASCII));
            }
            finally
            {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aSymbolicLinkAsRootIsRefused() throws Exception
    {
        final Path real = Files.createDirectory(temp.resolve("real"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path link = Files.createSymbolicLink(temp.resolve("link"), real);

        final AmException ex = assertThrows(AmException.class, () -> NodeIdentity.of(link));

        assertEquals(AmError.RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains("symbolic link") && ex.getMessage().contains("AM2J_NODE_ID"),
            ex.getMessage());
        assertTrue(!Files.exists(real.resolve(NodeIdentity.FILE_NAME)), "nothing published through the link");
    }

    @Test
    void aRootOthersMayWriteIsRefused() throws Exception
    {
        final Path root = Files.createDirectory(temp.resolve("open"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

        final AmException ex = assertThrows(AmException.class, () -> NodeIdentity.of(root));

        assertEquals(AmError.RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains("writable by other users"), ex.getMessage());
    }

    @Test
    void aSymbolicLinkAsIdFileIsNotFollowed() throws Exception
    {
        final Path root = temp.resolve("root");
        ShmDirectories.create(root);
        final Path elsewhere = Files.writeString(temp.resolve("elsewhere"), "0123456789abcdef\n");
        Files.createSymbolicLink(root.resolve(NodeIdentity.FILE_NAME), elsewhere);

        final AmException ex = assertThrows(AmException.class, () -> NodeIdentity.of(root));

        assertEquals(AmError.RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains("not a regular file"), ex.getMessage());
    }

    @Test
    void aFileThatHoldsNoIdIsRefusedNamingIt() throws Exception
    {
        final Path root = temp.resolve("root");
        ShmDirectories.create(root);
        final Path file = root.resolve(NodeIdentity.FILE_NAME);
        Files.writeString(file, "my-host-name\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        final AmException ex = assertThrows(AmException.class, () -> NodeIdentity.of(root));

        assertEquals(AmError.RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains(file.toString()) && ex.getMessage().contains("remove it"), ex.getMessage());
    }

    @Test
    void idsAreSixteenLowercaseHexDigits()
    {
        assertTrue(NodeIdentity.isValidId("0123456789abcdef"));
        assertTrue(!NodeIdentity.isValidId("0123456789ABCDEF"));
        assertTrue(!NodeIdentity.isValidId("0123456789abcde"));
        assertTrue(!NodeIdentity.isValidId("localhost"));
    }
}
