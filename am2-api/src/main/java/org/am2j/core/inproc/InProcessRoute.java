package org.am2j.core.inproc;

import static org.am2j.core.inproc.InProcessRecordDescriptor.ARGS_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.ARG_COUNT_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.DATA_LENGTH_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.HANDLER_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.HEADER_LENGTH;
import static org.am2j.core.inproc.InProcessRecordDescriptor.MESSAGE_TYPE;
import static org.am2j.core.inproc.InProcessRecordDescriptor.OPCODE_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.RETURN_STATUS_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.SEGMENT_OFFSET_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.SOURCE_OFFSET;
import static org.am2j.core.inproc.InProcessRecordDescriptor.TAG_OFFSET;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.am2j.spi.SegmentBounds;

/**
 * The in-process path into one endpoint. Every sender of the process shares it: it checks the destination's tag
 * (a mismatch comes back without touching the queue), claims a record in the request or reply queue, writes a long
 * message's data straight into the destination segment, fills and commits the record, and wakes the destination if
 * it sleeps.
 */
class InProcessRoute implements Route
{
    private final InProcessQueues destination;

    InProcessRoute(final InProcessQueues destination)
    {
        this.destination = destination;
    }

    @Override
    public int send(final OutboundMessage message)
    {
        final InProcessQueues d = destination;
        final Opcode opcode = Opcode.fromCode(message.opcode());
        final boolean returned = 0 != message.returnStatus();
        if (d.isClosed())
        {
            return refusedAsClosed(opcode);
        }
        final boolean request = opcode.isRequest() && !returned;
        if (request && !Tags.accepts(d.host().tag(), message.tag()))
        {
            return ReturnStatus.EBADTAG.code();
        }

        final int length = message.dataLength();
        AtomicBuffer segment = null;
        if (MessageCategory.LONG == opcode.category() && !returned)
        {
            segment = d.host().segment();
            final int bounds = SegmentBounds.check(segment, message.segmentOffset(), length);
            if (0 != bounds)
            {
                return bounds;
            }
        }

        final int inline = null == segment ? length : 0;
        final InProcessRing queue = request ? d.requestQueue() : d.replyQueue();
        d.senderArrived();
        final int index = queue.tryClaim(MESSAGE_TYPE, HEADER_LENGTH + inline);
        if (index < 0)
        {
            return FULL;
        }
        // Read again after the claim, which was a CAS of the queue's tail (a full fence): the Dekker pair with the
        // destination's returnQueued(), which stores closed and then reads the producer position. Either it waits for
        // this record, or we see closed here and give the space back: no record is committed after its drain.
        if (d.isClosed())
        {
            queue.abort(index);
            return refusedAsClosed(opcode);
        }

        try
        {
            fill(queue, index, message, length, segment);
        }
        catch (final RuntimeException ex)
        {
            // Abort hands the claimed space back as padding: a failed fill never blocks the queue behind it.
            queue.abort(index);
            throw ex;
        }
        // Commit is an ordered store of the record length: the record and the segment data written by fill are
        // visible to the receiver before it can see the record.
        queue.commit(index);

        // The claim above was a CAS on the queue tail (a full fence), so this read cannot pass it: either the
        // receiver saw the new tail before sleeping, or we see its sleeping flag here.
        if (d.isSleeping())
        {
            d.host().signalArrival();
        }
        return SENT;
    }

    private static int refusedAsClosed(final Opcode opcode)
    {
        return opcode.isRequest() ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
    }

    private static void fill(
        final InProcessRing queue, final int index, final OutboundMessage message, final int length,
        final AtomicBuffer segment)
    {
        // The record's header lies in the space the claim gave this sender: written without bounds checks.
        final long record = queue.address() + index;
        writeHeader(record, message.opcode(), message.returnStatus(), message.handler(), message.argCount(),
            message.sourceEndpointId(), length, message.tag(), null == segment ? -1 : message.segmentOffset());
        for (int i = 0, count = message.argCount(); i < count; i++)
        {
            UnsafeApi.putInt(null, record + ARGS_OFFSET + (i << 2), message.arg(i));
        }
        if (0 != length)
        {
            if (null == segment)
            {
                queue.buffer().putBytes(index + HEADER_LENGTH, message.data(), message.dataOffset(), length);
            }
            else
            {
                segment.putBytes((int)message.segmentOffset(), message.data(), message.dataOffset(), length);
            }
        }
    }

