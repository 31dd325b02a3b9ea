package org.am2j.core.stats;

import org.am2j.spi.ProcessIdentity;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.agrona.concurrent.status.CountersReader;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.ReturnStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.am2j.core.stats.CountersFileDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

@Timeout(60)
class CountersFileReaderTest
{
    @TempDir
    Path tempDir;

    @Test
    void anEndpointsIdentityCounterKeepsItsRankAndJob()
    {
        final String longJob = "j".repeat(EndpointCounterDescriptor.MAX_JOB_LENGTH + 10);
        try (CountersFile file = CountersFile.create(tempDir, 128);
            EndpointCounters ofRank = new EndpointCounters(file.countersManager(), 0, "", 7, "j42-abc");
            EndpointCounters ofNoRank = new EndpointCounters(file, 1, "");
            EndpointCounters longJobId = new EndpointCounters(file.countersManager(), 2, "", 0, longJob);
            CountersFileReader reader = CountersFileReader.open(file.path()))
        {
            final Map<Integer, CounterSnapshot> identities = reader.snapshot().stream()
                .filter(counter -> EndpointCounterDescriptor.ENDPOINT_TYPE_ID == counter.typeId())
                .collect(Collectors.toMap(CounterSnapshot::endpointId, Function.identity()));

            assertEquals(7, identities.get(0).rank());
            assertEquals("j42-abc", identities.get(0).job());
            assertEquals("", identities.get(0).transport());
            assertEquals(EndpointCounterDescriptor.NO_RANK, identities.get(1).rank());
            assertEquals("", identities.get(1).job());
            assertEquals(0, identities.get(2).rank());
            assertEquals(longJob.substring(0, EndpointCounterDescriptor.MAX_JOB_LENGTH), identities.get(2).job());
            assertTrue(reader.snapshot().stream()
                .filter(counter -> EndpointCounterDescriptor.ENDPOINT_TYPE_ID != counter.typeId())
                .allMatch(counter -> EndpointCounterDescriptor.NO_RANK == counter.rank() && counter.job().isEmpty()));
        }
    }

    @Test
    void readsLabelsValuesAndKeysOfTwoTransports()
    {
        try (CountersFile file = CountersFile.create(tempDir, 128);
            EndpointCounters endpoint = new EndpointCounters(file, 3, "rank0");
            CountersFileReader reader = CountersFileReader.open(file.path()))
        {
            final ProtocolCounters inproc = endpoint.transport("inproc");
            final ProtocolCounters shm = endpoint.transport("shm");
            inproc.onRequestSent();
            inproc.onSent(true, 100);
            shm.onReceived(false, 0);
            shm.retransmit();
            endpoint.onReturned(ReturnStatus.EBADTAG);

            assertEquals(ProcessHandle.current().pid(), reader.ownerPid());
            assertEquals(ProcessIdentity.currentStartTimeMs(), reader.ownerStartTimeMs());
            assertTrue(reader.isOwnerAlive());
            assertEquals(128, reader.maxCounters());

            final List<CounterSnapshot> snapshot = reader.snapshot();
            assertEquals(1 + ReturnStatus.values().length + 2 * Counter.values().length, snapshot.size());
            final Map<String, CounterSnapshot> byLabel =
                snapshot.stream().collect(Collectors.toMap(CounterSnapshot::label, Function.identity()));

            assertEquals(2, byLabel.get("ep 3 [inproc] requests sent").value());
            assertEquals(100, byLabel.get("ep 3 [inproc] bytes sent").value());
            assertEquals(0, byLabel.get("ep 3 [inproc] replies received").value());
            assertEquals(1, byLabel.get("ep 3 [shm] replies received").value());
            assertEquals(1, byLabel.get("ep 3 [shm] retransmits").value());
            assertEquals(1, byLabel.get("ep 3 returned EBADTAG").value());
            assertEquals(0, byLabel.get("ep 3 returned ECONGESTION").value());
            assertEquals(2, byLabel.get("ep 3 endpoint rank0").value());

            final CounterSnapshot shmRetransmits = byLabel.get("ep 3 [shm] retransmits");
            assertEquals(EndpointCounterDescriptor.TRANSPORT_COUNTER_TYPE_ID, shmRetransmits.typeId());
            assertEquals(3, shmRetransmits.endpointId());
            assertEquals("shm", shmRetransmits.transport());
            assertEquals(Counter.RETRANSMITS.ordinal(), shmRetransmits.counterIndex());
            assertEquals(shm.counterId(Counter.RETRANSMITS), shmRetransmits.counterId());

            final CounterSnapshot badTag = byLabel.get("ep 3 returned EBADTAG");
            assertEquals(EndpointCounterDescriptor.RETURNED_TYPE_ID, badTag.typeId());
            assertEquals(ReturnStatus.EBADTAG.code(), badTag.counterIndex());

            final CountersReader countersReader = reader.countersReader();
            final int requestsSentId = inproc.counterId(Counter.REQUESTS_SENT);
            assertEquals("ep 3 [inproc] requests sent", countersReader.getCounterLabel(requestsSentId));
            assertEquals(2, countersReader.getCounterValue(requestsSentId));

            inproc.onRequestSent();
            assertEquals(3, countersReader.getCounterValue(requestsSentId), "the reader sees live values");
        }
    }

