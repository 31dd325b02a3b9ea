/**
 * A Split-C style global address space on the AM-II interface, and the model paper's applications on it.
 * <p>
 * {@link org.am2j.splitc.SplitC} is the runtime of one rank: MYPROC/PROCS, a global segment per rank, global pointers
 * ({@link org.am2j.splitc.GlobalPtr}) ({@link org.am2j.splitc.GlobalAddressSpace}), split-phase gets and puts completed
 * by {@code sync()} ({@link org.am2j.splitc.SplitPhaseAccess}), signalling stores completed by {@code storeSync(bytes)}
 * and {@code allStoreSync()} ({@link org.am2j.splitc.SignallingStores}), bulk variants for primitive arrays, a barrier,
 * reductions and broadcast ({@link org.am2j.splitc.CollectiveOperations}), and per-rank message counts
 * ({@link org.am2j.splitc.CommCounts}) by kind and by destination node. Behind it, one package-private class per
 * concern does the work, each with its AM-II handlers. The applications live in the subpackages {@code fft},
 * {@code con} and {@code em3d}; the program that runs them under the launcher and its front end ({@code bin/am2j app})
 * in {@code app}.
 * <p>
 * Decisions are recorded in {@code docs/splitc.md}.
 */
package org.am2j.splitc;
