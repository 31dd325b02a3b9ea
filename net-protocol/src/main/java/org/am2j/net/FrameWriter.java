package org.am2j.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import java.security.SecureRandom;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.net.auth.LinkSecret;
import org.am2j.net.auth.NicKeys;

/**
 * The NIC's transmit path: it writes the header of every datagram (with both channels' acknowledgement state and
 * floors), cuts message bodies into fragments, tags every datagram with its session's key and hands it to the wire;
 * and it makes the control datagrams (ACK, GIVE_UP and its answer, HELLO, ANSWER, COOKIE) and returned messages.
 * Nothing but a handshake goes to a peer before a session with it exists: messages wait in their window slots, and
 * leave when the handshake completes ({@link #sendHeld}). Agent thread.
 */
final class FrameWriter
{
    private final NetConfig config;
    private final Wire wire;
    private final long nicId;
    /** The port of {@link Wire#localAddress()}, for {@link WireDescriptor#SOURCE_PORT_OFFSET}. */
    private final long receivingPort;
    private final NicCounters counters;
    private final NicKeys keys;
    private final NicClock clock;
    private final ByteBuffer fragmentBuffer;
    private final UnsafeBuffer fragment;
    private final ByteBuffer ackBuffer = direct(WireDescriptor.HELLO_LENGTH + WireDescriptor.TAG_LENGTH);
    private final UnsafeBuffer ack = new UnsafeBuffer(ackBuffer);
    private final WireSeal seal;
    /** Source of the handshakes' randoms. */
    private final SecureRandom random = new SecureRandom();

    FrameWriter(final NetConfig config, final Wire wire, final long nicId, final NicCounters counters,
        final NicKeys keys, final NicClock clock, final WireSeal seal)
    {
        this.seal = seal;
        this.config = config;
        this.wire = wire;
        this.nicId = nicId;
        this.receivingPort = wire.localAddress().getPort();
        this.counters = counters;
        this.keys = keys;
        this.clock = clock;
        this.fragmentBuffer = direct(config.datagramLimit);
        this.fragment = new UnsafeBuffer(fragmentBuffer);
    }

    static ByteBuffer direct(final int capacity)
    {
        return BufferUtil.allocateDirectAligned(org.agrona.BitUtil.align(capacity, 64), 64).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * A COOKIE for a HELLO from an unknown NIC, to the claimant's receiving socket. Untagged (no key yet).
     */
    void sendCookie(final InetSocketAddress claimant, final long claimantNic, final long cookie)
    {
        writeHandshakeHeader(WireDescriptor.TYPE_COOKIE, 0, claimantNic);
        ack.putLong(WireDescriptor.COOKIE_OFFSET, cookie);
        ackBuffer.limit(WireDescriptor.COOKIE_LENGTH).position(0);
        try
        {
            wire.send(ackBuffer, wire.destination(claimant));
            counters.increment(NicEvent.COOKIES_SENT);
        }
        catch (final IOException | RuntimeException ex)
        {
            counters.increment(NicEvent.IO_ERRORS);
        }
    }

    void start(final WindowSlot slot, final int bodyLength, final int localEndpointId)
    {
        slot.bodyLength = bodyLength;
        slot.localEndpointId = localEndpointId;
        slot.firstSentNanos = clock.nowNanos;
        slot.lastSentNanos = clock.nowNanos;
        slot.expiresAtNanos = clock.nowNanos + config.timeoutNanos;
    }

    void transmit(final Peer peer, final boolean replyChannel, final WindowSlot slot)
    {
        if (null == peer.session)
        {
            // No session yet: the message waits in its slot (its timer armed) and leaves when the handshake completes.
            handshake(peer);
            sent(peer, slot);
            return;
        }
        slot.sentIn = peer.session;
        final UnsafeBuffer datagram = slot.view;
        writeHeader(datagram, WireDescriptor.TYPE_DATA, replyChannel ? WireDescriptor.FLAG_REPLY_CHANNEL : 0, peer,
            slot.sequence);
        datagram.putInt(WireDescriptor.BODY_LENGTH_OFFSET, slot.bodyLength);
        final int total = WireDescriptor.HEADER_LENGTH + slot.bodyLength;
        if (total + WireDescriptor.TAG_LENGTH <= config.datagramLimit)
        {
            datagram.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
            send(slot.datagram, slot.view, total, peer, true);
        }
        else
        {
            final int fragmentBytes = config.fragmentBytes();
            final int count = (slot.bodyLength + fragmentBytes - 1) / fragmentBytes;
            for (int i = 0; i < count; i++)
            {
                final int offset = i * fragmentBytes;
                final int length = Math.min(fragmentBytes, slot.bodyLength - offset);
                fragment.putBytes(0, datagram, 0, WireDescriptor.HEADER_LENGTH);
                fragment.putByte(WireDescriptor.FRAGMENT_INDEX_OFFSET, (byte)i);
                fragment.putByte(WireDescriptor.FRAGMENT_COUNT_OFFSET, (byte)count);
                fragment.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, offset);
                fragment.putBytes(WireDescriptor.HEADER_LENGTH, datagram, WireDescriptor.HEADER_LENGTH + offset, length);
                send(fragmentBuffer, fragment, WireDescriptor.HEADER_LENGTH + length, peer, false);
            }
        }
        sent(peer, slot);
    }

