package org.am2j.api;

/**
 * The AM-II error codes carried by {@link AmException} and returned by the non-throwing calls of the hot path.
 * <p>
 * The numeric codes are those of the AM-II specification; {@link Am#OK} (0) means success.
 */
public enum AmError
{
    /** The library, bundle or endpoint is not initialised, or has been freed. */
    NOT_INIT(1),
    /** An argument is outside its allowed range, null, or of the wrong kind. */
    BAD_ARG(2),
    /** A resource (memory, files, translation entries, handler entries) is exhausted. */
    RESOURCE(3),
    /** The message could not be sent. */
    NOT_SENT(4),
    /** The resource is in use: an asynchronous send would block, or another thread holds a SEQ bundle. */
    IN_USE(5);

    private static final AmError[] BY_CODE = { null, NOT_INIT, BAD_ARG, RESOURCE, NOT_SENT, IN_USE };

    private final int code;

    AmError(final int code)
    {
        this.code = code;
    }

    /**
     * @return the numeric AM-II code of this error.
     */
    public int code()
    {
        return code;
    }

    /**
     * @param code a numeric AM-II error code.
     * @return the error with that code, or {@code null} for {@link Am#OK} or an unknown code.
     */
    public static AmError fromCode(final int code)
    {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
