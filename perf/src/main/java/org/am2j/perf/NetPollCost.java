package org.am2j.perf;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

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
 *
 * @param nicsPerNode shared NIC processes per emulated node of both pairs, 0 for in-process NICs.
 * @param network     results of the {@link #NETWORK} pair.
 * @param calibrated  results of the {@link #CALIBRATED} pair.
 */
record NetPollCost(int nicsPerNode, Results network, Results calibrated)
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
     * Put the JSON object {@code poll_cost}.
     *
     * @param json the run's object.
     */
    void putInto(final ObjectNode json)
    {
        json.putObject("poll_cost")
            .put("nic_kind", PingPongOptions.nicKind(nicsPerNode))
            .put("nics_per_node", nicsPerNode)
            .put("network_poll_empty_ns", MachineReport.round(networkPollNs(), 10))
            .put("network_poll_empty_min_ns", MachineReport.round(network.getDouble("poll_empty_min_ns"), 10))
            .put("network_poll_empty_max_ns", MachineReport.round(network.getDouble("poll_empty_max_ns"), 10))
            .put("calibrated_ratio", calibratedRatio())
            .put("calibrated_poll_empty_ns", MachineReport.round(calibrated.getDouble("poll_empty_ns"), 10))
            .put("calibrated_scheduler", calibrated.getString("poll_scheduler"))
            .put("block_polls", network.getLong("poll_block_polls"))
            .put("blocks", network.getLong("poll_blocks"));
    }
}
