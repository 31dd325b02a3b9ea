package org.am2j.launch;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.am2j.spi.ProcessIdentity;

/**
 * A daemon thread in every rank that halts the rank's JVM ({@link Runtime#halt(int)}) once the launcher process has
 * gone, so that a launcher killed with SIGKILL (which runs no shutdown hook) leaves no rank behind. The launcher is
 * identified by pid and start instant, so a reused pid does not keep a rank alive.
 * <p>
 * The launcher counts as gone only when {@value #CONFIRMATIONS} checks in a row, {@value #PERIOD_MS} ms apart, find
 * it gone: once, a rank was halted while its launcher was alive and printing (a single check said otherwise), and a
 * halted rank takes its whole job down, where a second look costs a dead launcher's ranks one period more.
 */
final class LauncherWatchdog implements Runnable
{
    /** How often the launcher is checked. */
    static final long PERIOD_MS = 250;
    /** Checks in a row that must find the launcher gone before the rank halts. */
    static final int CONFIRMATIONS = 2;
    /** Exit status of a rank halted by the watchdog. */
    static final int HALT_STATUS = 70;

    private final BooleanSupplier launcherAlive;
    private final long periodMs;
    private final Runnable halt;

    LauncherWatchdog(final BooleanSupplier launcherAlive, final long periodMs, final Runnable halt)
    {
        this.launcherAlive = launcherAlive;
        this.periodMs = periodMs;
        this.halt = halt;
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
        final LauncherWatchdog watchdog = new LauncherWatchdog(
            ProcessIdentity.watch(launcherPid, launcherStartMillis), PERIOD_MS, () ->
            {
                System.err.println("am2j rank " + rank + ": the launcher (pid " + launcherPid + ") is gone; halting");
                System.err.flush();
                Runtime.getRuntime().halt(HALT_STATUS);
            });
        final Thread thread = new Thread(watchdog, "am2j-launcher-watchdog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * Check the launcher every period; halt when {@link #CONFIRMATIONS} checks in a row find it gone.
     */
    @Override
    public void run()
    {
        int gone = 0;
        while (true)
        {
            gone = launcherAlive.getAsBoolean() ? 0 : gone + 1;
            if (gone >= CONFIRMATIONS)
            {
                halt.run();
                return;
            }
            try
            {
                TimeUnit.MILLISECONDS.sleep(periodMs);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }
}
