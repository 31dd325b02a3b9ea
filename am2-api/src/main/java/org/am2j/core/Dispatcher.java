package org.am2j.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.Am;
import org.am2j.api.Handler;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.core.stats.ProtocolCounters;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.MessageSink;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.am2j.spi.SegmentBounds;
import org.am2j.spi.TransportQueues;

/**
 * The dispatcher of one transport's messages for one endpoint: it checks each message against the endpoint (tag,
 * opcode, argument count, lengths, handler, segment range), runs its handler routine, and sends back what it cannot
 * deliver as a returned message. Nothing a peer writes makes it throw or read out of bounds.
 * <p>
 * The transport's receive side (its queue structures) finds the messages and hands them over one at a time through
 * {@link #onMessage}; this class only judges and runs them.
 */
final class Dispatcher implements MessageSink
{
    final TransportQueues transportQueues;
    final ProtocolCounters counters;
    private final EndpointCore endpoint;
    /** The sink of {@link #returnQueued}: every message it is handed goes back instead of to its handler. */
    private final MessageSink returns = this::onMessageAfterClose;
    private DispatchContext context;

    Dispatcher(
        final EndpointCore endpoint, final TransportQueues transportQueues, final ProtocolCounters counters)
    {
        this.endpoint = endpoint;
        this.transportQueues = transportQueues;
        this.counters = counters;
    }

    /*
     * Three copies of the same poll, so that each transport's poll is called from a call site of its own: the
     * compiler inlines a call site that has seen one or two receiver classes, and calls through the interface table
     * one that has seen three (in-process, shared memory, network). The context is the polling thread's: nested
     * polls (a reply waiting for queue space) are made by the same thread, and only one thread at a time polls an
     * endpoint (SEQ by contract, PAR by the endpoint's poll ownership), so it needs no restoring afterwards.
     */

    /**
     * Poll the in-process transport, the first of every endpoint.
     */
    int pollInProcess(final DispatchContext context, final int budget, final boolean repliesOnly)
    {
        useContext(context);
        counters.onPoll();
        return transportQueues.poll(this, budget, repliesOnly);
    }

    /**
     * Poll a local transport other than the in-process one (shared memory).
     */
    int pollShared(final DispatchContext context, final int budget, final boolean repliesOnly)
    {
        useContext(context);
        counters.onPoll();
        return transportQueues.poll(this, budget, repliesOnly);
    }

    /**
     * Poll a network transport.
     */
    int pollNetwork(final DispatchContext context, final int budget, final boolean repliesOnly)
    {
        useContext(context);
        counters.onPoll();
        return transportQueues.poll(this, budget, repliesOnly);
    }

    /**
     * The endpoint is being freed: have the transport refuse new messages and hand over what is queued, each of which
     * goes back to where it came from ({@link #onMessageAfterClose}).
     *
     * @param context of the freeing thread, outside any handler.
     * @return messages handed over.
     */
    int returnQueued(final DispatchContext context)
    {
        useContext(context);
        return transportQueues.returnQueued(returns);
    }

    /**
     * Point this dispatcher at the polling thread's context, before its transport hands it messages.
     */
    void useContext(final DispatchContext context)
    {
        // Stored only when another thread polls: a reference store costs a garbage collector barrier on every poll.
        if (this.context != context)
        {
            this.context = context;
        }
    }

