package org.am2j.shm;

import java.util.HashMap;
import java.util.Map;

/**
 * The {@link PeerProcess} records of a transport: one per process whose queue blocks its routes send into, found by
 * the process id a loss notice carries, and forgotten when the last route into that process's blocks closes.
 */
final class PeerProcesses
{
    private final Map<Long, PeerProcess> byProcessId = new HashMap<>();

    /**
     * @param processId the owner's process id, from a queue block's header.
     * @param pid       the owner's pid, from the same header.
     * @param startMs   the owner's start time, from the same header.
     * @return the record of that process, shared by every route into its blocks; release it when the route closes.
     */
    synchronized PeerProcess acquire(final long processId, final long pid, final long startMs)
    {
        PeerProcess peer = byProcessId.get(processId);
        if (null == peer)
        {
            peer = new PeerProcess(processId, pid, startMs);
            byProcessId.put(processId, peer);
        }
        else if (peer.pid != pid || peer.startMs != startMs)
        {
            // A header that claims another process's id with its own pid or start time (written over by a faulty
            // peer): a record of its own, which the loss notices of that id do not reach.
            peer = new PeerProcess(processId, pid, startMs);
        }
        peer.references++;
        return peer;
    }

    /**
     * @param peer a record from {@link #acquire}.
     */
    synchronized void release(final PeerProcess peer)
    {
        if (--peer.references == 0)
        {
            byProcessId.remove(peer.processId, peer);
        }
    }

    /**
     * @param processId a process id.
     * @return the record of the process with that id that routes send to, or null.
     */
    synchronized PeerProcess find(final long processId)
    {
        return byProcessId.get(processId);
    }
}
