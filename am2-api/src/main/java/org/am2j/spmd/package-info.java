/**
 * SPMD jobs: the launcher ({@link org.am2j.spmd.Am2Run}, {@code bin/am2j run}), the bootstrap rendezvous
 * ({@link org.am2j.spmd.RendezvousServer}, {@link org.am2j.spmd.RendezvousClient}, frames in
 * {@link org.am2j.spmd.RendezvousDescriptor}) and the API of rank programs ({@link org.am2j.spmd.Spmd},
 * {@link org.am2j.spmd.Job}).
 * <pre>{@code
 * public static void main(String[] args)
 * {
 *     try (Job job = Spmd.init())
 *     {
 *         byte[][] names = job.allGather(myEndpoint.name().toBytes());
 *         ...
 *         job.barrier();
 *     }
 * }
 * }</pre>
 * Run with {@code bin/am2j run -n 4 --nodes 2 -- my.Main}, or under {@code srun}/{@code mpirun} with
 * {@code AM2J_BOOTSTRAP=<rank 0 host>:<port>}.
 */
package org.am2j.spmd;