    /**
     * The one entry of a transport's messages. The common case, a short or medium message that passes every check,
     * is judged here in a few reads of the header and handed to its handler; anything else (a returned message, a
     * long message, one that fails a check, one too deeply nested) goes to {@link #judge}, which makes every check
     * again in order and decides. Kept small on purpose: the compiler inlines it into each transport's receive loop,
     * where the message's class is known, so the header reads are plain loads there and not interface calls through
     * a call site that has seen every transport's message class.
     */
    @Override
    public void onMessage(final InboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        if (null != opcode && 0 == message.returnStatus() && MessageCategory.LONG != opcode.category())
        {
            final int argCount = message.argCount();
            final int dataLength = message.dataLength();
            final int handlerIndex = message.handler();
            final boolean request = opcode.isRequest();
            final Handler handler;
            if ((!request || Tags.accepts(endpoint.tag(), message.tag())) && argCount >= 0 && argCount <= Am.MAX_SHORT &&
                (0 == dataLength || lengthValid(message, opcode.category(), dataLength)) &&
                handlerIndex >= 1 && handlerIndex < Am.NUM_HANDLERS &&
                null != (handler = endpoint.handlers.get(handlerIndex)) && context.canNest())
            {
                counters.onReceived(request, dataLength);
                // A request's way back is resolved here, once, before its handler runs (see Delivery#replyRoute).
                run(handler, message, request ? message.replyRoute() : null, opcode, null, argCount, dataLength);
                return;
            }
        }
        judge(message);
    }

    /**
     * Every check of a message, in order, then its handler, its return to its sender, or its drop.
     */
    private void judge(final InboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        final int status = message.returnStatus();
        if (null == opcode)
        {
            counters.drop();
            return;
        }
        if (0 != status)
        {
            deliverReturned(message, opcode, status);
            return;
        }

        final int argCount = message.argCount();
        final int dataLength = message.dataLength();
        final int handlerIndex = message.handler();
        final MessageCategory category = opcode.category();
        final Handler handler;
        final int segmentStatus;
        if (opcode.isRequest() && !Tags.accepts(endpoint.tag(), message.tag()))
        {
            returnToSender(message, opcode, ReturnStatus.EBADTAG);
        }
        else if (argCount < 0 || argCount > Am.MAX_SHORT)
        {
            returnToSender(message, opcode, ReturnStatus.EBADARGS);
        }
        else if (!lengthValid(message, category, dataLength))
        {
            returnToSender(message, opcode, ReturnStatus.EBADLENGTH);
        }
        else if (handlerIndex < 1 || handlerIndex >= Am.NUM_HANDLERS ||
            null == (handler = endpoint.handlers.get(handlerIndex)))
        {
            returnToSender(message, opcode, ReturnStatus.EBADHANDLER);
        }
        else if (MessageCategory.LONG == category && 0 != (segmentStatus = segmentStatus(message, dataLength)))
        {
            returnToSender(message, opcode, ReturnStatus.fromCode(segmentStatus));
        }
        else if (!context.canNest())
        {
            counters.drop();
        }
        else
        {
            counters.onReceived(opcode.isRequest(), dataLength);
            // A request's way back is resolved here, once, before its handler runs (see Delivery#replyRoute).
            run(handler, message, opcode.isRequest() ? message.replyRoute() : null, opcode, null, argCount,
                dataLength);
        }
    }

    /**
     * A message queued for the endpoint being freed: it was not delivered and never will be. A request goes back to
     * its sender's handler 0 with EBADENDPOINT and a reply to its replier's with EREPLYREJECTED (AM-II's returned
     * messages, counted by whoever receives them); one this endpoint sent itself is returned here, to its own
     * handler 0, as is a returned message of its own that was waiting in its queue. Nothing runs a handler other
     * than handler 0.
     */
    private void onMessageAfterClose(final InboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        if (null == opcode)
        {
            counters.drop();
            return;
        }
        final int status = message.returnStatus();
        if (0 != status)
        {
            deliverReturned(message, opcode, status);
            return;
        }
        final ReturnStatus refusal = opcode.isRequest() ? ReturnStatus.EBADENDPOINT : ReturnStatus.EREPLYREJECTED;
        if (endpoint.isSelf(message.replyRoute()))
        {
            deliverReturned(message, opcode, refusal.code());
        }
        else
        {
            returnToSender(message, opcode, refusal);
        }
    }

