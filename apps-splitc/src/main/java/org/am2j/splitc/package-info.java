/**
 * A Split-C style global address space on the AM-II interface, and the model paper's applications on it.
 * <p>
 * {@link org.am2j.splitc.SplitC} is the runtime of one rank: MYPROC/PROCS, a global segment per rank, global pointers
 * ({@link org.am2j.splitc.GlobalPtr}), split-phase gets and puts completed by {@code sync()}, signalling stores
 * completed by {@code storeSync(bytes)} and {@code allStoreSync()}, bulk variants for primitive arrays, a barrier,
 * reductions and broadcast, and per-rank message counts ({@link org.am2j.splitc.CommCounts}) by kind and by
 * destination node. The applications live in the subpackages {@code fft}, {@code con} and {@code em3d}; the program
 * that runs them under the launcher and its front end ({@code bin/am2j app}) in {@code app}.
 * <p>
 * Decisions are recorded in {@code docs/splitc.md}.
 */
package org.am2j.splitc;
