package org.am2j.perf;

/**
 * Synthetic measurements of a {@link LogPRank} pair from chosen LogP parameters, made with the model the extraction
 * of {@link LogPParameters} assumes, so that a test knows the answer:
 * <ul>
 * <li>the signature's delay-0 row: bursts of up to {@value LogPParameters#SMALL_BURST} cost o_s a message; each
 * message beyond them costs g;</li>
 * <li>a row with delay Delta (which costs d = Delta + {@link #DELAY_OVERHEAD_NS} in a burst): the first
 * {@value #REPLY_AFTER} messages cost o_s + d, each later one o_s + d + o_r (a reply received with it);</li>
 * <li>every burst time also holds one clock read, {@link #CLOCK_NS};</li>
 * <li>a transfer of n bytes takes T_0 + G n.</li>
 * </ul>
 */
final class LogPFixtures
{
    /** What timing an empty interval costs, ns. */
    static final double CLOCK_NS = 25;
    /** What a delay costs beyond its length, ns. */
    static final double DELAY_OVERHEAD_NS = 20;
    /** Messages of a burst with a delay before the first reply is received. */
    static final int REPLY_AFTER = 2;
    /** The burst lengths. */
    static final int[] BURSTS = LogPRank.powersOfTwo(1, 256);
    /** The transfer sizes. */
    static final int[] SIZES = LogPRank.powersOfTwo(LogPRank.SMALLEST_TRANSFER, 1 << 20);

    private LogPFixtures()
    {
    }

    /**
     * @param osNs o_s.
     * @param orNs o_r.
     * @param gNs  g.
     * @param rttNs the round trip the delays are computed from.
     * @return the signature the model gives, with the delays of {@link LogPRank#DELAY_FACTORS}.
     */
    static LogPParameters.Signature signature(final double osNs, final double orNs, final double gNs,
        final long rttNs)
    {
        final int rows = LogPRank.DELAY_FACTORS.length;
        final long[] delays = new long[rows];
        final double[] costs = new double[rows];
        final double[][] burstNs = new double[rows][BURSTS.length];
        for (int k = 0; k < rows; k++)
        {
            delays[k] = Math.round(LogPRank.DELAY_FACTORS[k] * rttNs);
            costs[k] = 0 == k ? 0 : delays[k] + DELAY_OVERHEAD_NS;
            for (int i = 0; i < BURSTS.length; i++)
            {
                final int m = BURSTS[i];
                if (0 == k)
                {
                    final int small = Math.min(m, LogPParameters.SMALL_BURST);
                    burstNs[k][i] = CLOCK_NS + small * osNs + (m - small) * gNs;
                }
                else
                {
                    burstNs[k][i] = CLOCK_NS + m * (osNs + costs[k]) + Math.max(0, m - REPLY_AFTER) * orNs;
                }
            }
        }
        return new LogPParameters.Signature(BURSTS, delays, costs, burstNs, CLOCK_NS);
    }

    /**
     * @param t0Ns         fixed cost of a transfer.
     * @param gapPerByteNs G.
     * @return the bandwidth curve the model gives over {@link #SIZES}.
     */
    static LogPParameters.TransferCurve curve(final double t0Ns, final double gapPerByteNs)
    {
        final double[] ns = new double[SIZES.length];
        for (int i = 0; i < SIZES.length; i++)
        {
            ns[i] = t0Ns + gapPerByteNs * SIZES[i];
        }
        return new LogPParameters.TransferCurve(SIZES, ns);
    }

    /**
     * @param rttNs        median round trip.
     * @param osNs         o_s.
     * @param orNs         o_r.
     * @param gNs          g.
     * @param t0Ns         fixed cost of a transfer.
     * @param gapPerByteNs G.
     * @param probeNs      the probes of every measurement.
     * @return the results a {@link LogPRank} pair would write for these parameters.
     */
    static Results amResults(final long rttNs, final double osNs, final double orNs, final double gNs,
        final double t0Ns, final double gapPerByteNs, final long probeNs)
    {
        final Results results = new Results();
        ResultsFixtures.latency(results, "rtt", rttNs);
        ResultsFixtures.machine(results, "rtt", probeNs);
        final LogPParameters.Signature signature = signature(osNs, orNs, gNs, rttNs);
        results.put("signature", signature);
        for (int k = 0; k < signature.delaysNs().length; k++)
        {
            ResultsFixtures.machine(results, "sig_d" + k, probeNs);
        }
        final LogPParameters.TransferCurve curve = curve(t0Ns, gapPerByteNs);
        final int[] reps = new int[curve.sizes().length];
        java.util.Arrays.fill(reps, 8);
        results.put("transfer", new LogPRank.Transfer(curve.sizes(), curve.ns(), reps));
        ResultsFixtures.machine(results, "transfer", probeNs);
        return results.put("probe_fastest_p50_ns", probeNs);
    }

    /**
     * @param prefix      of the round trips' keys.
     * @param measurement name of the guard's measurement.
     * @param p50         median round trip, ns.
     * @param probeNs     the probes.
     * @return the results of a peer's or limit's pair.
     */
    static Results peerResults(final String prefix, final String measurement, final long p50, final long probeNs)
    {
        final Results results = new Results();
        ResultsFixtures.latency(results, prefix, p50);
        ResultsFixtures.machine(results, measurement, probeNs);
        return results.put("probe_fastest_p50_ns", probeNs);
    }

    /**
     * @param pollNs      median empty poll, ns.
     * @param described   the bundle's description after the polls.
     * @param probeNs     the probes.
     * @return the results of a {@link NetPollRank} pair.
     */
    static Results pollResults(final double pollNs, final String described, final long probeNs)
    {
        final Results results = new Results().put("poll_empty_ns", pollNs).put("poll_empty_min_ns", pollNs * 0.9)
            .put("poll_empty_max_ns", pollNs * 1.5).put("poll_blocks", 101L).put("poll_block_polls", 10_000L)
            .put("poll_scheduler", described);
        final double ratio = NetPollRank.ratio(described);
        if (!Double.isNaN(ratio))
        {
            results.put("poll_ratio", ratio);
        }
        ResultsFixtures.machine(results, "poll", probeNs);
        return results.put("probe_fastest_p50_ns", probeNs);
    }

    /**
     * @param nicsPerNode of the run.
     * @param probeNs     the probes.
     * @return a poll cost like an in-process NIC's: a 600 ns network poll, r = 38.2.
     */
    static NetPollCost pollCost(final int nicsPerNode, final long probeNs)
    {
        return new NetPollCost(nicsPerNode, pollResults(600.0, "Bundle[SEQ, 1 endpoints, poll every]", probeNs),
            pollResults(25.0, "Bundle[SEQ, 1 endpoints, poll calibrated[ratio 38.2 measured, 31..122, rate 1/122]]",
                probeNs));
    }
}
