package org.am2j.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Token;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.Route;

/**
 * The flyweight a handler receives as both its {@link Token} and its {@link Message}: one per thread and nesting
 * depth, pointed at the transport's inbound message for the duration of one handler call.
 */
final class Delivery implements Token, Message
{
    private static final byte[] NO_DATA = new byte[0];

    private final DispatchContext context;
    private final int depth;
    private final UnsafeBuffer view = new UnsafeBuffer(NO_DATA);

    private EndpointCore endpoint;
    private Dispatcher dispatcher;
    private InboundMessage inbound;
    /**
     * The route a request's reply goes by, resolved when the request was dispatched (before its handler runs): a
     * mapping that changes while the handler runs does not redirect the reply. Left as it was by other messages,
     * which never use it (a reference store costs a garbage collector barrier).
     */
    private Route replyRoute;
    private Opcode opcode;
    private ReturnStatus returnStatus;
    private int argCount;
    private boolean active;
    private boolean replied;

    Delivery(final DispatchContext context, final int depth)
    {
        this.context = context;
        this.depth = depth;
    }

    void begin(
        final EndpointCore endpoint,
        final Dispatcher dispatcher,
        final InboundMessage inbound,
        final Route replyRoute,
        final Opcode opcode,
        final ReturnStatus returnStatus,
        final int argCount,
        final DirectBuffer data,
        final int dataOffset,
        final int dataLength)
    {
        // Each reference is stored only when it changes: consecutive messages mostly come from the same dispatcher
        // and queue, and a reference store into this long-lived object costs a garbage collector barrier (with
        // G1, a fence when the target lies in another region) where a compare costs a load.
        if (this.endpoint != endpoint)
        {
            this.endpoint = endpoint;
        }
        if (this.dispatcher != dispatcher)
        {
            this.dispatcher = dispatcher;
        }
        if (this.inbound != inbound)
        {
            this.inbound = inbound;
        }
        if (null != replyRoute && this.replyRoute != replyRoute)
        {
            this.replyRoute = replyRoute;
        }
        if (this.opcode != opcode)
        {
            this.opcode = opcode;
        }
        if (this.returnStatus != returnStatus)
        {
            this.returnStatus = returnStatus;
        }
        this.argCount = argCount;
        if (0 != dataLength)
        {
            view.wrap(data, dataOffset, dataLength);
        }
        else if (0 != view.capacity())
        {
            view.wrap(NO_DATA);
        }
        this.replied = false;
        this.active = true;
    }

    void end()
    {
        // The view and the inbound message keep pointing at the last message: every accessor checks that the delivery
        // is active first.
        active = false;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Token
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public EndpointName sourceName()
    {
        checkActive("sourceName");
        return null == returnStatus && opcode.isRequest() ? replyRoute.peer() : inbound.sourceName();
    }

    @Override
    public long messageTag()
    {
        checkActive("messageTag");
        return inbound.tag();
    }

    @Override
    public Endpoint destination()
    {
        checkActive("destination");
        return endpoint;
    }

    @Override
    public boolean isRequest()
    {
        checkActive("isRequest");
        return opcode.isRequest() && null == returnStatus;
    }

    @Override
    public boolean hasReplied()
    {
        checkActive("hasReplied");
        return replied;
    }

    @Override
    public int replyN(
        final MessageCategory category, final int handler, final DirectBuffer src, final int srcOffset,
        final int length, final long segmentOffset, final int argCount, final int a0, final int a1, final int a2,
        final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        checkActive("reply");
        if (null != returnStatus)
        {
            throw new AmException(AmError.BAD_ARG, "a returned-message handler may not reply");
        }
        if (!opcode.isRequest())
        {
            throw new AmException(AmError.BAD_ARG, "a reply handler may not reply (only request handlers reply)");
        }
        if (replied)
        {
            // AMUDP and AMMPI count the one reply a request may have as a resource the handler has used up
            throw new AmException(AmError.RESOURCE, "a request handler replies at most once; this token has replied");
        }
        MessageChecks.check(category, handler, src, srcOffset, length, segmentOffset, argCount);
        final boolean hasData = MessageCategory.SHORT != category;
        final Route route = replyRoute;
        if (!hasData && Route.SENT == route.sendShort(context.frame(), Opcode.REPLY_SHORT.code(), handler,
            inbound.tag(), endpoint.endpointId(), argCount, a0, a1, a2, a3, a4, a5, a6, a7))
        {
            // The common case; a full queue or a refusal takes the frame path below.
            dispatcher.counters.onReplySent();
            replied = true;
            return Am.OK;
        }
        endpoint.sender.sendReply(context, dispatcher, route,
            context.frame()
                .header(Opcode.of(false, category).code(), 0, handler, inbound.tag())
                .args(argCount, a0, a1, a2, a3, a4, a5, a6, a7)
                .data(hasData ? src : null, hasData ? srcOffset : 0, hasData ? length : 0,
                    MessageCategory.LONG == category ? segmentOffset : -1)
                .source(endpoint.endpointId()));
        replied = true;
        return Am.OK;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Message
    // ----------------------------------------------------------------------------------------------------------------

    @Override
    public Opcode opcode()
    {
        checkActive("opcode");
        return opcode;
    }

    @Override
    public MessageCategory category()
    {
        checkActive("category");
        return opcode.category();
    }

    @Override
    public int handlerIndex()
    {
        checkActive("handlerIndex");
        return inbound.handler();
    }

    @Override
    public int argCount()
    {
        checkActive("argCount");
        return argCount;
    }

    @Override
    public int arg(final int index)
    {
        checkActive("arg");
        if (index < 0 || index >= argCount)
        {
            throw new AmException(AmError.BAD_ARG, "argument index = " + index + " is outside [0, " + argCount + ")");
        }
        return inbound.arg(index);
    }

    @Override
    public DirectBuffer data()
    {
        checkActive("data");
        return view;
    }

    @Override
    public int dataLength()
    {
        checkActive("dataLength");
        return view.capacity();
    }

    @Override
    public long segmentOffset()
    {
        checkActive("segmentOffset");
        return MessageCategory.LONG == opcode.category() && null == returnStatus ? inbound.segmentOffset() : -1;
    }

    @Override
    public boolean isReturned()
    {
        checkActive("isReturned");
        return null != returnStatus;
    }

    @Override
    public ReturnStatus returnStatus()
    {
        checkActive("returnStatus");
        return returnStatus;
    }

    @Override
    public String toString()
    {
        if (!active)
        {
            return "Delivery[inactive]";
        }
        return "Delivery[" + opcode + (null == returnStatus ? "" : " returned " + returnStatus) + " handler=" +
            inbound.handler() + " args=" + argCount + " data=" + view.capacity() + " depth=" + depth + "]";
    }

    private void checkActive(final String call)
    {
        if (!active || context.depth != depth)
        {
            throw new AmException(AmError.BAD_ARG, "token/message used outside its handler (" + call +
                "): they are valid only until the handler returns");
        }
    }
}
