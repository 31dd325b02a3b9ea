/**
 * Benchmarks of am2j. {@link org.am2j.perf.PingPong} ({@code bin/am2j pingpong}) measures round trips, send overhead
 * and bandwidth between two pinned rank JVMs over a chosen protocol, next to the machine's limit measured in the
 * same run, with a probe for the slow epochs of shared machines before each measurement
 * ({@link org.am2j.perf.EpochGuard}).
 */
package org.am2j.perf;
