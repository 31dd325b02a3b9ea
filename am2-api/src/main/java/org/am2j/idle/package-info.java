/**
 * How a waiting thread idles when the CPUs may be shared: {@link org.am2j.idle.CpuShare} says whether more threads
 * are runnable than there are CPUs (from a {@link org.am2j.idle.RunnableProbe}, on Linux
 * {@link org.am2j.idle.LoadavgProbe}), and {@link org.am2j.idle.IdleSteps} turns that into spin, yield or sleep for
 * each step of a wait. Used by the senders' back-off, the Split-C layer's waits and the NIC thread; see
 * {@code docs/idle.md}.
 */
package org.am2j.idle;
