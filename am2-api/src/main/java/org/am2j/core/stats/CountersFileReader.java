package org.am2j.core.stats;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

import static org.am2j.core.stats.CountersFileDescriptor.*;

/**
 * Reads another process's (or this process's) counters file from outside: maps it read-only, checks its header
 * against the file's size, and reads the counters live.
 * <p>
 * Every length in the header is checked before anything is read through it, so a truncated, garbage or
 * half-created file gives an {@link AmException} naming the file and what is wrong, never an access outside the
 * mapping. Labels and keys of counter records are checked as they are read. Not thread-safe: one reader per thread.
 */
public final class CountersFileReader implements AutoCloseable
{
    private static final int LABEL_BYTES_OFFSET = CountersReader.LABEL_OFFSET + Integer.BYTES;

    private final Path path;
    private final MappedByteBuffer mappedFile;
    private final CountersFileOwner owner;
    private final int maxCounters;
    private final UnsafeBuffer metadata;
    private final UnsafeBuffer values;
    private final UnsafeBuffer keyView = new UnsafeBuffer(0, 0);
    private final CountersReader countersReader;
    private boolean closed;

    private CountersFileReader(
        final Path path,
        final MappedByteBuffer mappedFile,
        final CountersFileOwner owner,
        final int metadataLength,
        final int valuesLength)
    {
        this.path = path;
        this.mappedFile = mappedFile;
        this.owner = owner;
        this.maxCounters = valuesLength / CountersReader.COUNTER_LENGTH;
        this.metadata = new UnsafeBuffer(mappedFile, metadataSectionOffset(), metadataLength);
        this.values = new UnsafeBuffer(mappedFile, valuesSectionOffset(metadataLength), valuesLength);
        this.countersReader = new CountersReader(metadata, values);
    }

