package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;

/**
 * The NIC's side of the hosts' queues in the network queue blocks: it drains the endpoints' send queues (replies
 * first) into the peers' windows and onto the wire, returns at once what is sent to a peer known dead (it never
 * leaves), and returns to their senders the messages a closed endpoint left in its receive queues. Agent thread.
 */
final class SendQueues
{
    /** Longest message body a host can queue: a header and the largest data (a name announcement's is smaller). */
    static final int MAX_BODY = MessageDescriptor.HEADER_LENGTH + Math.max(org.am2j.api.Am.MAX_MEDIUM,
        org.am2j.api.Am.MAX_LONG);

    private final NicCounters counters;
    private final PeerTable peers;
    private final EndpointTable endpoints;
    private final FrameWriter writer;
    private final NicTimers timers;
    private final MessageHandler sendDrainer = this::onQueuedMessage;
    private final ControlledMessageHandler undeliveredReturner = this::onUndelivered;
    private final ControlledMessageHandler creditTakingDrainer = this::onQueuedMessageTakingCredit;
    private final NicClock clock;
    /** The link rate messages leave the send queues at, or null for none. */
    private final LinkRate linkRate;
    /** The endpoint whose send queue {@link #onQueuedMessageTakingCredit} reads. */
    private ServedEndpoint draining;
    /** The closed endpoint whose receive queues {@link #returnUndelivered} reads. */
    private ServedEndpoint closing;

    SendQueues(final NicCounters counters, final PeerTable peers, final EndpointTable endpoints,
        final FrameWriter writer, final NicTimers timers, final NicClock clock, final LinkRate linkRate)
    {
        this.clock = clock;
        this.linkRate = linkRate;
        this.counters = counters;
        this.peers = peers;
        this.endpoints = endpoints;
        this.writer = writer;
        this.timers = timers;
    }

    /**
     * Move what hosts queued into the peers' windows and onto the wire; return what closed endpoints left.
     *
     * @return records handled.
     */
    int drain()
    {
        int drained = 0;
        for (final ServedEndpoint endpoint : endpoints.all())
        {
            if (endpoint.hostTakesCredits() && null == linkRate)
            {
                drained += endpoint.sendQueue(true).read(sendDrainer);
                drained += endpoint.sendQueue(false).read(sendDrainer);
            }
            else
            {
                draining = endpoint;
                drained += endpoint.sendQueue(true).controlledRead(creditTakingDrainer);
                drained += endpoint.sendQueue(false).controlledRead(creditTakingDrainer);
                draining = null;
            }
            if (endpoint.isClosed())
            {
                drained += returnUndelivered(endpoint);
                if (!endpoint.hasQueuedSends() && !endpoint.hasUndelivered())
                {
                    endpoints.retire(endpoint);
                    endpoint.retired();
                }
            }
        }
        return drained;
    }

    /**
     * A closed endpoint's receive queues: what the NIC took for it and its host never handled goes back to the
     * senders, requests with EBADENDPOINT, replies with EREPLYREJECTED (returned messages have nobody to go back to:
     * counted and dropped). The host reads its queues no more once closed; the NIC is their only reader then.
     * A message whose return finds the reply window to its peer full stays queued for the next duty cycle.
     *
     * @return messages returned (or dropped).
     */
    private int returnUndelivered(final ServedEndpoint endpoint)
    {
        closing = endpoint;
        final int returned = endpoint.receiveQueue(true).controlledRead(undeliveredReturner) +
            endpoint.receiveQueue(false).controlledRead(undeliveredReturner);
        closing = null;
        return returned;
    }

