package org.am2j.net;

import java.net.InetSocketAddress;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.SegmentBounds;
import org.am2j.net.auth.NicKeys;

/**
 * The NIC's receive path, by frame type: it checks every datagram's header, session and tag (and a batch's whole
 * layout), applies the acknowledgement state and floors it carries, hands handshakes to {@link Handshakes}, answers
 * give-ups, walks the messages of a batch in order, recognises duplicates, reassembles fragments, checks
 * each message against its destination endpoint (exists, tag, handler, lengths, segment range) and puts it into the
 * endpoint's receive queue (or hands it to the polling host, {@link DirectDelivery}) or sends it back to its sender.
 * Agent thread.
 */
final class FrameReader
{
    /** The message was taken (delivered, answered or dropped for good): acknowledge it. */
    static final int TAKEN = 0;
    /** The message could not be taken now (a queue is full): do not acknowledge; the sender retransmits. */
    static final int BUSY = 1;
    /** The message cannot be taken yet (what it depends on is still on its way): the sender retransmits. */
    static final int NOT_YET = 2;

    private final NetConfig config;
    /** The in-flight log copy of the same-NIC message being delivered, or null (see {@link #deliver}). */
    private InFlightLog sameNicLog;
    private long sameNicLogPosition;
    private final long nicId;
    private final NicCounters counters;
    private final int ackBatch;
    private final NicClock clock;
    private final PeerTable peers;
    private final EndpointTable endpoints;
    private final FrameWriter writer;
    private final NicTimers timers;
    private final UnsafeBuffer received;
    private final WireSeal seal;
    private final Handshakes handshakes;
    private final NameAnnouncements names;
    /** The polling host's offer for the datagram being read (inline mode), else null. */
    private DirectDelivery direct;

    FrameReader(final NetConfig config, final long nicId, final NicCounters counters, final NicKeys keys,
        final NicClock clock, final PeerTable peers, final EndpointTable endpoints, final FrameWriter writer,
        final NicTimers timers, final UnsafeBuffer received, final WireSeal seal)
    {
        this.seal = seal;
        this.config = config;
        this.nicId = nicId;
        this.counters = counters;
        this.ackBatch = Math.max(1, config.depth / 4);
        this.clock = clock;
        this.peers = peers;
        this.endpoints = endpoints;
        this.writer = writer;
        this.timers = timers;
        this.received = received;
        this.handshakes = new Handshakes(config, nicId, counters, keys, clock, peers, writer, timers, received);
        this.names = new NameAnnouncements(counters, endpoints, peers);
    }

    /**
     * @param offer the polling host's offer to take a message of the next datagram directly, or null.
     */
    void offer(final DirectDelivery offer)
    {
        this.direct = offer;
    }