    private static void writeHeader(
        final long record, final int opcode, final int returnStatus, final int handler, final int argCount,
        final int source, final int dataLength, final long tag, final long segmentOffset)
    {
        UnsafeApi.putInt(null, record + OPCODE_OFFSET, opcode);
        UnsafeApi.putInt(null, record + RETURN_STATUS_OFFSET, returnStatus);
        UnsafeApi.putInt(null, record + HANDLER_OFFSET, handler);
        UnsafeApi.putInt(null, record + ARG_COUNT_OFFSET, argCount);
        UnsafeApi.putInt(null, record + SOURCE_OFFSET, source);
        UnsafeApi.putInt(null, record + DATA_LENGTH_OFFSET, dataLength);
        UnsafeApi.putLong(null, record + TAG_OFFSET, tag);
        UnsafeApi.putLong(null, record + SEGMENT_OFFSET_OFFSET, segmentOffset);
    }

    private static void writeShort(
        final long record, final int opcode, final int handler, final int argCount, final int source, final long tag,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        writeHeader(record, opcode, 0, handler, argCount, source, 0, tag, -1);
        // All eight argument words: plain stores into the claimed record, no loop on the count.
        UnsafeApi.putInt(null, record + ARGS_OFFSET, a0);
        UnsafeApi.putInt(null, record + ARGS_OFFSET + 4, a1);
        UnsafeApi.putInt(null, record + ARGS_OFFSET + 8, a2);
        UnsafeApi.putInt(null, record + ARGS_OFFSET + 12, a3);
        UnsafeApi.putInt(null, record + ARGS_OFFSET + 16, a4);
        UnsafeApi.putInt(null, record + ARGS_OFFSET + 20, a5);
        UnsafeApi.putInt(null, record + ARGS_OFFSET + 24, a6);
        UnsafeApi.putInt(null, record + ARGS_OFFSET + 28, a7);
    }

    /**
     * A short request or reply written straight into the destination's ring from its fields: the checks of
     * {@link #send} that apply to a short message with return status 0 (closed, tag of a request), one claim, the
     * header and arguments, one commit. Anything but {@link #SENT} leaves nothing sent, as the contract asks.
     */
    @Override
    public int sendShort(
        final OutboundMessage scratch, final int opcode, final int handler, final long tag, final int source,
        final int argCount, final int a0, final int a1, final int a2, final int a3, final int a4, final int a5,
        final int a6, final int a7)
    {
        final boolean request = Opcode.REQUEST_SHORT.code() == opcode;
        if (!request && Opcode.REPLY_SHORT.code() != opcode)
        {
            return Route.super.sendShort(scratch, opcode, handler, tag, source, argCount, a0, a1, a2, a3, a4, a5, a6,
                a7);
        }
        final InProcessQueues d = destination;
        if (d.isClosed())
        {
            return request ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
        }
        if (request && !Tags.accepts(d.host().tag(), tag))
        {
            return ReturnStatus.EBADTAG.code();
        }
        final InProcessRing queue = request ? d.requestQueue() : d.replyQueue();
        d.senderArrived();
        final int index = queue.tryClaim(MESSAGE_TYPE, HEADER_LENGTH);
        if (index < 0)
        {
            return FULL;
        }
        // Read again after the claim's CAS (a full fence): the Dekker pair with returnQueued(), as in send().
        if (d.isClosed())
        {
            queue.abort(index);
            return request ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
        }
        writeShort(queue.address() + index, opcode, handler, argCount, source, tag, a0, a1, a2, a3, a4, a5, a6, a7);
        // Release store of the record length: the header and arguments are visible before the record.
        queue.commit(index);
        // After the claim's full fence, as in send(): the receiver saw the record before sleeping, or we see it sleep.
        if (d.isSleeping())
        {
            d.host().signalArrival();
        }
        return SENT;
    }

    @Override
    public EndpointName peer()
    {
        return destination.host().name();
    }

    @Override
    public String transport()
    {
        return InProcessTransport.NAME;
    }
}
