package org.am2j.net;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Base64;

import org.agrona.collections.Long2ObjectHashMap;
import org.am2j.net.auth.LinkSecret;
import org.am2j.net.auth.NicKeys;
import org.am2j.spi.HostPort;

/**
 * The peers a NIC knows, each keyed ({@link Peer}): made when a host maps an endpoint of theirs or from a HELLO that
 * checked out, bounded by {@code maxPeers}, an idle peer that no route leads to giving its place up when full.
 * Copy-on-write tables: hosts add peers under the registry lock, the agent reads them without one.
 */
final class PeerTable
{
    /** Separates a NIC's {@code host:port} from its public key in published addresses. */
    static final char KEY_SEPARATOR = '#';
    /** A peer no route leads to, silent for this many timeouts, may give its place in a full table up. */
    static final long IDLE_PEER_TIMEOUTS = 3;
    /** Bytes of announced endpoint names all peers together may make this NIC keep ({@link PeerNames}). */
    static final long NAME_BYTES = 16L << 20;

    private final NetConfig config;
    private final Wire wire;
    private final long nicId;
    private final NicKeys keys;
    private final NicCounters counters;
    private final Object registry = new Object();
    private volatile Peer[] peers = new Peer[0];
    private volatile Long2ObjectHashMap<Peer> peersByNic = new Long2ObjectHashMap<>();
    /** The peer standing for this NIC itself, made on first use; never in {@link #peersByNic}. */
    private Peer self;
    /** Bytes charged for announced names, all peers ({@link PeerNames}); an evicted peer's are given back. */
    private final java.util.concurrent.atomic.AtomicLong nameBytes = new java.util.concurrent.atomic.AtomicLong();

    PeerTable(final NetConfig config, final Wire wire, final long nicId, final NicKeys keys, final NicCounters counters)
    {
        this.config = config;
        this.wire = wire;
        this.nicId = nicId;
        this.keys = keys;
        this.counters = counters;
    }

    /**
     * @return the peers (a copy-on-write array: the caller's copy never changes).
     */
    Peer[] all()
    {
        return peers;
    }

