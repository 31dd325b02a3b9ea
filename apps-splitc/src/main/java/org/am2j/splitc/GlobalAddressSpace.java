package org.am2j.splitc;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The global address space of a Split-C program as one rank sees it: its rank among the ranks (MYPROC, PROCS), which
 * ranks share its node, and the global segments.
 * <p>
 * <b>Memory.</b> Every rank has a <em>global segment</em>: the AM-II segment of its endpoint, allocated by
 * {@link org.am2j.api.Endpoint#allocateSegment(int)} ({@link #segment()}). A global pointer ({@link GlobalPtr}, a
 * packed {@code long}) names a rank and a byte offset in that rank's segment. A rank reads and writes its own segment
 * directly; other ranks' segments only through the operations of {@link SplitPhaseAccess} and {@link SignallingStores},
 * which are AM-II requests and replies to the owner and nothing else (no shared memory is assumed: the same code runs
 * over the network protocol).
 */
public interface GlobalAddressSpace
{
    /**
     * @return this rank (Split-C's MYPROC).
     */
    int myProc();

    /**
     * @return number of ranks (Split-C's PROCS).
     */
    int procs();

    /**
     * @param otherRank a rank.
     * @return true when that rank runs on this rank's node (messages to it are local), also for this rank itself.
     */
    boolean isLocal(int otherRank);

    /**
     * @param otherRank a rank.
     * @return the index of the node it runs on: nodes are numbered in order of their lowest rank, from 0.
     */
    int nodeOf(int otherRank);

    /**
     * @return number of nodes the ranks run on.
     */
    int nodes();

    /**
     * @return this rank's global segment: read and write it directly; other ranks reach it through this layer.
     */
    AtomicBuffer segment();

    /**
     * @param otherRank a rank.
     * @return the length in bytes of that rank's segment.
     */
    int segmentLength(int otherRank);

    /**
     * @param offset byte offset in this rank's segment.
     * @return a global pointer to it.
     */
    default long toGlobal(int offset)
    {
        return GlobalPtr.of(myProc(), offset);
    }
}
