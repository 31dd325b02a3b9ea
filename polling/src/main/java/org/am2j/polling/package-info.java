/**
 * Poll schedulers that join the protocols: they decide, poll by poll, whether a bundle polls the network as well as
 * shared memory, and how many network messages it then accepts. Selected with {@code am2j.poll} /
 * {@code AM2J_POLL}:
 * <ul>
 * <li>{@code fractional:K} ({@link org.am2j.polling.FractionalPollScheduler}): every K-th poll, K times the
 * budget;</li>
 * <li>{@code adaptive:MIN-MAX} ({@link org.am2j.polling.AdaptivePollScheduler}): the paper's, between 1-in-MAX and
 * 1-in-MIN from the messages found by the last 32 network polls;</li>
 * <li>{@code calibrated} or {@code calibrated:R} ({@link org.am2j.polling.CalibratedPollScheduler}): adaptive, with
 * bounds scaled by the network-to-local poll cost ratio measured on the running machine (or given as R).</li>
 * </ul>
 * The built-in {@code every} is in {@code am2-api}. See {@code docs/polling.md}.
 */
package org.am2j.polling;
