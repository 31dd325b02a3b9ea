package org.am2j.api;

/**
 * Thrown when an AM-II call is misused: a bad argument, a freed endpoint, a broken request/reply rule.
 * <p>
 * The message names the argument and its allowed range. The endpoint or bundle the call was made on stays usable.
 * The hot path does not throw for conditions a correct program meets in normal operation (a full queue is waited out;
 * an asynchronous send that would block returns {@link AmError#IN_USE}).
 */
public class AmException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final AmError error;

    /**
     * @param error   the AM-II error code.
     * @param message what was wrong, naming the argument and its allowed range.
     */
    public AmException(final AmError error, final String message)
    {
        super(error.name() + ": " + message);
        this.error = error;
    }

    /**
     * @param error   the AM-II error code.
     * @param message what was wrong.
     * @param cause   the underlying failure.
     */
    public AmException(final AmError error, final String message, final Throwable cause)
    {
        super(error.name() + ": " + message, cause);
        this.error = error;
    }

    /**
     * @return the AM-II error code.
     */
    public AmError error()
    {
        return error;
    }

    /**
     * @return what was wrong: the message without the error code in front of it.
     */
    public String detail()
    {
        final String message = getMessage();
        final String prefix = error.name() + ": ";
        return null != message && message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /**
     * Throw {@link AmError#BAD_ARG} unless {@code min <= value < limit}.
     *
     * @param name  of the argument, for the message.
     * @param value of the argument.
     * @param min   smallest allowed value.
     * @param limit one past the largest allowed value.
     */
    public static void checkRange(final String name, final long value, final long min, final long limit)
    {
        if (value < min || value >= limit)
        {
            throw new AmException(AmError.BAD_ARG, name + " = " + value + " is outside [" + min + ", " + limit + ")");
        }
    }

    /**
     * Throw {@link AmError#BAD_ARG} when {@code value} is null.
     *
     * @param name  of the argument, for the message.
     * @param value of the argument.
     * @param <T>   type of the argument.
     * @return the value, for chaining.
     */
    public static <T> T checkNotNull(final String name, final T value)
    {
        if (null == value)
        {
            throw new AmException(AmError.BAD_ARG, name + " must not be null");
        }
        return value;
    }
}
