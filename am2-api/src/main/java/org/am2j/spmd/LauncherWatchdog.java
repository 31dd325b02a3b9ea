package org.am2j.spmd;

import org.am2j.spi.ProcessIdentity;
import java.util.concurrent.TimeUnit;

/**
 * A daemon thread in every rank that halts the rank's JVM ({@link Runtime#halt(int)}) once the launcher process has
 * gone, so that a launcher killed with SIGKILL (which runs no shutdown hook) leaves no rank behind. The launcher is
 * identified by pid and start instant, so a reused pid does not keep a rank alive.
 */
final class LauncherWatchdog implements Runnable
{
    /** How often the launcher is checked. */
    static final long PERIOD_MS = 250;
    /** Exit status of a rank halted by the watchdog. */
    static final int HALT_STATUS = 70;

    private final long launcherPid;
    private final long launcherStartMillis;
    private final int rank;

    private LauncherWatchdog(final long launcherPid, final long launcherStartMillis, final int rank)
    {
        this.launcherPid = launcherPid;
        this.launcherStartMillis = launcherStartMillis;
        this.rank = rank;
    }

    /**
     * Start watching.
     *
     * @param launcherPid         pid of the launcher.
     * @param launcherStartMillis its start instant in epoch milliseconds, 0 when unknown.
     * @param rank                of this process, for the message.
     * @return the watchdog thread (a daemon).
     */
    static Thread start(final long launcherPid, final long launcherStartMillis, final int rank)
    {
        final Thread thread = new Thread(
            new LauncherWatchdog(launcherPid, launcherStartMillis, rank), "am2j-launcher-watchdog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * Check the launcher every {@link #PERIOD_MS} ms; halt the JVM when it is gone.
     */
    @Override
    public void run()
    {
        while (ProcessIdentity.isAlive(launcherPid, launcherStartMillis))
        {
            try
            {
                TimeUnit.MILLISECONDS.sleep(PERIOD_MS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
        System.err.println("am2j rank " + rank + ": the launcher (pid " + launcherPid + ") is gone; halting");
        System.err.flush();
        Runtime.getRuntime().halt(HALT_STATUS);
    }
}
