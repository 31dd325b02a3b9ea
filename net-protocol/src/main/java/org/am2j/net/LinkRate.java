package org.am2j.net;

/**
 * A NIC's link rate ({@code am2j.net.linkRateMBps}): a token bucket that lets a message leave the send queues only
 * when the link has had the time to send what went before, so that a software NIC, which has no bandwidth limit of its
 * own, shows the processor-to-NIC balance of a machine whose links do (the paper's Myrinet: 160 MB/s). Tokens are
 * bytes; they accrue at the rate up to a burst of {@link #BURST_BYTES}, and a message may take the bucket below zero
 * (it is sent whole), after which nothing leaves until the debt is paid. The clock is the caller's (the NIC's duty
 * cycle time), so the bucket is driven by a scripted clock in tests. Agent thread.
 */
final class LinkRate
{
    /** Bytes the link may send at once after an idle spell: a few of the largest messages. */
    static final long BURST_BYTES = 4 * NetConfig.MAX_DATAGRAM;

    private final double bytesPerNano;
    private double tokens = BURST_BYTES;
    private long lastNanos;
    private boolean started;

    /**
     * @param megabytesPerSecond the link's rate in MB/s (10^6 bytes per second), more than 0.
     */
    LinkRate(final int megabytesPerSecond)
    {
        if (megabytesPerSecond <= 0)
        {
            throw new IllegalArgumentException("link rate " + megabytesPerSecond + " MB/s");
        }
        this.bytesPerNano = megabytesPerSecond / 1_000.0;
    }

    /**
     * @param nowNanos the NIC's time.
     * @return true when a message may leave now (the bucket is not in debt).
     */
    boolean mayTransmit(final long nowNanos)
    {
        refill(nowNanos);
        return tokens >= 0;
    }

    /**
     * A message of {@code bytes} left (after {@link #mayTransmit} said it may).
     *
     * @param bytes    its bytes on the link.
     * @param nowNanos the NIC's time.
     */
    void transmitted(final int bytes, final long nowNanos)
    {
        refill(nowNanos);
        tokens -= bytes;
    }

    /**
     * @param nowNanos the NIC's time.
     * @return nanoseconds until a message may leave, 0 when it may now.
     */
    long nanosUntilReady(final long nowNanos)
    {
        refill(nowNanos);
        return tokens >= 0 ? 0 : (long)Math.ceil(-tokens / bytesPerNano);
    }

    private void refill(final long nowNanos)
    {
        if (!started)
        {
            started = true;
            lastNanos = nowNanos;
            return;
        }
        final long elapsed = nowNanos - lastNanos;
        if (elapsed > 0)
        {
            tokens = Math.min(BURST_BYTES, tokens + elapsed * bytesPerNano);
            lastNanos = nowNanos;
        }
    }
}
