package org.am2j.shm;

import java.util.function.BooleanSupplier;

import org.am2j.spi.ProcessIdentity;

/**
 * A process that owns queue blocks this process sends into, as its routes know it from a block's header: its pid,
 * its start time and its process id (the one endpoint names and the job's loss notices carry). One per such process,
 * shared by every route into its blocks ({@link PeerProcesses}).
 * <p>
 * <b>Death is a fact, not a notice.</b> The process is dead when no process has its pid, or the one that has it is a
 * zombie or started at another time (its pid was given to a new process): {@link ProcessIdentity#isAlive}. A loss
 * notice (the job's rendezvous lost the rank: {@code Transport.processGone}) or a queue that stopped moving only make
 * this class look ({@link #check}); nothing else sets {@link #isDead()}, and once set it stays set. So a rank whose
 * rendezvous connection broke while it runs on is not taken for dead, and a process that was killed without a
 * rendezvous (no launcher, or before the notice comes) is found all the same.
 */
final class PeerProcess
{
    /** Least time between two looks at one process: each reads its {@code /proc} entry. */
    static final long CHECK_INTERVAL_NANOS = 10_000_000L;

    final long processId;
    final long pid;
    final long startMs;
    /**
     * Set once, by the look that found the process gone. Volatile: a route reads it on every send, and again after
     * its tail CAS (the Dekker pair with a settling thread's read of the tail, see {@link DeadPeerReturns}).
     */
    private volatile boolean dead;
    /** A loss notice named the process: every watch looks at it until it is found dead. */
    private volatile boolean suspect;
    /** {@code System.nanoTime()} of the last look (|1, so 0 means never); guarded by this. */
    private long lastCheckNanos;
    /**
     * The look ({@link ProcessIdentity#watch}): the process is identified by pid and start time once, when the first
     * route into its blocks is made, and each look reads its {@code /proc} entry again, which fails once that process
     * is gone, even when its pid has been given to another. A look allocates nothing: a peer that merely stalls is
     * looked at now and then from polls that must not allocate. The entry stays open until the process is found gone
     * (or the garbage collector takes this record, and its channel, once no route holds it). Asked under this
     * object's monitor: one thread at a time.
     */
    private final BooleanSupplier alive;
    /** Routes holding this record; guarded by the {@link PeerProcesses} that made it. */
    int references;

    PeerProcess(final long processId, final long pid, final long startMs)
    {
        this.processId = processId;
        this.pid = pid;
        this.startMs = startMs;
        this.alive = ProcessIdentity.watch(pid, startMs);
    }

    /**
     * @return true once the process has been found dead.
     */
    boolean isDead()
    {
        return dead;
    }

    /**
     * @return true when a loss notice named the process.
     */
    boolean isSuspect()
    {
        return suspect;
    }

    /**
     * A loss notice named the process: look at it from now on whenever a route's watch runs, stalled or not.
     */
    void suspect()
    {
        suspect = true;
    }

    /**
     * Look whether the process is still alive, unless it was looked at less than {@link #CHECK_INTERVAL_NANOS} ago.
     *
     * @param now {@code System.nanoTime()}.
     * @return true when this call found it dead (the caller has the transport tell the endpoints, once); false when
     * it is alive, was found dead before, or was looked at too recently.
     */
    synchronized boolean check(final long now)
    {
        if (dead || (0 != lastCheckNanos && now - lastCheckNanos < CHECK_INTERVAL_NANOS))
        {
            return false;
        }
        lastCheckNanos = now | 1;
        if (alive.getAsBoolean())
        {
            return false;
        }
        // Volatile store: a sender that reads it refuses at once; a settling thread that reads it then reads the
        // tails of the dead process's queues (DeadPeerReturns).
        dead = true;
        return true;
    }

    @Override
    public String toString()
    {
        return "process " + pid + " (started at " + startMs + " ms, id " + Long.toHexString(processId) + ")";
    }
}
