package org.am2j.net;

import java.lang.invoke.VarHandle;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
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

    /**
     * Put a message that will not be delivered into its sender's reply receive queue as a returned message.
     *
     * @param sender      the endpoint that sent it.
     * @param route       the sender's inverse route to the message's destination.
     * @param buffer      holds the message body.
     * @param body        where the body starts.
     * @param bodyLength  the body's length, header included.
     * @param status      the return status.
     * @param log         the sender's in-flight log holding the message's copy, or null when it holds none.
     * @param logPosition the copy's position in {@code log}.
     * @return false when the queue is full: try again later.
     */
    static boolean putReturned(final ServedQueues sender, final int route, final DirectBuffer buffer, final int body,
        final int bodyLength, final int status, final InFlightLog log, final long logPosition)
    {
        final OneToOneRingBuffer queue = sender.receiveQueue(true);
        final int length = QueueRecordDescriptor.BODY_OFFSET + bodyLength;
        final int index = queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, length);
        if (index < 0)
        {
            return false;
        }
        if (null != log)
        {
            // Before the commit: a host that finds its NIC dead finds the copy RETURNING with this record's place,
            // and returns the message once, from the queue or from the log.
            log.returning(logPosition, InFlightLog.claimedPosition(queue, length));
        }
        final MutableDirectBuffer ring = queue.buffer();
        ring.putInt(index + QueueRecordDescriptor.ROUTE_OFFSET, route);
        ring.putInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET, 0);
        ring.putBytes(index + QueueRecordDescriptor.BODY_OFFSET, buffer, body, bodyLength);
        ring.putByte(index + QueueRecordDescriptor.BODY_OFFSET + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)status);
        commitAndSignal(queue, index, sender);
        return true;
    }

    /**
     * A message between two endpoints one NIC serves (its route leads to the peer that stands for the NIC itself,
     * {@link PeerTable#self}) that is not delivered goes back inside the NIC: into its sender's reply receive queue
     * with the status the wire path would have given it, by the sender's inverse route to the destination, as a
     * returned message from another NIC arrives. A full reply queue leaves the message where it is, to be returned
     * later.
     *
     * @param endpoints  the NIC's endpoints (the sender is found by the message's source id).
     * @param self       the peer standing for the NIC itself.
     * @param buffer     holds the message body.
     * @param body       where the body starts.
     * @param bodyLength the body's length, header included.
     * @param status     the return status.
     * @param log        the sender's in-flight log holding the message's copy, or null when it holds none.
     * @param position   the copy's position in {@code log}.
     * @return {@link FrameReader#TAKEN} when returned (or its sender has gone and nobody is told), or
     *         {@link FrameReader#BUSY} when the sender's reply receive queue is full.
     */
    static int returnToSender(final EndpointTable endpoints, final Peer self, final DirectBuffer buffer, final int body,
        final int bodyLength, final int status, final InFlightLog log, final long position)
    {
        final ServedQueues sender = endpoints.byId(buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET));
        if (null == sender || sender.isClosed())
        {
            return FrameReader.TAKEN;
        }
        final int route = sender.inverseRoute(self, buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        if (route < 0)
        {
            // No route back can be named in the record: the sender has more peers than routes, and cannot be told.
            return FrameReader.TAKEN;
        }
        return putReturned(sender, route, buffer, body, bodyLength, status, log, position) ?
            FrameReader.TAKEN : FrameReader.BUSY;
    }
}
