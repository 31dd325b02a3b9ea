package org.am2j.shm;

import java.nio.file.Path;
import java.util.regex.Pattern;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * Anonymous shared files that no process can shrink: Linux {@code memfd_create(2)} files sealed with
 * {@code F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL} (through JNA direct mapping of libc). A mapping of a file that
 * another process truncates faults on its next access (SIGBUS, which the JVM turns into an {@link InternalError}
 * thrown at some later point of the thread, not where the access was): sealed files make that impossible, so a
 * same-user process can scribble on a queue block but never take its pages away.
 * <p>
 * Other processes open such a file as {@code /proc/<pid>/fd/<fd>} of its owner; that path is the file's address. It
 * works between processes of one user in one PID namespace (the liveness checks of the protocol need that too);
 * {@code hidepid} hides only other users' processes. A memfd has no directory entry: it goes away when its owner has
 * closed it and every mapping of it is gone, so a killed process leaves nothing behind.
 */
final class SealedMemory
{
    private static final int MFD_CLOEXEC = 0x0001;
    private static final int MFD_ALLOW_SEALING = 0x0002;
    private static final int F_ADD_SEALS = 1024 + 9;
    private static final int F_GET_SEALS = 1024 + 10;
    private static final int F_SEAL_SEAL = 0x0001;
    private static final int F_SEAL_SHRINK = 0x0002;
    private static final int F_SEAL_GROW = 0x0004;
    /** The seals every file gets: no shrinking, no growing (its length is part of its layout), no further seals. */
    static final int SEALS = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW;
    /**
     * The system property that turns sealed files off with {@code false} (files in the job directory instead): for
     * diagnosis, and for processes that cannot open each other's {@code /proc/<pid>/fd}. Read by {@link ShmConfig}.
     */
    static final String DISABLE_PROPERTY = "am2j.shm.sealed";
    /** The environment variable read when {@value #DISABLE_PROPERTY} is not set. */
    static final String DISABLE_VARIABLE = "AM2J_SHM_SEALED";

    private static final Pattern ADDRESS = Pattern.compile("/proc/[0-9]{1,10}/fd/[0-9]{1,10}");
    private static final Throwable UNAVAILABLE;

    static
    {
        Throwable problem = null;
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux"))
        {
            problem = new UnsupportedOperationException("sealed memory files need Linux, not " +
                System.getProperty("os.name"));
        }
        else
        {
            try
            {
                Native.register(SealedMemory.class, NativeLibrary.getInstance("c"));
                // One file made and sealed proves the kernel and libc have both (memfd_create: Linux 3.17, glibc 2.27).
                final int fd = memfd_create("am2j-probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
                try
                {
                    fcntl(fd, F_ADD_SEALS, SEALS);
                }
                finally
                {
                    close(fd);
                }
            }
            catch (final Throwable ex)
            {
                problem = ex;
            }
        }
        UNAVAILABLE = problem;
    }

    private SealedMemory()
    {
    }

    private static native int memfd_create(String name, int flags) throws LastErrorException;

    private static native int fcntl(int fd, int cmd, int arg) throws LastErrorException;

    private static native int close(int fd) throws LastErrorException;

    /**
     * @return null when sealed files work here, else why not.
     */
    static Throwable unavailable()
    {
        return UNAVAILABLE;
    }

    /**
     * @param name shown in {@code /proc/<pid>/fd} (as {@code /memfd:<name>}), for people looking.
     * @return the descriptor of a new, empty memory file that allows sealing; not inherited by child processes.
     * @throws LastErrorException when the kernel refuses (no memory, too many open files).
     */
    static int create(final String name)
    {
        return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    }

    /**
     * Seal a file at its current length.
     *
     * @param fd from {@link #create(String)}.
     * @throws LastErrorException when the kernel refuses.
     */
    static void seal(final int fd)
    {
        fcntl(fd, F_ADD_SEALS, SEALS);
    }

    /**
     * @param fd a memory file's descriptor.
     * @return its seals (a bit set of the {@code F_SEAL_*} values).
     */
    static int seals(final int fd)
    {
        return fcntl(fd, F_GET_SEALS, 0);
    }

    /**
     * Close a descriptor from {@link #create(String)}; errors are ignored (the descriptor is gone either way).
     *
     * @param fd to close.
     */
    static void closeQuietly(final int fd)
    {
        try
        {
            close(fd);
        }
        catch (final LastErrorException ignore)
        {
            // EBADF or EINTR: Linux releases the descriptor in both cases.
        }
    }

    /**
     * @param pid of the owner.
     * @param fd  the owner's descriptor.
     * @return the address other processes open the file by.
     */
    static Path address(final long pid, final int fd)
    {
        return Path.of("/proc/" + pid + "/fd/" + fd);
    }

    /**
     * @param path a file's address.
     * @return true when it has the form of {@link #address(long, int)}.
     */
    static boolean isAddress(final Path path)
    {
        return ADDRESS.matcher(path.toString()).matches();
    }

    /**
     * @param path a shared-memory file's address.
     * @return the pid an address {@code /proc/<pid>/fd/<fd>} names (the process that holds the file: a mapping made
     * by that address proves it held it then), or -1 for a path of another form.
     */
    static long pidOf(final Path path)
    {
        final String text = path.toString();
        if (!ADDRESS.matcher(text).matches())
        {
            return -1;
        }
        return Long.parseLong(text.substring("/proc/".length(), text.indexOf('/', "/proc/".length())));
    }
}
