package org.am2j.net;

import java.util.concurrent.ConcurrentHashMap;

import org.am2j.api.EndpointName;

/**
 * The names of a peer's endpoints this NIC knows: those a local endpoint maps (kept as given, free), and those the
 * peer announced with a tag a local endpoint accepts, or whose requests carried one (kept as their encoded bytes,
 * decoded when asked for, and charged to a budget of {@link #BYTES_PER_PEER} per peer and {@link PeerTable#NAME_BYTES}
 * in all). An announcement whose tag its destination does not accept (the destination had not set its tag yet, say)
 * is held among the peer's last {@link #HELD}, charged too, until a request from that endpoint with a tag its
 * destination accepts vouches for it. A peer over its budget, or one whose announcements find the NIC's over, has
 * them refused: a handshaked peer cannot make this NIC keep more than its share, whatever it announces.
 * <p>
 * Hosts add mapped names and read names; only the NIC's thread adds announced ones and keeps the accounts.
 */
final class PeerNames
{
    /** Bytes of announced names one peer may make this NIC keep. */
    static final int BYTES_PER_PEER = 1 << 20;
    /** What an announced name costs besides its encoded bytes: the map's entry, its key, the array's header. */
    static final int OVERHEAD = 64;

    /** Announced names held until a request vouches for them. */
    static final int HELD = 4;
    /** {@link #hold}: held. */
    static final int HELD_NOW = 0;
    /** {@link #hold}: held, in place of one no request vouched for (it is forgotten). */
    static final int HELD_FOR_ANOTHER = 1;
    /** {@link #hold}: not held, over a budget. */
    static final int OVER_BUDGET = 2;

    /** An {@link EndpointName} a local endpoint mapped, or the {@code byte[]} of an announced one. */
    private final ConcurrentHashMap<Integer, Object> names = new ConcurrentHashMap<>();
    /** Bytes charged for announced names. NIC thread. */
    private long announcedBytes;
    /** An announcement was refused for the budget: requests from endpoints not named are refused too. NIC thread. */
    boolean overBudget;
    /** The endpoints of the held names, and the names ({@link #HELD} slots, used round the ring). NIC thread. */
    private final int[] heldIds = new int[HELD];
    private final byte[][] held = new byte[HELD][];
    private int nextHeld;

    /**
     * A local endpoint maps the peer's endpoint: its name is kept as given, outside the budget.
     *
     * @param endpointId id of the peer's endpoint.
     * @param name       its name.
     */
    void mapped(final int endpointId, final EndpointName name)
    {
        names.putIfAbsent(endpointId, name);
    }

    /**
     * The peer announced an endpoint's name (with a tag a local endpoint accepts): keep it if the budgets allow.
     *
     * @param endpointId id of the peer's endpoint.
     * @param encoded    its encoded name, checked to decode; kept as it is.
     * @param table      the NIC's peers, which keep the budget of all peers.
     * @return true when kept; false when over a budget (and {@link #overBudget} is set).
     */
    boolean announced(final int endpointId, final byte[] encoded, final PeerTable table)
    {
        if (vouch(endpointId, table))
        {
            return true;
        }
        final long cost = cost(encoded.length);
        if (!charge(cost, table))
        {
            return false;
        }
        if (null != names.putIfAbsent(endpointId, encoded))
        {
            release(cost, table);
        }
        return true;
    }

    /**
     * The peer announced an endpoint's name with a tag its destination does not accept: hold it, charged, in place of
     * the oldest held one, until a request from that endpoint vouches for it ({@link #vouch}).
     *
     * @param endpointId id of the peer's endpoint.
     * @param encoded    its encoded name, checked to decode.
     * @param table      the NIC's peers, which keep the budget of all peers.
     * @return {@link #HELD_NOW}, {@link #HELD_FOR_ANOTHER} or {@link #OVER_BUDGET}.
     */
    int hold(final int endpointId, final byte[] encoded, final PeerTable table)
    {
        final int slot = nextHeld;
        final byte[] previous = held[slot];
        held[slot] = null;
        if (null != previous)
        {
            release(cost(previous.length), table);
        }
        if (!charge(cost(encoded.length), table))
        {
            return OVER_BUDGET;
        }
        held[slot] = encoded;
        heldIds[slot] = endpointId;
        nextHeld = (slot + 1) % HELD;
        return null == previous ? HELD_NOW : HELD_FOR_ANOTHER;
    }

    /**
     * A request from the peer's endpoint carried a tag its destination accepts: a name held for that endpoint is kept
     * from now on (it was charged when held).
     *
     * @param endpointId id of the peer's endpoint.
     * @param table      the NIC's peers, which keep the budget of all peers.
     * @return true when a held name was kept, or the name was known.
     */
    boolean vouch(final int endpointId, final PeerTable table)
    {
        for (int i = 0; i < HELD; i++)
        {
            if (null != held[i] && heldIds[i] == endpointId)
            {
                final byte[] name = held[i];
                held[i] = null;
                if (null != names.putIfAbsent(endpointId, name))
                {
                    release(cost(name.length), table);
                }
                return true;
            }
        }
        return names.containsKey(endpointId);
    }

    private boolean charge(final long cost, final PeerTable table)
    {
        if (announcedBytes + cost > BYTES_PER_PEER || !table.chargeNames(cost))
        {
            overBudget = true;
            return false;
        }
        announcedBytes += cost;
        return true;
    }

    private void release(final long cost, final PeerTable table)
    {
        announcedBytes -= cost;
        table.releaseNames(cost);
    }

    /**
     * @param encodedLength bytes of an encoded name.
     * @return what keeping it costs.
     */
    static long cost(final int encodedLength)
    {
        return encodedLength + OVERHEAD;
    }

    /**
     * @param endpointId id of the peer's endpoint.
     * @return its name, or null when not known (decoded from its announcement each call: callers keep it).
     */
    EndpointName get(final int endpointId)
    {
        final Object name = names.get(endpointId);
        return name instanceof byte[] ? EndpointName.fromBytes((byte[])name) : (EndpointName)name;
    }

    /**
     * @param endpointId id of the peer's endpoint.
     * @return true when its name is known.
     */
    boolean knows(final int endpointId)
    {
        return names.containsKey(endpointId);
    }

    /**
     * @return bytes charged for announced names (NIC thread, or once the peer left the table).
     */
    long announcedBytes()
    {
        return announcedBytes;
    }

    /**
     * @return names kept.
     */
    int size()
    {
        return names.size();
    }
}
