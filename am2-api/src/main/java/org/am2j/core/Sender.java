package org.am2j.core;

import org.agrona.DirectBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.core.stats.ProtocolCounters;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;

/**
 * The send operations of one endpoint: requests (short, medium, long, and bulk transfers cut into long messages),
 * the reply a request handler sends through its token, and returned messages. Each goes through the route of its
 * translation table entry (or the inverse mapping of the request it answers); a full queue is waited out polling
 * the bundle, a refusal becomes a returned message to this endpoint's own handler 0.
 */
final class Sender
{
    /** Returned messages that find their queue full are retried this many times, polling, before being dropped. */
    private static final int RETURN_ATTEMPTS = 10_000;

    private final EndpointCore endpoint;

    Sender(final EndpointCore endpoint)
    {
        this.endpoint = endpoint;
    }

    /**
     * A request of any category; see {@link org.am2j.api.Endpoint#requestN}.
     */
    int request(
        final int destination, final MessageCategory category, final int handler, final DirectBuffer src,
        final int srcOffset, final int length, final long segmentOffset, final boolean async, final int argCount,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        final BundleCore b = endpoint.bundle;
        final DispatchContext context = b.enterWithContext("request");
        endpoint.exitIfClosed(b, "request");
        try
        {
            checkNotInHandler(context, "a request");
            final Translation translation = endpoint.translations.get(destination);
            MessageChecks.check(category, handler, src, srcOffset, length, segmentOffset, argCount);
            if (b.pollsBeforeSend())
            {
                // The paper's send polls first: handlers of messages waiting here run before this request adds to
                // the traffic (they run one level deeper, so this depth's frame below is not theirs).
                b.pollForProgress(context, false);
            }
            if (MessageCategory.SHORT == category && Route.SENT == translation.route.sendShort(context.frame(),
                Opcode.REQUEST_SHORT.code(), handler, translation.tag, endpoint.endpointId, argCount, a0, a1, a2, a3,
                a4, a5, a6, a7))
            {
                // The common case, written straight into the destination; anything else (a full queue, a refusal)
                // takes the frame path below, which tries again, backs off or returns the message.
                translation.counters.onRequestSent();
                b.sent();
                return Am.OK;
            }
            final OutboundMessage frame = context.frame()
                .header(Opcode.of(true, category).code(), 0, handler, translation.tag)
                .args(argCount, a0, a1, a2, a3, a4, a5, a6, a7)
                .data(MessageCategory.SHORT == category ? null : src, srcOffset,
                    MessageCategory.SHORT == category ? 0 : length, segmentOffset)
                .source(endpoint.endpointId);
            return sendRequest(context, translation, frame, async);
        }
        finally
        {
            b.exit();
        }
    }

    /**
     * A bulk transfer: long requests of at most {@link Am#MAX_LONG} bytes each; see
     * {@link org.am2j.api.Endpoint#requestBulk}. Called inside the bundle's thread guard.
     *
     * @return the number of long requests sent.
     */
    int requestBulk(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final long segmentOffset, final int a0, final int a1)
    {
        AmException.checkNotNull("src", src);
        if (length < 0 || srcOffset < 0 || srcOffset > src.capacity() - length)
        {
            throw new AmException(AmError.BAD_ARG, "srcOffset = " + srcOffset + " with length = " + length +
                " is outside the source buffer [0, " + src.capacity() + ")");
        }
        if (segmentOffset < 0 || segmentOffset > Am.MAX_SEGMENT_LENGTH - (long)length)
        {
            throw new AmException(AmError.BAD_ARG, "segmentOffset = " + segmentOffset + " is outside [0, " +
                (Am.MAX_SEGMENT_LENGTH - (long)length) + "] for length " + length);
        }
        int sent = 0;
        int done = 0;
        do
        {
            final int chunk = Math.min(Am.MAX_LONG, length - done);
            request(destination, MessageCategory.LONG, handler, src, srcOffset + done, chunk, segmentOffset + done,
                false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
            done += chunk;
            sent++;
        }
        while (done < length);
        return sent;
    }

    private int sendRequest(
        final DispatchContext context, final Translation translation, final OutboundMessage frame, final boolean async)
    {
        final ProtocolCounters protocol = translation.counters;
        int attempt = 0;
        while (true)
        {
            final int result = translation.route.send(frame);
            if (Route.SENT == result)
            {
                protocol.onSent(true, frame.dataLength());
                endpoint.bundle.sent();
                return Am.OK;
            }
            if (Route.FULL != result)
            {
                returnLocally(context, frame, result);
                return Am.OK;
            }
            if (async)
            {
                return AmError.IN_USE.code();
            }
            protocol.queueFullBackoff();
            if (0 == endpoint.bundle.pollForProgress(context, false))
            {
                attempt = Backoff.idle(attempt);
            }
        }
    }

    /**
     * Send a reply from a request handler, waiting out a full queue while polling reply queues only.
     */
    void sendReply(
        final DispatchContext context, final Dispatcher dispatcher, final Route route, final OutboundMessage frame)
    {
        int attempt = 0;
        while (true)
        {
            final int result = route.send(frame);
            if (Route.SENT == result)
            {
                dispatcher.counters.onSent(false, frame.dataLength());
                return;
            }
            if (Route.FULL != result)
            {
                returnLocally(context, frame, result);
                return;
            }
            dispatcher.counters.queueFullBackoff();
            if (0 == endpoint.bundle.pollForProgress(context, true))
            {
                attempt = Backoff.idle(attempt);
            }
        }
    }

    /**
     * Send a message this endpoint refused back to its sender. A returned message is never itself returned: when its
     * sender cannot take it, it is counted as a drop.
     */
    void sendReturned(
        final DispatchContext context, final Dispatcher dispatcher, final Route route, final OutboundMessage frame)
    {
        if (!sendBack(context, route, frame))
        {
            dispatcher.counters.drop();
        }
    }

    private void returnLocally(final DispatchContext context, final OutboundMessage frame, final int status)
    {
        frame.returnStatus(status);
        if (!sendBack(context, endpoint.selfRoute, frame))
        {
            endpoint.dispatchers[0].counters.drop();
        }
    }

    /**
     * Send a returned message, polling reply queues while its queue is full, for a bounded number of attempts: the
     * queue being waited on may be the one this thread is reading further up its stack.
     *
     * @return true when it was sent.
     */
    private boolean sendBack(final DispatchContext context, final Route route, final OutboundMessage frame)
    {
        int attempt = 0;
        while (attempt < RETURN_ATTEMPTS)
        {
            final int result = route.send(frame);
            if (Route.SENT == result)
            {
                return true;
            }
            if (Route.FULL != result)
            {
                return false;
            }
            attempt = 0 == endpoint.bundle.pollForProgress(context, true) ? Backoff.idle(attempt) : attempt + 1;
        }
        return false;
    }

    static void checkNotInHandler(final DispatchContext context, final String what)
    {
        if (0 != context.depth)
        {
            throw new AmException(AmError.BAD_ARG, what + " may not be made from inside a handler (handler depth " +
                context.depth + "); a request handler may only reply through its token");
        }
    }
}
