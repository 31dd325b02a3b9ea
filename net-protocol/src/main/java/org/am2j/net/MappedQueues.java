package org.am2j.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.MappedByteBuffer;

import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.spi.SegmentBounds;

import static org.am2j.net.EndpointBlockDescriptor.*;

/**
 * The NIC process's side of an endpoint a host process registered with a shared NIC: its network queue block is a
 * file both map ({@link EndpointBlockDescriptor}). The NIC reads the tag, the closed and sleeping flags and the
 * segment length the host keeps there, fills the route table before the receive records that refer to it, and wakes
 * a sleeping host with a datagram to its loopback wake port. NIC thread.
 */
final class MappedQueues extends ServedQueues
{
    private final UnsafeBuffer block;
    private final int wireId;
    final long hostPid;
    private final WakeSender waker;
    private final InetSocketAddress hostWake;
    private final InFlightLog inFlightLog;
    private final Long2LongHashMap routeByKey = new Long2LongHashMap(-1);
    private final Peer[] routePeers = new Peer[ROUTES];
    private final int[] routeRemoteIds = new int[ROUTES];
    private int routeCount;
    /** Set by the NIC when the host is gone without closing: the NIC returns what is left, as for a close. */
    private volatile boolean abandoned;

    /**
     * @param mapping    the block file, mapped.
     * @param queueBytes capacity of each ring.
     * @param wireId     the id the NIC gives the endpoint on the wire.
     * @param hostPid    the host process.
     * @param waker      the NIC's wake sender.
     */
    MappedQueues(final MappedByteBuffer mapping, final int queueBytes, final int wireId, final long hostPid,
        final WakeSender waker)
    {
        super(new UnsafeBuffer(mapping), queueBytes);
        this.block = new UnsafeBuffer(mapping);
        this.wireId = wireId;
        this.hostPid = hostPid;
        this.waker = waker;
        this.hostWake = new InetSocketAddress(InetAddress.getLoopbackAddress(), block.getIntVolatile(WAKE_PORT_OFFSET));
        this.inFlightLog = new InFlightLog(block, queueBytes);
        block.putInt(WIRE_ID_OFFSET, wireId);
    }

    /**
     * Answer a host's command in the reply area: payload and result first, the sequence last (ordered store).
     *
     * @param sequence the command's sequence.
     * @param result   its result.
     * @param payload  bytes to hand back, or null.
     */
    void answer(final long sequence, final int result, final byte[] payload)
    {
        answer(block, sequence, result, payload);
    }

    static void answer(final AtomicBuffer block, final long sequence, final int result, final byte[] payload)
    {
        final int length = null == payload ? 0 : Math.min(payload.length, MAX_REPLY_PAYLOAD);
        if (length > 0)
        {
            block.putBytes(REPLY_PAYLOAD_OFFSET, payload, 0, length);
        }
        block.putInt(REPLY_LENGTH_OFFSET, null != payload && payload.length > MAX_REPLY_PAYLOAD ? -1 : length);
        block.putInt(REPLY_RESULT_OFFSET, result);
        // Ordered store: a host that sees its sequence here sees the result and payload written before it.
        block.putLongOrdered(REPLY_SEQUENCE_OFFSET, sequence);
    }

    /**
     * The host process is gone without closing: treat the endpoint as closed.
     */
    void abandon()
    {
        abandoned = true;
    }

    /**
     * @param route a route index.
     * @return the remote wire endpoint id of that route.
     */
    int routeRemoteId(final int route)
    {
        return routeRemoteIds[route];
    }

    @Override
    public int id()
    {
        return wireId;
    }

    @Override
    public long tag()
    {
        return block.getLongVolatile(TAG_OFFSET);
    }

    @Override
    public boolean isClosed()
    {
        return abandoned || 0 != block.getIntVolatile(CLOSED_OFFSET);
    }

    @Override
    public InFlightLog inFlightLog()
    {
        return inFlightLog;
    }

    @Override
    public boolean hostTakesCredits()
    {
        return false;
    }

    @Override
    public int inverseRoute(final Peer peer, final int remoteEndpointId)
    {
        final long key = ((long)peer.index << 32) | (remoteEndpointId & 0xFFFF_FFFFL);
        final long known = routeByKey.get(key);
        if (known >= 0)
        {
            return (int)known;
        }
        if (routeCount >= ROUTES)
        {
            return -1;
        }
        final int route = routeCount++;
        routePeers[route] = peer;
        routeRemoteIds[route] = remoteEndpointId;
        final int entry = routeOffset(route);
        block.putInt(entry + ROUTE_PEER_OFFSET, peer.index);
        block.putInt(entry + ROUTE_REMOTE_ID_OFFSET, remoteEndpointId);
        block.putLong(entry + ROUTE_NIC_ID_OFFSET, peer.nicId);
        // Plain stores: the receive record that names this route is committed (release store) after them.
        routeByKey.put(key, route);
        // A route leads to the peer now: it keeps its place in the NIC's table.
        peer.routes.incrementAndGet();
        return route;
    }

    @Override
    public Peer routePeer(final int route)
    {
        return routePeers[route];
    }

    @Override
    public boolean routeNamed(final int route)
    {
        return routePeers[route].names.knows(routeRemoteIds[route]);
    }

    @Override
    public AtomicBuffer depositSegment()
    {
        return null;
    }

    @Override
    public int checkSegment(final long segmentOffset, final int length)
    {
        final long capacity = block.getLongVolatile(SEGMENT_LENGTH_OFFSET);
        return SegmentBounds.check((int)Math.min(Integer.MAX_VALUE, Math.max(0, capacity)), segmentOffset, length);
    }

    @Override
    public boolean isSleeping()
    {
        return 0 != block.getIntVolatile(HOST_SLEEPING_OFFSET);
    }

    @Override
    public void signalArrival()
    {
        waker.wake(hostWake);
    }

    @Override
    public void countRetransmit()
    {
        // The host's counters live in its process; the NIC counts retransmissions in its own.
    }

    @Override
    public void retired()
    {
        // The mapping goes with the last reference to it; the host removes the file.
        routeByKey.clear();
    }

    @Override
    public String toString()
    {
        return "shared NIC endpoint " + wireId + " of pid " + hostPid;
    }
}
