package org.am2j.perf.apps;

import java.util.Arrays;
import java.util.List;

/**
 * The configurations of the model paper's Tables 5 and 6 that one machine of emulated nodes can host: which
 * transports the rank JVMs open ({@code -Dam2j.transports}) and over how many emulated nodes the ranks are spread (in
 * blocks, by the launcher).
 */
enum MatrixConfig
{
    /** One node, shared memory only (the paper's 8-way SMP, "Shared Memory"). */
    SHM_ONLY("shm-only", "one node, shared memory only", "inproc,shm")
    {
        @Override
        int nodes(final int ranks)
        {
            return 1;
        }
    },
    /** One node with both protocols open: every poll also polls the network (the SMP's "Multi-Protocol"). */
    MULTI("multi", "one node, multi-protocol", "inproc,shm,net")
    {
        @Override
        int nodes(final int ranks)
        {
            return 1;
        }
    },
    /** One rank per emulated node, the network only (the NOW). */
    NET("net", "all network, one rank per node", "inproc,net")
    {
        @Override
        int nodes(final int ranks)
        {
            return ranks;
        }
    },
    /** Two emulated nodes, both protocols: shared memory inside a node, the network between (the Clump). */
    CLUMP("clump", "clump of 2 nodes, multi-protocol", "inproc,shm,net")
    {
        @Override
        int nodes(final int ranks)
        {
            return Math.min(2, ranks);
        }
    };

    private final String cliName;
    private final String description;
    private final String transports;

    MatrixConfig(final String cliName, final String description, final String transports)
    {
        this.cliName = cliName;
        this.description = description;
        this.transports = transports;
    }

    /**
     * @param ranks of the job.
     * @return the emulated nodes the ranks are spread over.
     */
    abstract int nodes(int ranks);

    /**
     * @return the short name (in tables and file names).
     */
    String cliName()
    {
        return cliName;
    }

    /**
     * @return what it is, in words.
     */
    String description()
    {
        return description;
    }

    /**
     * @return the transports the rank JVMs open, comma separated ({@code -Dam2j.transports}).
     */
    String transports()
    {
        return transports;
    }

    /**
     * @return the transports as a list, in order.
     */
    List<String> transportList()
    {
        return Arrays.asList(transports.split(","));
    }

    /**
     * @param name a short name.
     * @return the configuration of that name.
     * @throws IllegalArgumentException naming the choices.
     */
    static MatrixConfig byName(final String name)
    {
        for (final MatrixConfig config : values())
        {
            if (config.cliName.equals(name))
            {
                return config;
            }
        }
        final StringBuilder names = new StringBuilder();
        for (final MatrixConfig config : values())
        {
            names.append(names.length() == 0 ? "" : ", ").append(config.cliName);
        }
        throw new IllegalArgumentException("unknown configuration '" + name + "'; known: " + names);
    }
}