    /**
     * A datagram (not a wake-up) was read into the receive buffer.
     *
     * @param from           its source address.
     * @param datagramLength its length.
     */
    void onDatagram(final InetSocketAddress from, final int datagramLength)
    {
        final UnsafeBuffer d = received;
        if (datagramLength < WireDescriptor.HEADER_LENGTH + WireDescriptor.TAG_LENGTH &&
            datagramLength != WireDescriptor.COOKIE_LENGTH)
        {
            counters.increment(NicEvent.TRUNCATED);
            return;
        }
        final int type = d.getByte(WireDescriptor.TYPE_OFFSET) & 0xFF;
        if (d.getShort(WireDescriptor.MAGIC_OFFSET) != WireDescriptor.MAGIC ||
            d.getByte(WireDescriptor.VERSION_OFFSET) != WireDescriptor.VERSION ||
            type < WireDescriptor.TYPE_DATA || type > WireDescriptor.LAST_TYPE)
        {
            counters.increment(NicEvent.BAD_HEADER);
            if (d.getShort(WireDescriptor.MAGIC_OFFSET) == WireDescriptor.MAGIC && type == WireDescriptor.TYPE_HELLO)
            {
                handshakes.otherVersion(from, d.getByte(WireDescriptor.VERSION_OFFSET) & 0xFF);
            }
            return;
        }
        if (d.getLong(WireDescriptor.DESTINATION_NIC_OFFSET) != nicId)
        {
            counters.increment(NicEvent.WRONG_NIC);
            return;
        }
        final long sourceNic = d.getLong(WireDescriptor.SOURCE_NIC_OFFSET);
        final Peer peer = peers.byNic(sourceNic);
        if (type == WireDescriptor.TYPE_COOKIE)
        {
            handshakes.onCookie(peer, datagramLength);
            return;
        }
        final int length = datagramLength - WireDescriptor.TAG_LENGTH;
        if (type == WireDescriptor.TYPE_HELLO)
        {
            handshakes.onHello(from, sourceNic, peer, length);
            return;
        }
        if (type == WireDescriptor.TYPE_ANSWER)
        {
            handshakes.onAnswer(peer, length);
            return;
        }
        if (null == peer)
        {
            // Nothing from an unknown NIC is believed or answered, but a HELLO: it gets a cookie, or a peer.
            counters.increment(NicEvent.UNKNOWN_PEER);
            return;
        }
        // The session the datagram names: the one in use, or the one this NIC answered a HELLO for.
        final int sessionId = d.getInt(WireDescriptor.SESSION_OFFSET);
        final LinkSession current = peer.session;
        final LinkSession session = null != current && current.id == sessionId ? current :
            null != peer.answered && peer.answered.id == sessionId ? peer.answered : null;
        if (null == session)
        {
            // Of a session this NIC does not hold (an earlier one, or made up): it changes nothing.
            counters.increment(NicEvent.UNKNOWN_SESSION);
            return;
        }
        if (!seal.open(d, length, session))
        {
            // Forged, spoiled, or from another incarnation: it changes nothing.
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        // A batch's whole layout is checked before anything in it (acknowledgements included) is believed: one that
        // does not hold is dropped whole, none of its messages taken.
        final int batchCount = type == WireDescriptor.TYPE_BATCH ? BatchDescriptor.count(d, length) : 0;
        if (batchCount < 0)
        {
            counters.increment(NicEvent.TRUNCATED);
            return;
        }
        if (acceptLinkState(peer, session, current))
        {
            onPayload(peer, type, length, batchCount);
        }
    }

    /**
     * The link state of a datagram whose tag checked, believed: the session anchored or taken up, the peer heard
     * from, its acknowledgements and floors applied.
     *
     * @return false when it acknowledges sequences never sent (garbage, or another incarnation): nothing more of it
     *         is believed.
     */
    private boolean acceptLinkState(final Peer peer, final LinkSession session, final LinkSession current)
    {
        final UnsafeBuffer d = received;
        if (!session.anchored)
        {
            // The first datagram of the session from the peer: our receive state starts at its floors.
            session.anchored = true;
            peer.requestsIn.anchor(d.getLong(WireDescriptor.REQUEST_FLOOR_OFFSET));
            peer.repliesIn.anchor(d.getLong(WireDescriptor.REPLY_FLOOR_OFFSET));
        }
        if (session != current)
        {
            // The peer got our ANSWER and uses the session: it replaces the one in use, if any.
            handshakes.takeUp(peer);
        }
        if (clock.nowNanos - peer.lastHeardNanos > config.timeoutNanos / 2)
        {
            // Heard again after a long silence (it stalled, or was cut off; a running peer answers every
            // retransmission, at least every rtoMaxMs): what we sent meanwhile may still be in its socket or on its
            // way; give it a whole timeout before asking it to give anything up.
            timers.moveDeadlines(peer, false);
        }
        peer.lastHeardNanos = clock.nowNanos;
        if (peer.requestsOut.acknowledge(d.getLong(WireDescriptor.REQUEST_ACK_NEXT_OFFSET),
            d.getLong(WireDescriptor.REQUEST_ACK_BITS_OFFSET), clock.nowNanos, peer.rtt) < 0 ||
            peer.repliesOut.acknowledge(d.getLong(WireDescriptor.REPLY_ACK_NEXT_OFFSET),
            d.getLong(WireDescriptor.REPLY_ACK_BITS_OFFSET), clock.nowNanos, peer.rtt) < 0)
        {
            // An acknowledgement of sequences never sent: garbage (or another incarnation); trust nothing in it.
            counters.increment(NicEvent.MALFORMED);
            return false;
        }
        // The peer has its answers for everything below its floors: what we gave up below them can be forgotten.
        peer.requestsIn.floor(d.getLong(WireDescriptor.REQUEST_FLOOR_OFFSET));
        peer.repliesIn.floor(d.getLong(WireDescriptor.REPLY_FLOOR_OFFSET));
        if (0 != (d.getShort(WireDescriptor.FLAGS_OFFSET) & WireDescriptor.FLAG_BUSY))
        {
            timers.moveDeadlines(peer, true);
        }
        return true;
    }

    /**
     * What a datagram carries past its link state: nothing (an ACK), a batch, a give-up or its answer, or a message
     * or a fragment of one, delivered once per sequence.
     */
    private void onPayload(final Peer peer, final int type, final int length, final int batchCount)
    {
        final UnsafeBuffer d = received;
        final int flags = d.getShort(WireDescriptor.FLAGS_OFFSET) & 0xFFFF;
        if (type == WireDescriptor.TYPE_ACK)
        {
            return;
        }
        if (type == WireDescriptor.TYPE_BATCH)
        {
            onBatch(peer, batchCount);
            return;
        }
        final boolean replyChannel = 0 != (flags & WireDescriptor.FLAG_REPLY_CHANNEL);
        final long sequence = d.getLong(WireDescriptor.SEQUENCE_OFFSET);
        if (type == WireDescriptor.TYPE_GIVE_UP)
        {
            onGiveUp(peer, replyChannel, sequence);
            return;
        }
        if (type == WireDescriptor.TYPE_GIVE_UP_ANSWER)
        {
            onGiveUpAnswer(peer, replyChannel, sequence, 0 != (flags & WireDescriptor.FLAG_GIVEN_UP));
            return;
        }
        final ReceiveChannel in = peer.in(replyChannel);
        if (!isNew(in, sequence))
        {
            return;
        }
        final int fragmentIndex = d.getByte(WireDescriptor.FRAGMENT_INDEX_OFFSET) & 0xFF;
        final int fragmentCount = d.getByte(WireDescriptor.FRAGMENT_COUNT_OFFSET) & 0xFF;
        final int bodyLength = d.getInt(WireDescriptor.BODY_LENGTH_OFFSET);
        final int fragmentOffset = d.getInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET);
        final int fragmentLength = length - WireDescriptor.HEADER_LENGTH;
        if (fragmentCount < 1 || fragmentCount > WireDescriptor.MAX_FRAGMENTS || fragmentIndex >= fragmentCount ||
            bodyLength < MessageDescriptor.HEADER_LENGTH || bodyLength > MessageDescriptor.MAX_BODY_LENGTH ||
            fragmentOffset < 0 || fragmentLength > bodyLength || fragmentOffset > bodyLength - fragmentLength ||
            (1 == fragmentCount && (0 != fragmentOffset || fragmentLength != bodyLength)))
        {
            counters.increment(NicEvent.TRUNCATED);
            return;
        }
        final int result;
        if (1 == fragmentCount)
        {
            result = deliver(peer, replyChannel, d, WireDescriptor.HEADER_LENGTH, bodyLength);
        }
        else
        {
            final Reassembly.Entry entry = peer.reassembly.add(replyChannel, sequence, fragmentIndex, fragmentCount,
                bodyLength, d, WireDescriptor.HEADER_LENGTH, fragmentOffset, fragmentLength, clock.nowNanos);
            if (null == entry)
            {
                return;
            }
            result = deliver(peer, replyChannel, entry.body, 0, bodyLength);
            peer.reassembly.release(entry);
        }
        settle(peer, in, sequence, result);
    }