    private void deliverReturned(final InboundMessage message, final Opcode opcode, final int status)
    {
        final ReturnStatus returnStatus = ReturnStatus.fromCode(status);
        final int argCount = message.argCount();
        final int dataLength = message.dataLength();
        if (null == returnStatus || argCount < 0 || argCount > Am.MAX_SHORT || !inlineDataValid(message, dataLength) ||
            !context.canNest())
        {
            counters.drop();
            return;
        }
        endpoint.counters.onReturned(returnStatus);
        run(endpoint.handlers.get(0), message, null, opcode, returnStatus, argCount, dataLength);
    }

    private void run(
        final Handler handler, final InboundMessage message, final Route replyRoute, final Opcode opcode,
        final ReturnStatus returnStatus, final int argCount, final int dataLength)
    {
        final DispatchContext context = this.context;
        final Delivery delivery = context.nextDelivery();
        // The data is located only for a message that has some (Delivery#begin reads it only then).
        final boolean hasData = 0 != dataLength;
        delivery.begin(endpoint, this, message, replyRoute, opcode, returnStatus, argCount,
            hasData ? message.dataBuffer() : null, hasData ? message.dataOffset() : 0, dataLength);
        context.depth++;
        try
        {
            handler.onMessage(delivery, delivery);
        }
        finally
        {
            context.depth--;
            delivery.end();
        }
    }

    private void returnToSender(final InboundMessage message, final Opcode opcode, final ReturnStatus status)
    {
        final int argCount = Math.max(0, Math.min(Am.MAX_SHORT, message.argCount()));
        final int dataLength = message.dataLength();
        final boolean withData = MessageCategory.MEDIUM == opcode.category() && inlineDataValid(message, dataLength);
        // Not the frame of this depth: a send waiting for queue space may be polling with it (the poll that found
        // this message), and would send whatever this built in it.
        final OutboundMessage frame = context.acquireReturnFrame();
        try
        {
            endpoint.sender.sendReturned(context, this, message.replyRoute(),
                frame.header(opcode.code(), status.code(), message.handler(), message.tag())
                    .args(argCount, message.arg(0), message.arg(1), message.arg(2), message.arg(3), message.arg(4),
                        message.arg(5), message.arg(6), message.arg(7))
                    .data(withData ? message.dataBuffer() : null, withData ? message.dataOffset() : 0,
                        withData ? dataLength : 0, -1)
                    .source(endpoint.endpointId()));
        }
        finally
        {
            context.releaseReturnFrame();
        }
    }

    private static boolean lengthValid(final InboundMessage message, final MessageCategory category, final int length)
    {
        // Not a switch: a switch on an enum reads a synthetic ordinal map first, on every message.
        if (MessageCategory.SHORT == category)
        {
            return 0 == length;
        }
        if (MessageCategory.MEDIUM == category)
        {
            return length <= Am.MAX_MEDIUM && inlineDataValid(message, length);
        }
        return length >= 0 && length <= Am.MAX_LONG;
    }

    private static boolean inlineDataValid(final InboundMessage message, final int length)
    {
        if (0 == length)
        {
            return true;
        }
        final DirectBuffer buffer = message.dataBuffer();
        final int offset = message.dataOffset();
        return length > 0 && null != buffer && offset >= 0 && offset <= buffer.capacity() - length;
    }

    /**
     * @return 0 when the transport deposited the data in this endpoint's segment at the message's offset, else why
     * not: the segment bounds' status ({@link SegmentBounds}), or {@link ReturnStatus#EBADSEGOFF} when the range is
     * good but the data is not there (the segment changed while the message travelled).
     */
    private int segmentStatus(final InboundMessage message, final int length)
    {
        final AtomicBuffer segment = endpoint.segment();
        final long offset = message.segmentOffset();
        final int bounds = SegmentBounds.check(segment, offset, length);
        if (0 != bounds)
        {
            return bounds;
        }
        return message.dataBuffer() == segment && offset == message.dataOffset() ? 0 : ReturnStatus.EBADSEGOFF.code();
    }
}
