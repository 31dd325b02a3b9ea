/**
 * JMH benchmarks of the message hot path in one JVM ({@code bin/am2j jmh}; see {@code perf/README.md}):
 * {@link org.am2j.perf.jmh.MessagingBenchmark} sends and receives between two endpoints of one SEQ bundle over each
 * protocol (in-process, shared memory, network over loopback), {@link org.am2j.perf.jmh.EmptyPollBenchmark} polls a
 * bundle with nothing to receive under each set of transports. Each benchmark opens the transports it needs with
 * system properties set before am2j starts in its forked JVM ({@link org.am2j.perf.jmh.JmhRuntime}), so it must run
 * forked ({@code -f 0} is refused).
 */
package org.am2j.perf.jmh;
