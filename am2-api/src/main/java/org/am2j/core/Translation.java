package org.am2j.core;

import org.am2j.api.EndpointName;
import org.am2j.core.stats.ProtocolCounters;
import org.am2j.spi.Route;

/**
 * One mapped translation table entry: the destination's name, the tag to send with, and the transport's route to it.
 * Immutable; replaced as a whole on map and unmap.
 */
final class Translation
{
    final EndpointName name;
    final long tag;
    final Route route;
    final ProtocolCounters counters;

    Translation(final EndpointName name, final long tag, final Route route, final ProtocolCounters counters)
    {
        this.name = name;
        this.tag = tag;
        this.route = route;
        this.counters = counters;
    }
}
