package org.am2j.core.stats;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * Type ids and key layout of the counters {@link EndpointCounters} allocate, so that a reader can group counters by
 * endpoint and transport without parsing labels.
 * <p>
 * Type ids are taken from the am2j range {@value #TYPE_ID_BASE} ({@code 0x414D3200}, "AM2" in the top three bytes)
 * to {@code TYPE_ID_BASE + 0xFF}, far from the small type ids Aeron and Agrona use:
 * <ul>
 *     <li>{@link #ENDPOINT_TYPE_ID}: one per endpoint, labelled {@code ep 3 endpoint <label>}; its value is the
 *     number of transports that serve the endpoint;</li>
 *     <li>{@link #TRANSPORT_COUNTER_TYPE_ID}: one per (endpoint, transport, {@code EndpointStatistics.Counter}),
 *     labelled {@code ep 3 [inproc] requests sent};</li>
 *     <li>{@link #RETURNED_TYPE_ID}: one per (endpoint, {@code ReturnStatus}), labelled
 *     {@code ep 3 returned EBADTAG};</li>
 *     <li>{@link #PROCESS_TRANSPORT_TYPE_ID}: a transport's process-wide counters, labelled
 *     {@code net nic retransmits}; not an endpoint's, so a reader lists them with the process.</li>
 * </ul>
 * The key, in the {@link CountersReader#MAX_KEY_LENGTH} bytes of each counter's metadata record, native byte order:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                         Endpoint Id                           |  0
 *  +---------------------------------------------------------------+
 *  |   Counter Index (Counter ordinal, ReturnStatus code, or 0)    |  4
 *  +---------------------------------------------------------------+
 *  |             Transport Name Length (0 when none)               |  8
 *  +---------------------------------------------------------------+
 *  |            Transport Name (ASCII, up to 64 bytes)            ...  12
 * ...                                                              |
 *  +---------------------------------------------------------------+
 *  |                   36 bytes unused, zero                      ...  76
 * ...                                                              |
 *  +---------------------------------------------------------------+  112
 * </pre>
 * An endpoint's identity counter ({@link #ENDPOINT_TYPE_ID}) has no transport (name length 0) and keeps, where a
 * transport's name would be, the rank and job the endpoint belongs to, so that {@code bin/am2j stat} shows them per
 * endpoint (a process may hold several ranks):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                         Endpoint Id                           |  0
 *  +---------------------------------------------------------------+
 *  |                     Counter Index (0)                         |  4
 *  +---------------------------------------------------------------+
 *  |                  Transport Name Length (0)                    |  8
 *  +---------------------------------------------------------------+
 *  |             Rank ({@link #NO_RANK} when of no rank)           |  12
 *  +---------------------------------------------------------------+
 *  |                 Job Id Length (0 when none)                   |  16
 *  +---------------------------------------------------------------+
 *  |                Job Id (ASCII, up to 64 bytes)                ...  20
 * ...                                                              |
 *  +---------------------------------------------------------------+
 *  |                   28 bytes unused, zero                      ...  84
 * ...                                                              |
 *  +---------------------------------------------------------------+  112
 * </pre>
 */
public final class EndpointCounterDescriptor
{
    /** First type id of the am2j range. */
    public static final int TYPE_ID_BASE = 0x414D3200;

    /** Type id of an endpoint's identity counter. */
    public static final int ENDPOINT_TYPE_ID = TYPE_ID_BASE + 1;

    /** Type id of a per-transport counter of an endpoint. */
    public static final int TRANSPORT_COUNTER_TYPE_ID = TYPE_ID_BASE + 2;

    /** Type id of a returned-message counter of an endpoint. */
    public static final int RETURNED_TYPE_ID = TYPE_ID_BASE + 3;

    /**
     * Type id of a counter of a transport's process-wide part (the network NIC); its key holds the transport's name
     * (endpoint id and counter index 0), and {@code bin/am2j stat} lists it with the process, not with an endpoint.
     */
    public static final int PROCESS_TRANSPORT_TYPE_ID = TYPE_ID_BASE + 4;

    /** Offset in the key of the endpoint id, an int. */
    public static final int ENDPOINT_ID_OFFSET = 0;

    /** Offset in the key of the counter index, an int. */
    public static final int COUNTER_INDEX_OFFSET = 4;

    /** Offset in the key of the transport name's length, an int. */
    public static final int TRANSPORT_NAME_LENGTH_OFFSET = 8;

    /** Offset in the key of the transport name's bytes. */
    public static final int TRANSPORT_NAME_OFFSET = 12;

    /** Longest transport name, in ASCII characters. */
    public static final int MAX_TRANSPORT_NAME_LENGTH = 64;

    /** Offset in an identity counter's key of the endpoint's rank, an int. */
    public static final int RANK_OFFSET = 12;

    /** Offset in an identity counter's key of the length of the endpoint's job id, an int. */
    public static final int JOB_LENGTH_OFFSET = 16;

    /** Offset in an identity counter's key of the job id's bytes. */
    public static final int JOB_OFFSET = 20;

    /** Longest job id kept, in ASCII characters (a longer one is cut). */
    public static final int MAX_JOB_LENGTH = 64;

    /** The rank of an endpoint that belongs to no rank of a job. */
    public static final int NO_RANK = -1;

    static
    {
        if (TRANSPORT_NAME_OFFSET + MAX_TRANSPORT_NAME_LENGTH > CountersReader.MAX_KEY_LENGTH ||
            JOB_OFFSET + MAX_JOB_LENGTH > CountersReader.MAX_KEY_LENGTH)
        {
            throw new ExceptionInInitializerError("endpoint counter key does not fit a counter's key space");
        }
    }

    private EndpointCounterDescriptor()
    {
    }

    /**
     * @param typeId a counter's type id.
     * @return true when the type is one of the am2j endpoint counter types, whose key has this layout.
     */
    public static boolean isEndpointCounterType(final int typeId)
    {
        return ENDPOINT_TYPE_ID == typeId || TRANSPORT_COUNTER_TYPE_ID == typeId || RETURNED_TYPE_ID == typeId;
    }

    /**
     * Write a key.
     *
     * @param key          the key space of a counter's metadata record.
     * @param endpointId   the endpoint's id.
     * @param counterIndex the counter's index within its type.
     * @param transport    the transport's name (ASCII, at most {@link #MAX_TRANSPORT_NAME_LENGTH}), or "".
     */
    public static void writeKey(
        final MutableDirectBuffer key, final int endpointId, final int counterIndex, final String transport)
    {
        key.putInt(ENDPOINT_ID_OFFSET, endpointId);
        key.putInt(COUNTER_INDEX_OFFSET, counterIndex);
        final int length = key.putStringWithoutLengthAscii(
            TRANSPORT_NAME_OFFSET, transport, 0, MAX_TRANSPORT_NAME_LENGTH);
        key.putInt(TRANSPORT_NAME_LENGTH_OFFSET, length);
    }

    /**
     * Write the key of an endpoint's identity counter.
     *
     * @param key        the key space of the counter's metadata record.
     * @param endpointId the endpoint's id.
     * @param rank       the rank the endpoint belongs to, or {@link #NO_RANK}.
     * @param job        the job's id, or ""; cut to {@link #MAX_JOB_LENGTH} characters, any non-ASCII one as '?'.
     */
    public static void writeIdentityKey(
        final MutableDirectBuffer key, final int endpointId, final int rank, final String job)
    {
        writeKey(key, endpointId, 0, "");
        key.putInt(RANK_OFFSET, rank);
        final int length = key.putStringWithoutLengthAscii(JOB_OFFSET, job, 0, MAX_JOB_LENGTH);
        key.putInt(JOB_LENGTH_OFFSET, length);
    }

    /**
     * @param key the key of an endpoint's identity counter.
     * @return the rank it belongs to, or {@link #NO_RANK}.
     */
    public static int rank(final DirectBuffer key)
    {
        final int rank = key.getInt(RANK_OFFSET);
        return rank < 0 ? NO_RANK : rank;
    }

    /**
     * @param key the key of an endpoint's identity counter, possibly written by a faulty process.
     * @return the job id, "" when there is none, or {@code null} when the recorded length is out of range.
     */
    public static String job(final DirectBuffer key)
    {
        return ascii(key, JOB_LENGTH_OFFSET, JOB_OFFSET, MAX_JOB_LENGTH);
    }

    /**
     * @param key the key of an endpoint counter.
     * @return the endpoint id.
     */
    public static int endpointId(final DirectBuffer key)
    {
        return key.getInt(ENDPOINT_ID_OFFSET);
    }

    /**
     * @param key the key of an endpoint counter.
     * @return the counter index.
     */
    public static int counterIndex(final DirectBuffer key)
    {
        return key.getInt(COUNTER_INDEX_OFFSET);
    }

    /**
     * @param key the key of an endpoint counter, possibly written by a faulty process.
     * @return the transport name, "" when there is none, or {@code null} when the recorded length is out of range.
     */
    public static String transportName(final DirectBuffer key)
    {
        return ascii(key, TRANSPORT_NAME_LENGTH_OFFSET, TRANSPORT_NAME_OFFSET, MAX_TRANSPORT_NAME_LENGTH);
    }

    private static String ascii(final DirectBuffer key, final int lengthOffset, final int offset, final int maxLength)
    {
        final int length = key.getInt(lengthOffset);
        if (length < 0 || length > maxLength)
        {
            return null;
        }

        final byte[] bytes = new byte[length];
        key.getBytes(offset, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
