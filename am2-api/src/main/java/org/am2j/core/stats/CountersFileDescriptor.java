package org.am2j.core.stats;

import org.agrona.concurrent.status.CountersReader;

/**
 * Layout of a process's counters file, {@code <directory>/<pid>.counters}: a header that names the owning process,
 * followed by the two sections of an Agrona {@link org.agrona.concurrent.status.CountersManager}.
 * <p>
 * All fields are in native byte order (little-endian on x86-64 and aarch64). The header is one
 * {@link #HEADER_LENGTH}-byte block; each section starts on a cache-line boundary, and the values section on a
 * {@link CountersReader#COUNTER_LENGTH} boundary, so every counter value owns its cache lines.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Magic "AM2JCNTR" (written last)             |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                        Layout Version                         |  8
 *  +---------------------------------------------------------------+
 *  |                        Header Length                          |  12
 *  +---------------------------------------------------------------+
 *  |                          Owner Pid                            |  16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |            Owner Process Start Time (epoch ms, 0 unknown)     |  24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   Metadata Section Length                     |  32
 *  +---------------------------------------------------------------+
 *  |                    Values Section Length                      |  36
 *  +---------------------------------------------------------------+
 *  |                   24 bytes reserved, zero                    ...  40
 * ...                                                              |
 *  +---------------------------------------------------------------+
 *  |                      Owner Label Length                       |  64
 *  +---------------------------------------------------------------+
 *  |        Owner Label (UTF-8, up to 444 bytes, zero padded)     ...  68
 * ...                                                              |
 *  +---------------------------------------------------------------+
 *  |   Metadata Section: one 512-byte record per counter          ...  512
 * ...  (state, type id, free-for-reuse deadline, key, label)       |
 *  +---------------------------------------------------------------+
 *  |   Values Section: one 128-byte record per counter            ...  512 + metadata section length
 * ...  (value, registration id, owner id, reference id, padding)   |
 *  +---------------------------------------------------------------+
 * </pre>
 * The owner writes every other field before it writes the magic with release semantics; a reader that reads the
 * magic with acquire semantics and finds it sees a complete header. A zero magic means the file is still being
 * created. The file's length is exactly {@link #fileLength(int)} for the number of counters it holds.
 */
public final class CountersFileDescriptor
{
    /** "AM2JCNTR" read as a little-endian long. */
    public static final long MAGIC = 0x52544E434A324D41L;

    /**
     * Version of this layout; a reader refuses any other. Version 2 keeps each endpoint's rank and job in its identity
     * counter's key ({@link EndpointCounterDescriptor#RANK_OFFSET}), where version 1 left zeros.
     */
    public static final int LAYOUT_VERSION = 2;

    /** Alignment of the header and of both sections. */
    public static final int CACHE_LINE_LENGTH = 64;

    /** Offset of the magic, a long written last. */
    public static final int MAGIC_OFFSET = 0;

    /** Offset of the layout version, an int. */
    public static final int LAYOUT_VERSION_OFFSET = 8;

    /** Offset of the header length, an int equal to {@link #HEADER_LENGTH}. */
    public static final int HEADER_LENGTH_OFFSET = 12;

    /** Offset of the owner's process id, a long. */
    public static final int OWNER_PID_OFFSET = 16;

    /** Offset of the owner's process start time in epoch milliseconds, a long; 0 when the platform hides it. */
    public static final int OWNER_START_TIME_OFFSET = 24;

    /** Offset of the metadata section's length in bytes, an int. */
    public static final int METADATA_SECTION_LENGTH_OFFSET = 32;

    /** Offset of the values section's length in bytes, an int. */
    public static final int VALUES_SECTION_LENGTH_OFFSET = 36;

    /** Offset of the owner label's length in bytes, an int. */
    public static final int OWNER_LABEL_LENGTH_OFFSET = 64;

    /** Offset of the owner label's bytes (the owner's main class and arguments, UTF-8). */
    public static final int OWNER_LABEL_OFFSET = 68;

    /** Length of the header, where the metadata section begins. */
    public static final int HEADER_LENGTH = 512;

    /** Longest owner label, in bytes. */
    public static final int MAX_OWNER_LABEL_LENGTH = HEADER_LENGTH - OWNER_LABEL_OFFSET;

    /** Largest number of counters one file may hold (640 MiB of sections), so every offset fits an int. */
    public static final int MAX_COUNTERS_LIMIT = 1 << 20;

    /** The value of the owner start time field when the start time is unknown. */
    public static final long UNKNOWN_START_TIME = 0;

    static
    {
        if (0 != HEADER_LENGTH % CountersReader.COUNTER_LENGTH ||
            0 != CountersReader.METADATA_LENGTH % CACHE_LINE_LENGTH ||
            0 != CountersReader.COUNTER_LENGTH % CACHE_LINE_LENGTH)
        {
            throw new ExceptionInInitializerError("counters file sections would not be cache-line aligned");
        }
    }

    private CountersFileDescriptor()
    {
    }

    /**
     * @param maxCounters number of counters the file holds.
     * @return length in bytes of the metadata section.
     */
    public static int metadataSectionLength(final int maxCounters)
    {
        return maxCounters * CountersReader.METADATA_LENGTH;
    }

    /**
     * @param maxCounters number of counters the file holds.
     * @return length in bytes of the values section.
     */
    public static int valuesSectionLength(final int maxCounters)
    {
        return maxCounters * CountersReader.COUNTER_LENGTH;
    }

    /**
     * @return offset of the metadata section.
     */
    public static int metadataSectionOffset()
    {
        return HEADER_LENGTH;
    }

    /**
     * @param metadataSectionLength length of the metadata section.
     * @return offset of the values section.
     */
    public static int valuesSectionOffset(final int metadataSectionLength)
    {
        return HEADER_LENGTH + metadataSectionLength;
    }

    /**
     * @param maxCounters number of counters the file holds.
     * @return length in bytes of the whole file.
     */
    public static long fileLength(final int maxCounters)
    {
        return (long)HEADER_LENGTH + metadataSectionLength(maxCounters) + valuesSectionLength(maxCounters);
    }
}
