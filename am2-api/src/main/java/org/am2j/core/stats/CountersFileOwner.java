package org.am2j.core.stats;

import org.am2j.spi.ProcessIdentity;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.am2j.core.stats.CountersFileDescriptor.*;

/**
 * The process that owns a counters file, as its header records it.
 *
 * @param pid         the owner's process id.
 * @param startTimeMs the owner's start time in epoch milliseconds, or {@link ProcessIdentity#UNKNOWN_START_TIME}.
 * @param label       the owner's main class and arguments, possibly empty.
 */
public record CountersFileOwner(long pid, long startTimeMs, String label)
{
    /**
     * @return true when the owner is still running (same pid, same start time).
     */
    public boolean isAlive()
    {
        return ProcessIdentity.isAlive(pid, startTimeMs);
    }

    /**
     * Read the owner from a file's header with an ordinary read (no mapping, so a short file cannot fault).
     *
     * @param file a counters file.
     * @return the owner, or {@code null} when the file is shorter than a header or its header is not complete and
     * valid (being created, or not a counters file).
     * @throws IOException when the file cannot be read.
     */
    public static CountersFileOwner read(final Path file) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            while (header.hasRemaining())
            {
                if (channel.read(header, header.position()) < 0)
                {
                    return null;
                }
            }
        }

        return fromHeader(header);
    }

    /**
     * Decode the owner from a complete header.
     *
     * @param header the first {@link CountersFileDescriptor#HEADER_LENGTH} bytes of a file, in native byte order,
     *               indexed from 0.
     * @return the owner, or {@code null} when the magic, version, header length, pid or label length is wrong.
     */
    static CountersFileOwner fromHeader(final ByteBuffer header)
    {
        final int labelLength = header.getInt(OWNER_LABEL_LENGTH_OFFSET);
        final long pid = header.getLong(OWNER_PID_OFFSET);
        if (MAGIC != header.getLong(MAGIC_OFFSET) ||
            LAYOUT_VERSION != header.getInt(LAYOUT_VERSION_OFFSET) ||
            HEADER_LENGTH != header.getInt(HEADER_LENGTH_OFFSET) ||
            pid <= 0 ||
            labelLength < 0 || labelLength > MAX_OWNER_LABEL_LENGTH)
        {
            return null;
        }

        final byte[] labelBytes = new byte[labelLength];
        header.get(OWNER_LABEL_OFFSET, labelBytes);

        return new CountersFileOwner(
            pid, header.getLong(OWNER_START_TIME_OFFSET), new String(labelBytes, StandardCharsets.UTF_8));
    }
}
