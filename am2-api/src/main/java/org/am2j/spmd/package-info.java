/**
 * SPMD jobs as a rank sees them: the API of rank programs ({@link org.am2j.spmd.Spmd}, {@link org.am2j.spmd.Job}),
 * the rank's place in its job read from the environment ({@link org.am2j.spmd.SpmdEnvironment}) and the bootstrap
 * rendezvous a rank joins or, as rank 0 under an external launcher, hosts ({@link org.am2j.spmd.RendezvousServer},
 * {@link org.am2j.spmd.RendezvousClient}, frames in {@link org.am2j.spmd.RendezvousDescriptor}). The launcher that
 * starts ranks ({@code bin/am2j run}) is a tool, in the am2j-tools module (package {@code org.am2j.launch}).
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
