package org.am2j.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;

/**
 * Which CPU each of the two rank JVMs of a benchmark runs on. Threads cannot be pinned from Java, so the JVMs are
 * started under {@code taskset -c CPU}: rank 0 on the first CPU this process may use, rank 1 on the second (from
 * {@code Cpus_allowed_list} of {@code /proc/self/status}, else 0 to {@code availableProcessors() - 1}). Pinning is
 * applied only when {@code taskset} is on the PATH and at least two CPUs are allowed; otherwise the JVMs start
 * unpinned and {@link #applied()} says so.
 */
final class CpuPinning
{
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final String ALLOWED_LIST = "Cpus_allowed_list:";

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
     * @return the pinning of this machine and process.
     */
    static CpuPinning detect()
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
        return new CpuPinning(findOnPath("taskset"), cpus, allowed);
    }

    /**
     * For tests: a pinning with a given {@code taskset} and CPU list.
     *
     * @param taskset path of taskset, or {@code null} when there is none.
     * @param allowed the allowed CPUs in the kernel's list format.
     * @return the pinning.
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
        final int[] result = new int[cpus.size()];
        int i = 0;
        for (final int cpu : cpus)
        {
            result[i++] = cpu;
        }
        return result;
    }

    private static String findOnPath(final String program)
    {
        final String path = System.getenv("PATH");
        if (null == path)
        {
            return null;
        }
        for (final String dir : path.split(java.io.File.pathSeparator))
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
     * @return true when the two ranks run pinned to two different CPUs.
     */
    boolean applied()
    {
        return null != taskset && cpus.length >= 2;
    }

    /**
     * @return number of CPUs this process may run on.
     */
    int allowedCount()
    {
        return cpus.length;
    }

    /**
     * @return the CPUs this process may run on, in the kernel's list format.
     */
    String allowed()
    {
        return allowed;
    }

    /**
     * @param rank 0 or 1.
     * @return the CPU that rank is pinned to, or -1 when pinning is not applied.
     */
    int cpu(final int rank)
    {
        return applied() ? cpus[rank] : -1;
    }

    /**
     * @param rank 0 or 1.
     * @return the words to put before that rank's {@code java} command: {@code taskset -c CPU}, or nothing.
     */
    List<String> prefix(final int rank)
    {
        if (!applied())
        {
            return Collections.emptyList();
        }
        final List<String> words = new ArrayList<>(3);
        words.add(taskset);
        words.add("-c");
        words.add(Integer.toString(cpus[rank]));
        return words;
    }
}
