package org.am2j.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A wire for tests of batches: after the next datagram it sends, it runs a hook inside the NIC's send path (so the
 * hook's sends find the NIC taken and are queued, and the sender drains them together when it gives the NIC back),
 * records what it sends, and loses what the test scripts: the next batches, or everything while closed.
 */
final class BurstWire extends ForwardingWire
{
    /** In {@link #sentTypes()}: the NIC's host slept in {@link #await(long)} there. */
    static final int SLEPT = -1;
    /** Runs once, after the next datagram was handed on, on the thread that holds the NIC. */
    volatile Runnable onNextSend;
    /** Copy every datagram sent into {@link #sent}. */
    volatile boolean record;
    /** With {@link #record}: mark in {@link #sent} where the NIC's host slept ({@link #SLEPT}). */
    volatile boolean recordSleeps;
    /** Lose everything sent. */
    volatile boolean closed;
    /** Lose this many of the next batch datagrams, keeping copies in {@link #lost}. */
    volatile int loseBatches;
    final List<byte[]> sent = new ArrayList<>();
    final List<byte[]> lost = new ArrayList<>();

    BurstWire(final Wire wire)
    {
        super(wire);
    }

    @Override
    public boolean send(final ByteBuffer datagram, final Destination to) throws IOException
    {
        final int type = datagram.remaining() > WireDescriptor.TYPE_OFFSET ?
            datagram.get(datagram.position() + WireDescriptor.TYPE_OFFSET) : -1;
        if (record)
        {
            sent.add(copy(datagram));
        }
        final boolean result;
        if (closed)
        {
            result = true;
        }
        else if (loseBatches > 0 && type == WireDescriptor.TYPE_BATCH)
        {
            loseBatches--;
            lost.add(copy(datagram));
            result = true;
        }
        else
        {
            result = wire.send(datagram, to);
        }
        final Runnable hook = onNextSend;
        if (null != hook)
        {
            onNextSend = null;
            hook.run();
        }
        return result;
    }

    @Override
    public void await(final long nanos) throws IOException
    {
        if (record && recordSleeps)
        {
            // A marker in the record: what was sent before the NIC's host slept comes before it.
            sent.add(new byte[0]);
        }
        super.await(nanos);
    }

    static byte[] copy(final ByteBuffer datagram)
    {
        final byte[] bytes = new byte[datagram.remaining()];
        datagram.duplicate().get(bytes);
        return bytes;
    }

    /**
     * @return the types of the datagrams recorded, in order.
     */
    List<Integer> sentTypes()
    {
        final List<Integer> types = new ArrayList<>();
        for (final byte[] d : sent)
        {
            types.add(0 == d.length ? SLEPT : (int)d[WireDescriptor.TYPE_OFFSET]);
        }
        return types;
    }
}
