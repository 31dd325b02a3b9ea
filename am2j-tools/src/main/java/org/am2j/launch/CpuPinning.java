package org.am2j.launch;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * Which CPU each rank JVM of a job runs on ({@code am2j run --pin}). Threads cannot be pinned from Java, so the
 * JVMs are started under {@code taskset -c CPU}: rank R on the R-th CPU this process may use, modulo their number
 * (from {@code Cpus_allowed_list} of {@code /proc/self/status}, else 0 to {@code availableProcessors() - 1}), so
 * ranks 0 and 1 get the first two allowed CPUs. Pinning is applied only when {@code taskset} is on the PATH and at
 * least two CPUs are allowed; otherwise the JVMs start unpinned and {@link #applied()} says so.
 * <p>
 * {@link #detect()} gives the same answer to every caller of one process: a program that starts a job with
 * {@code --pin} through {@link Am2Run} learns the CPUs its ranks run on by calling it too.
 * <p>
 * Immutable, thread-safe.
 */
public final class CpuPinning
{
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final String ALLOWED_LIST = "Cpus_allowed_list:";
    private static final String TASKSET = "taskset";

    private final String taskset;
    private final int[] cpus;
    private final String allowed;

    private CpuPinning(final String taskset, final int[] cpus, final String allowed)
    {
        this.taskset = taskset;
        this.cpus = cpus;
        this.allowed = allowed;
    }

    /**
     * @return the pinning of this machine and process: the CPUs this process may use, and {@code taskset} from the
     * PATH.
     */
    public static CpuPinning detect()
    {
        String allowed = null;
        int[] cpus = null;
        try
        {
            for (final String line : Files.readAllLines(STATUS, StandardCharsets.US_ASCII))
            {
                if (line.startsWith(ALLOWED_LIST))
                {
                    allowed = line.substring(ALLOWED_LIST.length()).trim();
                    cpus = parseCpuList(allowed);
                }
            }
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            cpus = null;
        }
        if (null == cpus)
        {
            final int n = Runtime.getRuntime().availableProcessors();
            cpus = new int[n];
            Arrays.setAll(cpus, i -> i);
            allowed = n > 1 ? "0-" + (n - 1) : "0";
        }
        return new CpuPinning(findOnPath(TASKSET), cpus, allowed);
    }

    /**
     * For tests: a pinning with a given {@code taskset} and CPU list.
     *
     * @param taskset path of taskset, or {@code null} when there is none.
     * @param allowed the allowed CPUs in the kernel's list format.
     * @return the pinning.
     * @throws IllegalArgumentException when {@code allowed} is not a CPU list.
     */
    static CpuPinning of(final String taskset, final String allowed)
    {
        return new CpuPinning(taskset, parseCpuList(allowed), allowed);
    }

    /**
     * Parse a CPU list in the kernel's format, e.g. {@code 0-3,8,10-11}.
     *
     * @param list the text.
     * @return the CPUs, ascending, without duplicates.
     * @throws IllegalArgumentException when it is not such a list.
     */
    static int[] parseCpuList(final String list)
    {
        final TreeSet<Integer> cpus = new TreeSet<>();
        for (final String part : list.trim().split(","))
        {
            final String range = part.trim();
            final int dash = range.indexOf('-');
            try
            {
                final int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                final int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
                if (first < 0 || last < first || last - first > 65_536)
                {
                    throw new IllegalArgumentException("bad CPU range '" + range + "' in '" + list + "'");
                }
                for (int cpu = first; cpu <= last; cpu++)
                {
                    cpus.add(cpu);
                }
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("bad CPU range '" + range + "' in '" + list + "'", ex);
            }
        }
        return cpus.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String findOnPath(final String program)
    {
        final String path = System.getenv("PATH");
        if (null == path)
        {
            return null;
        }
        for (final String dir : path.split(File.pathSeparator))
        {
            if (!dir.isEmpty())
            {
                final Path candidate = Path.of(dir, program);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                {
                    return candidate.toString();
                }
            }
        }
        return null;
    }

    /**
     * @return true when the ranks run pinned: {@code taskset} exists and at least two CPUs are allowed, so ranks 0
     * and 1 run on different CPUs.
     */
    public boolean applied()
    {
        return null != taskset && cpus.length >= 2;
    }

    /**
     * @return why the ranks run unpinned, for a message, or {@code null} when {@link #applied()}.
     */
    public String unpinnedReason()
    {
        if (null == taskset)
        {
            return "taskset is not on the PATH";
        }
        if (cpus.length < 2)
        {
            return "this process may use only CPU " + allowed;
        }
        return null;
    }

    /**
     * @return the CPUs this process may run on, in the kernel's list format.
     */
    public String allowed()
    {
        return allowed;
    }

    /**
     * @param rank 0 or more.
     * @return the CPU that rank is pinned to (the rank-th allowed CPU, modulo their number), or -1 when pinning is
     * not applied.
     */
    public int cpu(final int rank)
    {
        if (rank < 0)
        {
            throw new IllegalArgumentException("rank " + rank + " is negative");
        }
        return applied() ? cpus[rank % cpus.length] : -1;
    }

    /**
     * @param rank 0 or more.
     * @return the words to put before that rank's {@code java} command: {@code taskset -c CPU} with the CPU of
     * {@link #cpu(int)}, or nothing when pinning is not applied.
     */
    public List<String> prefix(final int rank)
    {
        return prefix(rank, 1);
    }

    /**
     * @param firstRank 0 or more.
     * @param ranks     1 or more: the ranks one JVM holds, from {@code firstRank}.
     * @return the words to put before that JVM's {@code java} command: {@code taskset -c CPU,CPU...} with the CPUs of
     * its ranks ({@link #cpu(int)}, each once, ascending), or nothing when pinning is not applied.
     */
    public List<String> prefix(final int firstRank, final int ranks)
    {
        if (cpu(firstRank) < 0)
        {
            return List.of();
        }
        final TreeSet<Integer> jvmCpus = new TreeSet<>();
        for (int rank = firstRank; rank < firstRank + ranks; rank++)
        {
            jvmCpus.add(cpu(rank));
        }
        final StringJoiner list = new StringJoiner(",");
        jvmCpus.forEach(cpu -> list.add(Integer.toString(cpu)));
        return List.of(taskset, "-c", list.toString());
    }
}
