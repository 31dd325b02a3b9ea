package org.am2j.net;

import java.net.InetSocketAddress;
import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.net.auth.Cookies;
import org.am2j.net.auth.LinkSecret;
import org.am2j.net.auth.NicKeys;
import org.am2j.net.auth.Mac128;

/**
 * The receive side of the handshakes that make a link's sessions. A NIC that has something to send to a peer it has
 * no session with sends a HELLO (its random, its wire mode), again once per retransmission timeout
 * ({@link FrameWriter#handshake}); the peer answers with an ANSWER (the HELLO's random and its own) and keeps the
 * session it derived as answered; the NIC derives the same keys from the ANSWER, sends what waited, and the peer
 * takes the session up when the first datagram of it checks. Both are tagged with the link's handshake keys. A HELLO
 * from a NIC this NIC does not know first gets a stateless cookie; with a valid cookie and tag it makes the peer.
 * <p>
 * Replays: a HELLO seen before makes, at most, an ANSWER with a fresh random that nobody but the peer can use, and
 * the session in use goes on until a datagram of the new one checks; an ANSWER counts only for the HELLO this NIC is
 * sending. When both ends send HELLOs at once, the lower NIC's handshake goes on and the higher answers it. Part of
 * the {@link FrameReader}. Agent thread.
 */
final class Handshakes
{
    /** Period of the cookie secret: a cookie is good for one to two periods. */
    private static final long COOKIE_PERIOD_NANOS = 2_000_000_000L;

    private final NetConfig config;
    private final long nicId;
    private final NicCounters counters;
    private final NicKeys keys;
    private final Cookies cookies = new Cookies(COOKIE_PERIOD_NANOS, System.nanoTime());
    private final NicClock clock;
    private final PeerTable peers;
    private final FrameWriter writer;
    private final NicTimers timers;
    private final UnsafeBuffer received;
    /** A HELLO of another wire version was reported on stderr (once per NIC). */
    private boolean otherVersionReported;

    Handshakes(final NetConfig config, final long nicId, final NicCounters counters, final NicKeys keys,
        final NicClock clock, final PeerTable peers, final FrameWriter writer, final NicTimers timers,
        final UnsafeBuffer received)
    {
        this.config = config;
        this.nicId = nicId;
        this.counters = counters;
        this.keys = keys;
        this.clock = clock;
        this.peers = peers;
        this.writer = writer;
        this.timers = timers;
        this.received = received;
    }

