package org.am2j.spmd;

/**
 * Block placement of ranks over emulated nodes: ranks 0 .. P/N - 1 on node 0, the next P/N on node 1, and so on.
 * When N does not divide P, the first P mod N nodes get one rank more: P = 5, N = 2 puts ranks 0-2 on node 0 and
 * ranks 3-4 on node 1.
 */
final class RankPlacement
{
    private RankPlacement()
    {
    }

    /**
     * @param rank  0 to ranks - 1.
     * @param ranks number of ranks P, 1 or more.
     * @param nodes number of nodes N, 1 to P.
     * @return the node of the rank, 0 to N - 1.
     */
    static int nodeOf(final int rank, final int ranks, final int nodes)
    {
        if (ranks < 1 || nodes < 1 || nodes > ranks || rank < 0 || rank >= ranks)
        {
            throw new IllegalArgumentException("rank " + rank + " of " + ranks + " over " + nodes + " nodes");
        }
        final int perNode = ranks / nodes;
        final int bigNodes = ranks % nodes;
        final int ranksOnBigNodes = bigNodes * (perNode + 1);
        return rank < ranksOnBigNodes ? rank / (perNode + 1) : bigNodes + (rank - ranksOnBigNodes) / perNode;
    }

    /**
     * @param hostName of this machine.
     * @param node     index of an emulated node.
     * @return the node identity of that emulated node: {@code <hostName>/node<node>}.
     */
    static String nodeId(final String hostName, final int node)
    {
        return hostName + "/node" + node;
    }
}
