package org.am2j.shm;

import org.am2j.api.EndpointName;
import org.am2j.spi.Route;

/**
 * An inverse mapping: what the owner of a queue block learned about the sender in one connection slot the first time
 * it heard from it: the sender's name and the route back into the sender's queue block. Valid while the slot keeps
 * its generation.
 */
final class ShmPeer
{
    final int generation;
    final EndpointName name;
    final Route route;

    ShmPeer(final int generation, final EndpointName name, final Route route)
    {
        this.generation = generation;
        this.name = name;
        this.route = route;
    }
}
