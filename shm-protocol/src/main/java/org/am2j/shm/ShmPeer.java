package org.am2j.shm;

import org.am2j.api.EndpointName;
import org.am2j.spi.Route;

/**
 * An inverse mapping: what the owner of a queue block learned about the sender in one connection slot the first time
 * it heard from it: the sender's name and the route back into the sender's queue block. Valid while the slot keeps
 * its generation. A route that could not be made (the sender's queue block unreadable: gone, or its header
 * overwritten until its owner repairs it) is a dead route that is tried again after {@link #retryAtNanos}.
 */
final class ShmPeer
{
    final int generation;
    final EndpointName name;
    final Route route;
    /** The low 32 bits of the pid of the sender's process (as READY states carry it), or {@link #UNKNOWN_PID}. */
    final long pid;
    /** {@code System.nanoTime()} after which a dead route is resolved again; 0 for a route that works. */
    final long retryAtNanos;

    /** The pid of a sender whose queue block could not be read. */
    static final long UNKNOWN_PID = -1;

    ShmPeer(final int generation, final EndpointName name, final Route route, final long pid, final long retryAtNanos)
    {
        this.generation = generation;
        this.name = name;
        this.route = route;
        this.pid = pid;
        this.retryAtNanos = retryAtNanos;
    }
}
