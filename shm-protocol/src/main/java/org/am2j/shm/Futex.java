package org.am2j.shm;

import org.agrona.concurrent.UnsafeBuffer;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * Linux futexes on words of shared mappings, through JNA direct mapping of {@code syscall(2)} (glibc has no futex
 * wrapper). Shared (not private) futexes, since waiter and waker are different processes mapping the same file.
 */
final class Futex
{
    private static final long SYS_FUTEX_X86_64 = 202;
    private static final long SYS_FUTEX_AARCH64 = 98;
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;

    private static final long SYS_FUTEX;
    private static final Throwable UNAVAILABLE;

    static
    {
        final String arch = System.getProperty("os.arch", "");
        final boolean linux = System.getProperty("os.name", "").toLowerCase().contains("linux");
        long number = -1;
        Throwable problem = null;
        if (!linux)
        {
            problem = new UnsupportedOperationException("futexes need Linux, not " + System.getProperty("os.name"));
        }
        else if ("amd64".equals(arch) || "x86_64".equals(arch))
        {
            number = SYS_FUTEX_X86_64;
        }
        else if ("aarch64".equals(arch))
        {
            number = SYS_FUTEX_AARCH64;
        }
        else
        {
            problem = new UnsupportedOperationException("no futex syscall number known for " + arch);
        }
        if (null == problem)
        {
            try
            {
                Native.register(Futex.class, NativeLibrary.getInstance("c"));
            }
            catch (final Throwable ex)
            {
                problem = ex;
            }
        }
        SYS_FUTEX = number;
        UNAVAILABLE = problem;
    }

    private Futex()
    {
    }

    private static native long syscall(long number, long address, int op, int value, long timeout, long address2,
        int value3);

    /**
     * @return null when futexes work here, else why not.
     */
    static Throwable unavailable()
    {
        return UNAVAILABLE;
    }

    /**
     * Sleep while the word at {@code address} holds {@code expected}, until woken or the timeout passes.
     *
     * @param address      of a 4-byte aligned int in a shared mapping.
     * @param expected     value: when the word differs, return at once.
     * @param timespec     16 bytes of native memory this thread may use for the timeout (a struct timespec).
     * @param timeoutNanos longest sleep.
     */
    static void await(final long address, final int expected, final UnsafeBuffer timespec, final long timeoutNanos)
    {
        timespec.putLong(0, timeoutNanos / 1_000_000_000L);
        timespec.putLong(8, timeoutNanos % 1_000_000_000L);
        syscall(SYS_FUTEX, address, FUTEX_WAIT, expected, timespec.addressOffset(), 0, 0);
    }

    /**
     * Wake every thread sleeping on the word at {@code address}.
     *
     * @param address of the word.
     */
    static void wakeAll(final long address)
    {
        syscall(SYS_FUTEX, address, FUTEX_WAKE, Integer.MAX_VALUE, 0, 0, 0);
    }
}
