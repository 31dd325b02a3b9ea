package org.am2j.splitc;

import java.util.List;

/**
 * The shared-memory module's launcher test support ({@link org.am2j.shm.LauncherTestSupport}: jobs of rank programs
 * from the test class path under a hard time limit, everything killed afterwards, nothing left in shared memory)
 * with what the Split-C tests add: the node counts they run on and a stall limit in every rank.
 */
public abstract class LauncherTestSupport extends org.am2j.shm.LauncherTestSupport
{
    /**
     * The emulated node counts the multi-JVM tests run with: one node (shared memory between the ranks) and two
     * (shared memory within a node, the network protocol between them).
     */
    protected static final int[] NODE_COUNTS = { 1, 2 };

    /** The rank JVMs fail a wait that handles nothing for this long, so that a hang fails with a diagnosis. */
    protected static final String STALL_OPTION = "-Dam2j.splitc.stallSeconds=30";

    @Override
    protected List<String> extraJvmOptions()
    {
        return List.of(STALL_OPTION);
    }
}
