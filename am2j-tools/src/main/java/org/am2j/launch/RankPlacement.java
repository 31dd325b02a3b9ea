package org.am2j.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.ShmDirectories;

/**
 * Block placement of ranks over emulated nodes: ranks 0 .. P/N - 1 on node 0, the next P/N on node 1, and so on.
 * When N does not divide P, the first P mod N nodes get one rank more: P = 5, N = 2 puts ranks 0-2 on node 0 and
 * ranks 3-4 on node 1.
 */
final class RankPlacement
{
    /** Start of the name of a job's emulated nodes' directory in the shared-memory root. */
    static final String EMULATED_PREFIX = "emulated+";

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
        return blockOf(rank, ranks, nodes);
    }

    /**
     * @return the block of {@code item} when {@code items} are cut into {@code parts} contiguous blocks, the first
     * {@code items mod parts} of them one item larger.
     */
    private static int blockOf(final int item, final int items, final int parts)
    {
        final int small = items / parts;
        final int larger = items % parts;
        final int onLarger = larger * (small + 1);
        return item < onLarger ? item / (small + 1) : larger + (item - onLarger) / small;
    }

    /**
     * @param root  the launcher's shared-memory root, e.g. {@code /dev/shm/am2j-<user>}.
     * @param jobId of the job.
     * @return the directory that holds the shared-memory roots of the job's emulated nodes:
     * {@code <root>/emulated+<jobId>} ('+' is not a character of job ids, so no job directory has this name).
     */
    static Path emulatedNodesRoot(final Path root, final String jobId)
    {
        return root.resolve(EMULATED_PREFIX + jobId);
    }

    /**
     * Remove the emulated nodes' roots that a launcher killed without cleaning up left behind: those of jobs
     * {@code j<pid>-...} whose launcher pid no longer runs. Their ranks are gone too (each rank's watchdog halts it
     * when its launcher dies).
     *
     * @param root the shared-memory root.
     * @return how many were removed.
     */
    static int sweepEmulatedNodesRoots(final Path root)
    {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, EMULATED_PREFIX + "j*"))
        {
            for (final Path entry : entries)
            {
                final String name = entry.getFileName().toString();
                final int dash = name.indexOf('-', EMULATED_PREFIX.length());
                if (dash < 0)
                {
                    continue;
                }
                final long pid;
                try
                {
                    pid = Long.parseLong(name.substring(EMULATED_PREFIX.length() + 1, dash));
                }
                catch (final NumberFormatException ex)
                {
                    continue;
                }
                if (!ProcessIdentity.isAlive(pid, ProcessIdentity.UNKNOWN_START_TIME))
                {
                    ShmDirectories.deleteTree(entry);
                    removed++;
                }
            }
        }
        catch (final IOException ignore)
        {
            // no root yet, or another launcher sweeping: what is left waits for the next launch
        }
        return removed;
    }

    /**
     * @param root  the launcher's shared-memory root.
     * @param jobId of the job.
     * @param node  index of an emulated node.
     * @return the shared-memory root of that emulated node, {@code <root>/emulated+<jobId>/node<node>}: its own node
     * identity file and job directory, so it is a shared-memory domain, and therefore a node, of its own.
     */
    static Path nodeRoot(final Path root, final String jobId, final int node)
    {
        return emulatedNodesRoot(root, jobId).resolve("node" + node);
    }

    /**
     * @param node  0 to nodes - 1.
     * @param ranks number of ranks P.
     * @param nodes number of nodes N.
     * @return the lowest rank placed on the node.
     */
    static int firstRankOf(final int node, final int ranks, final int nodes)
    {
        return node * (ranks / nodes) + Math.min(node, ranks % nodes);
    }

    /**
     * @param node  0 to nodes - 1.
     * @param ranks number of ranks P.
     * @param nodes number of nodes N.
     * @return how many ranks are placed on the node.
     */
    static int ranksOn(final int node, final int ranks, final int nodes)
    {
        return ranks / nodes + (node < ranks % nodes ? 1 : 0);
    }

    /**
     * The paper's assignment of a node's ranks to its NICs: contiguous groups, the first ones one larger when the
     * count does not divide (8 ranks on 3 NICs: 3, 3, 2). A node with fewer ranks than NICs uses one NIC per rank.
     *
     * @param localRank   the rank's place among those of its node, 0 to {@code ranksOnNode - 1}.
     * @param ranksOnNode ranks on the node.
     * @param nics        NICs of the node.
     * @return the NIC that serves it, 0 to {@code min(nics, ranksOnNode) - 1}.
     */
    static int nicOf(final int localRank, final int ranksOnNode, final int nics)
    {
        if (localRank < 0 || localRank >= ranksOnNode || nics <= 0)
        {
            throw new IllegalArgumentException("rank " + localRank + " of " + ranksOnNode + " on " + nics + " NICs");
        }
        return blockOf(localRank, ranksOnNode, Math.min(nics, ranksOnNode));
    }
}