    /**
     * The slot's message went out now (alone or in a batch): arm its retransmission.
     */
    void sent(final Peer peer, final WindowSlot slot)
    {
        slot.lastSentNanos = clock.nowNanos;
        slot.retransmitAtNanos = clock.nowNanos + peer.rtt.backedOff(slot.retransmits);
        if (slot.retransmitAtNanos - clock.nextTimerNanos < 0)
        {
            clock.nextTimerNanos = Math.max(slot.retransmitAtNanos, clock.nowNanos + NicTimers.TICK_NANOS / 4);
        }
    }

    /**
     * @return the largest datagram, tag included.
     */
    int datagramLimit()
    {
        return config.datagramLimit;
    }

    /**
     * Write the header of a datagram of the peer's session: it carries the session's id and both channels'
     * acknowledgement state and floors. The caller sends it only while the peer has a session.
     */
    void writeHeader(final UnsafeBuffer datagram, final int type, final int flags, final Peer peer,
        final long sequence)
    {
        final int busy = peer.busyOwed ? WireDescriptor.FLAG_BUSY : 0;
        peer.busyOwed = false;
        putStart(datagram, type, flags | busy, peer.nicId);
        datagram.putByte(WireDescriptor.FRAGMENT_INDEX_OFFSET, (byte)0);
        datagram.putLong(WireDescriptor.SEQUENCE_OFFSET, sequence);
        // The port, then key epoch 0 and the reserved byte, in one store.
        datagram.putInt(WireDescriptor.SOURCE_PORT_OFFSET, (int)receivingPort);
        datagram.putInt(WireDescriptor.SESSION_OFFSET, null == peer.session ? 0 : peer.session.id);
        datagram.putLong(WireDescriptor.TRANSMISSION_OFFSET, 0);
        // Every datagram carries both channels' acknowledgement state: nothing is owed once it is sent.
        datagram.putLong(WireDescriptor.REQUEST_ACK_NEXT_OFFSET, peer.requestsIn.next());
        datagram.putLong(WireDescriptor.REQUEST_ACK_BITS_OFFSET, peer.requestsIn.bits());
        datagram.putLong(WireDescriptor.REPLY_ACK_NEXT_OFFSET, peer.repliesIn.next());
        datagram.putLong(WireDescriptor.REPLY_ACK_BITS_OFFSET, peer.repliesIn.bits());
        datagram.putLong(WireDescriptor.REQUEST_FLOOR_OFFSET, peer.requestsOut.floor());
        datagram.putLong(WireDescriptor.REPLY_FLOOR_OFFSET, peer.repliesOut.floor());
        peer.requestsIn.acknowledged();
        peer.repliesIn.acknowledged();
    }

    /**
     * Seal or tag a datagram of the peer's session ({@link WireSeal}: its tag goes after its {@code length} bytes, which
     * its buffer has room for) and hand it to the wire.
     *
     * @param keep the datagram is a window slot's, which keeps its message in clear for retransmission.
     */
    void send(final ByteBuffer datagram, final UnsafeBuffer view, final int length, final Peer peer,
        final boolean keep)
    {
        final LinkSession session = peer.session;
        if (null == session)
        {
            return;
        }
        toWire(seal.seal(datagram, view, length, session, keep), length, peer);
    }

