package org.am2j.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The NIC's socket reads: one datagram at a time into the receive buffer, handed to the {@link FrameReader}, or, for a
 * wake datagram from another transport's sender, to the NIC's wake-up. While a host runs a message from the receive
 * buffer ({@link DirectDelivery}) the buffer is lent, and datagrams go into the spare buffer: the reader's view
 * follows whichever was read into. Called by whichever thread holds the NIC, but {@link #giveBack()}.
 */
final class DatagramReceiver
{
    private static final int BUFFER_BYTES = 65536;

    private final Wire wire;
    private final NicCounters counters;
    private final FrameReader reader;
    private final Runnable onWake;
    private final ByteBuffer receiveBuffer = FrameWriter.direct(BUFFER_BYTES);
    private final ByteBuffer spareBuffer = FrameWriter.direct(BUFFER_BYTES);
    private final UnsafeBuffer view;
    private ByteBuffer receivingInto = receiveBuffer;
    /** A host runs a message from {@link #receiveBuffer}: datagrams go into the spare buffer meanwhile. */
    private volatile boolean lent;

    /**
     * @param wire     the socket.
     * @param counters the NIC's counters.
     * @param view     the reader's view of the received datagram; wrapped here over the receive buffer.
     * @param reader   gets each datagram but wake-ups.
     * @param onWake   gets each wake datagram.
     */
    DatagramReceiver(final Wire wire, final NicCounters counters, final UnsafeBuffer view, final FrameReader reader,
        final Runnable onWake)
    {
        this.wire = wire;
        this.counters = counters;
        this.view = view;
        this.reader = reader;
        this.onWake = onWake;
        view.wrap(receiveBuffer);
    }

    /**
     * Read one datagram, if one waits, offering a message of it to the polling host.
     *
     * @param offer the polling endpoint's offer, or null. Not made while the buffer is lent: it is lent at most once
     *              (a host running a handed-over message that polls again, a handler's reply waiting for credit, gets
     *              what comes meanwhile through the queues).
     * @return 1 when a datagram was read, else 0.
     */
    int receiveOne(final DirectDelivery offer)
    {
        if (null == offer || lent)
        {
            return receiveOne();
        }
        reader.offer(offer);
        try
        {
            return receiveOne();
        }
        finally
        {
            reader.offer(null);
            if (offer.accepted)
            {
                // Volatile store before the caller gives the NIC back: its next holder receives into the spare.
                lent = true;
            }
        }
    }

    /**
     * Read one datagram, if one waits.
     *
     * @return 1 when a datagram was read, else 0.
     */
    int receiveOne()
    {
        final ByteBuffer into = lent ? spareBuffer : receiveBuffer;
        if (into != receivingInto)
        {
            view.wrap(into);
            receivingInto = into;
        }
        into.clear();
        final InetSocketAddress from;
        try
        {
            from = wire.receive(into);
        }
        catch (final IOException | RuntimeException ex)
        {
            counters.increment(NicEvent.IO_ERRORS);
            return 0;
        }
        if (null == from)
        {
            counters.increment(NicEvent.EMPTY_RECEIVES);
            return 0;
        }
        counters.increment(NicEvent.DATAGRAMS_RECEIVED);
        final int length = into.position();
        if (length == WireDescriptor.WAKE_LENGTH)
        {
            counters.increment(NicEvent.WAKEUPS);
            onWake.run();
        }
        else
        {
            reader.onDatagram(from, length);
        }
        return 1;
    }

    /**
     * The host has run the message handed over from the receive buffer: it is the NIC's again. Host thread.
     */
    void giveBack()
    {
        // Volatile store after the host's last read of the buffer: a holder of the NIC that sees it false receives
        // into the buffer only after those reads.
        lent = false;
    }
}
