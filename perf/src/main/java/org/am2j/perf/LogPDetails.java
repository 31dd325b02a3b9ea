package org.am2j.perf;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@link LogPRank} pair's signature and transfer curve: read from its results for {@link LogPParameters}, and
 * written whole into the {@code details} of {@code bin/am2j logp --json}.
 */
final class LogPDetails
{
    private LogPDetails()
    {
    }

    /**
     * A bandwidth curve as measured.
     *
     * @param bytes    transfer sizes, increasing.
     * @param medianNs median time of a transfer of each size, ns.
     * @param reps     transfers of each size timed.
     */
    record Transfer(int[] bytes, @JsonProperty("median_ns") double[] medianNs, int[] reps)
    {
        LogPParameters.TransferCurve curve()
        {
            return new LogPParameters.TransferCurve(bytes, medianNs);
        }
    }

    /**
     * @param results of a {@link LogPRank} pair.
     * @return the signature in them.
     */
    static LogPParameters.Signature signature(final Results results)
    {
        return results.get("signature", LogPParameters.Signature.class);
    }

    /**
     * @param results of a {@link LogPRank} pair.
     * @return the bandwidth curve in them.
     */
    static LogPParameters.TransferCurve transferCurve(final Results results)
    {
        return results.get("transfer", Transfer.class).curve();
    }

    /**
     * Put the {@code details} object: per configuration, its transports, round-trip percentiles, signature and
     * transfer curve as measured.
     *
     * @param json the run's object.
     * @param am   the results of each configuration's pair.
     */
    static void putInto(final ObjectNode json, final Map<Protocol, Results> am)
    {
        final ObjectNode details = json.putObject("details");
        for (final Protocol protocol : LogPReport.CONFIGS)
        {
            final Results results = am.get(protocol);
            final LatencySummary rtt = LatencySummary.from(results, "rtt");
            final ObjectNode config = details.putObject(LogPReport.key(protocol))
                .put("transports", protocol.transports()).put("rtt_p50_ns", rtt.p50()).put("rtt_p99_ns", rtt.p99())
                .put("rtt_p999_ns", rtt.p999()).put("rtt_mean_ns", rtt.mean());
            config.set("signature", results.get("signature"));
            config.set("transfer", results.get("transfer"));
        }
    }
}
