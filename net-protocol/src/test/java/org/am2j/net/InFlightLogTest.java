package org.am2j.net;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.am2j.api.Opcode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-flight log of a shared NIC's endpoint, as the NIC writes it and as the host reads it after the NIC died:
 * what is taken and unresolved comes back once, what was acknowledged or returned never, a return the NIC was
 * committing when it died exactly once (from the queue or from the log), and a full log takes nothing more until
 * resolved records are reclaimed.
 */
class InFlightLogTest
{
    private static final int QUEUE_BYTES = 1024;

    private final AtomicBuffer block = new UnsafeBuffer(new byte[(int)EndpointBlockDescriptor.length(QUEUE_BYTES)]);
    private final OneToOneRingBuffer replies = new OneToOneRingBuffer(new UnsafeBuffer(block,
        EndpointBlockDescriptor.ringOffset(EndpointBlockDescriptor.REPLY_RECEIVE, QUEUE_BYTES),
        QUEUE_BYTES + RingBufferDescriptor.TRAILER_LENGTH));
    private final InFlightLog log = new InFlightLog(block, QUEUE_BYTES);

    private static UnsafeBuffer body(final int id, final int dataLength)
    {
        final UnsafeBuffer body = new UnsafeBuffer(new byte[MessageDescriptor.HEADER_LENGTH + dataLength]);
        body.putByte(MessageDescriptor.OPCODE_OFFSET, (byte)Opcode.REQUEST_MEDIUM.code());
        body.putInt(MessageDescriptor.DATA_LENGTH_OFFSET, dataLength);
        body.putInt(MessageDescriptor.argOffset(0), id);
        return body;
    }

    private long append(final int id, final long sendPosition)
    {
        final UnsafeBuffer body = body(id, 100);
        return log.append(3, false, sendPosition, body, 0, body.capacity());
    }

    private List<Integer> recover(final long[] takenThrough)
    {
        final List<Integer> ids = new ArrayList<>();
        InFlightLog.recover(block, QUEUE_BYTES, replies, (records, index, peer, body, length) ->
        {
            assertEquals(3, peer);
            assertEquals(MessageDescriptor.HEADER_LENGTH + 100, length);
            ids.add(records.getInt(body + MessageDescriptor.argOffset(0)));
        }, takenThrough);
        return ids;
    }

    @Test
    void takenAndUnresolvedComeBackOnceResolvedNever()
    {
        final long first = append(1, 0);
        final long second = append(2, 200);
        append(3, 400);
        log.resolve(second);
        final long[] taken = new long[2];
        assertEquals(List.of(1, 3), recover(taken));
        assertEquals(401, taken[0], "the request queue's records up to the last taken are in the log");
        assertEquals(0, taken[1]);
        log.resolve(first);
        assertEquals(List.of(3), recover(taken));
    }

    @Test
    void aReturnTheNicCommittedIsNotReturnedAgainAndOneItDidNotCommitIs()
    {
        final long committed = append(1, 0);
        final long claimedOnly = append(2, 200);
        for (final long position : new long[] {committed, claimedOnly})
        {
            final int length = QueueRecordDescriptor.BODY_OFFSET + 16;
            final int index = replies.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, length);
            log.returning(position, InFlightLog.claimedPosition(replies, length));
            if (position == committed)
            {
                replies.commit(index);
            }
        }
        assertEquals(List.of(2), recover(new long[2]), "the committed return is the host's to read");
        assertEquals(1, replies.read((type, buffer, index, length) -> { }));
        assertEquals(List.of(2), recover(new long[2]), "and stays so once read");
    }

    @Test
    void aFullLogTakesNothingUntilItsOldestAreResolvedAndWrapsWithPadding()
    {
        final List<Long> positions = new ArrayList<>();
        long position;
        int id = 0;
        while ((position = append(++id, id * 200L)) >= 0)
        {
            positions.add(position);
        }
        final int held = positions.size();
        assertTrue(held > 2, "held " + held);
        assertEquals(-1, append(99, 99_000), "full");
        log.resolve(positions.get(1));
        assertEquals(-1, append(99, 99_000), "the oldest still holds its place");
        log.resolve(positions.get(0));
        final long wrapped = append(100, 100_000);
        assertTrue(wrapped >= QUEUE_BYTES, "wrapped: " + wrapped);
        final List<Integer> expected = new ArrayList<>();
        for (int i = 3; i <= held; i++)
        {
            expected.add(i);
        }
        expected.add(100);
        final long[] taken = new long[2];
        assertEquals(expected, recover(taken));
        assertEquals(100_001, taken[0]);
    }
}
