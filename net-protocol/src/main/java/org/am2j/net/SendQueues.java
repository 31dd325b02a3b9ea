package org.am2j.net;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;

/**
 * The NIC's side of the hosts' queues in the network queue blocks: it drains the endpoints' send queues (replies
 * first) into the peers' windows and onto the wire, the messages of one drain for one peer together in as few
 * datagrams as fit ({@link BatchWriter}), returns at once what is sent to a peer known dead (it never
 * leaves), and returns to their senders the messages a closed endpoint left in its receive queues. Agent thread.
 */
final class SendQueues
{
    private final NicCounters counters;
    private final PeerTable peers;
    private final EndpointTable endpoints;
    private final FrameWriter writer;
    private final NicTimers timers;
    private final BatchWriter batches;
    private final MessageHandler sendDrainer = this::onQueuedMessage;
    private final ControlledMessageHandler undeliveredReturner = this::onUndelivered;
    private final ControlledMessageHandler creditTakingDrainer = this::onQueuedMessageTakingCredit;
    private final NicClock clock;
    /** The link rate messages leave the send queues at, or null for none. */
    private final LinkRate linkRate;
    /** The endpoint whose send queue {@link #onQueuedMessageTakingCredit} reads. */
    private ServedQueues draining;
    /** Whether {@link #draining}'s reply send queue is read (else its request send queue). */
    private boolean drainingReplies;
    /** The position and index the read of that queue started at: records' positions, for the in-flight log. */
    private long drainHead;
    private int drainHeadIndex;
    /** The in-flight log copy of the message {@link #onQueuedMessage} assigns a slot next, or null. */
    private InFlightLog takenLog;
    private long takenLogPosition;
    /**
     * When the link lets the next message leave (the NIC's clock), after a drain that left a record for it; else
     * {@link Long#MAX_VALUE}.
     */
    private long linkReadyNanos = Long.MAX_VALUE;
    /**
     * When to look again at a record the last drain held back because an endpoint this NIC serves has no room in its
     * receive queue for it (its host reads the queue without telling the NIC); else {@link Long#MAX_VALUE}.
     */
    private long sameNicRetryNanos = Long.MAX_VALUE;
    /** Delivers a message between two endpoints this NIC serves, as if it had arrived from the wire. */
    private final FrameReader sameNicReader;
    /** How long a record for a full receive queue of an endpoint of this NIC waits before the next try. */
    static final long SAME_NIC_RETRY_NANOS = 50_000L;
    /** Same-NIC messages one read delivers at most before it ends so that their log copies are resolved. */
    static final int SAME_NIC_BATCH = 64;
    private final long[] sameNicTaken = new long[SAME_NIC_BATCH];
    private int sameNicTakenCount;
    private InFlightLog sameNicLog;
    /**
     * Direct sends wait in {@link #batches} for the next flush ({@link #hold}). Written by the NIC's holder; read by
     * any host thread as a hint that a flush is owed.
     */
    private volatile boolean held;
    /** Longest message body a host can queue: a header and the largest data (a name announcement's is smaller). */
    static final int MAX_BODY = MessageDescriptor.HEADER_LENGTH + Math.max(org.am2j.api.Am.MAX_MEDIUM,
        org.am2j.api.Am.MAX_LONG);

    /** The closed endpoint whose receive queues {@link #returnUndelivered} reads. */
    private ServedQueues closing;

    SendQueues(final NicCounters counters, final PeerTable peers, final EndpointTable endpoints,
        final FrameWriter writer, final NicTimers timers, final NicClock clock, final LinkRate linkRate,
        final FrameReader sameNicReader)
    {
        this.sameNicReader = sameNicReader;
        this.clock = clock;
        this.linkRate = linkRate;
        this.counters = counters;
        this.peers = peers;
        this.endpoints = endpoints;
        this.writer = writer;
        this.timers = timers;
        this.batches = new BatchWriter(writer, counters);
    }

