package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;

/**
 * A path from a local endpoint to an endpoint of a peer NIC: a translation table entry's send path, or the inverse
 * mapping replies and returned messages go back by. {@link #send(OutboundMessage)} takes a credit of the channel
 * (requests, or replies and returned messages), queues the message body in the local endpoint's send queue of that
 * kind, and lets the NIC move it (at once in {@link NicMode#INLINE} mode). An inline NIC that this thread can take and
 * that has nothing queued from the endpoint on the channel takes the message straight into its window instead
 * ({@link DirectSends#directSlot}): one copy and no queue record.
 */
final class NetRoute implements Route
{
    private final NetQueues endpoint;
    private final NicAgent nic;
    final Peer peer;
    final int remoteEndpointId;
    private volatile EndpointName peerName;
    /**
     * The peer's {@link Peer#restarts} when this route announced its endpoint's name, or -1 before: after a restart
     * the peer knows the name no more, and the route announces it again.
     */
    private volatile int announcedIn = -1;
    /** Position in the owning endpoint's inverse-route table; -1 for translation-table routes. */
    int index = -1;

    NetRoute(final NetQueues endpoint, final Peer peer, final int remoteEndpointId, final EndpointName peerName)
    {
        this.endpoint = endpoint;
        this.nic = endpoint.nic;
        this.peer = peer;
        this.remoteEndpointId = remoteEndpointId;
        this.peerName = peerName;
    }

    @Override
    public int send(final OutboundMessage message)
    {
        final Opcode opcode = Opcode.fromCode(message.opcode());
        final boolean replyChannel = null == opcode || !opcode.isRequest() || 0 != message.returnStatus();
        final ManyToOneRingBuffer queue = endpoint.sendQueue(replyChannel);
        if (peer.sameNic)
        {
            return sendSameNic(message, queue, replyChannel);
        }
        final SendChannel channel = peer.out(replyChannel);
        final int restarts = peer.restarts;
        final boolean announce = !replyChannel && announcedIn != restarts;
        if (!channel.tryAcquire(announce ? 2 : 1))
        {
            // Held sends hold credits: they must leave for the window to open again.
            nic.directSends.flushHeld();
            return FULL;
        }
        if (announce && !queueName(queue, restarts, message.tag()))
        {
            channel.release(2);
            return FULL;
        }
        final DirectBuffer data = message.data();
        final int dataLength = null == data ? 0 : message.dataLength();
        final int bodyLength = MessageDescriptor.HEADER_LENGTH + dataLength;
        // The announcement goes through the queue, and a message after it must not overtake it.
        final WindowSlot slot;
        try
        {
            slot = announce ? null : nic.directSends.directSlot(endpoint, peer, replyChannel, bodyLength);
        }
        catch (final RuntimeException | Error ex)
        {
            // The NIC was given back; so is the credit.
            channel.release(1);
            throw ex;
        }
        if (null != slot)
        {
            try
            {
                writeBody(slot.view, WireDescriptor.HEADER_LENGTH, message, dataLength, endpoint.id(),
                    remoteEndpointId);
            }
            catch (final RuntimeException | Error ex)
            {
                // Nothing assigned: the credit, then the NIC (whose release may drain other queues) are given back,
                // and the caller sees the failure.
                channel.release(1);
                nic.directSends.abandonDirect();
                throw ex;
            }
            nic.directSends.sendDirect(peer, replyChannel, bodyLength, endpoint.id());
            return SENT;
        }
        if (!queueRecord(queue, message, dataLength))
        {
            // The announcement (if any) is queued and keeps its credit; this message's is given back.
            channel.release(1);
            return FULL;
        }
        nic.submitted();
        return SENT;
    }

    /**
     * A message to an endpoint of this process's own NIC: queued for the NIC, which moves it into the destination's
     * receive queue (no datagram, window or credit, so none is taken here and no direct send is made); the route's
     * name goes first, once, as to any peer.
     */
    private int sendSameNic(final OutboundMessage message, final ManyToOneRingBuffer queue, final boolean replyChannel)
    {
        final int restarts = peer.restarts;
        if (!replyChannel && announcedIn != restarts && !queueName(queue, restarts, message.tag()))
        {
            nic.submitted();
            return FULL;
        }
        final DirectBuffer data = message.data();
        final boolean queued = queueRecord(queue, message, null == data ? 0 : message.dataLength());
        // The NIC drains the queue now (inline) or is woken; a full queue is drained too, to make room.
        nic.submitted();
        return queued ? SENT : FULL;
    }

    private boolean queueRecord(final ManyToOneRingBuffer queue, final OutboundMessage message, final int dataLength)
    {
        return queueRecord(queue, peer.index, message, dataLength, endpoint.id(), remoteEndpointId);
    }

