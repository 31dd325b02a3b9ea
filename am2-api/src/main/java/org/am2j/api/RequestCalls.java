package org.am2j.api;

import org.agrona.DirectBuffer;

/**
 * AM-II's short and medium request calls of an {@link Endpoint}, one per argument count (AM_Request0 to 8,
 * AM_RequestI0 to 8), each a default method over the general form {@link #requestN}, which the endpoint implements;
 * the long ones are in {@link TransferCalls}. Call them on the endpoint; these interfaces only keep them apart from
 * the rest of its API.
 */
public interface RequestCalls
{
    /**
     * The general form of every request: the calls below call it.
     *
     * @param destination   index in the translation table.
     * @param category      short, medium or long.
     * @param handler       index of the handler at the destination, 0 to {@link Am#NUM_HANDLERS} - 1.
     * @param src           data to send (ignored for short requests; may then be null).
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @param segmentOffset for a long request, where the data goes in the destination's segment.
     * @param async         when true, return the code of {@link AmError#IN_USE} instead of waiting for queue space.
     * @param argCount      number of arguments, 0 to {@link Am#MAX_SHORT}.
     * @param a0            argument 0 (ignored beyond argCount).
     * @param a1            argument 1.
     * @param a2            argument 2.
     * @param a3            argument 3.
     * @param a4            argument 4.
     * @param a5            argument 5.
     * @param a6            argument 6.
     * @param a7            argument 7.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} for a full queue when async.
     */
    int requestN(
        int destination, MessageCategory category, int handler, DirectBuffer src, int srcOffset, int length,
        long segmentOffset, boolean async, int argCount, int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7);

    /**
     * Short request with 0 arguments (AM_Request0).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 1 argument (AM_Request1).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler, final int a0)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 2 arguments (AM_Request2).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler, final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 3 arguments (AM_Request3).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler, final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 4 arguments (AM_Request4).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Short request with 5 arguments (AM_Request5).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Short request with 6 arguments (AM_Request6).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Short request with 7 arguments (AM_Request7).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Short request with 8 arguments (AM_Request8).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }

    /**
     * Medium request with 0 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI0).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 1 argument; the data is handed to the handler in a temporary buffer (AM_RequestI1).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 2 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI2).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 3 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI3).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 4 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI4).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Medium request with 5 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI5).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Medium request with 6 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI6).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Medium request with 7 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI7).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Medium request with 8 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI8).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }
}
