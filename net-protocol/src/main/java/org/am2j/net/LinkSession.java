package org.am2j.net;

import org.am2j.net.auth.LinkSecret;
import org.am2j.net.auth.SipHash;

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
    /** Key of the datagrams to the peer. */
    final SipHash transmit = new SipHash();
    /** Key of the datagrams from the peer. */
    final SipHash receive = new SipHash();
    /**
     * A datagram of the session from the peer has checked: the peer holds the keys, and the receive channels start at
     * the floors that datagram carried (every sequence below them was resolved by the peer before it sent anything in
     * this session).
     */
    boolean anchored;

    LinkSession(final LinkSecret.TrafficSecrets secrets, final boolean initiator, final byte[] initiatorRandom,
        final byte[] responderRandom)
    {
        this.id = secrets.id();
        this.initiator = initiator;
        this.initiatorRandom = initiatorRandom;
        this.responderRandom = responderRandom;
        final byte[] keys = new byte[LinkSecret.EPOCH_KEYS_LENGTH];
        LinkSecret.epochKeys(secrets.transmit(), 0, keys);
        transmit.key(keys, LinkSecret.EPOCH_MAC_KEY_OFFSET);
        LinkSecret.epochKeys(secrets.receive(), 0, keys);
        receive.key(keys, LinkSecret.EPOCH_MAC_KEY_OFFSET);
        java.util.Arrays.fill(keys, (byte)0);
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
