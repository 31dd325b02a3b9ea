package org.am2j.perf;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * The cost of an empty network poll in a {@link LogP} run, measured by two {@link NetPollRank} pairs placed like the
 * network configurations (two emulated nodes) and served by the run's kind of NIC:
 * <ul>
 * <li>{@link #NETWORK}: the network alone under the scheduler {@code every}, so every poll is a network poll:
 * {@code network_poll_empty_ns};</li>
 * <li>{@link #CALIBRATED}: shared memory and the network under the scheduler {@code calibrated}, which measures r,
 * the extra cost of a network poll in local polls, and sets its bounds from it: {@code calibrated_ratio} (r as the
 * scheduler read it), {@code calibrated_poll_empty_ns} (its mix of local and network polls) and the scheduler's
 * description.</li>
 * </ul>
 * The JSON object {@code poll_cost} has those keys, and {@code nic_kind} and {@code nics_per_node}.
 */
final class NetPollCost
{
    /** The configuration of the empty network poll: the network alone, every poll includes it. */
    static final Protocol NETWORK = Protocol.NET;
    /** The configuration of the calibrated scheduler's ratio: shared memory and the network. */
    static final Protocol CALIBRATED = Protocol.MULTI_NET;
    /** Empty polls of one timed block. */
    static final int BLOCK_POLLS = 10_000;
    /** Timed blocks; their median is reported. */
    static final int BLOCKS = 101;
    /** Warm-up polls, at least. */
    static final int WARMUP_POLLS = 200_000;

    private final int nicsPerNode;
    private final Results network;
    private final Results calibrated;

    /**
     * @param nicsPerNode shared NIC processes per emulated node of both pairs, 0 for in-process NICs.
     * @param network     results of the {@link #NETWORK} pair.
     * @param calibrated  results of the {@link #CALIBRATED} pair.
     */
    NetPollCost(final int nicsPerNode, final Results network, final Results calibrated)
    {
        this.nicsPerNode = nicsPerNode;
        this.network = network;
        this.calibrated = calibrated;
    }

    /**
     * @param protocol {@link #NETWORK} or {@link #CALIBRATED}.
     * @return the system properties of its pair: the protocol's and its scheduler.
     */
    static Map<String, String> properties(final Protocol protocol)
    {
        final Map<String, String> properties = new java.util.LinkedHashMap<>(protocol.systemProperties());
        properties.put("am2j.poll", NETWORK == protocol ? "every" : "calibrated");
        return properties;
    }

    /**
     * @return the results of the {@link #NETWORK} pair.
     */
    Results network()
    {
        return network;
    }

    /**
     * @return the results of the {@link #CALIBRATED} pair.
     */
    Results calibrated()
    {
        return calibrated;
    }

    /**
     * @return the median time of an empty network poll, ns.
     */
    double networkPollNs()
    {
        return network.getDouble("poll_empty_ns");
    }

    /**
     * @return r as the calibrated scheduler read it, NaN when it had measured none.
     */
    double calibratedRatio()
    {
        return calibrated.has("poll_ratio") ? calibrated.getDouble("poll_ratio") : Double.NaN;
    }

    /**
     * Print the section of the table.
     *
     * @param out where.
     */
    void printTable(final PrintStream out)
    {
        out.printf(Locale.ROOT, "empty network poll (%s NIC%s): %.1f ns (blocks %.1f - %.1f); calibrated " +
            "scheduler's ratio r = %s, its empty poll %.1f ns: %s%n", PingPongOptions.nicKind(nicsPerNode),
            nicsPerNode > 0 ? ", " + nicsPerNode + " per node" : "", networkPollNs(),
            network.getDouble("poll_empty_min_ns"), network.getDouble("poll_empty_max_ns"),
            Double.isNaN(calibratedRatio()) ? "not measured" : String.format(Locale.ROOT, "%.1f", calibratedRatio()),
            calibrated.getDouble("poll_empty_ns"), calibrated.getString("poll_scheduler"));
    }

    /**
     * Write the JSON object {@code poll_cost}.
     *
     * @param json where.
     */
    void writeJson(final JsonWriter json)
    {
        json.name("poll_cost").beginObject();
        json.name("nic_kind").value(PingPongOptions.nicKind(nicsPerNode));
        json.name("nics_per_node").value(nicsPerNode);
        json.name("network_poll_empty_ns").value(MachineReport.round(networkPollNs(), 10));
        json.name("network_poll_empty_min_ns").value(MachineReport.round(network.getDouble("poll_empty_min_ns"), 10));
        json.name("network_poll_empty_max_ns").value(MachineReport.round(network.getDouble("poll_empty_max_ns"), 10));
        json.name("calibrated_ratio");
        if (Double.isNaN(calibratedRatio()))
        {
            json.nullValue();
        }
        else
        {
            json.value(calibratedRatio());
        }
        json.name("calibrated_poll_empty_ns").value(MachineReport.round(calibrated.getDouble("poll_empty_ns"), 10));
        json.name("calibrated_scheduler").value(calibrated.getString("poll_scheduler"));
        json.name("block_polls").value(network.getLong("poll_block_polls"));
        json.name("blocks").value(network.getLong("poll_blocks"));
        json.endObject();
    }
}
