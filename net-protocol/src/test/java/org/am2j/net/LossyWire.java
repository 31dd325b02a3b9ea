package org.am2j.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Random;

/**
 * A wire that loses, duplicates and reorders datagrams, from a seed: each datagram sent is dropped with one
 * probability, sent twice with another, and held back (to go out after one to three later datagrams) with a third.
 */
final class LossyWire extends ForwardingWire
{
    private final Random random;
    private final double drop;
    private final double duplicate;
    private final double reorder;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    long dropped;
    long duplicated;
    long reordered;

    private static final class Held
    {
        final ByteBuffer datagram;
        final Destination to;
        int after;

        Held(final ByteBuffer datagram, final Destination to, final int after)
        {
            this.datagram = datagram;
            this.to = to;
            this.after = after;
        }
    }

    LossyWire(final Wire wire, final long seed, final double drop, final double duplicate, final double reorder)
    {
        super(wire);
        this.random = new Random(seed);
        this.drop = drop;
        this.duplicate = duplicate;
        this.reorder = reorder;
    }

    @Override
    public boolean send(final ByteBuffer datagram, final Destination to) throws IOException
    {
        releaseHeld();
        final double draw = random.nextDouble();
        if (draw < drop)
        {
            dropped++;
            return true;
        }
        if (draw < drop + reorder)
        {
            final ByteBuffer copy = ByteBuffer.allocateDirect(datagram.remaining());
            copy.put(datagram).flip();
            held.add(new Held(copy, to, 1 + random.nextInt(3)));
            reordered++;
            return true;
        }
        if (draw < drop + reorder + duplicate)
        {
            final int position = datagram.position();
            wire.send(datagram, to);
            datagram.position(position);
            duplicated++;
        }
        return wire.send(datagram, to);
    }

    private void releaseHeld() throws IOException
    {
        final int n = held.size();
        for (int i = 0; i < n; i++)
        {
            final Held h = held.poll();
            if (--h.after <= 0)
            {
                wire.send(h.datagram, h.to);
            }
            else
            {
                held.add(h);
            }
        }
    }

    @Override
    public InetSocketAddress receive(final ByteBuffer into) throws IOException
    {
        releaseHeld();
        return wire.receive(into);
    }

    @Override
    public void await(final long nanos) throws IOException
    {
        releaseHeld();
        wire.await(nanos);
    }
}
