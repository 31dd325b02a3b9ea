package org.am2j.perf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The bandwidth and loss arithmetic of a plain UDP stream, and the tally's trip from the receiving rank to rank 0.
 */
class UdpStreamTallyTest
{
    @Test
    void bandwidthIsTheBytesAfterTheFirstDatagramOverTheTimeFromFirstToLast()
    {
        final UdpStreamTally tally = new UdpStreamTally();
        tally.record(8192, 1_000);
        tally.record(8192, 3_000);
        tally.record(8192, 5_096);
        assertEquals(3, tally.datagrams());
        assertEquals(3 * 8192, tally.bytes());
        assertEquals(4_096, tally.elapsedNs());
        // two datagrams arrived in the 4,096 ns after the first: 16,384 bytes / 4,096 ns
        assertEquals(4.0, tally.gbps(), 1e-12);
    }

    @Test
    void bandwidthCountsShortDatagramsAsTheyCame()
    {
        final UdpStreamTally tally = new UdpStreamTally();
        tally.record(100, 0);
        tally.record(1000, 500);
        tally.record(1000, 1000);
        assertEquals(2.0, tally.gbps(), 1e-12);
    }

    @Test
    void fewerThanTwoDatagramsHaveNoBandwidth()
    {
        final UdpStreamTally tally = new UdpStreamTally();
        assertEquals(0.0, tally.gbps());
        assertEquals(0, tally.elapsedNs());
        tally.record(8192, 42);
        assertEquals(0.0, tally.gbps());
        assertEquals(0, tally.elapsedNs());
        tally.record(8192, 42);
        assertEquals(0.0, tally.gbps(), "two datagrams in the same nanosecond");
    }

    @Test
    void lossIsTheFractionOfTheSentThatDidNotArrive()
    {
        final UdpStreamTally tally = new UdpStreamTally();
        for (int i = 0; i < 75; i++)
        {
            tally.record(8192, i);
        }
        assertEquals(0.25, UdpStreamTally.loss(100, tally.datagrams()), 1e-12);
        assertEquals(0.0, UdpStreamTally.loss(75, tally.datagrams()));
        assertEquals(0.0, UdpStreamTally.loss(0, 0), "nothing sent, nothing lost");
        assertEquals(1.0, UdpStreamTally.loss(10, 0));
        assertEquals(0.0, UdpStreamTally.loss(10, 11), "never negative");
    }

    @Test
    void resetForgetsTheLastStream()
    {
        final UdpStreamTally tally = new UdpStreamTally();
        tally.record(8192, 10);
        tally.record(8192, 20);
        tally.reset();
        assertEquals(0, tally.datagrams());
        assertEquals(0, tally.bytes());
        tally.record(100, 1_000);
        tally.record(200, 1_100);
        assertEquals(2.0, tally.gbps(), 1e-12, "the first datagram of the new stream starts the clock");
    }

    @Test
    void aTallyCrossesToRankZeroUnchanged()
    {
        final UdpStreamTally tally = new UdpStreamTally();
        tally.record(8192, 123_456_789_000L);
        tally.record(4096, 123_456_799_000L);
        final byte[] bytes = tally.toBytes();
        assertEquals(UdpStreamTally.ENCODED_BYTES, bytes.length);
        final UdpStreamTally copy = UdpStreamTally.fromBytes(bytes);
        assertEquals(2, copy.datagrams());
        assertEquals(12_288, copy.bytes());
        assertEquals(10_000, copy.elapsedNs());
        assertEquals(tally.gbps(), copy.gbps());
        assertArrayEquals(bytes, copy.toBytes());
        assertEquals(0, UdpStreamTally.fromBytes(new UdpStreamTally().toBytes()).datagrams());
    }

    @Test
    void somethingElseIsNotATally()
    {
        assertThrows(IllegalArgumentException.class, () -> UdpStreamTally.fromBytes(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> UdpStreamTally.fromBytes(new byte[8]));
        final byte[] negative = new UdpStreamTally().toBytes();
        negative[0] = (byte)0x80;
        assertThrows(IllegalArgumentException.class, () -> UdpStreamTally.fromBytes(negative));
        final UdpStreamTally backwards = new UdpStreamTally();
        backwards.record(1, 100);
        final byte[] bytes = backwards.toBytes();
        bytes[4 * Long.BYTES + Long.BYTES - 1] = 0; // last arrival at 0 ns, before the first at 100 ns
        assertThrows(IllegalArgumentException.class, () -> UdpStreamTally.fromBytes(bytes));
    }
}