    /**
     * Hand a datagram whose {@code length} bytes and tag are written to the wire, to the peer.
     */
    private void toWire(final ByteBuffer datagram, final int length, final Peer peer)
    {
        datagram.limit(length + WireDescriptor.TAG_LENGTH).position(0);
        try
        {
            if (wire.send(datagram, peer.destination))
            {
                counters.increment(NicEvent.DATAGRAMS_SENT);
            }
            else
            {
                counters.increment(NicEvent.SEND_BUFFER_FULL);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            counters.increment(NicEvent.IO_ERRORS);
        }
    }

    /**
     * Send a header-only control datagram about one sequence ({@link WireDescriptor#TYPE_GIVE_UP} or
     * {@link WireDescriptor#TYPE_GIVE_UP_ANSWER}); it carries the acknowledgement state too, like every datagram.
     */
    void sendControl(final Peer peer, final int type, final boolean replyChannel, final long sequence,
        final int flags)
    {
        writeHeader(ack, type, flags | (replyChannel ? WireDescriptor.FLAG_REPLY_CHANNEL : 0), peer, sequence);
        ack.putInt(WireDescriptor.BODY_LENGTH_OFFSET, 0);
        ack.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
        send(ackBuffer, ack, WireDescriptor.HEADER_LENGTH, peer, false);
    }

    /**
     * Start or go on with a handshake with a peer this NIC has no session with: a HELLO with a fresh random, sent
     * again once per retransmission timeout (with the same random) until an ANSWER makes the session. Nothing while
     * this NIC answered the peer's own HELLO and waits for the peer to use the session, or when the peer runs another
     * wire mode.
     *
     * @param peer without a session.
     */
    void handshake(final Peer peer)
    {
        if (null != peer.answered || peer.unreachable() || null == peer.secret)
        {
            return;
        }
        if (null == peer.helloRandom)
        {
            peer.helloRandom = newRandom();
            peer.helloSentNanos = clock.nowNanos - peer.rtt.backedOff(0);
        }
        if (clock.nowNanos - peer.helloSentNanos >= peer.rtt.backedOff(0))
        {
            sendHello(peer);
        }
    }

    /**
     * The handshake timer of a peer: the HELLO of a handshake in progress, or the confirmation of a session this NIC
     * started that the peer has not used yet (its first datagram in the session was lost), once per retransmission
     * timeout.
     */
    void handshakeTimer(final Peer peer)
    {
        if (null == peer.session)
        {
            handshake(peer);
        }
        else if (clock.nowNanos - peer.helloSentNanos >= peer.rtt.backedOff(0))
        {
            peer.helloSentNanos = clock.nowNanos;
            sendAck(peer);
        }
    }

    /**
     * A HELLO: our public key, this handshake's random and wire mode, and the peer's cookie when it gave us one.
     */
    void sendHello(final Peer peer)
    {
        peer.helloSentNanos = clock.nowNanos;
        writeHandshakeHeader(WireDescriptor.TYPE_HELLO, 0 != peer.cookie ? WireDescriptor.FLAG_HAS_COOKIE : 0,
            peer.nicId);
        keys.publicKey(ack, WireDescriptor.HELLO_KEY_OFFSET);
        ack.putLong(WireDescriptor.HELLO_COOKIE_OFFSET, peer.cookie);
        ack.putBytes(WireDescriptor.HELLO_RANDOM_OFFSET, peer.helloRandom);
        ack.putLong(WireDescriptor.HELLO_MODE_OFFSET, config.wire.code);
        sendHandshake(peer, WireDescriptor.HELLO_LENGTH);
        counters.increment(NicEvent.HELLOS_SENT);
    }

    /**
     * An ANSWER to a HELLO: its random, ours (zeros when refusing), our wire mode.
     *
     * @param initiatorRandom the HELLO's random.
     * @param responderRandom ours, or null with {@link WireDescriptor#FLAG_WIRE_MISMATCH}.
     */
    void sendAnswer(final Peer peer, final byte[] initiatorRandom, final byte[] responderRandom, final int flags)
    {
        writeHandshakeHeader(WireDescriptor.TYPE_ANSWER, flags, peer.nicId);
        ack.putBytes(WireDescriptor.ANSWER_INITIATOR_RANDOM_OFFSET, initiatorRandom);
        if (null == responderRandom)
        {
            ack.setMemory(WireDescriptor.ANSWER_RESPONDER_RANDOM_OFFSET, LinkSecret.RANDOM_LENGTH, (byte)0);
        }
        else
        {
            ack.putBytes(WireDescriptor.ANSWER_RESPONDER_RANDOM_OFFSET, responderRandom);
        }
        ack.putLong(WireDescriptor.ANSWER_MODE_OFFSET, config.wire.code);
        sendHandshake(peer, WireDescriptor.ANSWER_LENGTH);
        counters.increment(NicEvent.ANSWERS_SENT);
    }

    /**
     * @return a fresh random for a handshake.
     */
    byte[] newRandom()
    {
        final byte[] bytes = new byte[LinkSecret.RANDOM_LENGTH];
        random.nextBytes(bytes);
        return bytes;
    }

    private void sendHandshake(final Peer peer, final int length)
    {
        peer.helloTransmit.tag(ack, 0, length);
        toWire(ackBuffer, length, peer);
    }

    /**
     * The header of a handshake datagram (and of a COOKIE) into {@link #ack}: who sends it to whom, and zeros for
     * everything a session's datagram carries (no acknowledgement state, floors or session).
     */
    private void writeHandshakeHeader(final int type, final int flags, final long destinationNic)
    {
        ack.setMemory(0, WireDescriptor.HEADER_LENGTH, (byte)0);
        putStart(ack, type, flags, destinationNic);
        ack.putShort(WireDescriptor.SOURCE_PORT_OFFSET, (short)receivingPort);
    }

    /**
     * The fields every header starts with: magic, version, type, flags, one fragment, and the two NICs.
     */
    private void putStart(final UnsafeBuffer datagram, final int type, final int flags, final long destinationNic)
    {
        datagram.putShort(WireDescriptor.MAGIC_OFFSET, WireDescriptor.MAGIC);
        datagram.putByte(WireDescriptor.VERSION_OFFSET, WireDescriptor.VERSION);
        datagram.putByte(WireDescriptor.TYPE_OFFSET, (byte)type);
        datagram.putShort(WireDescriptor.FLAGS_OFFSET, (short)flags);
        datagram.putByte(WireDescriptor.FRAGMENT_COUNT_OFFSET, (byte)1);
        datagram.putLong(WireDescriptor.SOURCE_NIC_OFFSET, nicId);
        datagram.putLong(WireDescriptor.DESTINATION_NIC_OFFSET, destinationNic);
    }

    /**
     * A session with the peer was made: send the messages that waited for it (or, after a restart, had not left in
     * the session before), as first transmissions, or else an acknowledgement, so that the peer sees the session used.
     */
    void sendHeld(final Peer peer)
    {
        // What a batch held for the peer has not left either: it goes now, once.
        peer.pending.clear();
        final boolean sent = sendHeld(peer, peer.requestsOut, false) | sendHeld(peer, peer.repliesOut, true);
        if (!sent)
        {
            sendAck(peer);
        }
        peer.helloSentNanos = clock.nowNanos;
    }

    private boolean sendHeld(final Peer peer, final SendChannel channel, final boolean replyChannel)
    {
        boolean sent = false;
        final long end = channel.nextSequence();
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.slot(sequence);
            if (slot.inFlight && slot.sequence == sequence && 0 == slot.returnStatus && !slot.givingUp &&
                slot.sentIn != peer.session)
            {
                transmit(peer, replyChannel, slot);
                sent = true;
            }
        }
        return sent;
    }