    /**
     * Every message of a batch whose tag and layout checked ({@link BatchDescriptor}), in order, each as if it had
     * come alone in a DATA datagram: its own channel and sequence, duplicates recognised and busy queues left to
     * retransmission one by one.
     */
    private void onBatch(final Peer peer, final int count)
    {
        counters.increment(NicEvent.BATCHES_RECEIVED);
        final UnsafeBuffer d = received;
        int entry = BatchDescriptor.FIRST_ENTRY_OFFSET;
        for (int i = 0; i < count; i++)
        {
            final long sequence = d.getLong(entry + BatchDescriptor.SEQUENCE_OFFSET);
            final int bodyLength = d.getInt(entry + BatchDescriptor.BODY_LENGTH_OFFSET);
            final boolean replyChannel =
                0 != (d.getInt(entry + BatchDescriptor.FLAGS_OFFSET) & WireDescriptor.FLAG_REPLY_CHANNEL);
            final ReceiveChannel in = peer.in(replyChannel);
            if (isNew(in, sequence))
            {
                settle(peer, in, sequence,
                    deliver(peer, replyChannel, d, entry + BatchDescriptor.ENTRY_HEADER_LENGTH, bodyLength));
            }
            entry += BatchDescriptor.entryLength(bodyLength);
        }
    }