    /**
     * Queue a message's record for the NIC.
     *
     * @param queue            the send queue.
     * @param peerIndex        the destination's NIC in the NIC's peer table.
     * @param message          the message.
     * @param dataLength       bytes of its data.
     * @param sourceEndpointId the sending endpoint's wire id.
     * @param remoteEndpointId the destination's wire id.
     * @return false when the queue had no room.
     */
    static boolean queueRecord(final ManyToOneRingBuffer queue, final int peerIndex, final OutboundMessage message,
        final int dataLength, final int sourceEndpointId, final int remoteEndpointId)
    {
        final int index = queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, QueueRecordDescriptor.BODY_OFFSET +
            MessageDescriptor.HEADER_LENGTH + dataLength);
        if (index < 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = queue.buffer();
        buffer.putInt(index + QueueRecordDescriptor.PEER_OFFSET, peerIndex);
        buffer.putInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET, 0);
        writeBody(buffer, index + QueueRecordDescriptor.BODY_OFFSET, message, dataLength, sourceEndpointId,
            remoteEndpointId);
        // Commit is an ordered store of the record length: the NIC reads the record only after it is complete.
        queue.commit(index);
        return true;
    }

    /**
     * Write a message body ({@link MessageDescriptor}).
     *
     * @param buffer           where.
     * @param body             offset of the body in it.
     * @param message          the message.
     * @param dataLength       bytes of its data.
     * @param sourceEndpointId the sending endpoint's wire id.
     * @param remoteEndpointId the destination's wire id.
     */
    static void writeBody(final MutableDirectBuffer buffer, final int body, final OutboundMessage message,
        final int dataLength, final int sourceEndpointId, final int remoteEndpointId)
    {
        buffer.putByte(body + MessageDescriptor.OPCODE_OFFSET, (byte)message.opcode());
        buffer.putByte(body + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)message.returnStatus());
        buffer.putByte(body + MessageDescriptor.HANDLER_OFFSET, (byte)message.handler());
        buffer.putByte(body + MessageDescriptor.ARG_COUNT_OFFSET, (byte)message.argCount());
        buffer.putInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET, sourceEndpointId);
        buffer.putInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET, remoteEndpointId);
        buffer.putInt(body + MessageDescriptor.DATA_LENGTH_OFFSET, dataLength);
        buffer.putLong(body + MessageDescriptor.TAG_OFFSET, message.tag());
        buffer.putLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET, message.segmentOffset());
        for (int i = 0; i < 8; i++)
        {
            buffer.putInt(body + MessageDescriptor.argOffset(i), message.arg(i));
        }
        if (dataLength > 0)
        {
            buffer.putBytes(body + MessageDescriptor.HEADER_LENGTH, message.data(), message.dataOffset(), dataLength);
        }
    }

    private boolean queueName(final ManyToOneRingBuffer queue, final int restarts, final long tag)
    {
        if (!queueName(queue, peer.index, endpoint.id(), remoteEndpointId, endpoint.encodedName(), tag))
        {
            return false;
        }
        announcedIn = restarts;
        return true;
    }

    /**
     * Queue a name announcement record (the sending endpoint's encoded name) in a send queue. It carries the tag of
     * the request it goes before: the receiving NIC keeps the name only when the destination accepts that tag.
     *
     * @param queue            the send queue.
     * @param peerIndex        the destination's NIC in the NIC's peer table.
     * @param sourceEndpointId the announcing endpoint's wire id.
     * @param remoteEndpointId the destination's wire id.
     * @param name             the encoded name.
     * @param tag              the tag of the request that follows it.
     * @return false when the queue had no room.
     */
    static boolean queueName(final ManyToOneRingBuffer queue, final int peerIndex, final int sourceEndpointId,
        final int remoteEndpointId, final byte[] name, final long tag)
    {
        final int index = queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE,
            QueueRecordDescriptor.BODY_OFFSET + MessageDescriptor.HEADER_LENGTH + name.length);
        if (index < 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = queue.buffer();
        buffer.setMemory(index, QueueRecordDescriptor.BODY_OFFSET + MessageDescriptor.HEADER_LENGTH, (byte)0);
        buffer.putInt(index + QueueRecordDescriptor.PEER_OFFSET, peerIndex);
        final int body = index + QueueRecordDescriptor.BODY_OFFSET;
        buffer.putByte(body + MessageDescriptor.OPCODE_OFFSET, (byte)MessageDescriptor.OPCODE_NAME);
        buffer.putInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET, sourceEndpointId);
        buffer.putInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET, remoteEndpointId);
        buffer.putInt(body + MessageDescriptor.DATA_LENGTH_OFFSET, name.length);
        buffer.putLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET, -1L);
        buffer.putLong(body + MessageDescriptor.TAG_OFFSET, tag);
        buffer.putBytes(body + MessageDescriptor.HEADER_LENGTH, name);
        // Ordered store of the record length, as for every record.
        queue.commit(index);
        return true;
    }

    @Override
    public EndpointName peer()
    {
        EndpointName name = peerName;
        if (null == name)
        {
            name = peer.name(remoteEndpointId);
            peerName = name;
        }
        return name;
    }

    @Override
    public String transport()
    {
        return NetTransport.NAME;
    }

    @Override
    public String toString()
    {
        return "net route " + endpoint.id() + " -> " + remoteEndpointId + " at " + peer;
    }
}
