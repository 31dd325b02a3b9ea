package org.am2j.perf;

import java.util.Arrays;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@link LogPRank} pair's signature and transfer curve: read from its results (comma-separated lists under
 * {@code sig.*} and {@code xfer.*}) for {@link LogPParameters}, and written whole into the {@code details} of
 * {@code bin/am2j logp --json}.
 */
final class LogPDetails
{
    private LogPDetails()
    {
    }

    /**
     * @param results of a {@link LogPRank} pair.
     * @return the signature in them.
     */
    static LogPParameters.Signature signature(final Results results)
    {
        final int rows = (int)results.getLong("sig.rows");
        final long[] delays = new long[rows];
        final double[] costs = new double[rows];
        final double[][] burstNs = new double[rows][];
        for (int k = 0; k < rows; k++)
        {
            final String prefix = "sig.d" + k + ".";
            delays[k] = results.getLong(prefix + "delay_ns");
            costs[k] = results.getDouble(prefix + "delay_cost_ns");
            burstNs[k] = doubles(results.getString(prefix + "burst_ns"));
        }
        return new LogPParameters.Signature(ints(results.getString("sig.bursts")), delays, costs, burstNs,
            results.getDouble("sig.clock_ns"));
    }

    /**
     * @param results of a {@link LogPRank} pair.
     * @return the bandwidth curve in them.
     */
    static LogPParameters.TransferCurve transferCurve(final Results results)
    {
        return new LogPParameters.TransferCurve(ints(results.getString("xfer.sizes")),
            doubles(results.getString("xfer.ns")));
    }

    private static int[] ints(final String list)
    {
        return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    private static double[] doubles(final String list)
    {
        return Arrays.stream(list.split(",")).mapToDouble(Double::parseDouble).toArray();
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
            final LogPParameters.Signature signature = signature(results);
            final LogPParameters.TransferCurve curve = transferCurve(results);
            final LatencySummary rtt = LatencySummary.from(results, "rtt");
            final ObjectNode config = details.putObject(LogPReport.key(protocol))
                .put("transports", protocol.transports())
                .put("rtt_p50_ns", rtt.p50())
                .put("rtt_p99_ns", rtt.p99())
                .put("rtt_p999_ns", rtt.p999())
                .put("rtt_mean_ns", MachineReport.round(rtt.mean(), 10));
            final ObjectNode sig = config.putObject("signature").put("clock_ns", signature.clockNs());
            array(sig, "bursts", Arrays.stream(signature.bursts()).asDoubleStream().toArray(), 1);
            array(sig, "delays_ns", Arrays.stream(signature.delaysNs()).asDoubleStream().toArray(), 1);
            array(sig, "delay_cost_ns", signature.delayCostNs(), 10);
            final ArrayNode rows = sig.putArray("burst_median_ns");
            for (final double[] row : signature.burstNs())
            {
                final ArrayNode values = rows.addArray();
                Arrays.stream(row).forEach(value -> values.add(MachineReport.round(value, 10)));
            }
            final ObjectNode transfer = config.putObject("transfer");
            array(transfer, "bytes", Arrays.stream(curve.sizes()).asDoubleStream().toArray(), 1);
            array(transfer, "median_ns", curve.ns(), 10);
            array(transfer, "reps", doubles(results.getString("xfer.reps")), 1);
        }
    }

    /** Whole numbers when {@code scale} is 1, else rounded to {@code log10(scale)} decimals. */
    private static void array(final ObjectNode json, final String name, final double[] values, final int scale)
    {
        final ArrayNode array = json.putArray(name);
        Arrays.stream(values).forEach(value ->
            array.add(1 == scale ? JsonNodeFactory.instance.numberNode(Math.round(value)) :
                JsonNodeFactory.instance.numberNode(MachineReport.round(value, scale))));
    }
}
