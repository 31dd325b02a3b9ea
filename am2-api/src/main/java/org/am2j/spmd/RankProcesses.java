package org.am2j.spmd;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The rank processes of one launch, and their termination: first politely ({@link Process#destroy()}, SIGTERM, so
 * shutdown hooks run), then, after a grace period, forcibly ({@link Process#destroyForcibly()}, SIGKILL); the
 * processes a rank started itself are terminated with it.
 * <p>
 * Thread-safe: the launcher's main thread adds processes while a shutdown hook may terminate them. Once termination
 * has begun, a process added later is destroyed forcibly at once.
 */
final class RankProcesses
{
    private final Process[] processes;
    private boolean terminating;

    /**
     * @param ranks number of ranks.
     */
    RankProcesses(final int ranks)
    {
        processes = new Process[ranks];
    }

    /**
     * @param rank    of the process.
     * @param process just started.
     * @return true when kept, false when termination has begun (the process was then destroyed).
     */
    synchronized boolean add(final int rank, final Process process)
    {
        if (terminating)
        {
            destroy(process, true);
            return false;
        }
        processes[rank] = process;
        return true;
    }

    /**
     * @param rank of a process.
     * @return the process, or {@code null} when not started.
     */
    synchronized Process get(final int rank)
    {
        return processes[rank];
    }

    /**
     * @return number of rank processes still alive.
     */
    synchronized int alive()
    {
        int alive = 0;
        for (final Process p : processes)
        {
            if (null != p && p.isAlive())
            {
                alive++;
            }
        }
        return alive;
    }

    /**
     * Terminate every rank still alive: destroy, wait at most {@code graceMs}, then destroy forcibly.
     *
     * @param graceMs how long the ranks get to exit after the polite request.
     */
    void terminate(final long graceMs)
    {
        final List<Process> alive = new ArrayList<>();
        synchronized (this)
        {
            terminating = true;
            for (final Process p : processes)
            {
                if (null != p && p.isAlive())
                {
                    alive.add(p);
                }
            }
        }
        if (alive.isEmpty())
        {
            return;
        }
        final List<ProcessHandle> children = alive.stream()
            .flatMap(Process::descendants)
            .collect(Collectors.toList());
        for (final Process p : alive)
        {
            destroy(p, false);
        }
        children.forEach(ProcessHandle::destroy);

        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
        for (final Process p : alive)
        {
            try
            {
                p.waitFor(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (final Process p : alive)
        {
            if (p.isAlive())
            {
                destroy(p, true);
            }
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void destroy(final Process process, final boolean forcibly)
    {
        if (forcibly)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        else
        {
            process.destroy();
        }
    }
}
