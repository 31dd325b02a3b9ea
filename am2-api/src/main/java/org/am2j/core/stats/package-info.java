/**
 * Statistics of am2j endpoints in a per-process memory-mapped counters file, read live from outside by
 * {@code bin/am2j stat}.
 * <p>
 * {@link org.am2j.core.stats.CountersFile} creates {@code <dir>/<pid>.counters} (layout:
 * {@link org.am2j.core.stats.CountersFileDescriptor}) holding an Agrona
 * {@link org.agrona.concurrent.status.CountersManager}; {@link org.am2j.core.stats.EndpointCounters} allocates an
 * endpoint's counters in it, with a {@link org.am2j.core.stats.ProtocolCounters} per transport whose counting methods
 * allocate nothing; {@link org.am2j.core.stats.CountersFileReader} maps a file from another process and checks it;
 * {@code bin/am2j stat} (in the am2j-tools module) prints it. Counter types and keys are drawn in
 * {@link org.am2j.core.stats.EndpointCounterDescriptor}.
 */
package org.am2j.core.stats;
