package org.am2j.spi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

/**
 * {@link ProcessIdentity#watch(long, long)}: the repeated check of one process the launcher's watchdog makes.
 */
class ProcessIdentityWatchTest
{
    @Test
    void aRunningProcessIsAliveUntilItExits() throws Exception
    {
        final Process child = new ProcessBuilder("sleep", "60").start();
        try
        {
            final long start = ProcessIdentity.startTimeMs(child.pid());
            final BooleanSupplier watch = ProcessIdentity.watch(child.pid(), start);
            assertTrue(watch.getAsBoolean());
            assertTrue(watch.getAsBoolean(), "and again");
            child.destroyForcibly();
            assertTrue(child.waitFor(10, TimeUnit.SECONDS));
            assertFalse(watch.getAsBoolean(), "gone");
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    @Test
    void anotherProcessUnderTheRecordedPidIsNotTheRecordedOne()
    {
        final long pid = ProcessIdentity.currentPid();
        final long start = ProcessIdentity.currentStartTimeMs();
        assertTrue(ProcessIdentity.watch(pid, start).getAsBoolean());
        assertFalse(ProcessIdentity.watch(pid, start - 3_600_000L).getAsBoolean(),
            "a start an hour earlier: the pid was reused");
        assertFalse(ProcessIdentity.watch(0, start).getAsBoolean());
        assertFalse(ProcessIdentity.watch(-5, start).getAsBoolean());
    }

    @Test
    void aChildThatExitsByItselfIsSeenGone() throws Exception
    {
        final Process child = new ProcessBuilder("sh", "-c", "sleep 0.3").start();
        try
        {
            final BooleanSupplier watch = ProcessIdentity.watch(child.pid(), ProcessIdentity.startTimeMs(child.pid()));
            assertTrue(watch.getAsBoolean());
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (watch.getAsBoolean())
            {
                assertTrue(System.nanoTime() - deadline < 0, "still alive 10 s after it exited");
                Thread.sleep(20);
            }
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    @Test
    void anExitedProcessNobodyReapsIsGone() throws Exception
    {
        final java.nio.file.Path proc = java.nio.file.Path.of("/proc");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(proc), "no /proc");
        // The shell starts a short sleep, prints its pid and becomes a long sleep, which never waits for it: once the
        // short one exits it stays a zombie (state Z) until the long one goes.
        final Process parent = new ProcessBuilder("sh", "-c", "sleep 1 & echo $!; exec sleep 60").start();
        try
        {
            final long pid = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(
                parent.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII)).readLine().trim());
            final BooleanSupplier watch = ProcessIdentity.watch(pid, ProcessIdentity.startTimeMs(pid));
            assertTrue(watch.getAsBoolean(), "running");
            final java.nio.file.Path stat = proc.resolve(Long.toString(pid)).resolve("stat");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!java.nio.file.Files.readString(stat).matches("(?s).*\\) Z .*"))
            {
                assertTrue(System.nanoTime() - deadline < 0, "not a zombie 10 s on");
                Thread.sleep(20);
            }
            assertFalse(watch.getAsBoolean(), "a zombie");
        }
        finally
        {
            parent.destroyForcibly();
        }
    }
}
