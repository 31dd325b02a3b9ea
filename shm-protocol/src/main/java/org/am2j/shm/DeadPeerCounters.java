package org.am2j.shm;

import org.agrona.concurrent.status.AtomicCounter;
import org.am2j.spi.TransportContext;

/**
 * What the transport counts about dead peer processes, process-wide, in the counters file {@code bin/am2j stat}
 * reads ({@code shm peers_died} and so on). Bumped only on the dead-peer paths, never per message to a live peer.
 */
final class DeadPeerCounters
{
    /** Peer processes found dead (their pid gone, or given to a process with another start time). */
    final AtomicCounter peersDied;
    /** Sends refused at once because their destination's process was known dead (each comes back EUNREACHABLE). */
    final AtomicCounter refused;
    /** Messages taken back from a dead process's queue block that it never took: returned EUNREACHABLE. */
    final AtomicCounter unreachable;
    /** Messages taken back from a dead process's queue block that it may have run: returned EOUTCOMEUNKNOWN. */
    final AtomicCounter outcomeUnknown;
    /** Returned messages found in a dead process's queue block: nobody to return them to, dropped. */
    final AtomicCounter dropped;

    DeadPeerCounters(final TransportContext context)
    {
        peersDied = context.counter(ShmTransport.NAME, "peers_died");
        refused = context.counter(ShmTransport.NAME, "dead_peer_refused");
        unreachable = context.counter(ShmTransport.NAME, "dead_peer_unreachable");
        outcomeUnknown = context.counter(ShmTransport.NAME, "dead_peer_outcome_unknown");
        dropped = context.counter(ShmTransport.NAME, "dead_peer_dropped");
    }
}