    @Test
    void freedCountersAreNotInTheSnapshot()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            CountersFileReader reader = CountersFileReader.open(file.path()))
        {
            final EndpointCounters first = new EndpointCounters(file, 1, "first");
            first.transport("inproc");
            final EndpointCounters second = new EndpointCounters(file, 2, "second");

            first.close();
            final List<CounterSnapshot> snapshot = reader.snapshot();
            assertEquals(1 + ReturnStatus.values().length, snapshot.size());
            assertTrue(snapshot.stream().allMatch((counter) -> 2 == counter.endpointId()));
            second.close();
            assertEquals(List.of(), reader.snapshot());
        }
    }

    @Test
    void missingFileIsAClearError()
    {
        final Path missing = tempDir.resolve("42.counters");
        final AmException ex = assertThrows(AmException.class, () -> CountersFileReader.open(missing));
        assertEquals(AmError.BAD_ARG, ex.error());
        assertTrue(ex.getMessage().contains("no counters file " + missing), ex.getMessage());
    }

    @Test
    void garbageFileIsAClearError() throws IOException
    {
        final Path file = Files.write(tempDir.resolve("5.counters"), CountersFileTest.garbage(4096));
        assertBadFile(file, "not an am2j counters file");
    }

    @Test
    void fileShorterThanAHeaderIsAClearError() throws IOException
    {
        final Path file = Files.write(tempDir.resolve("5.counters"), new byte[100]);
        assertBadFile(file, "100 bytes long, shorter than its 512-byte header");

        final Path empty = Files.write(tempDir.resolve("6.counters"), new byte[0]);
        assertBadFile(empty, "0 bytes long");
    }

    @Test
    void fileWithoutMagicIsBeingCreated() throws IOException
    {
        final Path file = Files.write(tempDir.resolve("5.counters"), new byte[(int)fileLength(4)]);
        assertBadFile(file, "no header yet");
    }

    @Test
    void truncatedFileIsAClearError() throws IOException
    {
        final Path copy = copyOfALiveFile(16);
        try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.WRITE))
        {
            channel.truncate(fileLength(16) - 1000);
        }

        assertBadFile(copy, "truncated");
    }

    @Test
    void headerFieldsAreCheckedOneByOne() throws IOException
    {
        assertBadFile(patch(copyOfALiveFile(4), LAYOUT_VERSION_OFFSET, 99), "layout version 99");
        assertBadFile(patch(copyOfALiveFile(4), HEADER_LENGTH_OFFSET, 64), "header length 64");
        assertBadFile(patch(copyOfALiveFile(4), VALUES_SECTION_LENGTH_OFFSET, -128), "values section length -128");
        assertBadFile(patch(copyOfALiveFile(4), VALUES_SECTION_LENGTH_OFFSET, 100), "values section length 100");
        assertBadFile(
            patch(patch(copyOfALiveFile(4), VALUES_SECTION_LENGTH_OFFSET, 8 * 128), METADATA_SECTION_LENGTH_OFFSET,
            8 * 512),
            "is 3072 bytes long, its header says 5632");
        assertBadFile(patch(copyOfALiveFile(4), METADATA_SECTION_LENGTH_OFFSET, 512), "metadata section length 512");
        assertBadFile(patch(copyOfALiveFile(4), OWNER_LABEL_LENGTH_OFFSET, 10_000), "owner label length 10000");
        assertBadFile(patch(copyOfALiveFile(4), OWNER_LABEL_LENGTH_OFFSET, -1), "owner label length -1");
    }

    @Test
    void badRecordsAreReadWithoutFailing() throws IOException
    {
        final Path copy = copyOfALiveFile(32);
        final int firstRecord = metadataSectionOffset();
        patch(copy, firstRecord + CountersReader.LABEL_OFFSET, 1_000_000);
        final int secondKey = metadataSectionOffset() + CountersReader.METADATA_LENGTH + CountersReader.KEY_OFFSET;
        patch(copy, secondKey + EndpointCounterDescriptor.TRANSPORT_NAME_LENGTH_OFFSET, -7);

        try (CountersFileReader reader = CountersFileReader.open(copy))
        {
            final List<CounterSnapshot> snapshot = reader.snapshot();
            assertEquals("<bad label length 1000000>", snapshot.get(0).label());
            assertFalse(snapshot.get(1).isEndpointCounter());
            assertEquals("ep 9 returned EBADARGS", snapshot.get(1).label());
        }
    }

    @Test
    void closeIsIdempotentAndAClosedReaderRefusesReads()
    {
        try (CountersFile file = CountersFile.create(tempDir, 4))
        {
            final CountersFileReader reader = CountersFileReader.open(file.path());
            reader.close();
            reader.close();

            final AmException ex = assertThrows(AmException.class, reader::snapshot);
            assertEquals(AmError.NOT_INIT, ex.error());
            assertThrows(AmException.class, reader::countersReader);
        }
    }

    private Path copyOfALiveFile(final int maxCounters) throws IOException
    {
        final Path copy = tempDir.resolve(System.nanoTime() + ".counters");
        try (CountersFile file = CountersFile.create(tempDir.resolve("live"), maxCounters))
        {
            if (maxCounters >= 1 + ReturnStatus.values().length)
            {
                final EndpointCounters endpoint = new EndpointCounters(file, 9, "copied");
                endpoint.onReturned(ReturnStatus.EBADARGS);
                Files.copy(file.path(), copy);
                endpoint.close();
            }
            else
            {
                Files.copy(file.path(), copy);
            }
        }

        return copy;
    }

    private static Path patch(final Path file, final int offset, final int value) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.nativeOrder()).putInt(0, value);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.write(bytes, offset);
        }

        return file;
    }

    private static void assertBadFile(final Path file, final String expected)
    {
        final AmException ex = assertThrows(AmException.class, () -> CountersFileReader.open(file));
        assertEquals(AmError.BAD_ARG, ex.error());
        assertTrue(ex.getMessage().contains(file.toString()), ex.getMessage());
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }
}
