package org.am2j.api;

import org.agrona.DirectBuffer;

/**
 * The opaque token handed to a handler (AM-II's token_t): who sent the message, and the one way to reply to it.
 * <p>
 * A token is valid only while its handler runs. Only a request handler may reply, and at most once; a reply handler
 * or a returned-message handler that replies, or a reply after the handler returned, throws {@link AmException} with
 * {@link AmError#BAD_ARG}; a second reply from one request handler throws it with {@link AmError#RESOURCE}, as AMUDP
 * and AMMPI return {@code AM_ERR_RESOURCE}. Replies travel back by the medium their request came by.
 * <p>
 * Every reply returns {@link Am#OK}; a reply waits while the requester's reply queue is full, polling only reply
 * queues meanwhile so that floods of requests cannot deadlock replies.
 */
public interface Token
{
    /**
     * @return the name of the endpoint that sent the message (AM_GetSourceEndpoint).
     */
    EndpointName sourceName();

    /**
     * @return the tag the message carried (AM_GetMsgTag).
     */
    long messageTag();

    /**
     * @return the endpoint the message was delivered to (AM_GetDestEndpoint).
     */
    Endpoint destination();

    /**
     * @return true when the message is a request, so this token may reply.
     */
    boolean isRequest();

    /**
     * @return true once this token has been used to reply.
     */
    boolean hasReplied();

    /**
     * The general form of every reply: the overloads below call it.
     *
     * @param category      short, medium or long.
     * @param handler       index of the handler to run at the requester, 0 to {@link Am#NUM_HANDLERS} - 1.
     * @param src           data to send (ignored for short replies; may then be null).
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @param segmentOffset for a long reply, where to write the data in the requester's segment.
     * @param argCount      number of arguments, 0 to {@link Am#MAX_SHORT}.
     * @param a0            argument 0 (ignored beyond argCount).
     * @param a1            argument 1.
     * @param a2            argument 2.
     * @param a3            argument 3.
     * @param a4            argument 4.
     * @param a5            argument 5.
     * @param a6            argument 6.
     * @param a7            argument 7.
     * @return {@link Am#OK}.
     */
    int replyN(
        MessageCategory category, int handler, DirectBuffer src, int srcOffset, int length, long segmentOffset,
        int argCount, int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7);

    /**
     * Short reply with 0 arguments (AM_Reply0).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(final int handler)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short reply with 1 argument (AM_Reply1).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(final int handler, final int a0)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short reply with 2 arguments (AM_Reply2).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(final int handler, final int a0, final int a1)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short reply with 3 arguments (AM_Reply3).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(final int handler, final int a0, final int a1, final int a2)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Short reply with 4 arguments (AM_Reply4).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(final int handler, final int a0, final int a1, final int a2, final int a3)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Short reply with 5 arguments (AM_Reply5).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(final int handler, final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Short reply with 6 arguments (AM_Reply6).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(
        final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Short reply with 7 arguments (AM_Reply7).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(
        final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Short reply with 8 arguments (AM_Reply8).
     *
     * @param handler index of the handler at the requester.
     * @return {@link Am#OK}.
     */
    default int reply(
        final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return replyN(MessageCategory.SHORT, handler, null, 0, 0, -1, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }

    /**
     * Medium reply with 0 arguments; the data is handed to the handler (AM_ReplyI0).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(final int handler, final DirectBuffer src, final int srcOffset, final int length)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium reply with 1 argument; the data is handed to the handler (AM_ReplyI1).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium reply with 2 arguments; the data is handed to the handler (AM_ReplyI2).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium reply with 3 arguments; the data is handed to the handler (AM_ReplyI3).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Medium reply with 4 arguments; the data is handed to the handler (AM_ReplyI4).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Medium reply with 5 arguments; the data is handed to the handler (AM_ReplyI5).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Medium reply with 6 arguments; the data is handed to the handler (AM_ReplyI6).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Medium reply with 7 arguments; the data is handed to the handler (AM_ReplyI7).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Medium reply with 8 arguments; the data is handed to the handler (AM_ReplyI8).
     *
     * @param handler   index of the handler at the requester.
     * @param src       data to send.
     * @param srcOffset of the data in src.
     * @param length    of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int replyMedium(
        final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return replyN(MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }

    /**
     * Long reply with 0 arguments; the data is written into the requester's segment (AM_ReplyXfer0).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long reply with 1 argument; the data is written into the requester's segment (AM_ReplyXfer1).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long reply with 2 arguments; the data is written into the requester's segment (AM_ReplyXfer2).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long reply with 3 arguments; the data is written into the requester's segment (AM_ReplyXfer3).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Long reply with 4 arguments; the data is written into the requester's segment (AM_ReplyXfer4).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Long reply with 5 arguments; the data is written into the requester's segment (AM_ReplyXfer5).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Long reply with 6 arguments; the data is written into the requester's segment (AM_ReplyXfer6).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Long reply with 7 arguments; the data is written into the requester's segment (AM_ReplyXfer7).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Long reply with 8 arguments; the data is written into the requester's segment (AM_ReplyXfer8).
     *
     * @param handler       index of the handler at the requester.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the requester's segment.
     * @return {@link Am#OK}.
     */
    default int replyLong(
        final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return replyN(MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }
}
