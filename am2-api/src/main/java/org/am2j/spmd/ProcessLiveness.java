package org.am2j.spmd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a process is still running, as the launcher's watchdog and the tests need to know it.
 * <p>
 * {@link ProcessHandle#isAlive()} reports a zombie (a process that has exited but was not reaped, as happens to
 * orphans in containers whose init does not reap) as alive; on Linux this class reads the state in
 * {@code /proc/<pid>/stat} and counts a zombie as gone. A start instant guards against a reused pid.
 */
final class ProcessLiveness
{
    /** How far two readings of one process's start instant may differ (Linux derives it from a jittery boot time). */
    static final long START_TOLERANCE_MS = 2_000;

    private static final Path PROC = Path.of("/proc");

    private ProcessLiveness()
    {
    }

    /**
     * @param pid of a process.
     * @return true when a process with that pid exists and is not a zombie.
     */
    static boolean isRunning(final long pid)
    {
        return isRunning(pid, 0);
    }

    /**
     * @param pid         of a process.
     * @param startMillis its start instant in epoch milliseconds, or 0 to accept any process with that pid.
     * @return true when that process exists, is not a zombie and (when {@code startMillis} is not 0) started within
     * {@link #START_TOLERANCE_MS} of {@code startMillis}.
     */
    static boolean isRunning(final long pid, final long startMillis)
    {
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive() || isZombie(pid))
        {
            return false;
        }
        if (0 == startMillis)
        {
            return true;
        }
        final Optional<Instant> start = handle.get().info().startInstant();
        return start.isEmpty() || Math.abs(start.get().toEpochMilli() - startMillis) <= START_TOLERANCE_MS;
    }

    /**
     * @return the start instant of this process in epoch milliseconds, or 0 when the platform does not tell.
     */
    static long currentStartMillis()
    {
        return ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    private static boolean isZombie(final long pid)
    {
        if (!Files.isDirectory(PROC))
        {
            return false;
        }
        try
        {
            final String stat = new String(Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("stat")),
                StandardCharsets.US_ASCII);
            // "pid (comm) S ...": comm may hold spaces and parentheses, the state follows the last ')'
            final int end = stat.lastIndexOf(')');
            if (end < 0 || end + 2 >= stat.length())
            {
                return false;
            }
            final char state = stat.charAt(end + 2);
            return state == 'Z' || state == 'X' || state == 'x';
        }
        catch (final NoSuchFileException ex)
        {
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
