package org.am2j.net;

import java.lang.invoke.VarHandle;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;

import static org.am2j.net.InFlightLogDescriptor.*;

/**
 * What a shared NIC took from an endpoint's send queues and has not resolved, kept in the endpoint's block
 * ({@link InFlightLogDescriptor}) where the host can read it after the NIC process died: the NIC's retransmission
 * windows die with it, this copy does not. The NIC appends a record as it takes a message ({@link #append}), marks
 * it {@link InFlightLogDescriptor#RETURNING} before it commits the message to the reply receive queue as returned
 * ({@link #returning}) and resolves it when the peer acknowledged it or it was returned ({@link #resolve}); records
 * are reclaimed in order once resolved. The host, once the NIC is gone, returns every TAKEN record (and every
 * RETURNING one whose returned record never reached the queue) with EOUTCOMEUNKNOWN ({@link #recover}).
 * <p>
 * What a send costs the NIC on top of the in-process path: one copy of the message body (header and data) into the
 * log, three ordered stores (tail, state, taken-through) when taken and one when resolved; the space is reclaimed
 * with one more ordered store only when the log needs room. Nothing is allocated. NIC thread, except {@link #recover}.
 */
final class InFlightLog
{
    private final AtomicBuffer header;
    private final AtomicBuffer records;
    private final int capacity;
    private final int mask;
    private long head;
    private long tail;

    /**
     * @param block      the endpoint's block.
     * @param queueBytes its rings' capacity, also the log's.
     */
    InFlightLog(final AtomicBuffer block, final int queueBytes)
    {
        final int offset = EndpointBlockDescriptor.inFlightOffset(queueBytes);
        this.header = new UnsafeBuffer(block, offset, HEADER_LENGTH);
        this.records = new UnsafeBuffer(block, offset + HEADER_LENGTH, queueBytes);
        this.capacity = queueBytes;
        this.mask = queueBytes - 1;
        // A block is registered once, with a fresh (zeroed) log.
        this.head = header.getLongVolatile(HEAD_OFFSET);
        this.tail = header.getLongVolatile(TAIL_OFFSET);
    }

    /**
     * Keep a copy of a message the NIC takes from a send queue.
     *
     * @param peerIndex    the peer index of its send-queue record.
     * @param replyQueue   whether it came from the reply send queue.
     * @param sendPosition the position of its record in that queue.
     * @param buffer       holds the body.
     * @param body         offset of the body.
     * @param bodyLength   bytes of the body.
     * @return the record's position, for {@link #returning} and {@link #resolve}; or -1 when the log has no room (the
     *         message stays in the send queue until acknowledgements free some).
     */
    long append(final int peerIndex, final boolean replyQueue, final long sendPosition, final DirectBuffer buffer,
        final int body, final int bodyLength)
    {
        final int length = recordLength(bodyLength);
        if (length > capacity || (!fits(length) && (!reclaim() || !fits(length))))
        {
            return -1;
        }
        int index = (int)(tail & mask);
        if (length > capacity - index)
        {
            records.putInt(index + LENGTH_OFFSET, capacity - index);
            records.putInt(index + STATE_OFFSET, PADDING);
            tail += capacity - index;
            index = 0;
        }
        final long position = tail;
        records.putInt(index + LENGTH_OFFSET, length);
        records.putInt(index + STATE_OFFSET, WRITING);
        tail += length;
        // Ordered store: a reader that sees this tail sees the length and state of every record below it (a padding
        // record and this one, WRITING), so it can walk them without reading a half-written body.
        header.putLongOrdered(TAIL_OFFSET, tail);
        records.putInt(index + PEER_OFFSET, peerIndex);
        records.putInt(index + BODY_LENGTH_OFFSET, bodyLength);
        records.putLong(index + SEND_POSITION_OFFSET, sendPosition);
        records.putLong(index + RETURN_POSITION_OFFSET, -1);
        records.putInt(index + REPLY_QUEUE_OFFSET, replyQueue ? 1 : 0);
        records.putBytes(index + BODY_OFFSET, buffer, body, bodyLength);
        // Ordered store: a reader that sees TAKEN sees the whole copy. Before the message can reach the wire.
        records.putIntOrdered(index + STATE_OFFSET, TAKEN);
        // Ordered store after TAKEN: a reader that finds the send-queue record taken by this word finds its copy
        // TAKEN (a reader that finds it TAKEN first skips the send-queue record by the copy's send position).
        header.putLongOrdered(takenOffset(replyQueue), sendPosition + 1);
        return position;
    }

    private boolean fits(final int length)
    {
        final int index = (int)(tail & mask);
        final int needed = length > capacity - index ? capacity - index + length : length;
        return tail + needed - head <= capacity;
    }

    /**
     * Move the head past the resolved records at the oldest end.
     *
     * @return true when it moved.
     */
    private boolean reclaim()
    {
        final long before = head;
        while (head < tail)
        {
            final int index = (int)(head & mask);
            final int state = records.getInt(index + STATE_OFFSET);
            if (RESOLVED != state && PADDING != state)
            {
                break;
            }
            head += records.getInt(index + LENGTH_OFFSET);
        }
        if (head == before)
        {
            return false;
        }
        // Ordered store, then a store-store fence: the new head is visible before anything is written into the space
        // it frees, so a reader never walks from an old head into records being rewritten.
        header.putLongOrdered(HEAD_OFFSET, head);
        VarHandle.storeStoreFence();
        return true;
    }