    /**
     * Move what hosts queued into the peers' windows and onto the wire; return what closed endpoints left.
     *
     * @return records handled.
     */
    int drain()
    {
        int drained = 0;
        linkReadyNanos = Long.MAX_VALUE;
        sameNicRetryNanos = Long.MAX_VALUE;
        try
        {
            for (final ServedQueues endpoint : endpoints.all())
            {
                if (endpoint.hostTakesCredits() && null == linkRate && !endpoint.sendsSameNic())
                {
                    drained += readAll(endpoint.sendQueue(true));
                    drained += readAll(endpoint.sendQueue(false));
                }
                else
                {
                    draining = endpoint;
                    drained += readAllTakingCredits(endpoint.sendQueue(true), true);
                    drained += readAllTakingCredits(endpoint.sendQueue(false), false);
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
        }
        finally
        {
            // What this drain held per peer goes out now, whatever happened to the rest: no message waits for a
            // later drain or a timer. Direct sends held before it go too.
            held = false;
            batches.flush();
        }
        return drained;
    }

    /**
     * One read of a ring stops at the end of its buffer; a second one takes what wrapped around, so that the messages
     * queued before the drain go out in the same batches.
     */
    private int readAll(final org.agrona.concurrent.ringbuffer.RingBuffer queue)
    {
        final int read = queue.read(sendDrainer);
        return 0 == read ? 0 : read + queue.read(sendDrainer);
    }

    private int readAllTakingCredits(final org.agrona.concurrent.ringbuffer.RingBuffer queue,
        final boolean replyQueue)
    {
        drainingReplies = replyQueue;
        draining.heldBack(replyQueue, false);
        final int read = readTakingCredits(queue);
        return 0 == read ? 0 : read + readTakingCredits(queue);
    }

    private int readTakingCredits(final org.agrona.concurrent.ringbuffer.RingBuffer queue)
    {
        // A read moves the queue's head only when it ends: within it, a record's position is this head plus its
        // distance from the head's index.
        drainHead = queue.consumerPosition();
        drainHeadIndex = (int)(drainHead & (queue.capacity() - 1));
        final int read = queue.controlledRead(creditTakingDrainer);
        resolveSameNic();
        return read;
    }

    /**
     * @param index where a record's message starts in the ring being read, as the read's handler is given it
     *              ({@link #readTakingCredits} took the read's head).
     * @return the record's position in its queue.
     */
    private long sendPosition(final int index)
    {
        return drainHead + (index - org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH - drainHeadIndex);
    }

    /**
     * A closed endpoint's receive queues: what the NIC took for it and its host never handled goes back to the
     * senders, requests with EBADENDPOINT, replies with EREPLYREJECTED (returned messages have nobody to go back to:
     * counted and dropped). The host reads its queues no more once closed; the NIC is their only reader then.
     * A message whose return finds the reply window to its peer full stays queued for the next duty cycle.
     *
     * @return messages returned (or dropped).
     */
    private int returnUndelivered(final ServedQueues endpoint)
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
        if (null == opcode || 0 != buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) || routePeer.unreachable())
        {
            counters.increment(NicEvent.UNDELIVERED_DROPPED);
            return ControlledMessageHandler.Action.CONTINUE;
        }
        final int status = opcode.isRequest() ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
        final boolean deposited = 0 != buffer.getInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET);
        if (routePeer.sameNic)
        {
            // Its sender is an endpoint of this NIC too: back into its reply receive queue, or later when that is full.
            return FrameReader.BUSY == ReceiveRecords.returnToSender(endpoints, routePeer, buffer, body, bodyLength, status, null, -1) ?
                ControlledMessageHandler.Action.ABORT : ControlledMessageHandler.Action.CONTINUE;
        }
        // The return goes out at once on the reply channel: what this drain held for the peer goes first.
        batches.flush(routePeer);
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
        final int bodyLength = length - QueueRecordDescriptor.BODY_OFFSET;
        final boolean valid = peerIndex >= 0 && peerIndex < table.length &&
            bodyLength >= MessageDescriptor.HEADER_LENGTH;
        if (valid && table[peerIndex].sameNic)
        {
            return deliverSameNic(table[peerIndex], peerIndex, buffer, index, body, bodyLength);
        }
        if (null != linkRate && !linkRate.mayTransmit(clock.nowNanos))
        {
            linkReadyNanos = clock.nowNanos + linkRate.nanosUntilReady(clock.nowNanos);
            return heldBack();
        }
        final boolean creditTaken = !draining.hostTakesCredits() && valid;
        if (creditTaken && !table[peerIndex].out(onReplyChannel(buffer, body)).tryAcquire(1))
        {
            return heldBack();
        }
        final InFlightLog log = draining.inFlightLog();
        if (null != log && valid && InFlightLog.returnable(buffer, body))
        {
            // A shared NIC keeps a copy where its host can find it should the NIC process die (one more copy of
            // the body per send, see InFlightLog).
            final long position = log.append(peerIndex, drainingReplies, sendPosition(index), buffer, body,
                bodyLength);
            if (position < 0)
            {
                // The log is full of messages not acknowledged yet: the record waits, as for a full window.
                if (creditTaken)
                {
                    table[peerIndex].out(onReplyChannel(buffer, body)).release(1);
                }
                return heldBack();
            }
            takenLog = log;
            takenLogPosition = position;
        }
        try
        {
            onQueuedMessage(msgTypeId, buffer, index, length);
        }
        finally
        {
            takenLog = null;
        }
        if (null != linkRate)
        {
            linkRate.transmitted(WireDescriptor.HEADER_LENGTH + length - QueueRecordDescriptor.BODY_OFFSET +
                WireDescriptor.TAG_LENGTH, clock.nowNanos);
        }
        return ControlledMessageHandler.Action.CONTINUE;
    }

    /**
     * A record for an endpoint this NIC serves too goes straight into that endpoint's receive queue, checked as a
     * message from the wire is (a refusal comes back into the sender's reply receive queue): no datagram, window or
     * credit. A full receive queue holds it, and those behind it, back until the next try.
     * <p>
     * Between the delivery and the read's move of the send queue's head, a NIC process that dies would leave the
     * record looking untaken, and its host would return as EUNREACHABLE a message its destination may run. So the
     * record goes into the in-flight log first, as a message for the wire does (its host then returns it
     * EOUTCOMEUNKNOWN, which is true), once both queues it can land in have room (so the delivery cannot find them
     * full after the record was logged); the log record is resolved when the read that took it has moved the head
     * ({@link #resolveSameNic()}).
     */
    private ControlledMessageHandler.Action deliverSameNic(final Peer self, final int peerIndex,
        final MutableDirectBuffer buffer, final int index, final int body, final int bodyLength)
    {
        final InFlightLog log = draining.inFlightLog();
        long position = -1;
        if (null != log && InFlightLog.returnable(buffer, body))
        {
            if (!sameNicRoom(buffer, body, bodyLength))
            {
                return sameNicRetry();
            }
            position = log.append(peerIndex, drainingReplies, sendPosition(index), buffer, body, bodyLength);
            if (position < 0)
            {
                // The log is full of messages not resolved yet: this read's own are resolved when it ends.
                return sameNicRetry();
            }
        }
        final int result = sameNicReader.deliver(self, onReplyChannel(buffer, body), buffer, body, bodyLength,
            position >= 0 ? log : null, position);
        if (FrameReader.TAKEN != result)
        {
            // BUSY: the destination's receive queue (or, for a refusal, the sender's reply receive queue) is full;
            // with the room checked above, only for a message the log does not keep. NOT_YET (the sender's name not
            // learnt) cannot stay: its announcement is ahead of it in this queue. A logged copy is withdrawn: the
            // record stays in its queue and is logged again when taken.
            if (position >= 0)
            {
                log.resolve(position);
            }
            return sameNicRetry();
        }
        counters.increment(NicEvent.MESSAGES_SENT);
        if (position >= 0)
        {
            sameNicLog = log;
            sameNicTaken[sameNicTakenCount++] = position;
            if (SAME_NIC_BATCH == sameNicTakenCount)
            {
                // The read ends after this record, so that its head moves and these are resolved.
                return ControlledMessageHandler.Action.BREAK;
            }
        }
        return ControlledMessageHandler.Action.COMMIT;
    }

    private ControlledMessageHandler.Action sameNicRetry()
    {
        if (clock.nowNanos + SAME_NIC_RETRY_NANOS - sameNicRetryNanos < 0)
        {
            sameNicRetryNanos = clock.nowNanos + SAME_NIC_RETRY_NANOS;
        }
        return heldBack();
    }

    /**
     * @return true when the queues a same-NIC message can land in have room for it: the destination's receive queue
     *         of its kind, and the sender's reply receive queue (a refusal goes back there).
     */
    private boolean sameNicRoom(final DirectBuffer buffer, final int body, final int bodyLength)
    {
        final int recordLength = QueueRecordDescriptor.BODY_OFFSET + bodyLength;
        if (!hasRoom(draining.receiveQueue(true), recordLength))
        {
            return false;
        }
        final ServedQueues destination =
            endpoints.byId(buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        if (null == destination)
        {
            return true;
        }
        final Opcode opcode = Opcode.fromCode(buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF);
        final boolean replyQueue = 0 != (buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) & 0xFF) ||
            null == opcode || !opcode.isRequest();
        return hasRoom(destination.receiveQueue(replyQueue), recordLength);
    }

    /**
     * @return true when a record of this length fits the queue now (this NIC is its only producer), padding at its
     *         end included; one alignment unit is kept in hand, as the ring may keep the header after its last record
     *         free. May answer false for a record that would just fit (it is tried again), never true for one that
     *         does not.
     */
    static boolean hasRoom(final org.agrona.concurrent.ringbuffer.OneToOneRingBuffer queue, final int length)
    {
        final int required = org.agrona.BitUtil.align(
            org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH + length,
            org.agrona.concurrent.ringbuffer.RecordDescriptor.ALIGNMENT);
        final int capacity = queue.capacity();
        final long tail = queue.producerPosition();
        final int toEnd = capacity - (int)(tail & (capacity - 1));
        final int needed = required > toEnd ? toEnd + required : required;
        return capacity - (tail - queue.consumerPosition()) >= needed +
            org.agrona.concurrent.ringbuffer.RecordDescriptor.ALIGNMENT;
    }

    /**
     * The same-NIC messages the last read delivered: its head has moved past their records, so the log's copies
     * are resolved.
     */
    private void resolveSameNic()
    {
        for (int i = 0; i < sameNicTakenCount; i++)
        {
            sameNicLog.resolve(sameNicTaken[i]);
        }
        sameNicTakenCount = 0;
        sameNicLog = null;
    }

    /**
     * The record waits in its queue, and those behind it: an acknowledgement (which wakes the NIC from its selector),
     * a timer or the link's next token lets it go, not another look at the queue.
     */
    private ControlledMessageHandler.Action heldBack()
    {
        draining.heldBack(drainingReplies, true);
        return ControlledMessageHandler.Action.ABORT;
    }

    /**
     * @return true when a send queue holds a record the NIC could take now: one that is not held back by its peer's
     *         window, its in-flight log or the link ({@link #linkReadyNanos()} says when the link lets one go).
     */
    boolean hasReadySends()
    {
        for (final ServedQueues endpoint : endpoints.all())
        {
            if (endpoint.hasReadySends())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return when the link lets the record the last drain held back for it leave, or when a record held back for a
     *         full receive queue of an endpoint of this NIC is tried again (the earlier), or {@link Long#MAX_VALUE}.
     */
    long linkReadyNanos()
    {
        return Math.min(linkReadyNanos, sameNicRetryNanos);
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
        slot.log = takenLog;
        slot.logPosition = takenLogPosition;
        slot.ensureCapacity(bodyLength);
        slot.view.putBytes(WireDescriptor.HEADER_LENGTH, buffer, body, bodyLength);
        writer.start(slot, bodyLength, buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET));
        if (!returnedUnsent(peer, channel, slot))
        {
            batches.add(peer, replyChannel, slot);
            counters.increment(NicEvent.MESSAGES_SENT);
        }
    }

    /**
     * Send a message just assigned to its slot at once (a direct send: nothing is held for its peer, since every
     * drain sends what it held before it ends), or, when its peer is known dead, return it (it never left).
     */
    void send(final Peer peer, final SendChannel channel, final boolean replyChannel, final WindowSlot slot)
    {
        if (!returnedUnsent(peer, channel, slot))
        {
            writer.transmit(peer, replyChannel, slot);
            counters.increment(NicEvent.MESSAGES_SENT);
        }
    }

    /**
     * Hold a direct send for its peer's batch: it goes out with what else is sent to that peer before the next
     * {@link #flushHeld()} or drain (or at once when the batch is full).
     */
    void hold(final Peer peer, final SendChannel channel, final boolean replyChannel, final WindowSlot slot)
    {
        if (!returnedUnsent(peer, channel, slot))
        {
            // Volatile store before the batch holds the message: a host that reads false afterwards finds it sent.
            held = true;
            batches.add(peer, replyChannel, slot);
            counters.increment(NicEvent.MESSAGES_SENT);
        }
    }

    /**
     * @return true when direct sends are held ({@link #hold}).
     */
    boolean holds()
    {
        return held;
    }

    /**
     * Send every held direct send now.
     */
    void flushHeld()
    {
        held = false;
        batches.flush();
    }

    /**
     * @return true when the peer is known dead (or runs another wire mode) and the message was returned (or will be,
     *         when the sender's reply queue has room) with EUNREACHABLE, without leaving.
     */
    private boolean returnedUnsent(final Peer peer, final SendChannel channel, final WindowSlot slot)
    {
        if (!peer.unreachable())
        {
            return false;
        }
        counters.increment(NicEvent.UNREACHABLE);
        slot.returnStatus = ReturnStatus.EUNREACHABLE.code();
        if (timers.returnLocally(peer, slot, slot.returnStatus))
        {
            channel.complete(slot);
        }
        return true;
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
