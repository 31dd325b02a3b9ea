package org.am2j.spmd;

import java.nio.ByteBuffer;
import java.util.function.IntToLongFunction;

/**
 * The frames of the bootstrap rendezvous: the TCP protocol between each rank's {@link RendezvousClient} and the job's
 * {@link RendezvousServer}.
 * <p>
 * Every frame is a 24-byte header followed by {@code payload length} bytes; all integers are big-endian:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 magic 'A' '2' 'R' 'V' (32)                    |  0
 *  +---------------+---------------+-------------------------------+
 *  |  version (8)  |   type (8)    |         reserved (16)         |  4
 *  +---------------+---------------+-------------------------------+
 *  |                           rank (32)                           |  8
 *  +---------------------------------------------------------------+
 *  |                      payload length (32)                      | 12
 *  +---------------------------------------------------------------+
 *  |                   collective number (64)                      | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                        payload ...                           ... 24
 *  +---------------------------------------------------------------+
 * </pre>
 * {@code rank} is the sender's rank in frames from a client and the receiver's rank in frames from the server.
 * {@code collective number} counts the collectives of the job: 0 for {@link #HELLO} and {@link #WELCOME}, then 1, 2,
 * ... for the barriers and all-gathers in the order every rank calls them (the ranks run them in lock-step).
 * <p>
 * Client to server:
 * <ul>
 * <li>{@link #HELLO}: {@code size (32) | process id (64) | job id length (16) | job id (UTF-8)}: the first frame of
 * a connection; the process id is the rank's {@link org.am2j.spi.ProcessIdentity#currentProcessId()}, the one its
 * endpoint names carry.</li>
 * <li>{@link #BARRIER}: no payload.</li>
 * <li>{@link #ALL_GATHER}: the rank's contribution, 0 to {@link #MAX_CONTRIBUTION} bytes.</li>
 * <li>{@link #GOODBYE}: no payload; the rank leaves the job (it closed it) and then closes the connection.</li>
 * </ul>
 * Server to client:
 * <ul>
 * <li>{@link #WELCOME}: {@code count (32) | process id (64) x count}, in rank order: every rank of the job has said
 * hello; {@code count} is the job's size.</li>
 * <li>{@link #BARRIER_DONE}: no payload.</li>
 * <li>{@link #ALL_GATHER_DONE}: {@code count (32)}, then {@code count} times {@code length (32) | bytes}, in rank
 * order; {@code count} is the job's size.</li>
 * <li>{@link #FAILED}: {@code blamed rank (32) | message (UTF-8, the rest)}: the job can run no more collectives;
 * the blamed rank is -1 when no single rank is to blame (a timeout). Sent at any time.</li>
 * <li>{@link #RANK_LOST}: {@code lost rank (32)}, collective number 0: a rank's connection closed without a
 * {@link #GOODBYE} (its process died, or it broke the protocol); the receiver treats that rank's process as dead
 * (see {@link org.am2j.core.AmRuntime#processGone(long)}). Sent at any time after the welcome, once per lost rank.</li>
 * </ul>
 * A frame with a wrong magic, version, type, rank, collective number or a length above the bound of its type closes
 * the connection.
 */
public final class RendezvousDescriptor
{
    /** 'A' '2' 'R' 'V'. */
    public static final int MAGIC = 0x41325256;
    /** Version of the frame layout. */
    public static final int VERSION = 2;
    /** Length of the frame header. */
    public static final int HEADER_LENGTH = 24;

    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version. */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the type. */
    public static final int TYPE_OFFSET = 5;
    /** Offset of the rank. */
    public static final int RANK_OFFSET = 8;
    /** Offset of the payload length. */
    public static final int LENGTH_OFFSET = 12;
    /** Offset of the collective number. */
    public static final int COLLECTIVE_OFFSET = 16;

    /** Client: join the job. */
    public static final int HELLO = 1;
    /** Client: enter a barrier. */
    public static final int BARRIER = 2;
    /** Client: contribute to an all-gather. */
    public static final int ALL_GATHER = 3;
    /** Client: leave the job. */
    public static final int GOODBYE = 4;
    /** Server: every rank has joined. */
    public static final int WELCOME = 65;
    /** Server: every rank has entered the barrier. */
    public static final int BARRIER_DONE = 66;
    /** Server: the contributions of every rank. */
    public static final int ALL_GATHER_DONE = 67;
    /** Server: the job has failed. */
    public static final int FAILED = 68;
    /** Server: a rank's connection was lost without a goodbye. */
    public static final int RANK_LOST = 69;

    /** Largest contribution of one rank to an all-gather, in bytes. */
    public static final int MAX_CONTRIBUTION = 64 * 1024;
    /** Largest job id, in UTF-8 bytes. */
    public static final int MAX_JOB_ID_BYTES = 256;
    /** Largest payload of a {@link #HELLO}. */
    public static final int MAX_HELLO_PAYLOAD = 4 + 8 + 2 + MAX_JOB_ID_BYTES;
    /** Length of a {@link #RANK_LOST} payload. */
    public static final int RANK_LOST_PAYLOAD = 4;
    /** Longest message of a {@link #FAILED}, in characters (at most three UTF-8 bytes each). */
    public static final int MAX_FAILURE_CHARS = 1024;
    /** Largest payload of a {@link #FAILED}. */
    public static final int MAX_FAILED_PAYLOAD = 4 + 3 * MAX_FAILURE_CHARS;

