package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

/**
 * A message between two endpoints one NIC serves (its route leads to the peer that stands for the NIC itself,
 * {@link PeerTable#self}) that is not delivered goes back inside the NIC: into its sender's reply receive queue with
 * the status the wire path would have given it, by the sender's inverse route to the destination, as a returned
 * message from another NIC arrives. A full reply queue leaves the message where it is, to be returned later.
 */
final class SameNicReturn
{
    private SameNicReturn()
    {
    }

    /**
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
    static int toSender(final EndpointTable endpoints, final Peer self, final DirectBuffer buffer, final int body,
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
        final OneToOneRingBuffer queue = sender.receiveQueue(true);
        final int index = queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, QueueRecordDescriptor.BODY_OFFSET +
            bodyLength);
        if (index < 0)
        {
            return FrameReader.BUSY;
        }
        final MutableDirectBuffer ring = queue.buffer();
        ring.putInt(index + QueueRecordDescriptor.ROUTE_OFFSET, route);
        ring.putInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET, 0);
        ring.putBytes(index + QueueRecordDescriptor.BODY_OFFSET, buffer, body, bodyLength);
        ring.putByte(index + QueueRecordDescriptor.BODY_OFFSET + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)status);
        if (null != log)
        {
            // Before the commit: a host that finds its NIC dead finds the copy RETURNING with this record's place,
            // and returns the message once, from the queue or from the log.
            log.returning(position, InFlightLog.claimedPosition(queue, QueueRecordDescriptor.BODY_OFFSET + bodyLength));
        }
        ReceiveRecords.commitAndSignal(queue, index, sender);
        return FrameReader.TAKEN;
    }
}
