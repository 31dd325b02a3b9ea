package org.am2j.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.BlockingQueue;

/**
 * The NIC processes of a job launched with {@code --nics-per-node K}: K per emulated node, each serving the endpoints
 * of a contiguous group of the node's ranks ({@link RankPlacement#nicOf}). Started before the ranks (which wait for
 * their NIC to serve), stopped after them, killed with them when the job fails; their output is prefixed
 * {@code [nic N.K]}. A NIC process that exits while the ranks run fails the job: its exit is queued for the launcher
 * as {@code -1 - index}.
 */
final class NicProcesses
{
    private final int perNode;
    private final RankProcesses processes;
    private final Thread[] pumps;

    /**
     * @param nodes   emulated nodes.
     * @param perNode NIC processes per node.
     */
    NicProcesses(final int nodes, final int perNode)
    {
        this.perNode = perNode;
        this.processes = new RankProcesses(nodes * perNode);
        this.pumps = new Thread[2 * nodes * perNode];
    }

    /**
     * Start them all.
     *
     * @param command builds their command lines.
     * @param out     where their standard output goes.
     * @param err     where their standard error goes.
     * @param exits   gets {@code -1 - index} when NIC process {@code index} exits.
     * @throws IOException when one cannot be started (those started are stopped).
     */
    void start(final RankCommand command, final PrintStream out, final PrintStream err,
        final BlockingQueue<Integer> exits) throws IOException
    {
        for (int i = 0; i < pumps.length / 2; i++)
        {
            final Process process;
            try
            {
                process = command.buildNic(i / perNode, i % perNode).start();
            }
            catch (final IOException ex)
            {
                stop(Am2Run.GRACE_MS);
                throw new IOException("cannot start " + label(i) + ": " + ex.getMessage(), ex);
            }
            processes.add(i, process);
            process.getOutputStream().close();
            System.arraycopy(LinePump.start(process, out, err, label(i)), 0, pumps, 2 * i, 2);
            final int index = i;
            process.onExit().thenRun(() -> exits.add(-1 - index));
        }
    }

    /**
     * @param index a NIC process.
     * @return how the launcher names it.
     */
    String label(final int index)
    {
        return "nic " + index / perNode + "." + index % perNode;
    }

    /**
     * @param index a NIC process that exited.
     * @return a sentence for the user: which NIC process, its pid, how it ended, what it means.
     */
    String describeExit(final int index)
    {
        final Process process = processes.get(index);
        final int exitValue = process.exitValue();
        return "NIC process " + index % perNode + " of node " + index / perNode + " (pid " + process.pid() + ") " +
            (exitValue > 128 ? "was killed by signal " + (exitValue - 128) : "exited with status " + exitValue) +
            " while its ranks ran: what it had not sent came back EUNREACHABLE, what it may have sent has an " +
            "unknown outcome; stopping the job";
    }

    /**
     * Stop every NIC process still running (SIGTERM, then SIGKILL after the grace period), and let their output
     * drain.
     *
     * @param graceMs how long they get to exit after the polite request.
     */
    void stop(final long graceMs)
    {
        processes.terminate(graceMs);
        for (final Thread pump : pumps)
        {
            if (null != pump)
            {
                try
                {
                    pump.join(graceMs);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
