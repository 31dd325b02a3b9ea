package org.am2j.perf;

import java.util.Arrays;
import java.util.Map;

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
     * Write the {@code details} object: per configuration, its transports, round-trip percentiles, signature and
     * transfer curve as measured.
     *
     * @param json the writer, inside the run's object.
     * @param am   the results of each configuration's pair.
     */
    static void write(final JsonWriter json, final Map<Protocol, Results> am)
    {
        json.name("details").beginObject();
        for (final Protocol protocol : LogPReport.CONFIGS)
        {
            final Results results = am.get(protocol);
            final LogPParameters.Signature signature = signature(results);
            final LogPParameters.TransferCurve curve = transferCurve(results);
            json.name(LogPReport.key(protocol)).beginObject();
            json.name("transports").value(protocol.transports());
            final LatencySummary rtt = LatencySummary.from(results, "rtt");
            json.name("rtt_p50_ns").value(rtt.p50());
            json.name("rtt_p99_ns").value(rtt.p99());
            json.name("rtt_p999_ns").value(rtt.p999());
            json.name("rtt_mean_ns").value(MachineReport.round(rtt.mean(), 10));
            json.name("signature").beginObject();
            json.name("clock_ns").value(signature.clockNs());
            array(json, "bursts", Arrays.stream(signature.bursts()).asDoubleStream().toArray(), 1);
            array(json, "delays_ns", Arrays.stream(signature.delaysNs()).asDoubleStream().toArray(), 1);
            array(json, "delay_cost_ns", signature.delayCostNs(), 10);
            json.name("burst_median_ns").beginArray();
            for (final double[] row : signature.burstNs())
            {
                json.beginArray();
                for (final double value : row)
                {
                    json.value(MachineReport.round(value, 10));
                }
                json.endArray();
            }
            json.endArray();
            json.endObject();
            json.name("transfer").beginObject();
            array(json, "bytes", Arrays.stream(curve.sizes()).asDoubleStream().toArray(), 1);
            array(json, "median_ns", curve.ns(), 10);
            array(json, "reps", doubles(results.getString("xfer.reps")), 1);
            json.endObject();
            json.endObject();
        }
        json.endObject();
    }

    private static void array(final JsonWriter json, final String name, final double[] values, final int scale)
    {
        json.name(name).beginArray();
        for (final double value : values)
        {
            if (1 == scale)
            {
                json.value(Math.round(value));
            }
            else
            {
                json.value(MachineReport.round(value, scale));
            }
        }
        json.endArray();
    }
}