    /**
     * A HELLO, from a known peer or not.
     *
     * @param from       its source address.
     * @param sourceNic  the NIC id it claims.
     * @param peer       the peer of that id, or null.
     * @param length     its length before the tag.
     */
    void onHello(final InetSocketAddress from, final long sourceNic, final Peer peer, final int length)
    {
        final UnsafeBuffer d = received;
        if (length != WireDescriptor.HELLO_LENGTH)
        {
            counters.increment(null == peer ? NicEvent.UNKNOWN_PEER : NicEvent.MALFORMED);
            return;
        }
        if (null == peer)
        {
            onHelloFromUnknown(from, sourceNic, length);
            return;
        }
        if (!peer.helloReceive.check(d, 0, length))
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        if (!Arrays.equals(peer.publicKey, helloKey(d)))
        {
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        answer(peer);
    }

    /**
     * A HELLO from a NIC this NIC does not know. Without a valid cookie it costs one hash: a cookie goes back to the
     * datagram's source address and nothing is kept. With one (the claimant receives at that address), the link's
     * secret is derived from the claimed public key and its handshake key must check the HELLO's tag; then the peer is
     * made, its datagrams going to the source address's host at the receiving port the (now authenticated) header
     * names, and the HELLO is answered.
     */
    private void onHelloFromUnknown(final InetSocketAddress from, final long sourceNic, final int length)
    {
        final UnsafeBuffer d = received;
        final int port = d.getShort(WireDescriptor.SOURCE_PORT_OFFSET) & 0xFFFF;
        if (0 == port)
        {
            counters.increment(NicEvent.BAD_HEADER);
            return;
        }
        // The claimant's receiving socket: the source host, at the port its header names (its datagrams may leave
        // from a send socket of their own, see UdpWire). The cookie goes there and is bound to it, so a HELLO with it
        // proves the claimant receives there. A cookie is smaller than the HELLO that asked for it: no amplification.
        final InetSocketAddress claimant = from.getPort() == port ? from : new InetSocketAddress(from.getAddress(), port);
        final boolean hasCookie = 0 != (d.getShort(WireDescriptor.FLAGS_OFFSET) & WireDescriptor.FLAG_HAS_COOKIE);
        if (!hasCookie || !cookies.verify(d.getLong(WireDescriptor.HELLO_COOKIE_OFFSET), claimant, sourceNic, d,
            WireDescriptor.HELLO_KEY_OFFSET, clock.nowNanos))
        {
            writer.sendCookie(claimant, sourceNic,
                cookies.issue(claimant, sourceNic, d, WireDescriptor.HELLO_KEY_OFFSET, clock.nowNanos));
            return;
        }
        // Allocates: only a claimant that proved it receives at its address gets this far.
        final LinkSecret secret;
        try
        {
            secret = keys.linkSecret(nicId, sourceNic, d, WireDescriptor.HELLO_KEY_OFFSET);
        }
        catch (final IllegalArgumentException ex)
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        final Mac128 transmit = new Mac128();
        final Mac128 receive = new Mac128();
        secret.helloKeys(transmit, receive);
        if (!receive.check(d, 0, length))
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        final Peer peer = peers.addIfAbsent(sourceNic, claimant, helloKey(d), secret);
        if (null == peer)
        {
            counters.increment(NicEvent.TOO_MANY_PEERS);
            return;
        }
        counters.increment(NicEvent.PEERS_ACCEPTED);
        peer.lastHeardNanos = clock.nowNanos;
        answer(peer);
    }

    /**
     * Answer a HELLO whose tag checked: with the session it made before when it is a repeat (our ANSWER was lost), or
     * with a session answered now, kept aside until the peer uses it; or refuse it for another wire mode. Our own
     * HELLO to the peer, if any, gives way to the peer's unless this NIC is the lower of the two.
     */
    private void answer(final Peer peer)
    {
        final UnsafeBuffer d = received;
        final int mode = d.getByte(WireDescriptor.HELLO_MODE_OFFSET) & 0xFF;
        final byte[] helloRandom = new byte[LinkSecret.RANDOM_LENGTH];
        d.getBytes(WireDescriptor.HELLO_RANDOM_OFFSET, helloRandom);
        if (mode != config.wire.code)
        {
            mismatch(peer, mode);
            writer.sendAnswer(peer, helloRandom, null, WireDescriptor.FLAG_WIRE_MISMATCH);
            return;
        }
        final LinkSession current = peer.session;
        if (null != current && !current.initiator && current.madeBy(d, WireDescriptor.HELLO_RANDOM_OFFSET))
        {
            writer.sendAnswer(peer, current.initiatorRandom, current.responderRandom, 0);
            return;
        }
        final LinkSession answered = peer.answered;
        if (null != answered && answered.madeBy(d, WireDescriptor.HELLO_RANDOM_OFFSET))
        {
            writer.sendAnswer(peer, answered.initiatorRandom, answered.responderRandom, 0);
            return;
        }
        if (null != peer.helloRandom && peer.secret.localIsLower())
        {
            // Both ends started a handshake: the lower NIC's goes on, and the peer answers it.
            counters.increment(NicEvent.HELLOS_CROSSED);
            return;
        }
        // Allocates: one session per fresh HELLO of a known peer.
        final byte[] responderRandom = writer.newRandom();
        peer.helloRandom = null;
        peer.answered = new LinkSession(
            peer.secret.session(WireDescriptor.VERSION, config.wire.code, responderRandom, helloRandom),
            peer.secret.localIsLower(), false, helloRandom, responderRandom);
        writer.sendAnswer(peer, helloRandom, responderRandom, 0);
    }

    /**
     * An ANSWER: the session of the HELLO this NIC is sending is made (or refused for another wire mode).
     */
    void onAnswer(final Peer peer, final int length)
    {
        final UnsafeBuffer d = received;
        if (null == peer)
        {
            counters.increment(NicEvent.UNKNOWN_PEER);
            return;
        }
        if (length != WireDescriptor.ANSWER_LENGTH)
        {
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        if (!peer.helloReceive.check(d, 0, length))
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        final byte[] helloRandom = peer.helloRandom;
        if (null == helloRandom || !sameRandom(helloRandom, d, WireDescriptor.ANSWER_INITIATOR_RANDOM_OFFSET))
        {
            // A repeat of an answer already taken, or of a HELLO no longer sent: it changes nothing.
            counters.increment(NicEvent.STALE_HANDSHAKES);
            return;
        }
        final int mode = d.getByte(WireDescriptor.ANSWER_MODE_OFFSET) & 0xFF;
        if (mode != config.wire.code ||
            0 != (d.getShort(WireDescriptor.FLAGS_OFFSET) & WireDescriptor.FLAG_WIRE_MISMATCH))
        {
            mismatch(peer, mode);
            peer.helloRandom = null;
            peer.wireRefused = true;
            timers.refuseAll(peer);
            return;
        }
        final byte[] responderRandom = new byte[LinkSecret.RANDOM_LENGTH];
        d.getBytes(WireDescriptor.ANSWER_RESPONDER_RANDOM_OFFSET, responderRandom);
        establish(peer, new LinkSession(
            peer.secret.session(WireDescriptor.VERSION, config.wire.code, helloRandom, responderRandom),
            peer.secret.localIsLower(), true, helloRandom, responderRandom));
    }

    /**
     * The first datagram of the session this NIC answered checked: the peer holds its keys, and it replaces the
     * session in use, if any.
     */
    void takeUp(final Peer peer)
    {
        establish(peer, peer.answered);
    }

    private void establish(final Peer peer, final LinkSession session)
    {
        final LinkSession old = peer.session;
        peer.session = session;
        peer.answered = null;
        peer.helloRandom = null;
        counters.increment(NicEvent.SESSIONS);
        if (null != old)
        {
            // The peer introduced itself again: it forgot this NIC (it evicted it from its table).
            timers.restart(peer);
        }
        writer.sendHeld(peer);
    }

    /**
     * A HELLO of another wire version (every version keeps the magic, version and type where they are): say once what
     * is wrong, since the two NICs will never talk. Believed from nobody in particular, so it changes nothing else.
     */
    void otherVersion(final InetSocketAddress from, final int version)
    {
        counters.increment(NicEvent.WIRE_MISMATCHES);
        if (!otherVersionReported)
        {
            otherVersionReported = true;
            System.err.println("am2j: a NIC at " + from + " speaks wire version " + version + ", and this NIC speaks " +
                "version " + WireDescriptor.VERSION + ": every process of a job must run the same am2j; its " +
                "datagrams are refused (counted as bad_header).");
        }
    }

    /**
     * The peer runs another wire mode: say so once, naming both.
     */
    private void mismatch(final Peer peer, final int theirMode)
    {
        counters.increment(NicEvent.WIRE_MISMATCHES);
        if (peer.mismatchReported)
        {
            return;
        }
        peer.mismatchReported = true;
        System.err.println("am2j: the NIC of process " + Long.toHexString(peer.nicId) + " at " +
            peer.destination.address + " runs the wire mode " + WireMode.describe(theirMode) + ", and this NIC (" +
            "process " + Long.toHexString(nicId) + ") runs " + config.wire.text + " (" + config.wireSetting +
            "): both ends of a link must run the same mode, so no session is made; set it alike for every process " +
            "of the job. Messages to that NIC come back EUNREACHABLE.");
    }

    static byte[] helloKey(final DirectBuffer d)
    {
        final byte[] key = new byte[NicKeys.PUBLIC_KEY_LENGTH];
        d.getBytes(WireDescriptor.HELLO_KEY_OFFSET, key);
        return key;
    }

    /**
     * @return true when the random at {@code offset} of the buffer is the given one.
     */
    static boolean sameRandom(final byte[] random, final DirectBuffer buffer, final int offset)
    {
        int differ = 0;
        for (int i = 0; i < random.length; i++)
        {
            differ |= random[i] ^ buffer.getByte(offset + i);
        }
        return 0 == differ;
    }

    /**
     * A peer we are sending HELLOs to gave us a cookie: send the HELLO again with it. Untagged, so believed only
     * from a peer we are introducing ourselves to, and it only makes us send one more HELLO.
     */
    void onCookie(final Peer peer, final int length)
    {
        if (null == peer || null == peer.helloRandom || length != WireDescriptor.COOKIE_LENGTH)
        {
            counters.increment(NicEvent.UNKNOWN_PEER);
            return;
        }
        peer.cookie = received.getLong(WireDescriptor.COOKIE_OFFSET);
        writer.sendHello(peer);
    }
}
