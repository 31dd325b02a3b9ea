package org.am2j.net;

import java.net.InetSocketAddress;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.net.auth.Cookies;
import org.am2j.net.auth.NicKeys;
import org.am2j.net.auth.SipHash;

/**
 * How NICs that do not know each other get acquainted (the receive side): a HELLO from an unknown NIC gets a
 * stateless cookie, or, with a valid cookie and tag, makes the peer; a COOKIE for our own HELLO makes us send the
 * HELLO again with it. Part of the {@link FrameReader}. Agent thread.
 */
final class Introductions
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
    private final UnsafeBuffer received;

    Introductions(final NetConfig config, final long nicId, final NicCounters counters, final NicKeys keys,
        final NicClock clock, final PeerTable peers, final FrameWriter writer, final UnsafeBuffer received)
    {
        this.config = config;
        this.nicId = nicId;
        this.counters = counters;
        this.keys = keys;
        this.clock = clock;
        this.peers = peers;
        this.writer = writer;
        this.received = received;
    }

    /**
     * A HELLO from a NIC this NIC does not know. Without a valid cookie it costs one hash: a cookie goes back to the
     * datagram's source address and nothing is kept. With one (the claimant receives at that address), the link key is
     * derived from the claimed public key and must check the HELLO's tag; then the peer is made, its datagrams going to
     * the source address's host at the receiving port the (now authenticated) header names.
     */
    void onHelloFromUnknown(final InetSocketAddress from, final long sourceNic, final int length)
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
        final SipHash transmit = new SipHash();
        final SipHash receive = new SipHash();
        try
        {
            keys.deriveLinkKeys(nicId, sourceNic, d, WireDescriptor.HELLO_KEY_OFFSET, transmit, receive);
        }
        catch (final IllegalArgumentException ex)
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        if (config.authenticate && d.getLong(length) != receive.hash(d, 0, length))
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        final Peer peer = peers.addIfAbsent(sourceNic, claimant, helloKey(d), transmit, receive);
        if (null == peer)
        {
            counters.increment(NicEvent.TOO_MANY_PEERS);
            return;
        }
        counters.increment(NicEvent.PEERS_ACCEPTED);
        peer.accepted = true;
        peer.lastHeardNanos = clock.nowNanos;
        writer.sendAck(peer);
    }

    static byte[] helloKey(final UnsafeBuffer d)
    {
        final byte[] key = new byte[NicKeys.PUBLIC_KEY_LENGTH];
        d.getBytes(WireDescriptor.HELLO_KEY_OFFSET, key);
        return key;
    }

    /**
     * A peer we introduced ourselves to gave us a cookie: send the HELLO again with it. Untagged, so believed only
     * from a peer we are introducing ourselves to, and it only makes us send one more HELLO.
     */
    void onCookie(final Peer peer, final int length)
    {
        if (null == peer || peer.accepted || length != WireDescriptor.COOKIE_LENGTH)
        {
            counters.increment(NicEvent.UNKNOWN_PEER);
            return;
        }
        peer.cookie = received.getLong(WireDescriptor.COOKIE_OFFSET);
        writer.sendHello(peer);
    }
}
