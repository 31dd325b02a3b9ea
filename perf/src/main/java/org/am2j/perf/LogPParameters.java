package org.am2j.perf;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The LogP parameters of one protocol configuration (the rows of the paper's Table 3), and the arithmetic that
 * reads them off the measurements: the signature of Culler et al. ("Assessing Fast Network Interfaces"), the
 * bandwidth curve of pipelined transfers, and the ping-pong round trip. Pure functions of their inputs, so they are
 * tested on synthetic data; {@code docs/logp.md} gives the method and the same formulas.
 * <ul>
 * <li><b>o_s</b> = min over the short bursts M &le; {@value #SMALL_BURST} of the delay-0 row of
 * (T(M, 0) - t_clock) / M: before any reply is back the sender pays only its send overhead.</li>
 * <li><b>g</b> = the steady-state cost per message s(0) of the delay-0 row, where s(Delta) is the median of the
 * slopes (T(M_i+1) - T(M_i)) / (M_i+1 - M_i) between consecutive ones of the {@value #STEADY_BURSTS} longest bursts
 * (M_max/8 to M_max): in each slope the bursts' common start-up cancels, and the median keeps one burst length
 * that a preemption of the machine lengthened from moving it.</li>
 * <li><b>o_r</b> = s(Delta) of the row of the longest delay Delta (at least a round trip, so that every reply is back
 * before the next send and is received inside the burst) minus that delay's cost per message d(Delta) minus o_s:
 * each message then costs o_s + d(Delta) + o_r.</li>
 * <li><b>L</b> = RTT / 2 - o_s - o_r, RTT the median short round trip.</li>
 * <li><b>G</b> = the slope of T(n) = T_0 + G n through the transfers of n &ge; {@value #FIT_FROM_BYTES} bytes (the
 * last two sizes when fewer are that long), fitted as the median of the slopes between every two of them
 * (Theil-Sen: one size that the machine slowed does not move it, a slowdown of the protocol at every long size
 * does); <b>1/G</b> its bandwidth. A slope that is not positive (the noise of too few or too short transfers) gives
 * NaN for G, 1/G and the half-power point.</li>
 * <li><b>half-power point</b> = the transfer size whose bandwidth n / T(n) is half of 1/G, interpolated linearly in
 * log2(n) between the two measured sizes around it; the smallest size if that already reaches it, NaN if none
 * does.</li>
 * </ul>
 *
 * @param rttNs            median short round trip, ns.
 * @param osNs             send overhead o_s, ns.
 * @param orNs             receive overhead o_r, ns.
 * @param gNs              gap g, ns.
 * @param gapPerByteNs     gap per byte G, ns per byte.
 * @param halfPowerBytes   half-power point, bytes (NaN when no size reaches half of 1/G).
 */
record LogPParameters(
    double rttNs, double osNs, double orNs, double gNs, double gapPerByteNs, double halfPowerBytes)
{
    /** The bursts whose per-message cost gives o_s are at most this long. */
    static final int SMALL_BURST = 4;
    /** The longest bursts of a row whose consecutive slopes give its steady state. */
    static final int STEADY_BURSTS = 4;
    /** Transfers of at least this many bytes give G. */
    static final int FIT_FROM_BYTES = 64 * 1024;

    /**
     * A measured signature: the median time of bursts of M requests with a delay after each, for several delays.
     *
     * @param bursts      the burst lengths M, increasing, the same for every row.
     * @param delaysNs    the delay of each row, the first 0, increasing.
     * @param delayCostNs what one delay of each row costs in a burst (measured alone), ns.
     * @param burstNs     [row][i]: median time of a burst of bursts[i] requests with the row's delay, ns.
     * @param clockNs     what timing an empty interval costs (two clock reads), ns.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Signature(int[] bursts, long[] delaysNs, double[] delayCostNs,
        @JsonProperty("burst_median_ns") double[][] burstNs, double clockNs)
    {
        /**
         * @param row   of the signature.
         * @param burst index of the burst length.
         * @return time per message of that burst, ns: (T - t_clock) / M.
         */
        double perMessageNs(final int row, final int burst)
        {
            return (burstNs[row][burst] - clockNs) / bursts[burst];
        }

        /**
         * @param row of the signature.
         * @return its steady-state cost per message s: the median of the slopes between consecutive ones of its
         * {@value #STEADY_BURSTS} longest bursts (all of them when it has fewer), ns.
         */
        double steadyNs(final int row)
        {
            final int n = bursts.length;
            final int from = Math.max(0, n - STEADY_BURSTS);
            final double[] slopes = new double[n - 1 - from];
            for (int i = from; i < n - 1; i++)
            {
                slopes[i - from] = (burstNs[row][i + 1] - burstNs[row][i]) / (bursts[i + 1] - bursts[i]);
            }
            return Medians.of(slopes);
        }

        /**
         * @return o_s, ns.
         */
        double osNs()
        {
            double min = Double.POSITIVE_INFINITY;
            for (int i = 0; i < bursts.length && bursts[i] <= SMALL_BURST; i++)
            {
                min = Math.min(min, perMessageNs(0, i));
            }
            return min;
        }

        /**
         * @return g, ns.
         */
        double gNs()
        {
            return steadyNs(0);
        }

        /**
         * @return o_r, ns.
         */
        double orNs()
        {
            final int last = delaysNs.length - 1;
            return steadyNs(last) - delayCostNs[last] - osNs();
        }

        /**
         * @throws IllegalArgumentException when the shapes do not fit or the first row's delay is not 0.
         */
        public Signature
        {
            if (bursts.length < 2 || delaysNs.length < 2 || delayCostNs.length != delaysNs.length ||
                burstNs.length != delaysNs.length || delaysNs[0] != 0)
            {
                throw new IllegalArgumentException("a signature needs at least two bursts and two delays, the first 0");
            }
            for (final double[] row : burstNs)
            {
                if (row.length != bursts.length)
                {
                    throw new IllegalArgumentException("every row of a signature has a time for each burst length");
                }
            }
        }
    }

    /**
     * A measured bandwidth curve: the median time of one transfer of each size.
     *
     * @param sizes transfer sizes, bytes, increasing.
     * @param ns    median time of a transfer of each size, ns.
     */
    record TransferCurve(int[] sizes, double[] ns)
    {
        /**
         * @throws IllegalArgumentException when the shapes do not fit.
         */
        public TransferCurve
        {
            if (sizes.length < 2 || ns.length != sizes.length)
            {
                throw new IllegalArgumentException("a bandwidth curve needs a time for each of at least two sizes");
            }
        }

        /**
         * @param i index of a size.
         * @return its bandwidth, bytes per ns (GB/s).
         */
        double bytesPerNs(final int i)
        {
            return sizes[i] / ns[i];
        }

        /**
         * @return G, ns per byte: the median of the slopes between every two long transfers.
         */
        double gapPerByteNs()
        {
            int from = 0;
            while (from < sizes.length && sizes[from] < FIT_FROM_BYTES)
            {
                from++;
            }
            from = Math.min(from, sizes.length - 2);
            final int n = sizes.length - from;
            final double[] slopes = new double[n * (n - 1) / 2];
            int k = 0;
            for (int i = from; i < sizes.length; i++)
            {
                for (int j = i + 1; j < sizes.length; j++)
                {
                    slopes[k++] = (ns[j] - ns[i]) / (sizes[j] - sizes[i]);
                }
            }
            return Medians.of(slopes);
        }

        /**
         * @param peakBytesPerNs the bandwidth whose half is sought (1/G).
         * @return the half-power point, bytes, as the class comment says.
         */
        double halfPowerBytes(final double peakBytesPerNs)
        {
            final double half = peakBytesPerNs / 2;
            for (int i = 0; i < sizes.length; i++)
            {
                final double bw = bytesPerNs(i);
                if (bw >= half)
                {
                    if (0 == i)
                    {
                        return sizes[0];
                    }
                    final double x0 = log2(sizes[i - 1]);
                    final double x1 = log2(sizes[i]);
                    final double b0 = bytesPerNs(i - 1);
                    final double x = x0 + (x1 - x0) * (half - b0) / (bw - b0);
                    return Math.pow(2, x);
                }
            }
            return Double.NaN;
        }

        private static double log2(final double x)
        {
            return Math.log(x) / Math.log(2);
        }
    }

    /**
     * @param rttNs     median short round trip, ns.
     * @param signature the measured signature.
     * @param curve     the measured bandwidth curve.
     * @return the parameters they give (G, 1/G and the half-power point NaN when the fitted G is not positive).
     */
    static LogPParameters of(final double rttNs, final Signature signature, final TransferCurve curve)
    {
        final double fitted = curve.gapPerByteNs();
        // a time that does not grow with the size (noise over too few or too short transfers) has no bandwidth
        final double gapPerByte = fitted > 0 ? fitted : Double.NaN;
        return new LogPParameters(rttNs, signature.osNs(), signature.orNs(), signature.gNs(), gapPerByte,
            curve.halfPowerBytes(1 / gapPerByte));
    }

    /**
     * @return latency L = RTT / 2 - o_s - o_r, ns.
     */
    double latencyNs()
    {
        return rttNs / 2 - osNs - orNs;
    }

    /**
     * @return bandwidth 1/G in MB/s (10^6 bytes a second: bytes per microsecond).
     */
    double bandwidthMBps()
    {
        return 1000 / gapPerByteNs;
    }
}