    /**
     * @return true when the sequence is new; a duplicate is answered at once, one outside the window counted.
     */
    private boolean isNew(final ReceiveChannel in, final long sequence)
    {
        final int state = in.check(sequence);
        if (state == ReceiveChannel.DUPLICATE)
        {
            // Our acknowledgement was lost (or is late): the sender retransmitted. Answer at once.
            counters.increment(NicEvent.DUPLICATES);
            in.owe(clock.nowNanos, 0, 1);
            clock.nextTimerNanos = clock.nowNanos;
            return false;
        }
        if (state == ReceiveChannel.OUT_OF_WINDOW)
        {
            counters.increment(NicEvent.OUT_OF_WINDOW);
            return false;
        }
        return true;
    }

    /**
     * What {@link #deliver} made of a new sequence: taken (acknowledge it, after the delay or at once once enough
     * are owed), or refused for a full queue (tell the peer it is busy), or not yet (the sender retransmits).
     */
    private void settle(final Peer peer, final ReceiveChannel in, final long sequence, final int result)
    {
        if (TAKEN == result)
        {
            in.take(sequence);
            in.owe(clock.nowNanos, config.ackDelayNanos, ackBatch);
        }
        else if (BUSY == result)
        {
            peer.busyOwed = true;
        }
        if (peer.busyOwed)
        {
            clock.nextTimerNanos = clock.nowNanos;
        }
        else if (in.ackOwed() && in.ackDueNanos() - clock.nextTimerNanos < 0)
        {
            clock.nextTimerNanos = in.ackDueNanos();
        }
    }

    /**
     * The peer asks us to give up a message it sent and has had no acknowledgement for. Taken already (delivered, or
     * refused and answered): say so, and the peer will not return it. Not taken: give it up for good (no copy of it
     * is ever delivered after this) and say so, and the peer returns it to its sender. Either answer is final, and a
     * repeated request gets the same one.
     */
    void onGiveUp(final Peer peer, final boolean replyChannel, final long sequence)
    {
        final ReceiveChannel in = peer.in(replyChannel);
        final boolean untaken = in.check(sequence) == ReceiveChannel.NEW;
        final int answer = in.giveUp(sequence);
        if (answer == ReceiveChannel.OUT_OF_WINDOW)
        {
            counters.increment(NicEvent.OUT_OF_WINDOW);
            return;
        }
        if (untaken && answer == ReceiveChannel.GIVEN_UP)
        {
            // Given up now (a repeated request finds it given up before, and is only answered again).
            peer.reassembly.discard(replyChannel, sequence);
            counters.increment(NicEvent.GIVEN_UP_HERE);
        }
        writer.sendControl(peer, WireDescriptor.TYPE_GIVE_UP_ANSWER, replyChannel, sequence,
            answer == ReceiveChannel.GIVEN_UP ? WireDescriptor.FLAG_GIVEN_UP : 0);
    }