    void sendAck(final Peer peer)
    {
        sendControl(peer, WireDescriptor.TYPE_ACK, false, 0, 0);
        counters.increment(NicEvent.ACKS_SENT);
    }

    /**
     * @param deposited the body is a long message's header whose data went into the segment: it goes back without
     *                  its data (data length 0).
     */
    int sendBack(final Peer peer, final DirectBuffer buffer, final int body, final int bodyLength,
        final int status, final boolean deposited)
    {
        final SendChannel channel = peer.repliesOut;
        if (!channel.tryAcquire(1))
        {
            return FrameReader.BUSY;
        }
        final WindowSlot slot = channel.assign();
        slot.ensureCapacity(bodyLength);
        final UnsafeBuffer out = slot.view;
        final int copy = WireDescriptor.HEADER_LENGTH;
        out.putBytes(copy, buffer, body, bodyLength);
        out.putByte(copy + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)status);
        out.putInt(copy + MessageDescriptor.SOURCE_ENDPOINT_OFFSET,
            buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        out.putInt(copy + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET,
            buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET));
        if (deposited)
        {
            out.putInt(copy + MessageDescriptor.DATA_LENGTH_OFFSET, 0);
        }
        start(slot, bodyLength, -1);
        transmit(peer, true, slot);
        counters.increment(NicEvent.REFUSED);
        return FrameReader.TAKEN;
    }
}
