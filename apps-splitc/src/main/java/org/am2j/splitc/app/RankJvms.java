package org.am2j.splitc.app;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.am2j.spmd.Job;

/**
 * The rank JVMs of a job, as its JSON report records them: the pids of the JVMs, and how many ranks each holds
 * ({@code --ranks-per-jvm K}; 1 when every rank has a JVM of its own). Learned by a collective in which every rank
 * gives the pid of its JVM and its node, so it holds however the ranks were placed.
 *
 * @param ranksPerJvm the most ranks any one JVM of the job holds.
 * @param pids        the distinct pids of the job's rank JVMs, ascending.
 */
record RankJvms(int ranksPerJvm, List<Long> pids)
{
    /**
     * Collective: every rank of the job must call it.
     *
     * @param job this rank's job.
     * @return the job's rank JVMs.
     */
    static RankJvms gather(final Job job)
    {
        final byte[] node = job.nodeId().getBytes(StandardCharsets.UTF_8);
        final byte[] mine = ByteBuffer.allocate(Long.BYTES + node.length)
            .putLong(ProcessHandle.current().pid()).put(node).array();
        return of(job.allGather(mine));
    }

    /**
     * @param contributions every rank's: the pid of its JVM (8 bytes, big-endian), then its node's id (UTF-8).
     * @return the JVMs they name: a JVM is a pid on a node (two machines may each have a process of one pid).
     */
    static RankJvms of(final byte[][] contributions)
    {
        final TreeSet<Long> pids = new TreeSet<>();
        final Map<String, Integer> ranksOfJvm = new HashMap<>();
        int most = 0;
        for (final byte[] contribution : contributions)
        {
            final ByteBuffer buffer = ByteBuffer.wrap(contribution);
            final long pid = buffer.getLong();
            final String node = StandardCharsets.UTF_8.decode(buffer).toString();
            pids.add(pid);
            most = Math.max(most, ranksOfJvm.merge(pid + "@" + node, 1, Integer::sum));
        }
        return new RankJvms(most, List.copyOf(pids));
    }
}
