package org.am2j.net;

import java.lang.invoke.VarHandle;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.am2j.api.Am;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;

/**
 * The NIC's writes into an endpoint's receive queues, on every path that delivers (from the wire, between endpoints
 * of one NIC, a refusal coming back): the checks a message passes before it is queued, and the commit that wakes a
 * sleeping host.
 */
final class ReceiveRecords
{
    private static final int RETURN_STATUS_COUNT = ReturnStatus.values().length;

    private ReceiveRecords()
    {
    }

    /**
     * Commit a record of an endpoint's receive queue and wake its host if it sleeps.
     */
    static void commitAndSignal(final OneToOneRingBuffer queue, final int index, final ServedQueues endpoint)
    {
        // Commit is a release store of the record length. The full fence orders it before the read of the sleeping
        // flag: the Dekker pair with the host, which stores its flag (volatile) and then checks the queue. Without
        // it the flag could be read before the commit is visible, and a host that has just gone to sleep would
        // miss the message until its time slice ends.
        queue.commit(index);
        VarHandle.fullFence();
        if (endpoint.isSleeping())
        {
            endpoint.signalArrival();
        }
    }

    /**
     * The checks the NIC makes before it queues a message for an endpoint (opcode and argument count, an open
     * destination, a returned message's status, handler, length for the category, tag, a long message's segment
     * range).
     *
     * @return 0 when the message may be queued, else the status it goes back with.
     */
    static int refusal(final Opcode opcode, final int status, final ServedQueues endpoint,
        final DirectBuffer buffer, final int body, final int dataLength)
    {
        if (null == opcode || (buffer.getByte(body + MessageDescriptor.ARG_COUNT_OFFSET) & 0xFF) > Am.MAX_SHORT)
        {
            return ReturnStatus.EBADARGS.code();
        }
        if (null == endpoint || endpoint.isClosed())
        {
            return ReturnStatus.EBADENDPOINT.code();
        }
        if (0 != status)
        {
            return status > RETURN_STATUS_COUNT ? ReturnStatus.EBADARGS.code() : 0;
        }
        if (0 == (buffer.getByte(body + MessageDescriptor.HANDLER_OFFSET) & 0xFF))
        {
            return ReturnStatus.EBADHANDLER.code();
        }
        final MessageCategory category = opcode.category();
        if ((MessageCategory.SHORT == category && 0 != dataLength) ||
            (MessageCategory.MEDIUM == category && dataLength > Am.MAX_MEDIUM) ||
            (MessageCategory.LONG == category && dataLength > Am.MAX_LONG))
        {
            return ReturnStatus.EBADLENGTH.code();
        }
        if (opcode.isRequest() && !Tags.accepts(endpoint.tag(), buffer.getLong(body + MessageDescriptor.TAG_OFFSET)))
        {
            return ReturnStatus.EBADTAG.code();
        }
        if (MessageCategory.LONG == category)
        {
            return endpoint.checkSegment(buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET),
                dataLength);
        }
        return 0;
    }
}