    /**
     * @return true when the NIC has something to do for a peer on a timer.
     */
    boolean hasTimers()
    {
        for (final Peer peer : peers)
        {
            if (peer.hasTimers())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Make a peer from a HELLO that checked out, unless one with its NIC id exists.
     *
     * @return the peer, or null when the id is known or no more peers fit.
     */
    Peer addIfAbsent(final long peerNicId, final InetSocketAddress socketAddress, final byte[] publicKey,
        final LinkSecret secret)
    {
        synchronized (registry)
        {
            return null != peersByNic.get(peerNicId) ? null : addPeer(peerNicId, socketAddress, publicKey, secret);
        }
    }

    /**
     * The peer for a destination a host maps; counts the route the host makes to it.
     *
     * @param peerNicId the destination process's id.
     * @param text      its NIC address as published, {@code host:port#key}.
     * @return the peer, or null when the address is malformed, its key differs from the one the NIC knows for that
     *         id, or no more peers fit.
     */
    Peer peerFor(final long peerNicId, final String text)
    {
        final InetSocketAddress socketAddress = parse(text);
        final byte[] publicKey = publicKey(text);
        if (null == socketAddress || null == publicKey || publicKey.length != NicKeys.PUBLIC_KEY_LENGTH)
        {
            return null;
        }
        synchronized (registry)
        {
            final Peer known = peersByNic.get(peerNicId);
            final Peer peer;
            if (null != known)
            {
                peer = Arrays.equals(known.publicKey, publicKey) ? known : null;
            }
            else
            {
                final LinkSecret secret;
                try
                {
                    secret = keys.linkSecret(nicId, peerNicId, publicKey);
                }
                catch (final IllegalArgumentException ex)
                {
                    return null;
                }
                peer = addPeer(peerNicId, socketAddress, publicKey, secret);
            }
            if (null != peer)
            {
                peer.routes.incrementAndGet();
            }
            return peer;
        }
    }

    /**
     * The peer that stands for this NIC itself, for routes between two endpoints it serves: it has a place in the
     * table (routes and receive records name peers by index) but not in the map by NIC id, so no datagram ever finds
     * it, and no window or timer of it is used. It is never evicted.
     *
     * @param text the destination's NIC address as published, {@code host:port#key}: its key must be this NIC's.
     * @return the peer, or null when the key is not this NIC's (another NIC with the same id).
     */
    Peer self(final String text)
    {
        final byte[] publicKey = publicKey(text);
        if (null == publicKey || !Arrays.equals(keys.publicKey(), publicKey))
        {
            return null;
        }
        synchronized (registry)
        {
            if (null == self)
            {
                final Peer[] current = peers;
                // No secret: it never has a session, so no datagram is ever sent to it or taken from it.
                final Peer peer = new Peer(current.length, nicId, null, config, System.nanoTime(), publicKey, null);
                peer.sameNic = true;
                // A route count that never drops to 0: the peer is never evictable.
                peer.routes.incrementAndGet();
                final Peer[] table = Arrays.copyOf(current, current.length + 1);
                table[peer.index] = peer;
                // Volatile store of a fully built copy: a reader finds the peer complete at its index.
                peers = table;
                self = peer;
            }
            self.routes.incrementAndGet();
            return self;
        }
    }

    /**
     * @param nicId a peer NIC's id.
     * @return the peer, or null when this NIC does not know it.
     */
    Peer byNic(final long nicId)
    {
        return peersByNic.get(nicId);
    }

    /**
     * @param published a NIC's published address.
     * @return the public key it carries after {@link #KEY_SEPARATOR}, or null when it has none or not in base64.
     */
    private static byte[] publicKey(final String published)
    {
        final int hash = published.indexOf(KEY_SEPARATOR);
        try
        {
            return hash < 0 ? null : Base64.getUrlDecoder().decode(published.substring(hash + 1));
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    /**
     * @param published {@code host:port}, the host a literal address or a name, and possibly {@code #key} after it.
     * @return the socket address, or null when malformed.
     */
    static InetSocketAddress parse(final String published)
    {
        final int key = published.indexOf(KEY_SEPARATOR);
        final InetSocketAddress address = HostPort.tryParse(key < 0 ? published : published.substring(0, key));
        return null == address ? null : HostPort.resolve(address);
    }

    /**
     * Make a peer with keyed links (under the registry lock). When the table is full, a peer that no route leads to,
     * with nothing in flight, silent for {@link #IDLE_PEER_TIMEOUTS} timeouts, gives its place up.
     */
    Peer addPeer(final long peerNicId, final InetSocketAddress socketAddress, final byte[] publicKey,
        final LinkSecret secret)
    {
        final Peer[] current = peers;
        int index = current.length;
        if (current.length >= config.maxPeers)
        {
            index = evictable(current, System.nanoTime());
            if (index < 0)
            {
                return null;
            }
        }
        final Peer peer = new Peer(index, peerNicId, wire.destination(socketAddress), config, System.nanoTime(),
            publicKey, secret);
        final Long2ObjectHashMap<Peer> byNic = new Long2ObjectHashMap<>(peersByNic);
        final Peer[] table = index < current.length ? current.clone() : Arrays.copyOf(current, current.length + 1);
        if (index < current.length)
        {
            byNic.remove(current[index].nicId);
            releaseNames(current[index].names.announcedBytes());
            counters.increment(NicEvent.PEERS_EVICTED);
        }
        byNic.put(peerNicId, peer);
        table[index] = peer;
        // Volatile stores of fully built copies, the array first: an index read from the map is always valid.
        peers = table;
        peersByNic = byNic;
        return peer;
    }

    /**
     * Charge an announced name to the budget of all peers.
     *
     * @param cost its cost ({@link PeerNames#cost}).
     * @return false when it does not fit (nothing charged).
     */
    boolean chargeNames(final long cost)
    {
        while (true)
        {
            final long charged = nameBytes.get();
            if (charged + cost > NAME_BYTES)
            {
                return false;
            }
            // CAS: the charges never exceed the budget (hosts give an evicted peer's back concurrently).
            if (nameBytes.compareAndSet(charged, charged + cost))
            {
                return true;
            }
        }
    }

    /**
     * @param cost of names no longer kept.
     */
    void releaseNames(final long cost)
    {
        nameBytes.getAndAdd(-cost);
    }

    int evictable(final Peer[] table, final long now)
    {
        int oldest = -1;
        for (int i = 0; i < table.length; i++)
        {
            final Peer peer = table[i];
            if (0 == peer.routes.get() && !peer.hasTimers() &&
                now - peer.lastHeardNanos > IDLE_PEER_TIMEOUTS * config.timeoutNanos &&
                (oldest < 0 || peer.lastHeardNanos - table[oldest].lastHeardNanos < 0))
            {
                oldest = i;
            }
        }
        return oldest;
    }
}
