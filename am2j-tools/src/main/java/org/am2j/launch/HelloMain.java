package org.am2j.launch;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.am2j.api.Am;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * The smallest SPMD program ({@code bin/am2j hello -n P --nodes N}): every rank allocates an endpoint, all-gathers the
 * endpoint names, checks that it got P distinct names and that ranks report the same endpoint node exactly when they
 * are on the same node, enters a barrier, and prints {@code rank R of P on node K}. A failed check prints what is wrong
 * and exits with status 1.
 */
public final class HelloMain
{
    private HelloMain()
    {
    }

    /**
     * @param args ignored.
     */
    public static void main(final String[] args)
    {
        final String problem;
        try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            final byte[] name = endpoint.name().toBytes();
            final byte[] mine = ByteBuffer.allocate(4 + name.length).putInt(job.node()).put(name).array();
            problem = check(job.size(), job.allGather(mine));
            if (null == problem)
            {
                job.barrier();
                System.out.println("rank " + job.rank() + " of " + job.size() + " on node " + job.node());
            }
        }
        if (null != problem)
        {
            System.err.println("hello: " + problem);
            System.exit(1);
        }
    }

    /**
     * @param size         number of ranks.
     * @param contributions of every rank: its node index (32 bits) and its encoded endpoint name.
     * @return what is wrong with them, or {@code null} when they are right.
     */
    static String check(final int size, final byte[][] contributions)
    {
        if (contributions.length != size)
        {
            return "got " + contributions.length + " names for " + size + " ranks";
        }
        final EndpointName[] names = new EndpointName[size];
        final int[] nodes = new int[size];
        for (int r = 0; r < size; r++)
        {
            if (contributions[r].length < 4)
            {
                return "rank " + r + " sent " + contributions[r].length + " bytes, not a node and a name";
            }
            final ByteBuffer buffer = ByteBuffer.wrap(contributions[r]);
            nodes[r] = buffer.getInt();
            try
            {
                names[r] = EndpointName.fromBytes(Arrays.copyOfRange(contributions[r], 4, contributions[r].length));
            }
            catch (final AmException ex)
            {
                return "rank " + r + " sent a bad endpoint name: " + ex.getMessage();
            }
        }
        final Set<EndpointName> distinct = new HashSet<>(Arrays.asList(names));
        if (distinct.size() != size)
        {
            return "got " + distinct.size() + " distinct endpoint names from " + size + " ranks: " +
                Arrays.toString(names);
        }
        final Map<Integer, Integer> firstRankOfNode = new HashMap<>();
        final Map<String, Integer> firstRankOfNodeId = new HashMap<>();
        for (int r = 0; r < size; r++)
        {
            final Integer other = firstRankOfNode.putIfAbsent(nodes[r], r);
            if (null != other && !names[other].node().equals(names[r].node()))
            {
                return "ranks " + other + " and " + r + " are both on node " + nodes[r] + " but their endpoints" +
                    " name nodes '" + names[other].node() + "' and '" + names[r].node() + "'";
            }
            final Integer sameId = firstRankOfNodeId.putIfAbsent(names[r].node(), r);
            if (null != sameId && nodes[sameId] != nodes[r])
            {
                return "ranks " + sameId + " and " + r + " are on nodes " + nodes[sameId] + " and " + nodes[r] +
                    " but their endpoints both name node '" + names[r].node() + "'";
            }
        }
        return null;
    }
}
