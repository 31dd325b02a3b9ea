package org.am2j.api;

/**
 * Why a message came back to its sender's handler 0 (the returned-message handler).
 * <p>
 * Numeric codes follow the AM-II specification. A returned message carries its status, the original opcode, handler
 * index, arguments and, for medium and long messages, the original data.
 */
public enum ReturnStatus
{
    /** The receiver found the message's arguments malformed (argument count, opcode). */
    EBADARGS(1),
    /** The translation table entry the message was sent through was not in use when it was processed. */
    EBADENTRY(2),
    /** The message's tag did not match the receiving endpoint's tag (or that tag is {@link Tags#NONE}). */
    EBADTAG(3),
    /** The handler index was out of range or had no handler installed at the receiver. */
    EBADHANDLER(4),
    /** A long message's segment offset and length fall outside the receiver's segment, or it has none. */
    EBADSEGOFF(5),
    /** A data length was beyond the maximum for the message kind or the bytes present. */
    EBADLENGTH(6),
    /** The destination endpoint does not exist (never did, or has been freed). */
    EBADENDPOINT(7),
    /**
     * The message was not delivered: it could not be delivered within the timeout (lost, or the destination was too
     * busy to take it), and the destination has acknowledged giving it up, so it will never run there.
     */
    ECONGESTION(8),
    /** The message never left the sender: its destination is known to be dead or cannot be reached. */
    EUNREACHABLE(9),
    /** A reply was refused: the endpoint it was addressed to has been freed or refuses all messages. */
    EREPLYREJECTED(10),
    /**
     * am2j's extension of AM-II's codes: the destination's process died (or its network interface did) while the
     * message was on its way, and whether its handler ran there is unknown. Every other status means the handler
     * did not run; this one alone says nothing either way. An application that must not run a handler twice treats
     * it as "maybe delivered".
     */
    EOUTCOMEUNKNOWN(11);

    private static final ReturnStatus[] BY_CODE =
        { null, EBADARGS, EBADENTRY, EBADTAG, EBADHANDLER, EBADSEGOFF, EBADLENGTH, EBADENDPOINT, ECONGESTION,
          EUNREACHABLE, EREPLYREJECTED, EOUTCOMEUNKNOWN };

    /** Number of status codes, for arrays indexed by {@link #code()}. */
    public static final int CODE_LIMIT = BY_CODE.length;

    private final int code;

    ReturnStatus(final int code)
    {
        this.code = code;
    }

    /**
     * @return the numeric AM-II code, from 1 to {@link #CODE_LIMIT} - 1.
     */
    public int code()
    {
        return code;
    }

    /**
     * @param code a numeric status code.
     * @return the status, or {@code null} when the code is unknown (allocation free).
     */
    public static ReturnStatus fromCode(final int code)
    {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
