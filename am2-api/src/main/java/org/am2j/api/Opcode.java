package org.am2j.api;

/**
 * The kind of a message: request or reply, and short, medium or long. Codes are stable and used on the wire.
 */
public enum Opcode
{
    /** A request with arguments only (AM_Request). */
    REQUEST_SHORT(0, true, MessageCategory.SHORT),
    /** A request with arguments and up to {@link Am#MAX_MEDIUM} bytes handed to the handler (AM_RequestI). */
    REQUEST_MEDIUM(1, true, MessageCategory.MEDIUM),
    /** A request with arguments and up to {@link Am#MAX_LONG} bytes written into the segment (AM_RequestXfer). */
    REQUEST_LONG(2, true, MessageCategory.LONG),
    /** A reply with arguments only (AM_Reply). */
    REPLY_SHORT(3, false, MessageCategory.SHORT),
    /** A reply with arguments and data handed to the handler (AM_ReplyI). */
    REPLY_MEDIUM(4, false, MessageCategory.MEDIUM),
    /** A reply with arguments and data written into the segment (AM_ReplyXfer). */
    REPLY_LONG(5, false, MessageCategory.LONG);

    private static final Opcode[] BY_CODE =
        { REQUEST_SHORT, REQUEST_MEDIUM, REQUEST_LONG, REPLY_SHORT, REPLY_MEDIUM, REPLY_LONG };

    /** Number of opcodes. */
    public static final int COUNT = BY_CODE.length;

    private final int code;
    private final boolean request;
    private final MessageCategory category;

    Opcode(final int code, final boolean request, final MessageCategory category)
    {
        this.code = code;
        this.request = request;
        this.category = category;
    }

    /**
     * @return the stable numeric code of this opcode.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return true for requests, false for replies.
     */
    public boolean isRequest()
    {
        return request;
    }

    /**
     * @return short, medium or long.
     */
    public MessageCategory category()
    {
        return category;
    }

    /**
     * @param request  true for a request.
     * @param category the message category.
     * @return the opcode with those properties.
     */
    public static Opcode of(final boolean request, final MessageCategory category)
    {
        if (null == category)
        {
            // Not AmException.checkNotNull: the JIT never inlines a method of an exception class into another
            // class's code, and this is on every send.
            throw new AmException(AmError.BAD_ARG, "category must not be null");
        }
        return BY_CODE[(request ? 0 : 3) + category.ordinal()];
    }

    /**
     * @param code a numeric opcode.
     * @return the opcode, or {@code null} when the code is unknown (allocation free).
     */
    public static Opcode fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
