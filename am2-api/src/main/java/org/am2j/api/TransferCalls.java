package org.am2j.api;

import org.agrona.DirectBuffer;

/**
 * AM-II's long request calls of an {@link Endpoint}, one per argument count (AM_RequestXfer0 to 8,
 * AM_RequestXferAsync0 to 8), each a default method over the general form {@link #requestN}. Call them on the
 * endpoint.
 */
public interface TransferCalls extends RequestCalls
{
    /**
     * Long request with 0 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer0). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 1 argument; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer1). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 2 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer2). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 3 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer3). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 4 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer4). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Long request with 5 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer5). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Long request with 6 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer6). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Long request with 7 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer7). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Long request with 8 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer8). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }

    /**
     * Long request with 0 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync0).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 1 argument that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync1).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 2 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync2).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 3 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync3).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 4 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync4).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Long request with 5 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync5).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Long request with 6 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync6).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Long request with 7 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync7).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Long request with 8 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync8).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }
}