    /**
     * The peer answered a give-up: return the message to its sender when the peer gave it up, forget it when the
     * peer had delivered it. An answer for a sequence that is no longer being given up (a repeat) changes nothing.
     */
    void onGiveUpAnswer(final Peer peer, final boolean replyChannel, final long sequence,
        final boolean givenUp)
    {
        final SendChannel channel = peer.out(replyChannel);
        final WindowSlot slot = channel.inFlight(sequence);
        if (null == slot || !slot.givingUp || 0 != slot.returnStatus)
        {
            return;
        }
        if (!givenUp)
        {
            counters.increment(NicEvent.GIVEN_UP_DELIVERED);
            channel.complete(slot);
            return;
        }
        counters.increment(NicEvent.GIVEN_UP_RETURNED);
        slot.returnStatus = ReturnStatus.ECONGESTION.code();
        if (timers.returnLocally(peer, slot, slot.returnStatus))
        {
            channel.complete(slot);
        }
    }

    /**
     * {@link #deliver(Peer, boolean, DirectBuffer, int, int)} of a message between two endpoints of this NIC whose
     * copy is in its sender's in-flight log: a refusal marks the copy RETURNING as it goes back.
     */
    int deliver(final Peer peer, final boolean replyChannel, final DirectBuffer buffer, final int body,
        final int bodyLength, final InFlightLog log, final long position)
    {
        sameNicLog = log;
        sameNicLogPosition = position;
        try
        {
            return deliver(peer, replyChannel, buffer, body, bodyLength);
        }
        finally
        {
            sameNicLog = null;
        }
    }

