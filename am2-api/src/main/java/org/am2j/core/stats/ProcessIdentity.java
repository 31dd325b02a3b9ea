package org.am2j.core.stats;

import java.time.Instant;
import java.util.Optional;

/**
 * Identifies a process by pid <em>and</em> start time, so that a file left by a dead process is not mistaken for the
 * file of a live process that happens to have been given the same pid (pid reuse, and every container's pid 1).
 */
public final class ProcessIdentity
{
    /** The start time recorded when the platform does not report one. */
    public static final long UNKNOWN_START_TIME = CountersFileDescriptor.UNKNOWN_START_TIME;

    private static final long CURRENT_PID = ProcessHandle.current().pid();
    private static final long CURRENT_START_TIME_MS = startTimeMs(ProcessHandle.current());

    private ProcessIdentity()
    {
    }

    /**
     * @return this process's pid.
     */
    public static long currentPid()
    {
        return CURRENT_PID;
    }

    /**
     * @return this process's start time in epoch milliseconds, or {@link #UNKNOWN_START_TIME}.
     */
    public static long currentStartTimeMs()
    {
        return CURRENT_START_TIME_MS;
    }

    /**
     * @return a short description of this process: its main class and arguments, or its command, or "".
     */
    public static String currentCommandLabel()
    {
        final String javaCommand = System.getProperty("sun.java.command");
        if (null != javaCommand && !javaCommand.isBlank())
        {
            return javaCommand.trim();
        }

        return ProcessHandle.current().info().command().orElse("");
    }

    /**
     * @param pid of a process.
     * @return its start time in epoch milliseconds, or {@link #UNKNOWN_START_TIME} when it is not running or the
     * platform does not say.
     */
    public static long startTimeMs(final long pid)
    {
        if (pid <= 0)
        {
            return UNKNOWN_START_TIME;
        }

        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        return handle.isPresent() ? startTimeMs(handle.get()) : UNKNOWN_START_TIME;
    }

    /**
     * Is the process that wrote {@code pid} and {@code startTimeMs} still running? It is when a process with that pid
     * is alive and, where both start times are known, started at that time; a live process with another start time
     * took over a dead one's pid.
     *
     * @param pid         the recorded pid.
     * @param startTimeMs the recorded start time in epoch milliseconds, or {@link #UNKNOWN_START_TIME}.
     * @return true when the recorded process is alive.
     */
    public static boolean isAlive(final long pid, final long startTimeMs)
    {
        if (pid <= 0)
        {
            return false;
        }

        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive())
        {
            return false;
        }

        if (UNKNOWN_START_TIME == startTimeMs)
        {
            return true;
        }

        final long actualStartTimeMs = startTimeMs(handle.get());
        return UNKNOWN_START_TIME == actualStartTimeMs || actualStartTimeMs == startTimeMs;
    }

    private static long startTimeMs(final ProcessHandle handle)
    {
        final Optional<Instant> start = handle.info().startInstant();
        return start.isPresent() ? start.get().toEpochMilli() : UNKNOWN_START_TIME;
    }
}
