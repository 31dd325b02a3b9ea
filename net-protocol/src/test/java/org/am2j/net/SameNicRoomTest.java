package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

/**
 * A same-NIC message is logged as taken only when the queue it lands in has room for it ({@link SendQueues#hasRoom}):
 * the ring must then accept it, at its end (padding) too, or a logged message could find its queue full; and the
 * answer is no more cautious than one alignment unit.
 */
class SameNicRoomTest
{
    private static OneToOneRingBuffer ring(final int capacity)
    {
        return new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    @Test
    void hasRoomAgreesWithTheRingForEveryLengthAndFill()
    {
        final OneToOneRingBuffer queue = ring(4096);
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[1024]);
        int checks = 0;
        int spare = 0;
        for (int round = 0; round < 200; round++)
        {
            final int length = 8 + (round * 37) % 300;
            final boolean room = SendQueues.hasRoom(queue, length);
            final boolean written = queue.write(1, bytes, 0, length);
            if (room)
            {
                assertTrue(written, "room said, then refused: round " + round + ", length " + length);
                checks++;
            }
            else if (written)
            {
                spare++;
            }
            if (!written || round % 3 == 0)
            {
                // the host reads now and then, so that the tail wraps at every offset
                queue.read((type, buffer, index, len) -> { }, 1 + round % 4);
            }
        }
        assertTrue(checks > 100, "room said " + checks + " times");
        assertTrue(spare < 10, "no room said for " + spare + " records that fitted");
    }

    @Test
    void aFullRingHasNoRoom()
    {
        final OneToOneRingBuffer queue = ring(1024);
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[128]);
        while (queue.write(1, bytes, 0, 100))
        {
            // fill
        }
        assertFalse(SendQueues.hasRoom(queue, 100));
    }
}
