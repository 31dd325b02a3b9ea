package org.am2j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watchdog halts only when the launcher is found gone by {@link LauncherWatchdog#CONFIRMATIONS} checks in a row,
 * and then at once; a single check that finds it gone between checks that find it alive does not halt the rank.
 */
@Timeout(30)
class LauncherWatchdogTest
{
    /** Runs a watchdog over scripted answers; returns the checks made when it halted, or -1 when it did not. */
    private static int checksUntilHalt(final List<Boolean> answers) throws InterruptedException
    {
        final ArrayDeque<Boolean> script = new ArrayDeque<>(answers);
        final AtomicInteger checks = new AtomicInteger();
        final AtomicInteger haltedAfter = new AtomicInteger(-1);
        final Thread thread = new Thread(new LauncherWatchdog(() ->
        {
            checks.incrementAndGet();
            // Past the script the launcher is alive: the test ends the watchdog by interrupting it.
            return script.isEmpty() || script.poll();
        }, 1, () -> haltedAfter.set(checks.get())));
        thread.start();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (checks.get() < answers.size() + 2 && haltedAfter.get() < 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        thread.interrupt();
        thread.join(10_000);
        assertFalse(thread.isAlive());
        return haltedAfter.get();
    }

    @Test
    void haltsAfterTwoChecksInARowFindTheLauncherGone() throws InterruptedException
    {
        assertEquals(2, checksUntilHalt(List.of(false, false)));
        assertEquals(5, checksUntilHalt(List.of(true, true, true, false, false)));
    }

    @Test
    void oneCheckThatFindsTheLauncherGoneDoesNotHaltTheRank() throws InterruptedException
    {
        assertEquals(-1, checksUntilHalt(List.of(false, true, false, true, true, false, true)));
        assertEquals(4, checksUntilHalt(List.of(false, true, false, false, true)), "two in a row still halt");
    }

    @Test
    void aLiveLauncherIsWatchedUntilInterrupted() throws InterruptedException
    {
        assertEquals(-1, checksUntilHalt(List.of(true, true, true)));
        assertTrue(LauncherWatchdog.CONFIRMATIONS >= 2);
    }
}