    /**
     * Map a counters file and check its header.
     *
     * @param file a counters file, e.g. {@code CountersFile.fileFor(directory, pid)}.
     * @return a reader, which the caller closes.
     * @throws AmException {@link AmError#BAD_ARG} when the file does not exist, is still being created, or is not a
     *                     valid counters file of this layout version; {@link AmError#RESOURCE} when it cannot be read.
     */
    public static CountersFileReader open(final Path file)
    {
        AmException.checkNotNull("file", file);

        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size < HEADER_LENGTH)
            {
                throw bad(file, "is " + size + " bytes long, shorter than its " + HEADER_LENGTH + "-byte header");
            }
            if (size > Integer.MAX_VALUE)
            {
                throw bad(file, "is " + size + " bytes long, longer than any counters file");
            }
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        }
        catch (final NoSuchFileException ex)
        {
            throw new AmException(AmError.BAD_ARG, "no counters file " + file, ex);
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.RESOURCE, "cannot read counters file " + file + ": " + ex, ex);
        }

        try
        {
            return validate(file, mapped);
        }
        catch (final RuntimeException ex)
        {
            IoUtil.unmap(mapped);
            throw ex;
        }
    }

    /**
     * @return the file read.
     */
    public Path path()
    {
        return path;
    }

    /**
     * @return the owning process as the header records it.
     */
    public CountersFileOwner owner()
    {
        return owner;
    }

    /**
     * @return the owner's pid.
     */
    public long ownerPid()
    {
        return owner.pid();
    }

    /**
     * @return the owner's start time in epoch milliseconds, or 0 when unknown.
     */
    public long ownerStartTimeMs()
    {
        return owner.startTimeMs();
    }

    /**
     * @return true while the owner runs (same pid and start time).
     */
    public boolean isOwnerAlive()
    {
        return owner.isAlive();
    }

    /**
     * @return how many counters the file holds.
     */
    public int maxCounters()
    {
        return maxCounters;
    }

    /**
     * @return an Agrona reader over the file's sections, valid until {@link #close()}. Its label reads trust the
     * records; {@link #snapshot()} checks them.
     */
    public CountersReader countersReader()
    {
        checkOpen();
        return countersReader;
    }

    /**
     * Read every allocated counter: label, type, key and value (each value read with acquire semantics).
     *
     * @return the allocated counters in id order.
     */
    public List<CounterSnapshot> snapshot()
    {
        checkOpen();
        final List<CounterSnapshot> snapshot = new ArrayList<>();
        for (int counterId = 0; counterId < maxCounters; counterId++)
        {
            final int recordOffset = CountersReader.metaDataOffset(counterId);
            final int state = metadata.getIntVolatile(recordOffset);
            if (CountersReader.RECORD_UNUSED == state)
            {
                break;
            }
            if (CountersReader.RECORD_ALLOCATED != state)
            {
                continue;
            }

            snapshot.add(readCounter(counterId, recordOffset));
        }

        return snapshot;
    }

    /**
     * Unmap the file. Idempotent.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            IoUtil.unmap(mappedFile);
        }
    }

    private CounterSnapshot readCounter(final int counterId, final int recordOffset)
    {
        final int typeId = metadata.getInt(recordOffset + CountersReader.TYPE_ID_OFFSET);
        final int labelLength = metadata.getIntVolatile(recordOffset + CountersReader.LABEL_OFFSET);
        final String label = labelLength >= 0 && labelLength <= CountersReader.MAX_LABEL_LENGTH ?
            metadata.getStringWithoutLengthUtf8(recordOffset + LABEL_BYTES_OFFSET, labelLength) :
            "<bad label length " + labelLength + ">";

        int endpointId = -1;
        int counterIndex = -1;
        String transport = "";
        int rank = EndpointCounterDescriptor.NO_RANK;
        String job = "";
        if (EndpointCounterDescriptor.isEndpointCounterType(typeId))
        {
            keyView.wrap(metadata, recordOffset + CountersReader.KEY_OFFSET, CountersReader.MAX_KEY_LENGTH);
            final String name = EndpointCounterDescriptor.transportName(keyView);
            if (null != name)
            {
                endpointId = EndpointCounterDescriptor.endpointId(keyView);
                counterIndex = EndpointCounterDescriptor.counterIndex(keyView);
                transport = name;
            }
            final String jobId = EndpointCounterDescriptor.ENDPOINT_TYPE_ID == typeId ?
                EndpointCounterDescriptor.job(keyView) : null;
            if (null != jobId)
            {
                rank = EndpointCounterDescriptor.rank(keyView);
                job = jobId;
            }
        }

        final long value = values.getLongVolatile(CountersReader.counterOffset(counterId));
        return new CounterSnapshot(counterId, typeId, endpointId, counterIndex, transport, label, value, rank, job);
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new AmException(AmError.NOT_INIT, "counters file reader of " + path + " is closed");
        }
    }

    private static CountersFileReader validate(final Path file, final MappedByteBuffer mapped)
    {
        final long size = mapped.capacity();
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);

        // acquire: pairs with the owner's release store of the magic after every other header field
        final long magic = header.getLongVolatile(MAGIC_OFFSET);
        if (0 == magic)
        {
            throw bad(file, "has no header yet: its owner is still creating it, or it is not a counters file");
        }
        if (MAGIC != magic)
        {
            throw bad(file, String.format(
                "is not an am2j counters file: magic 0x%016x, expected 0x%016x", magic, MAGIC));
        }

        final int version = header.getInt(LAYOUT_VERSION_OFFSET);
        if (LAYOUT_VERSION != version)
        {
            throw bad(file, "has layout version " + version + ", this reader reads version " + LAYOUT_VERSION);
        }

        final int headerLength = header.getInt(HEADER_LENGTH_OFFSET);
        if (HEADER_LENGTH != headerLength)
        {
            throw bad(file, "has header length " + headerLength + ", expected " + HEADER_LENGTH);
        }

        final int metadataLength = header.getInt(METADATA_SECTION_LENGTH_OFFSET);
        final int valuesLength = header.getInt(VALUES_SECTION_LENGTH_OFFSET);
        if (valuesLength <= 0 || 0 != valuesLength % CountersReader.COUNTER_LENGTH ||
            valuesLength / CountersReader.COUNTER_LENGTH > MAX_COUNTERS_LIMIT)
        {
            throw bad(file, "has values section length " + valuesLength + ", not a positive multiple of " +
                CountersReader.COUNTER_LENGTH + " up to " + MAX_COUNTERS_LIMIT + " counters");
        }

        final int counters = valuesLength / CountersReader.COUNTER_LENGTH;
        if (metadataLength != metadataSectionLength(counters))
        {
            throw bad(file, "has metadata section length " + metadataLength + ", expected " +
                metadataSectionLength(counters) + " for " + counters + " counters");
        }

        if (size != fileLength(counters))
        {
            throw bad(file, "is " + size + " bytes long, its header says " + fileLength(counters) +
                " (truncated or overwritten)");
        }

        final CountersFileOwner owner = CountersFileOwner.fromHeader(mapped.duplicate().order(ByteOrder.nativeOrder()));
        if (null == owner)
        {
            throw bad(file, "has a bad owner pid " + header.getLong(OWNER_PID_OFFSET) + " or owner label length " +
                header.getInt(OWNER_LABEL_LENGTH_OFFSET) + " (allowed 0 to " + MAX_OWNER_LABEL_LENGTH + ")");
        }

        return new CountersFileReader(file, mapped, owner, metadataLength, valuesLength);
    }

    private static AmException bad(final Path file, final String problem)
    {
        return new AmException(AmError.BAD_ARG, "counters file " + file + " " + problem);
    }
}
