package org.am2j.net;

/**
 * The retransmission timeout of one peer, from measured round trips (Jacobson's smoothed mean and mean deviation,
 * RFC 6298): {@code rto = srtt + 4 * rttvar}, clamped to the configured bounds. Only messages acknowledged without
 * having been retransmitted are measured (Karn's rule: the acknowledgement of a retransmitted message cannot be
 * matched to one transmission). A retransmission timeout doubles the timeout itself (RFC 6298 5.5), at most once
 * per timeout, and the doubled value stays until a message is measured again (5.7): otherwise a peer whose round
 * trips grew (a loaded machine, a receiver that is not scheduled) would see every new message retransmitted at the
 * old, short timeout, and with Karn's rule never measured. Owned by the NIC agent's thread.
 */
final class RttEstimator
{
    private final long minNanos;
    private final long maxNanos;
    private long srtt;
    private long rttvar;
    private long rto;
    private long lastBackOffNanos;
    private boolean backedOffOnce;

    RttEstimator(final long initialNanos, final long minNanos, final long maxNanos)
    {
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
        this.rto = clamp(initialNanos);
    }

    /**
     * @param sampleNanos time from a message's only transmission to its acknowledgement.
     */
    void sample(final long sampleNanos)
    {
        final long sample = Math.max(0, sampleNanos);
        if (0 == srtt)
        {
            srtt = Math.max(1, sample);
            rttvar = sample / 2;
        }
        else
        {
            // alpha = 1/8, beta = 1/4
            rttvar += (Math.abs(srtt - sample) - rttvar) / 4;
            srtt += (sample - srtt) / 8;
        }
        rto = clamp(srtt + 4 * rttvar);
    }

    /**
     * A message timed out and is being retransmitted: double the timeout (up to the maximum), unless it was doubled
     * less than one timeout ago (the messages of one window time out together: one back-off for all of them).
     *
     * @param nowNanos the NIC's clock.
     */
    void timedOut(final long nowNanos)
    {
        if (!backedOffOnce || nowNanos - lastBackOffNanos >= rto)
        {
            backedOffOnce = true;
            lastBackOffNanos = nowNanos;
            rto = Math.min(maxNanos, rto << 1);
        }
    }

    /**
     * @return the current retransmission timeout.
     */
    long rto()
    {
        return rto;
    }

    /**
     * @param retransmits how many times the message has been retransmitted already.
     * @return the timeout before the next retransmission: doubled for each earlier one, up to the maximum.
     */
    long backedOff(final int retransmits)
    {
        final int shift = Math.min(retransmits, 20);
        final long backedOff = rto << shift;
        return backedOff < 0 || backedOff > maxNanos ? maxNanos : backedOff;
    }

    private long clamp(final long nanos)
    {
        return Math.max(minNanos, Math.min(maxNanos, nanos));
    }
}
