package org.am2j.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The rank processes of one launch, and their termination: first politely ({@link Process#destroy()}, SIGTERM, so
 * shutdown hooks run), then, after a grace period, forcibly ({@link Process#destroyForcibly()}, SIGKILL); the
 * processes a rank started itself are terminated with it. When {@link #terminate(long)} returns, the rank processes
 * have exited (unless the kernel takes more than {@value #KILL_WAIT_MS} ms to reap a killed one).
 * <p>
 * Thread-safe: the launcher's main thread adds processes while a shutdown hook may terminate them. Once termination
 * has begun, a process added later is destroyed forcibly at once.
 */
final class RankProcesses
{
    /** How long {@link #terminate(long)} waits for ranks it destroyed forcibly to be gone. */
    static final long KILL_WAIT_MS = 5_000;

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
        return (int)Arrays.stream(processes).filter(p -> null != p && p.isAlive()).count();
    }

    /**
     * Terminate every rank still alive: destroy, wait at most {@code graceMs}, then destroy forcibly and wait for
     * those to be gone. An interrupt cuts the grace period short; it is kept for the caller.
     *
     * @param graceMs how long the ranks get to exit after the polite request.
     */
    void terminate(final long graceMs)
    {
        final List<Process> alive;
        synchronized (this)
        {
            terminating = true;
            alive = Arrays.stream(processes).filter(p -> null != p && p.isAlive()).toList();
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
        final List<Process> killed = new ArrayList<>();
        for (final Process p : alive)
        {
            if (p.isAlive())
            {
                destroy(p, true);
                killed.add(p);
            }
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        awaitGone(killed);
    }

    /**
     * Wait at most {@link #KILL_WAIT_MS} for processes killed with SIGKILL to exit, through interrupts (a killed
     * process is gone in a moment; the caller's interrupt status is kept).
     *
     * @param killed the processes.
     */
    private static void awaitGone(final List<Process> killed)
    {
        boolean interrupted = false;
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
        for (final Process p : killed)
        {
            while (p.isAlive() && deadlineNs - System.nanoTime() > 0)
            {
                try
                {
                    p.waitFor(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
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
