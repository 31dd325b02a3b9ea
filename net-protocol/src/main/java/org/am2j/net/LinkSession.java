package org.am2j.net;

import org.am2j.net.auth.LinkSecret;

/**
 * One session of a link to a peer: what one handshake made. Its keys derive from the link's secret, both NICs'
 * randoms of that handshake, the wire version and the wire mode ({@link LinkSecret#session}), so no two sessions of a
 * link share a key; its receive state starts afresh ({@link #anchored}). Agent thread.
 */
final class LinkSession
{
    /** The id both ends derive with the keys; every datagram of the session carries it. */
    final int id;
    /** True when this NIC sent the HELLO. */
    final boolean initiator;
    /** The random of the HELLO that made it. */
    final byte[] initiatorRandom;
    /** The random of the ANSWER that made it. */
    final byte[] responderRandom;
    /** Keys of the datagrams to the peer. */
    final TransmitKeys transmit;
    /** Keys of the datagrams from the peer. */
    final ReceiveKeys receive;
    /**
     * A datagram of the session from the peer has checked: the peer holds the keys, and the receive channels start at
     * the floors that datagram carried (every sequence below them was resolved by the peer before it sent anything in
     * this session).
     */
    boolean anchored;

    /**
     * @param secrets         the session's secrets.
     * @param localIsLower    this NIC is the lower of the link ({@link LinkSecret#localIsLower()}).
     * @param initiator       this NIC sent the HELLO.
     * @param initiatorRandom the HELLO's random.
     * @param responderRandom the ANSWER's random.
     */
    LinkSession(final LinkSecret.TrafficSecrets secrets, final boolean localIsLower, final boolean initiator,
        final byte[] initiatorRandom, final byte[] responderRandom)
    {
        this.id = secrets.id();
        this.initiator = initiator;
        this.initiatorRandom = initiatorRandom;
        this.responderRandom = responderRandom;
        this.transmit = new TransmitKeys(secrets.transmit(), localIsLower);
        this.receive = new ReceiveKeys(secrets.receive(), !localIsLower);
    }

    /**
     * @param buffer holding a HELLO's random.
     * @param offset of the random.
     * @return true when that HELLO made this session (or asks for it again).
     */
    boolean madeBy(final org.agrona.DirectBuffer buffer, final int offset)
    {
        return Handshakes.sameRandom(initiatorRandom, buffer, offset);
    }
}
