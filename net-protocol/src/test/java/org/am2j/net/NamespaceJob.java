package org.am2j.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The ranks of one SPMD job spread over the hosts of a {@link VethPair}, each a JVM of the test class path started in
 * its host's namespaces with exactly the environment the test gives it (as an external launcher such as Open MPI's
 * would: nothing is inherited), its output in files of a directory of the test.
 */
final class NamespaceJob
{
    /** The flags every JVM that loads am2j needs. */
    static final List<String> JVM_FLAGS = List.of(
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED");

    private final Path dir;
    private final Process[] ranks;

    /**
     * @param dir  where the ranks' output goes ({@code rank<r>.out}, {@code rank<r>.err}).
     * @param size number of ranks.
     */
    NamespaceJob(final Path dir, final int size)
    {
        this.dir = dir;
        this.ranks = new Process[size];
    }

    /**
     * Start one rank.
     *
     * @param rank       its rank, for the output files.
     * @param host       where it runs.
     * @param env        its whole environment.
     * @param jvmOptions options after {@link #JVM_FLAGS}.
     * @param mainClass  the rank program.
     * @param args       its arguments.
     * @throws IOException when it cannot be started.
     */
    void start(
        final int rank,
        final NamespaceHost host,
        final Map<String, String> env,
        final List<String> jvmOptions,
        final Class<?> mainClass,
        final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_FLAGS);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        ranks[rank] = host.start(command, env, dir.resolve("rank" + rank + ".out"), dir.resolve("rank" + rank + ".err"));
    }

    /**
     * Wait for every rank to end; when the time is up, kill them all.
     *
     * @param timeoutMs how long the job may take from now.
     * @return true when all ended in time (killed ones have a non-zero status).
     * @throws InterruptedException when interrupted while waiting.
     */
    boolean await(final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        boolean inTime = true;
        for (final Process rank : ranks)
        {
            final long left = deadline - System.nanoTime();
            if (!rank.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS))
            {
                inTime = false;
                break;
            }
        }
        if (!inTime)
        {
            for (final Process rank : ranks)
            {
                rank.descendants().forEach(ProcessHandle::destroyForcibly);
                rank.destroyForcibly();
            }
            for (final Process rank : ranks)
            {
                rank.waitFor(10, TimeUnit.SECONDS);
            }
        }
        return inTime;
    }

    /**
     * @param rank of the job.
     * @return true while it runs.
     */
    boolean isAlive(final int rank)
    {
        return ranks[rank].isAlive();
    }

    /**
     * Kill a rank with SIGKILL and wait for it to end.
     *
     * @param rank of the job.
     * @return true when it ended within 10 s.
     * @throws InterruptedException when interrupted while waiting.
     */
    boolean kill(final int rank) throws InterruptedException
    {
        ranks[rank].destroyForcibly();
        return ranks[rank].waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * @param rank of the job.
     * @return its exit status; the rank must have ended.
     */
    int status(final int rank)
    {
        return ranks[rank].exitValue();
    }

    /**
     * @param rank of the job.
     * @return what it printed on standard output.
     */
    String out(final int rank)
    {
        return read(dir.resolve("rank" + rank + ".out"));
    }

    /**
     * @return every rank's standard output and error, for a failure message.
     */
    String output()
    {
        final StringBuilder sb = new StringBuilder();
        for (int r = 0; r < ranks.length; r++)
        {
            sb.append("\n--- rank ").append(r).append(" stdout ---\n").append(out(r))
                .append("--- rank ").append(r).append(" stderr ---\n").append(read(dir.resolve("rank" + r + ".err")));
        }
        return sb.toString();
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "(no file)\n";
        }
        catch (final IOException ex)
        {
            return "(cannot read " + file + ": " + ex + ")\n";
        }
    }
}
