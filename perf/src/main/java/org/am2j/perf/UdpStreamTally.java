package org.am2j.perf;

import java.nio.ByteBuffer;

/**
 * What the receiver of one plain UDP stream ({@link UdpPingPong#sink(int)}) got: datagrams, bytes, and when the
 * first and the last of them arrived. UDP drops datagrams when the receiver falls behind, so the stream's bandwidth
 * is that of what arrived, and the loss is reported beside it:
 * <ul>
 * <li>{@link #gbps()}: the bytes of every datagram after the first, over the time from the first arrival to the last
 * (n datagrams arrive in n - 1 intervals, so the first one's bytes arrived before the clock started), in bytes per
 * nanosecond, that is GB/s; 0 when fewer than two datagrams arrived;</li>
 * <li>{@link #loss(long, long)}: the fraction of the datagrams sent that did not arrive.</li>
 * </ul>
 * A tally travels from the receiving rank to rank 0 as {@value #ENCODED_BYTES} bytes ({@link #toBytes()},
 * {@link #fromBytes(byte[])}).
 */
final class UdpStreamTally
{
    /** Length of {@link #toBytes()}: five longs. */
    static final int ENCODED_BYTES = 5 * Long.BYTES;

    private long datagrams;
    private long bytes;
    private long firstBytes;
    private long firstNs;
    private long lastNs;

    /**
     * Start again: nothing received.
     */
    void reset()
    {
        datagrams = 0;
        bytes = 0;
        firstBytes = 0;
        firstNs = 0;
        lastNs = 0;
    }

    /**
     * Count a datagram of the stream.
     *
     * @param length of the datagram, bytes.
     * @param nowNs  {@link System#nanoTime()} when it was received.
     */
    void record(final int length, final long nowNs)
    {
        if (0 == datagrams)
        {
            firstBytes = length;
            firstNs = nowNs;
        }
        datagrams++;
        bytes += length;
        lastNs = nowNs;
    }

    /**
     * @return datagrams received.
     */
    long datagrams()
    {
        return datagrams;
    }

    /**
     * @return bytes received.
     */
    long bytes()
    {
        return bytes;
    }

    /**
     * @return nanoseconds from the first datagram received to the last, 0 when fewer than two were received.
     */
    long elapsedNs()
    {
        return lastNs - firstNs;
    }

    /**
     * @return GB/s (bytes per ns) of what arrived: the bytes after the first datagram over {@link #elapsedNs()}; 0
     * when that is 0.
     */
    double gbps()
    {
        final long elapsed = elapsedNs();
        return datagrams < 2 || elapsed <= 0 ? 0.0 : (double)(bytes - firstBytes) / elapsed;
    }

    /**
     * @param sent     datagrams sent.
     * @param received of them, datagrams received.
     * @return the fraction lost, 0 to 1 (0 when none were sent; a receiver never counts more than were sent, but
     * if it did the loss would be 0, not negative).
     */
    static double loss(final long sent, final long received)
    {
        return sent <= 0 ? 0.0 : Math.max(0.0, (double)(sent - received) / sent);
    }

    /**
     * @return the tally as {@value #ENCODED_BYTES} bytes.
     */
    byte[] toBytes()
    {
        return ByteBuffer.allocate(ENCODED_BYTES)
            .putLong(datagrams).putLong(bytes).putLong(firstBytes).putLong(firstNs).putLong(lastNs).array();
    }

    /**
     * @param encoded what {@link #toBytes()} made.
     * @return the tally.
     * @throws IllegalArgumentException when it is not {@value #ENCODED_BYTES} bytes or not a possible tally.
     */
    static UdpStreamTally fromBytes(final byte[] encoded)
    {
        if (encoded.length != ENCODED_BYTES)
        {
            throw new IllegalArgumentException("a UDP stream tally has " + ENCODED_BYTES + " bytes, not " +
                encoded.length);
        }
        final ByteBuffer buffer = ByteBuffer.wrap(encoded);
        final UdpStreamTally tally = new UdpStreamTally();
        tally.datagrams = buffer.getLong();
        tally.bytes = buffer.getLong();
        tally.firstBytes = buffer.getLong();
        tally.firstNs = buffer.getLong();
        tally.lastNs = buffer.getLong();
        if (tally.datagrams < 0 || tally.bytes < 0 || tally.firstBytes < 0 || tally.firstBytes > tally.bytes ||
            tally.lastNs - tally.firstNs < 0 || (0 == tally.datagrams && 0 != tally.bytes))
        {
            throw new IllegalArgumentException("not a UDP stream tally: " + tally);
        }
        return tally;
    }

    @Override
    public String toString()
    {
        return datagrams + " datagrams, " + bytes + " bytes (first " + firstBytes + "), " + firstNs + " to " +
            lastNs + " ns";
    }
}
