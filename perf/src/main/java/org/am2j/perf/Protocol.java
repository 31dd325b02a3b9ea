package org.am2j.perf;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.am2j.core.AmRuntime;

/**
 * The protocol configurations a benchmark can measure between two ranks, after the paper's Table 3: shared memory
 * alone, multi-protocol shared memory, the network alone and multi-protocol network. Each names the transports the
 * rank JVMs open ({@code -Dam2j.transports}), how many emulated nodes the two ranks are spread over (one node: the
 * ranks share memory; two nodes: only the network reaches across), and the transport the peer's translation must
 * then use. A rank checks that last point before it measures, so a run never reports the wrong protocol's numbers.
 */
public enum Protocol
{
    /** Shared memory alone: both ranks on one node, transports {@code inproc,shm}. */
    SHM("shm", "inproc,shm", 1, "shm"),
    /** Shared memory with the network protocol open too (every poll also polls the network): one node. */
    MULTI_SHM("multi-shm", "inproc,shm,net", 1, "shm"),
    /** The network alone: the two ranks on two emulated nodes, transports {@code inproc,net}. */
    NET("net", "inproc,net", 2, "net"),
    /** The network with shared memory open too: two emulated nodes. */
    MULTI_NET("multi-net", "inproc,shm,net", 2, "net");

    /** System property that narrows the transports a JVM opens (read by the endpoint core). */
    public static final String TRANSPORTS_PROPERTY = "am2j.transports";

    private final String cliName;
    private final String transports;
    private final int nodes;
    private final String route;

    Protocol(final String cliName, final String transports, final int nodes, final String route)
    {
        this.cliName = cliName;
        this.transports = transports;
        this.nodes = nodes;
        this.route = route;
    }

    /**
     * @param name as given to {@code --protocol}.
     * @return the protocol of that name.
     * @throws IllegalArgumentException naming the choices when there is none.
     */
    public static Protocol byName(final String name)
    {
        return Stream.of(values()).filter(protocol -> protocol.cliName.equals(name)).findFirst().orElseThrow(() ->
            new IllegalArgumentException("--protocol '" + name + "' is not one of " + choices()));
    }

    /**
     * @return the command-line names, {@code |} separated.
     */
    public static String choices()
    {
        return Stream.of(values()).map(Protocol::cliName).collect(Collectors.joining("|"));
    }

    /**
     * @return the single-protocol configuration a multi-protocol one is held against (shm for multi-shm, net for
     * multi-net), or {@code null} for a single-protocol configuration.
     */
    public Protocol single()
    {
        return MULTI_SHM == this ? SHM : MULTI_NET == this ? NET : null;
    }

    /**
     * @return the name on the command line and in results.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * @return the transports the ranks open, comma separated.
     */
    public String transports()
    {
        return transports;
    }

    /**
     * @return number of emulated nodes the two ranks are placed on (1: same node, 2: one rank each).
     */
    public int nodes()
    {
        return nodes;
    }

    /**
     * @return the transport the ranks' translations to each other must use.
     */
    public String route()
    {
        return route;
    }

    /**
     * @param ranksPerJvm ranks of a pair in one JVM asked for: 1, or 2 for the pair as threads of one JVM.
     * @return those of this configuration's pairs: as asked when its ranks are on one node, else 1 (a JVM holds ranks
     * of one node only).
     */
    public int ranksPerJvm(final int ranksPerJvm)
    {
        return 1 == nodes ? ranksPerJvm : 1;
    }

    /**
     * @param ranksPerJvm ranks of the pair in one JVM ({@link #ranksPerJvm(int)}).
     * @return the transport the pair's translations to each other must use: the in-process transport when the pair is
     * in one JVM, else {@link #route()}.
     */
    public String route(final int ranksPerJvm)
    {
        return ranksPerJvm > 1 ? AmRuntime.IN_PROCESS : route;
    }

    /**
     * @return true when the ranks talk over the network protocol (UDP), whose limit is then plain UDP between two
     * JVMs rather than a cache line.
     */
    public boolean overNetwork()
    {
        return "net".equals(route);
    }

    /**
     * @return the system properties every rank JVM gets for this protocol.
     */
    public Map<String, String> systemProperties()
    {
        return Map.of(TRANSPORTS_PROPERTY, transports);
    }
}
