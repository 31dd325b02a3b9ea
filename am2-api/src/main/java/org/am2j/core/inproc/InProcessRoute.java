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

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
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
        final ManyToOneRingBuffer queue = request ? d.requestQueue() : d.replyQueue();
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
            fill(queue.buffer(), index, message, length, segment);
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
        final AtomicBuffer buffer, final int index, final OutboundMessage message, final int length,
        final AtomicBuffer segment)
    {
        buffer.putInt(index + OPCODE_OFFSET, message.opcode());
        buffer.putInt(index + RETURN_STATUS_OFFSET, message.returnStatus());
        buffer.putInt(index + HANDLER_OFFSET, message.handler());
        buffer.putInt(index + ARG_COUNT_OFFSET, message.argCount());
        buffer.putInt(index + SOURCE_OFFSET, message.sourceEndpointId());
        buffer.putInt(index + DATA_LENGTH_OFFSET, length);
        buffer.putLong(index + TAG_OFFSET, message.tag());
        buffer.putLong(index + SEGMENT_OFFSET_OFFSET, null == segment ? -1 : message.segmentOffset());
        for (int i = 0, count = message.argCount(); i < count; i++)
        {
            buffer.putInt(index + ARGS_OFFSET + (i << 2), message.arg(i));
        }
        if (0 != length)
        {
            if (null == segment)
            {
                buffer.putBytes(index + HEADER_LENGTH, message.data(), message.dataOffset(), length);
            }
            else
            {
                segment.putBytes((int)message.segmentOffset(), message.data(), message.dataOffset(), length);
            }
        }
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
