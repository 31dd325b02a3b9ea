/**
 * Benchmarks of am2j. {@link org.am2j.perf.PingPong} ({@code bin/am2j pingpong}) measures round trips, send overhead
 * and bandwidth between two pinned rank JVMs over a chosen protocol, next to the limit measured in the same run
 * (a cache-line ping-pong between two JVMs; for the net protocols also plain UDP between two JVMs), with a probe
 * for the slow epochs of shared machines before each measurement ({@link org.am2j.perf.EpochGuard}).
 */
package org.am2j.perf;