    private RendezvousDescriptor()
    {
    }

    /**
     * @param type of a frame from a client.
     * @return the largest payload allowed for it, or -1 when it is not a client frame type.
     */
    public static int maxClientPayload(final int type)
    {
        return switch (type)
        {
            case HELLO -> MAX_HELLO_PAYLOAD;
            case BARRIER, GOODBYE -> 0;
            case ALL_GATHER -> MAX_CONTRIBUTION;
            default -> -1;
        };
    }

    /**
     * @param type of a frame from the server.
     * @param size number of ranks in the job.
     * @return the largest payload allowed for it, or -1 when it is not a server frame type.
     */
    public static long maxServerPayload(final int type, final int size)
    {
        return switch (type)
        {
            case WELCOME -> 4 + 8L * size;
            case RANK_LOST -> RANK_LOST_PAYLOAD;
            case BARRIER_DONE -> 0;
            case ALL_GATHER_DONE -> 4 + (long)size * (4 + MAX_CONTRIBUTION);
            case FAILED -> MAX_FAILED_PAYLOAD;
            default -> -1;
        };
    }

    /**
     * @param type of a frame.
     * @return its name, for messages.
     */
    public static String typeName(final int type)
    {
        return switch (type)
        {
            case HELLO -> "HELLO";
            case BARRIER -> "BARRIER";
            case ALL_GATHER -> "ALL_GATHER";
            case GOODBYE -> "GOODBYE";
            case WELCOME -> "WELCOME";
            case BARRIER_DONE -> "BARRIER_DONE";
            case ALL_GATHER_DONE -> "ALL_GATHER_DONE";
            case FAILED -> "FAILED";
            case RANK_LOST -> "RANK_LOST";
            default -> "type " + type;
        };
    }

    /**
     * @param type BARRIER or ALL_GATHER (or their DONE answers).
     * @return the name of the collective call, for messages.
     */
    public static String collectiveName(final int type)
    {
        return type == BARRIER || type == BARRIER_DONE ? "barrier" : "allGather";
    }

    /**
     * Write a frame header at the start of a buffer (absolute puts, the position is unchanged).
     *
     * @param buffer        of at least {@link #HEADER_LENGTH} bytes, big-endian.
     * @param type          of the frame.
     * @param rank          sender (client frames) or receiver (server frames).
     * @param payloadLength bytes following the header.
     * @param collective    collective number.
     */
    public static void writeHeader(
        final ByteBuffer buffer, final int type, final int rank, final int payloadLength, final long collective)
    {
        buffer.putInt(MAGIC_OFFSET, MAGIC);
        buffer.put(VERSION_OFFSET, (byte)VERSION);
        buffer.put(TYPE_OFFSET, (byte)type);
        buffer.putShort(TYPE_OFFSET + 1, (short)0);
        buffer.putInt(RANK_OFFSET, rank);
        buffer.putInt(LENGTH_OFFSET, payloadLength);
        buffer.putLong(COLLECTIVE_OFFSET, collective);
    }

    /**
     * The checks every frame header passes, on either side.
     *
     * @param buffer     holding a frame header at index 0.
     * @param maxPayload the largest payload of a frame type this side takes, -1 for a type it does not take
     *                   ({@link #maxClientPayload(int)}, or {@link #maxServerPayload(int, int)} for the job's size).
     * @return the reason the magic or version is wrong, the type unknown or the payload length outside [0, max], or
     * {@code null} when the header passes.
     */
    public static String checkHeader(final ByteBuffer buffer, final IntToLongFunction maxPayload)
    {
        final int magic = buffer.getInt(MAGIC_OFFSET);
        if (magic != MAGIC)
        {
            return "wrong magic 0x" + Integer.toHexString(magic) + ", expected 0x" + Integer.toHexString(MAGIC);
        }
        final int version = buffer.get(VERSION_OFFSET) & 0xFF;
        if (version != VERSION)
        {
            return "unsupported version " + version + ", expected " + VERSION;
        }
        final int type = type(buffer);
        final long max = maxPayload.applyAsLong(type);
        if (max < 0)
        {
            return "unknown frame type " + type;
        }
        final int length = payloadLength(buffer);
        if (length < 0 || length > max)
        {
            return "payload length " + length + " of " + typeName(type) + " is outside [0, " + max + "]";
        }
        return null;
    }

    /**
     * @param buffer holding a frame header at index 0.
     * @return the frame type.
     */
    public static int type(final ByteBuffer buffer)
    {
        return buffer.get(TYPE_OFFSET) & 0xFF;
    }

    /**
     * @param buffer holding a frame header at index 0.
     * @return the rank field.
     */
    public static int rank(final ByteBuffer buffer)
    {
        return buffer.getInt(RANK_OFFSET);
    }

    /**
     * @param buffer holding a frame header at index 0.
     * @return the payload length field, possibly negative in a bad frame.
     */
    public static int payloadLength(final ByteBuffer buffer)
    {
        return buffer.getInt(LENGTH_OFFSET);
    }

    /**
     * @param buffer holding a frame header at index 0.
     * @return the collective number field.
     */
    public static long collective(final ByteBuffer buffer)
    {
        return buffer.getLong(COLLECTIVE_OFFSET);
    }
}
