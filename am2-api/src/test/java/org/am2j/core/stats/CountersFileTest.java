package org.am2j.core.stats;

import org.am2j.spi.ProcessIdentity;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.agrona.concurrent.status.AtomicCounter;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.am2j.core.stats.CountersFileDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(60)
public class CountersFileTest
{
    /** Larger than any Linux pid_max (at most 2^22), so never a live process. */
    public static final long DEAD_PID = Integer.MAX_VALUE - 1;

    @TempDir
    Path tempDir;

    @Test
    void createsFileWithHeaderModesAndSize() throws IOException
    {
        final Path directory = tempDir.resolve("am2j-test").resolve("counters");
        try (CountersFile file = CountersFile.create(directory, 64))
        {
            final long pid = ProcessHandle.current().pid();
            assertEquals(directory.resolve(pid + ".counters"), file.path());
            assertTrue(Files.isRegularFile(file.path()));
            assertEquals(fileLength(64), Files.size(file.path()));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path())));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)));
            assertEquals(64, file.maxCounters());
            assertEquals(64, file.countersManager().capacity());

            final CountersFileOwner owner = CountersFileOwner.read(file.path());
            assertNotNull(owner);
            assertEquals(pid, owner.pid());
            assertEquals(
                ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli(), owner.startTimeMs());
            assertEquals(ProcessIdentity.currentCommandLabel().isEmpty(), owner.label().isEmpty());
            assertTrue(owner.isAlive());
        }
    }

    @Test
    void closeDeletesTheFileAndIsIdempotent()
    {
        final CountersFile file = CountersFile.create(tempDir, 16);
        assertTrue(Files.exists(file.path()));

        file.close();
        assertTrue(file.isClosed());
        assertFalse(Files.exists(file.path()));
        file.close();
        assertFalse(Files.exists(file.path()));
    }

    @Test
    void allocationAfterCloseIsNotInit()
    {
        final CountersFile file = CountersFile.create(tempDir, 16);
        file.close();

        final AmException ex = assertThrows(AmException.class, () -> file.countersManager().newCounter("late"));
        assertEquals(AmError.NOT_INIT, ex.error());
        assertEquals(0, file.countersManager().available());
    }

    @Test
    void closeWithCountersStillAllocatedDeletesFileAndKeepsCountersUsable()
    {
        final CountersFile file = CountersFile.create(tempDir, 32);
        final EndpointCounters endpoint = new EndpointCounters(file, 1, "early");
        final ProtocolCounters transport = endpoint.transport("inproc");

        file.close();
        assertFalse(Files.exists(file.path()));

        transport.onRequestSent();
        assertEquals(1, endpoint.total(org.am2j.api.EndpointStatistics.Counter.REQUESTS_SENT));
        endpoint.close();
        assertEquals(1, endpoint.total(org.am2j.api.EndpointStatistics.Counter.REQUESTS_SENT));
    }

    @Test
    void fullFileIsAResourceError()
    {
        try (CountersFile file = CountersFile.create(tempDir, 2))
        {
            final AtomicCounter first = file.countersManager().newCounter("a");
            file.countersManager().newCounter("b");

            final AmException ex = assertThrows(AmException.class, () -> file.countersManager().newCounter("c"));
            assertEquals(AmError.RESOURCE, ex.error());
            assertTrue(ex.getMessage().contains(file.path().toString()), ex.getMessage());

            first.close();
            assertEquals(1, file.countersManager().available());
            file.countersManager().newCounter("c again").close();
        }
    }

    @Test
    void secondFileOfThisProcessInTheSameDirectoryIsInUse()
    {
        try (CountersFile file = CountersFile.create(tempDir, 4))
        {
            final AmException ex = assertThrows(AmException.class, () -> CountersFile.create(tempDir, 4));
            assertEquals(AmError.IN_USE, ex.error());
            assertTrue(ex.getMessage().contains(file.path().toString()), ex.getMessage());
            assertTrue(Files.exists(file.path()));
        }
    }

    @Test
    void badArgumentsNameTheArgument()
    {
        final AmException zero = assertThrows(AmException.class, () -> CountersFile.create(tempDir, 0));
        assertEquals(AmError.BAD_ARG, zero.error());
        assertTrue(zero.getMessage().contains("maxCounters"), zero.getMessage());

        final AmException tooMany =
            assertThrows(AmException.class, () -> CountersFile.create(tempDir, MAX_COUNTERS_LIMIT + 1));
        assertEquals(AmError.BAD_ARG, tooMany.error());

        final AmException noDirectory = assertThrows(AmException.class, () -> CountersFile.create(null, 4));
        assertEquals(AmError.BAD_ARG, noDirectory.error());
        assertTrue(noDirectory.getMessage().contains("directory"), noDirectory.getMessage());
    }

    @Test
    void directoryThatCannotBeCreatedIsAResourceErrorNamingIt() throws IOException
    {
        final Path notADirectory = Files.createFile(tempDir.resolve("plain-file"));
        final Path directory = notADirectory.resolve("counters");

        final AmException ex = assertThrows(AmException.class, () -> CountersFile.create(directory, 4));
        assertEquals(AmError.RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains(directory.toString()), ex.getMessage());
    }

    @Test
    void staleFileOfDeadPidIsRemovedByTheNextCreate() throws IOException
    {
        final Path stale = writeHeaderOnlyFile(tempDir, DEAD_PID, DEAD_PID, 1_000_000L);

        try (CountersFile ignored = CountersFile.create(tempDir, 4))
        {
            assertFalse(Files.exists(stale));
        }
    }

    @Test
    void staleFileOfReusedPidIsRemovedAndLiveOneKept() throws IOException
    {
        final long initStart = ProcessIdentity.startTimeMs(1);
        assumeTrue(ProcessIdentity.UNKNOWN_START_TIME != initStart, "the start time of pid 1 is not visible");

        final Path reused = writeHeaderOnlyFile(tempDir, 1, 1, initStart - 60_000);
        assertEquals(1, CountersFile.removeStaleFiles(tempDir));
        assertFalse(Files.exists(reused));

        final Path live = writeHeaderOnlyFile(tempDir, 1, 1, initStart);
        try (CountersFile ignored = CountersFile.create(tempDir, 4))
        {
            assertTrue(Files.exists(live));
        }
    }

    @Test
    void staleFileOfThisPidFromAnEarlierProcessIsReplaced() throws IOException
    {
        final long pid = ProcessHandle.current().pid();
        final Path stale = writeHeaderOnlyFile(tempDir, pid, pid, ProcessIdentity.currentStartTimeMs() - 60_000);

        try (CountersFile file = CountersFile.create(tempDir, 4))
        {
            assertEquals(stale, file.path());
            assertEquals(ProcessIdentity.currentStartTimeMs(), CountersFileOwner.read(file.path()).startTimeMs());
        }
    }

    @Test
    void unreadableFileIsJudgedByThePidInItsName() throws IOException
    {
        assumeTrue(ProcessHandle.of(1).isPresent(), "pid 1 is not visible");
        final Path deadGarbage = Files.write(tempDir.resolve(DEAD_PID + ".counters"), garbage(100));
        final Path liveGarbage = Files.write(tempDir.resolve("1.counters"), garbage(100));
        final Path notOurs = Files.write(tempDir.resolve("notes.counters"), garbage(100));

        assertEquals(1, CountersFile.removeStaleFiles(tempDir));
        assertFalse(Files.exists(deadGarbage));
        assertTrue(Files.exists(liveGarbage));
        assertTrue(Files.exists(notOurs));
    }

    @Test
    void defaultDirectoryFollowsTheSystemProperty()
    {
        final String previous = System.getProperty(CountersFile.DIRECTORY_PROP_NAME);
        try
        {
            System.setProperty(CountersFile.DIRECTORY_PROP_NAME, tempDir.toString());
            assertEquals(tempDir, CountersFile.defaultDirectory());

            System.clearProperty(CountersFile.DIRECTORY_PROP_NAME);
            if (null == System.getenv(CountersFile.DIRECTORY_ENV_NAME))
            {
                final Path directory = CountersFile.defaultDirectory();
                assertEquals("counters", directory.getFileName().toString());
                assertTrue(directory.getParent().getFileName().toString().startsWith("am2j-"), directory.toString());
            }
        }
        finally
        {
            if (null != previous)
            {
                System.setProperty(CountersFile.DIRECTORY_PROP_NAME, previous);
            }
        }
    }

    @Test
    void ownerLabelIsTruncatedOnACharacterBoundary()
    {
        final byte[] bytes = CountersFile.truncatedUtf8("é".repeat(300), MAX_OWNER_LABEL_LENGTH);
        assertTrue(bytes.length <= MAX_OWNER_LABEL_LENGTH);
        assertEquals("é".repeat(bytes.length / 2), new String(bytes, StandardCharsets.UTF_8));
        assertEquals("short", new String(CountersFile.truncatedUtf8("short", 10), StandardCharsets.UTF_8));
    }

    /**
     * Write a file with a complete, valid header and sections for one counter, as a process with that pid and start
     * time would have left it.
     */
    public static Path writeHeaderOnlyFile(final Path directory, final long namePid, final long pid, final long startTimeMs)
        throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate((int)fileLength(1)).order(ByteOrder.nativeOrder());
        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        buffer.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        buffer.putLong(OWNER_PID_OFFSET, pid);
        buffer.putLong(OWNER_START_TIME_OFFSET, startTimeMs);
        buffer.putInt(METADATA_SECTION_LENGTH_OFFSET, metadataSectionLength(1));
        buffer.putInt(VALUES_SECTION_LENGTH_OFFSET, valuesSectionLength(1));
        buffer.putInt(OWNER_LABEL_LENGTH_OFFSET, 0);

        return Files.write(directory.resolve(namePid + ".counters"), buffer.array());
    }

    /**
     * @return bytes that are not a counters file.
     */
    public static byte[] garbage(final int length)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(0x5A ^ (i * 31));
        }
        return bytes;
    }
}
