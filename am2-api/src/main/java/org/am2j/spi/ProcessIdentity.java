package org.am2j.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;

/**
 * Identifies a process by pid <em>and</em> start time, so that a file or a claim left by a dead process is not
 * mistaken for one of a live process that was given the same pid (pid reuse, and every container's pid 1). Used by
 * the launcher's watchdog, the counters files and the transports that judge whether a peer process is alive.
 * <p>
 * {@link ProcessHandle#isAlive()} reports a zombie (exited, not yet reaped) as alive; on Linux this class reads the
 * state in {@code /proc/<pid>/stat} and counts a zombie as dead. Linux derives start instants from a jittery boot
 * time, so two readings of one process's start may differ by a little: they match within
 * {@link #START_TOLERANCE_MS}.
 */
public final class ProcessIdentity
{
    /** The start time recorded when the platform does not report one. */
    public static final long UNKNOWN_START_TIME = 0;

    /** How far two readings of one process's start instant may differ and still name the same process. */
    public static final long START_TOLERANCE_MS = 2_000;

    private static final Path PROC = Path.of("/proc");
    /** Bytes of {@code /proc/<pid>/stat} a {@link #watch} reads: the state follows the command name (at most 64). */
    private static final int STAT_READ_BYTES = 256;
    /** {@link #state(long)} of a process whose {@code /proc} entry is missing. */
    private static final char GONE = '-';
    /** {@link #state(long)} when it cannot be told (no {@code /proc}, an unreadable or odd entry). */
    private static final char UNKNOWN_STATE = '?';
    private static final long CURRENT_PID = ProcessHandle.current().pid();
    private static final long CURRENT_START_TIME_MS = startTimeMs(ProcessHandle.current());
    private static final long CURRENT_PROCESS_ID =
        new SecureRandom().nextLong() ^ (CURRENT_PID << 32) ^ System.nanoTime();

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
     * @return this process's id in endpoint names and in the job's rendezvous: random, so unique across restarts and
     *         containers where a pid is not.
     */
    public static long currentProcessId()
    {
        return CURRENT_PROCESS_ID;
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
     * Is the process recorded as {@code pid} and {@code startTimeMs} still running? It is when a process with that
     * pid exists, is not a zombie and, where both start times are known, started within {@link #START_TOLERANCE_MS}
     * of the recorded time.
     *
     * @param pid         the recorded pid.
     * @param startTimeMs the recorded start time in epoch milliseconds, or {@link #UNKNOWN_START_TIME} for any.
     * @return true when the recorded process is alive.
     */
    public static boolean isAlive(final long pid, final long startTimeMs)
    {
        if (pid <= 0)
        {
            return false;
        }
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive() || isZombie(pid))
        {
            return false;
        }
        if (UNKNOWN_START_TIME == startTimeMs)
        {
            return true;
        }
        final long actual = startTimeMs(handle.get());
        return UNKNOWN_START_TIME == actual || Math.abs(actual - startTimeMs) <= START_TOLERANCE_MS;
    }

    /**
     * A check of one process to repeat often (the launcher's watchdog, four times a second in every rank): the
     * process is identified once, as {@link #isAlive(long, long)} does, and each check then asks only whether that
     * same process is still there and not a zombie. On Linux its {@code /proc/<pid>/stat} stays open and each check
     * reads it again (one system call): an open entry belongs to that process, and reading it fails once the process
     * is gone, even when its pid has been given to another one. Elsewhere {@link ProcessHandle#isAlive()} does it (it
     * compares the start time it recorded with the pid's present one). {@link ProcessHandle#info()}, which reads
     * several files and may look the user up, is not called again.
     *
     * @param pid         the recorded pid.
     * @param startTimeMs the recorded start time in epoch milliseconds, or {@link #UNKNOWN_START_TIME} for any.
     * @return the check, for one thread at a time: false for good once the process is gone (or was not the recorded
     *         one to begin with).
     */
    public static BooleanSupplier watch(final long pid, final long startTimeMs)
    {
        final Optional<ProcessHandle> handle = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
        if (handle.isEmpty() || !isAlive(pid, startTimeMs))
        {
            return () -> false;
        }
        final FileChannel stat = openStat(pid);
        if (null == stat)
        {
            final ProcessHandle process = handle.get();
            return () -> process.isAlive() && !isZombie(pid);
        }
        final ByteBuffer buffer = ByteBuffer.allocate(STAT_READ_BYTES);
        return () ->
        {
            buffer.clear();
            try
            {
                stat.read(buffer, 0);
            }
            catch (final IOException ex)
            {
                // ESRCH: the process this entry was opened for is gone.
                CloseHelper.quietClose(stat);
                return false;
            }
            final char state = stateOf(buffer);
            return !(state == GONE || state == 'Z' || state == 'X' || state == 'x');
        };
    }

    private static FileChannel openStat(final long pid)
    {
        try
        {
            return FileChannel.open(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardOpenOption.READ);
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return null;
        }
    }

    /**
     * @param read the start of a {@code /proc/<pid>/stat} just read (position at its end).
     * @return the state letter after the last ')' of the command name, or {@link #GONE} when the read found nothing.
     */
    private static char stateOf(final ByteBuffer read)
    {
        final int length = read.position();
        for (int i = length - 1; i >= 0; i--)
        {
            if (read.get(i) == ')')
            {
                return i + 2 < length ? (char)read.get(i + 2) : UNKNOWN_STATE;
            }
        }
        return 0 == length ? GONE : UNKNOWN_STATE;
    }

    private static long startTimeMs(final ProcessHandle handle)
    {
        final Optional<Instant> start = handle.info().startInstant();
        return start.isPresent() ? start.get().toEpochMilli() : UNKNOWN_START_TIME;
    }

    /**
     * Whether a process is stopped: by a signal (SIGSTOP, SIGTSTP from a terminal's Ctrl-Z) or by a tracer. Such a
     * process is alive and resumes where it stopped, however long the stop lasts; what it holds (a claimed packet,
     * say) must be waited for, not taken for abandoned.
     *
     * @param pid of the process.
     * @return true when {@code /proc/<pid>/stat} says stopped ({@code T}) or traced ({@code t}); false when it says
     * otherwise or cannot be read (no {@code /proc}, the process gone).
     */
    public static boolean isStopped(final long pid)
    {
        final char state = state(pid);
        return state == 'T' || state == 't';
    }

    private static boolean isZombie(final long pid)
    {
        final char state = state(pid);
        return state == GONE || state == 'Z' || state == 'X' || state == 'x';
    }

    /**
     * @param pid of the process.
     * @return its state letter in {@code /proc/<pid>/stat} (R, S, D, T, t, Z, X...), {@link #GONE} when it has no
     * entry, or {@link #UNKNOWN_STATE}.
     */
    private static char state(final long pid)
    {
        if (!Files.isDirectory(PROC))
        {
            return UNKNOWN_STATE;
        }
        try
        {
            final String stat = new String(Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("stat")),
                StandardCharsets.US_ASCII);
            // "pid (comm) S ...": comm may hold spaces and parentheses; the state follows the last ')'.
            final int end = stat.lastIndexOf(')');
            if (end < 0 || end + 2 >= stat.length())
            {
                return UNKNOWN_STATE;
            }
            return stat.charAt(end + 2);
        }
        catch (final NoSuchFileException ex)
        {
            return GONE;
        }
        catch (final IOException ex)
        {
            return UNKNOWN_STATE;
        }
    }
}