    /**
     * Check a complete message body against its destination and put it into the destination's receive queue, or
     * send it back to its sender.
     *
     * @return {@link #TAKEN}, {@link #BUSY}, or {@link #NOT_YET} for a request whose sender's name has not come.
     */
    int deliver(final Peer peer, final boolean replyChannel, final DirectBuffer buffer, final int body,
        final int bodyLength)
    {
        final int code = buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        final int sourceEndpoint = buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET);
        final int dataLength = buffer.getInt(body + MessageDescriptor.DATA_LENGTH_OFFSET);
        if (dataLength != bodyLength - MessageDescriptor.HEADER_LENGTH)
        {
            counters.increment(NicEvent.MALFORMED);
            return TAKEN;
        }
        if (MessageDescriptor.OPCODE_NAME == code)
        {
            names.onAnnouncement(peer, replyChannel, buffer, body, sourceEndpoint, dataLength);
            return TAKEN;
        }
        final int status = buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) & 0xFF;
        final Opcode opcode = Opcode.fromCode(code);
        final ServedQueues endpoint =
            endpoints.byId(buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        final int refusal = ReceiveRecords.refusal(opcode, status, endpoint, buffer, body, dataLength);
        if (0 != refusal)
        {
            if (0 != status)
            {
                // A returned message is never returned again: drop it.
                counters.increment(NicEvent.MALFORMED);
                return TAKEN;
            }
            return refuse(peer, buffer, body, bodyLength, refusal);
        }
        // A long message always names its place in the segment, even with no data: the core checks it there.
        final org.agrona.concurrent.AtomicBuffer segment = endpoint.depositSegment();
        final boolean deposit = 0 == status && MessageCategory.LONG == opcode.category() && null != segment;
        final boolean replyQueue = 0 != status || !opcode.isRequest();
        final OneToOneRingBuffer queue = endpoint.receiveQueue(replyQueue);
        final int route = endpoint.inverseRoute(peer, sourceEndpoint);
        if (route < 0)
        {
            // More distinct senders than the endpoint keeps routes for: refuse, so the sender learns.
            return 0 != status ? TAKEN : refuse(peer, buffer, body, bodyLength, ReturnStatus.EBADENDPOINT.code());
        }
        if (0 == status && opcode.isRequest() && !endpoint.routeNamed(route))
        {
            // The sender's name announcement (an earlier sequence) has not arrived yet: take the request when it
            // is retransmitted, so that its token always names its source. This request's tag vouches for a name
            // held for a tag the destination did not accept. A peer over its names' budget has its announcements
            // refused: its requests from endpoints not named are refused too.
            if (!names.vouched(peer, sourceEndpoint))
            {
                return peer.names.overBudget ?
                    refuse(peer, buffer, body, bodyLength, ReturnStatus.EBADENDPOINT.code()) : NOT_YET;
            }
        }
        return place(peer, endpoint, replyQueue, queue, route, deposit ? segment : null, buffer, body, bodyLength);
    }

    /**
     * Put a message that passed every check into its receive queue (a long one's data into the segment first), or
     * hand it to the polling host.
     *
     * @param segment the segment a long message's data goes into, or null for a message that carries its data.
     * @return {@link #TAKEN}, {@link #BUSY} for a full queue, or what a refusal of a bad segment range answers.
     */
    private int place(
        final Peer peer, final ServedQueues endpoint, final boolean replyQueue, final OneToOneRingBuffer queue,
        final int route, final org.agrona.concurrent.AtomicBuffer segment, final DirectBuffer buffer, final int body,
        final int bodyLength)
    {
        final boolean deposit = null != segment;
        final int dataLength = bodyLength - MessageDescriptor.HEADER_LENGTH;
        // Handed over (DirectDelivery) when the polling host offered it and the queue is empty: the host, our caller's
        // thread and the queue's only reader, runs earlier records before it polls the socket again.
        final DirectDelivery offer = direct;
        final boolean handOver = null != offer && buffer == received && offer.accepts(endpoint, replyQueue) &&
            queue.producerPosition() == queue.consumerPosition();
        final int recordLength = QueueRecordDescriptor.BODY_OFFSET +
            (deposit ? MessageDescriptor.HEADER_LENGTH : bodyLength);
        final int index = handOver ? 0 : queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, recordLength);
        if (index < 0)
        {
            counters.increment(NicEvent.RECEIVE_QUEUE_FULL);
            return BUSY;
        }
        if (deposit)
        {
            // One read of the segment, checked and written: the user may install another one meanwhile.
            final long segmentOffset = buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET);
            final int bounds = SegmentBounds.check(segment, segmentOffset, dataLength);
            if (0 != bounds)
            {
                if (!handOver)
                {
                    queue.abort(index);
                }
                return refuse(peer, buffer, body, bodyLength, bounds);
            }
            // The NIC's "DMA" into the segment, before the record that announces it is committed.
            segment.putBytes((int)segmentOffset, buffer, body + MessageDescriptor.HEADER_LENGTH, dataLength);
        }
        if (handOver)
        {
            offer.accept(buffer, body, bodyLength, route, deposit, replyQueue);
            counters.increment(NicEvent.DIRECT_DELIVERIES);
            counters.increment(NicEvent.MESSAGES_DELIVERED);
            return TAKEN;
        }
        final MutableDirectBuffer ring = queue.buffer();
        ring.putInt(index + QueueRecordDescriptor.ROUTE_OFFSET, route);
        ring.putInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET, deposit ? 1 : 0);
        ring.putBytes(index + QueueRecordDescriptor.BODY_OFFSET, buffer, body,
            recordLength - QueueRecordDescriptor.BODY_OFFSET);
        ReceiveRecords.commitAndSignal(queue, index, endpoint);
        counters.increment(NicEvent.MESSAGES_DELIVERED);
        return TAKEN;
    }

    /**
     * Send a message back to its sender with a status, on the reply channel.
     */
    private int refuse(final Peer peer, final DirectBuffer buffer, final int body, final int bodyLength,
        final int status)
    {
        if (peer.sameNic)
        {
            // From an endpoint this NIC serves too: back into its reply receive queue, no datagram.
            return ReceiveRecords.returnToSender(endpoints, peer, buffer, body, bodyLength, status, sameNicLog,
                sameNicLogPosition);
        }
        return writer.sendBack(peer, buffer, body, bodyLength, status, false);
    }
}