    /**
     * The NIC is about to commit the message as returned into the reply receive queue, at a record it has claimed.
     *
     * @param position       the log record's position.
     * @param returnPosition the position of the returned record in the reply receive queue.
     */
    void returning(final long position, final long returnPosition)
    {
        final int index = (int)(position & mask);
        records.putLong(index + RETURN_POSITION_OFFSET, returnPosition);
        // Ordered store: a reader that sees RETURNING sees the position; the returned record's commit (an ordered
        // store) comes after it, so a committed return is always found RETURNING or RESOLVED here.
        records.putIntOrdered(index + STATE_OFFSET, RETURNING);
    }

    /**
     * The message is acknowledged, or returned (or has nobody to go back to): the host must not return it.
     *
     * @param position the log record's position.
     */
    void resolve(final long position)
    {
        // Ordered store: a reader never returns a message whose acknowledgement or return came before this.
        records.putIntOrdered((int)(position & mask) + STATE_OFFSET, RESOLVED);
    }

    /**
     * @param buffer holds a message body.
     * @param body   its offset.
     * @return true for a message that goes back to its sender when not delivered (a request or reply, not a name
     *         announcement or a returned message, which have nobody to go back to): the messages the log keeps.
     */
    static boolean returnable(final DirectBuffer buffer, final int body)
    {
        return MessageDescriptor.OPCODE_NAME != (buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF) &&
            0 == buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET);
    }

    /**
     * Where the returned record of a message the NIC claimed in a one-to-one ring lies: the producer (the NIC) has just
     * claimed it.
     *
     * @param queue      the ring.
     * @param length     the length passed to the claim.
     * @return the record's position.
     */
    static long claimedPosition(final OneToOneRingBuffer queue, final int length)
    {
        return queue.producerPosition() - org.agrona.BitUtil.align(RecordDescriptor.HEADER_LENGTH + length,
            RecordDescriptor.ALIGNMENT);
    }

    /** What the host does with a message a dead NIC took and never resolved. */
    interface Unresolved
    {
        /**
         * @param records    the log's records.
         * @param index      the record's index there.
         * @param peerIndex  the peer index of its send-queue record.
         * @param body       offset of its body in {@code records}.
         * @param bodyLength bytes of its body.
         */
        void onUnresolved(AtomicBuffer records, int index, int peerIndex, int body, int bodyLength);
    }

    /**
     * The host's reading of a dead NIC's log: every message it took and had not resolved goes to {@code unresolved}
     * once: TAKEN records, and RETURNING ones whose returned record neither was read from nor lies committed in the
     * reply receive queue.
     *
     * @param block               the endpoint's block.
     * @param queueBytes          its rings' capacity.
     * @param replyReceiveQueue   its reply receive queue.
     * @param unresolved          told each message.
     * @param takenThrough        filled: per send queue (0 requests, 1 replies), the position below which its records
     *                            were taken into the log, so the host does not return them again from the queue.
     * @return messages handed to {@code unresolved}.
     */
    static int recover(final AtomicBuffer block, final int queueBytes, final OneToOneRingBuffer replyReceiveQueue,
        final Unresolved unresolved, final long[] takenThrough)
    {
        final int offset = EndpointBlockDescriptor.inFlightOffset(queueBytes);
        final UnsafeBuffer header = new UnsafeBuffer(block, offset, HEADER_LENGTH);
        final UnsafeBuffer records = new UnsafeBuffer(block, offset + HEADER_LENGTH, queueBytes);
        takenThrough[0] = header.getLongVolatile(REQUEST_TAKEN_OFFSET);
        takenThrough[1] = header.getLongVolatile(REPLY_TAKEN_OFFSET);
        final long tail = header.getLongVolatile(TAIL_OFFSET);
        final int mask = queueBytes - 1;
        int count = 0;
        long position = header.getLongVolatile(HEAD_OFFSET);
        while (position < tail)
        {
            final int index = (int)(position & mask);
            final int length = records.getIntVolatile(index + LENGTH_OFFSET);
            if (length <= 0 || length % ALIGNMENT != 0 || length > queueBytes - index)
            {
                // Not a record the NIC wrote: nothing further can be trusted.
                break;
            }
            final int state = records.getIntVolatile(index + STATE_OFFSET);
            if (TAKEN == state || RETURNING == state || RESOLVED == state)
            {
                final int queue = 0 != records.getInt(index + REPLY_QUEUE_OFFSET) ? 1 : 0;
                takenThrough[queue] = Math.max(takenThrough[queue], records.getLong(index + SEND_POSITION_OFFSET) + 1);
                if (TAKEN == state || (RETURNING == state &&
                    !returned(replyReceiveQueue, records.getLong(index + RETURN_POSITION_OFFSET))))
                {
                    final int bodyLength = records.getInt(index + BODY_LENGTH_OFFSET);
                    if (bodyLength >= MessageDescriptor.HEADER_LENGTH && BODY_OFFSET + bodyLength <= length)
                    {
                        unresolved.onUnresolved(records, index, records.getInt(index + PEER_OFFSET),
                            index + BODY_OFFSET, bodyLength);
                        count++;
                    }
                }
            }
            position += length;
        }
        return count;
    }

    /**
     * @return true when the record at {@code position} of the queue was read by the host or lies committed there.
     */
    private static boolean returned(final OneToOneRingBuffer queue, final long position)
    {
        if (position < 0)
        {
            return false;
        }
        if (queue.consumerPosition() > position)
        {
            return true;
        }
        final int index = (int)(position & (queue.capacity() - 1));
        return queue.producerPosition() > position && queue.buffer().getIntVolatile(index) > 0;
    }
}
