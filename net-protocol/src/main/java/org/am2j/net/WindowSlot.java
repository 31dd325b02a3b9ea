package org.am2j.net;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One message in a send channel's retransmission window: the datagram it went out as (header and whole body, see
 * {@link WireDescriptor}), kept until the peer acknowledges it, and its timers. The buffer is allocated when the slot
 * first carries a message and grown once to the largest size when a larger message comes, so steady-state traffic
 * allocates nothing. Owned by the NIC agent's thread.
 */
final class WindowSlot
{
    private static final int FIRST_CAPACITY =
        WireDescriptor.HEADER_LENGTH + MessageDescriptor.HEADER_LENGTH + 256 + WireDescriptor.TAG_LENGTH;

    ByteBuffer datagram;
    final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    long sequence = -1;
    /** The slot holds a message of the window: sent and not resolved (acknowledged, or given up and answered). */
    boolean inFlight;
    /**
     * The message's timeout passed: its data is no longer sent; the NIC asks the peer to give it up instead
     * ({@link WireDescriptor#TYPE_GIVE_UP}) and resolves it by the peer's answer only, since an acknowledgement of a
     * sequence the peer gave up looks like one of a sequence it delivered.
     */
    boolean givingUp;
    /**
     * Nonzero once the peer answered that it gave the message up (or the peer died): the status the message goes back
     * to its sender with, kept while the sender's reply receive queue is full.
     */
    int returnStatus;
    int bodyLength;
    int localEndpointId;
    /** A shared NIC's copy of the message in its endpoint's block ({@link InFlightLog}), or null. */
    InFlightLog log;
    /** The session the message last left in, or null while it has not left (it waits for a handshake). */
    LinkSession sentIn;
    /** The copy's position in {@link #log}. */
    long logPosition;
    int retransmits;
    long firstSentNanos;
    long lastSentNanos;
    long retransmitAtNanos;
    long expiresAtNanos;

    /**
     * The message is resolved (acknowledged, returned, or has nobody to go back to): its shared NIC's copy goes.
     */
    void resolved()
    {
        if (null != log)
        {
            log.resolve(logPosition);
            log = null;
        }
    }

    /**
     * Make room for a body.
     *
     * @param bodyLength bytes of the message body.
     */
    void ensureCapacity(final int bodyLength)
    {
        final int needed = WireDescriptor.HEADER_LENGTH + bodyLength + WireDescriptor.TAG_LENGTH;
        if (null == datagram || datagram.capacity() < needed)
        {
            final int capacity = null == datagram && needed <= FIRST_CAPACITY ?
                FIRST_CAPACITY : NetConfig.MAX_DATAGRAM;
            datagram = BufferUtil.allocateDirectAligned(org.agrona.BitUtil.align(capacity, 64), 64)
                .order(ByteOrder.LITTLE_ENDIAN);
            view.wrap(datagram);
        }
    }
}
