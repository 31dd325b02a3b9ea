package org.am2j.net;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.am2j.api.EndpointName;
import org.am2j.spi.ProcessIdentity;

/**
 * Evidence that a peer's process is gone, the only thing that makes a NIC give up on a silent peer (silence alone
 * may be a stall: a collection pause, SIGSTOP, a VM migration). Two kinds:
 * <ul>
 *   <li>the process was on this machine (same node, or its NIC address is a loopback one) and its pid no longer
 *       runs, or runs another process (pids are reused: the start time read when the name was learnt tells them
 *       apart), or a zombie;</li>
 *   <li>someone who knows declared it dead ({@link #declareDead(long)}: the job's launcher or rendezvous lost it).</li>
 * </ul>
 * Thread-safe: declarations come from any thread, checks from the NIC agent.
 */
final class ProcessLiveness
{
    private final String localNode;
    private final Set<Long> declaredDead = ConcurrentHashMap.newKeySet();
    /** Declarations so far: the agent looks through its peers when it moved. */
    private volatile int declarations;

    /**
     * @param localNode this process's node identity, or null when unknown (then only loopback peers are checked).
     */
    ProcessLiveness(final String localNode)
    {
        this.localNode = localNode;
    }

    /**
     * @param processId a process the caller knows to be gone ({@link EndpointName#processId()}).
     */
    void declareDead(final long processId)
    {
        if (declaredDead.add(processId))
        {
            // Volatile store after the set's update: an agent that sees the new count finds the id in the set.
            declarations++;
        }
    }

    /**
     * @return how many processes were declared dead so far (it moves when one more is).
     */
    int declarations()
    {
        return declarations;
    }

    /**
     * @param processId a process id.
     * @return true when it was declared dead.
     */
    boolean isGone(final long processId)
    {
        // Boxes the id: called only after a declaration, not on the agent's every turn.
        return declaredDead.contains(processId);
    }

    /**
     * @param name        a name of one of the peer's endpoints, or null when none is known.
     * @param startTimeMs the start time of the process that held the name's pid when the name was learnt, or
     *                    {@link ProcessIdentity#UNKNOWN_START_TIME}.
     * @return true only on evidence that the process that owns it is gone.
     */
    boolean isGone(final EndpointName name, final long startTimeMs)
    {
        if (null == name)
        {
            return false;
        }
        if (declaredDead.contains(name.processId()))
        {
            return true;
        }
        if (!onThisMachine(name))
        {
            return false;
        }
        return !ProcessIdentity.isAlive(name.pid(), startTimeMs);
    }

    private boolean onThisMachine(final EndpointName name)
    {
        if (null != localNode && localNode.equals(name.node()))
        {
            return true;
        }
        final String address = name.address(NetTransport.NAME);
        if (null == address)
        {
            return false;
        }
        final int key = address.indexOf(PeerTable.KEY_SEPARATOR);
        final String hostPort = key < 0 ? address : address.substring(0, key);
        final int colon = hostPort.lastIndexOf(':');
        final String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        // Only a literal loopback address proves the peer shares this machine (and its pid numbers); no lookups.
        return host.startsWith("127.") || "[::1]".equals(host) || "localhost".equals(host);
    }
}
