package org.am2j.splitc;

import org.am2j.api.ReturnStatus;

/**
 * A failure of the Split-C layer: a message that came back undelivered (with its {@link ReturnStatus}), a wait that
 * made no progress for longer than the stall limit, ranks that called collectives in different orders, or a bad
 * argument. Unchecked; a rank that gets one should exit with a non-zero status so that its launcher stops the job.
 */
public class SplitCException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient ReturnStatus status;

    /**
     * @param message what went wrong.
     */
    public SplitCException(final String message)
    {
        this(message, null);
    }

    /**
     * @param message what went wrong.
     * @param status  why a message came back, or {@code null} when the failure is not a returned message.
     */
    public SplitCException(final String message, final ReturnStatus status)
    {
        super(message);
        this.status = status;
    }

    /**
     * @return why a message came back undelivered, or {@code null} when this failure is not a returned message.
     */
    public ReturnStatus status()
    {
        return status;
    }
}