    private ControlledMessageHandler.Action onUndelivered(final int msgTypeId, final MutableDirectBuffer buffer,
        final int index, final int length)
    {
        final int body = index + QueueRecordDescriptor.BODY_OFFSET;
        final int bodyLength = length - QueueRecordDescriptor.BODY_OFFSET;
        final int code = buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        final Opcode opcode = Opcode.fromCode(code);
        final Peer routePeer = closing.routePeer(buffer.getInt(index + QueueRecordDescriptor.ROUTE_OFFSET));
        if (null == opcode || 0 != buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) || routePeer.died)
        {
            counters.increment(NicEvent.UNDELIVERED_DROPPED);
            return ControlledMessageHandler.Action.CONTINUE;
        }
        final int status = opcode.isRequest() ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
        final boolean deposited = 0 != buffer.getInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET);
        if (FrameReader.BUSY == writer.sendBack(routePeer, buffer, body, bodyLength, status, deposited))
        {
            return ControlledMessageHandler.Action.ABORT;
        }
        counters.increment(NicEvent.UNDELIVERED_RETURNED);
        return ControlledMessageHandler.Action.CONTINUE;
    }

    /**
     * A record of a host that takes no credits (a shared NIC's host in another process), or of any host when the NIC
     * has a link rate: the NIC takes the credit here (for the former), and leaves the record, and every later one of
     * that queue, while the peer's window is full or the link is busy, so that the endpoint's messages keep their
     * order.
     */
    private ControlledMessageHandler.Action onQueuedMessageTakingCredit(final int msgTypeId,
        final MutableDirectBuffer buffer, final int index, final int length)
    {
        final Peer[] table = peers.all();
        final int peerIndex = buffer.getInt(index + QueueRecordDescriptor.PEER_OFFSET);
        final int body = index + QueueRecordDescriptor.BODY_OFFSET;
        if (length - QueueRecordDescriptor.BODY_OFFSET > MAX_BODY)
        {
            // Written by a host process the NIC cannot trust to be well: a body no message can have is dropped.
            counters.increment(NicEvent.MALFORMED);
            return ControlledMessageHandler.Action.CONTINUE;
        }
        if (null != linkRate && !linkRate.mayTransmit(clock.nowNanos))
        {
            return ControlledMessageHandler.Action.ABORT;
        }
        if (!draining.hostTakesCredits() && peerIndex >= 0 && peerIndex < table.length &&
            length - QueueRecordDescriptor.BODY_OFFSET >= MessageDescriptor.HEADER_LENGTH &&
            !table[peerIndex].out(onReplyChannel(buffer, body)).tryAcquire(1))
        {
            return ControlledMessageHandler.Action.ABORT;
        }
        onQueuedMessage(msgTypeId, buffer, index, length);
        if (null != linkRate)
        {
            linkRate.transmitted(WireDescriptor.HEADER_LENGTH + length - QueueRecordDescriptor.BODY_OFFSET +
                WireDescriptor.TAG_LENGTH, clock.nowNanos);
        }
        return ControlledMessageHandler.Action.CONTINUE;
    }

    private void onQueuedMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final Peer[] table = peers.all();
        final int peerIndex = buffer.getInt(index + QueueRecordDescriptor.PEER_OFFSET);
        final int body = index + QueueRecordDescriptor.BODY_OFFSET;
        final int bodyLength = length - QueueRecordDescriptor.BODY_OFFSET;
        if (peerIndex < 0 || peerIndex >= table.length || bodyLength < MessageDescriptor.HEADER_LENGTH)
        {
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        final Peer peer = table[peerIndex];
        final boolean replyChannel = onReplyChannel(buffer, body);
        final SendChannel channel = peer.out(replyChannel);
        final WindowSlot slot = channel.assign();
        slot.ensureCapacity(bodyLength);
        slot.view.putBytes(WireDescriptor.HEADER_LENGTH, buffer, body, bodyLength);
        writer.start(slot, bodyLength, buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET));
        send(peer, channel, replyChannel, slot);
    }

    /**
     * Send a message just assigned to its slot, or, when its peer is known dead, return it (it never left).
     */
    void send(final Peer peer, final SendChannel channel, final boolean replyChannel, final WindowSlot slot)
    {
        if (peer.died)
        {
            counters.increment(NicEvent.UNREACHABLE);
            slot.returnStatus = ReturnStatus.EUNREACHABLE.code();
            if (timers.returnLocally(peer, slot, slot.returnStatus))
            {
                channel.complete(slot);
            }
            return;
        }
        writer.transmit(peer, replyChannel, slot);
        counters.increment(NicEvent.MESSAGES_SENT);
    }

    private static boolean onReplyChannel(final DirectBuffer buffer, final int body)
    {
        final int code = buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        if (MessageDescriptor.OPCODE_NAME == code)
        {
            return false;
        }
        final Opcode opcode = Opcode.fromCode(code);
        return null == opcode || !opcode.isRequest() ||
            0 != buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET);
    }
}
