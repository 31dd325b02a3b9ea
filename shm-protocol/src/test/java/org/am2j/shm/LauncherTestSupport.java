package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.am2j.spi.ShmDirectories;
import org.am2j.launch.Am2Run;
import org.junit.jupiter.api.AfterEach;

/**
 * Runs SPMD jobs of rank programs from the test class path with the launcher in-process, each job with its own job id
 * (the launcher's {@code j<pid>-<ms>}), and checks that a job leaves nothing in shared memory. Whatever a test
 * started is killed when it ends.
 */
public abstract class LauncherTestSupport
{
    private static final Pattern JOB_LINE = Pattern.compile("^\\[(\\d+)] job=(\\S+) pid=(\\d+) rank=(\\d+)$",
        Pattern.MULTILINE);

    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    /** What a finished job printed. */
    public static final class JobResult
    {
        /** The launcher's exit status. */
        public final int status;
        /** What the ranks printed on standard output, prefixed. */
        public final String out;
        /** What the ranks and the launcher printed on standard error. */
        public final String err;
        /** How long the job took. */
        public final long millis;

        JobResult(final int status, final String out, final String err, final long millis)
        {
            this.status = status;
            this.out = out;
            this.err = err;
            this.millis = millis;
        }

        public String output()
        {
            return "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }

        /**
         * @return the job id the ranks printed ({@code job=<id> pid=<pid> rank=<r>} lines).
         */
        public String jobId()
        {
            final Matcher m = JOB_LINE.matcher(out);
            assertTrue(m.find(), "no rank printed its job id" + output());
            return m.group(2);
        }

        /**
         * @return the pids of the ranks that printed a job line.
         */
        public List<Long> rankPids()
        {
            final List<Long> pids = new ArrayList<>();
            final Matcher m = JOB_LINE.matcher(out);
            while (m.find())
            {
                pids.add(Long.parseLong(m.group(3)));
            }
            return pids;
        }

        public void assertSucceeded(final int ranks)
        {
            assertEquals(0, status, "job failed" + output());
            assertEquals(ranks, rankPids().size(), "job lines" + output());
        }
    }

    @AfterEach
    void killEverythingStarted()
    {
        executor.shutdownNow();
        ourDescendants().forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * @return processes this JVM started, directly or not, that run launchers or our rank programs.
     */
    public static Stream<ProcessHandle> ourDescendants()
    {
        return ProcessHandle.current().descendants()
            .filter(p -> p.info().commandLine().map(c -> c.contains("org.am2j.")).orElse(true));
    }

    /**
     * @return JVM options every rank of every job of the test class gets (none here; subclasses add theirs).
     */
    protected List<String> extraJvmOptions()
    {
        return List.of();
    }

    /**
     * Run a job: {@code am2j run -n ranks [--jvm-opt opt]... --cp <test class path> -- mainClass args}.
     */
    protected JobResult runJob(
        final long timeoutSeconds, final int ranks, final List<String> jvmOptions, final Class<?> mainClass,
        final String... args) throws Exception
    {
        return runJob(timeoutSeconds, ranks, 1, jvmOptions, mainClass, args);
    }

    /**
     * Run a job over emulated nodes: {@code am2j run -n ranks --nodes nodes --timeout T [--jvm-opt opt]... --cp <test
     * class path> -- mainClass args}; the launcher kills the ranks after {@code timeoutSeconds}, and the test kills
     * everything it started if the launcher has not returned 10 s later.
     */
    protected JobResult runJob(
        final long timeoutSeconds, final int ranks, final int nodes, final List<String> jvmOptions,
        final Class<?> mainClass, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("run", "-n", Integer.toString(ranks), "--nodes",
            Integer.toString(nodes), "--timeout", Long.toString(timeoutSeconds)));
        for (final String option : extraJvmOptions())
        {
            command.add("--jvm-opt");
            command.add(option);
        }
        for (final String option : jvmOptions)
        {
            command.add("--jvm-opt");
            command.add(option);
        }
        command.add("--cp");
        command.add(System.getProperty("java.class.path"));
        command.add("--");
        command.add(mainClass.getName());
        command.addAll(List.of(args));

        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
        final long start = System.nanoTime();
        final Future<Integer> job = executor.submit(() -> new Am2Run(out, err).run(command.toArray(new String[0])));
        int status;
        try
        {
            status = job.get(timeoutSeconds + 10, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            job.cancel(true);
            ourDescendants().forEach(ProcessHandle::destroyForcibly);
            return fail("job " + mainClass.getSimpleName() + " -n " + ranks + " --nodes " + nodes +
                " did not finish within " +
                timeoutSeconds + " s" + "\n--- stdout ---\n" + outBytes.toString(StandardCharsets.UTF_8) +
                "--- stderr ---\n" + errBytes.toString(StandardCharsets.UTF_8));
        }
        catch (final ExecutionException ex)
        {
            throw new AssertionError("the launcher threw", ex.getCause());
        }
        final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        final JobResult result = new JobResult(status, outBytes.toString(StandardCharsets.UTF_8),
            errBytes.toString(StandardCharsets.UTF_8), millis);
        System.out.println(mainClass.getSimpleName() + " -n " + ranks + " --nodes " + nodes + " " +
            String.join(" ", args) + ": status " + status + " in " + millis + " ms");
        return result;
    }

    /**
     * @return the job's shared-memory directory, {@code /dev/shm/am2j-<user>/<job>}.
     */
    public static Path jobDirectory(final String jobId)
    {
        assertNotNull(jobId);
        return ShmDirectories.userRoot().resolve(jobId);
    }

    /**
     * @return the names of the files in the job's directory; empty when it does not exist.
     */
    public static TreeSet<String> filesOf(final String jobId) throws IOException
    {
        final Path dir = jobDirectory(jobId);
        if (!Files.exists(dir))
        {
            return new TreeSet<>();
        }
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /**
     * Assert that the job left nothing: no job directory, no counters file of any of its processes.
     */
    public static void assertNothingLeft(final String jobId, final List<Long> pids) throws IOException
    {
        final Path dir = jobDirectory(jobId);
        assertTrue(filesOf(jobId).isEmpty(), "files left in " + dir + ": " + filesOf(jobId));
        assertTrue(!Files.exists(dir), "directory left: " + dir);
        for (final long pid : pids)
        {
            final Path counters = ShmDirectories.userRoot().resolve("counters").resolve(pid + ".counters");
            assertTrue(!Files.exists(counters), "counters file left: " + counters);
        }
    }
}
