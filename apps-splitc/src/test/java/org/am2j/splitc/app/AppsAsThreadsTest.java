package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.am2j.spi.ShmDirectories;
import org.am2j.splitc.LauncherTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The applications' {@code small} presets through {@code am2j app} ({@link AppCommand}, the launcher in this process)
 * with ranks as threads: 8 ranks on 2 emulated nodes, 4 ranks per JVM (the ranks of a node in one JVM: the in-process
 * transport within a node, the network between them) and 2 ranks per JVM (two JVMs per node: shared memory between
 * them too); each application in one of them in the default build, in both under the soak profile. Every run verified
 * by {@link AppMain}, which returns in each rank rather than end its JVM while the JVM's other ranks still run; the
 * JSON report names the JVMs. Whatever a test started is killed when it ends.
 */
class AppsAsThreadsTest extends LauncherTestSupport
{
    private static final int RANKS = 8;
    private static final int NODES = 2;
    private static final long JOB_TIMEOUT_S = 150;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @TempDir
    Path dir;

    @AfterEach
    void stopTheLauncher()
    {
        // the rank JVMs are killed by the support's own @AfterEach
        executor.shutdownNow();
    }

    /**
     * The default build's jobs: each application once, the ranks of a node in one JVM (4 per JVM) or two JVMs per node
     * (2 per JVM, shared memory between the JVMs of a node too).
     */
    @ParameterizedTest(name = "{0} --preset small -n 8 --nodes 2 --ranks-per-jvm {1}")
    @CsvSource({ "fft3d, 2", "con, 4", "em3d, 4" })
    @Timeout(value = JOB_TIMEOUT_S + 20, unit = TimeUnit.SECONDS)
    void everyApplicationWithRanksAsThreads(final String app, final int ranksPerJvm) throws Exception
    {
        smallPresetIsVerifiedWithRanksPerJvm(app, ranksPerJvm);
    }

    /** Every application in both placements: minutes on 2 CPUs, so in the soak profile. */
    @Tag("soak")
    @ParameterizedTest(name = "{0} --preset small -n 8 --nodes 2 --ranks-per-jvm {1}")
    @CsvSource({ "fft3d, 4", "con, 4", "em3d, 4", "fft3d, 2", "con, 2", "em3d, 2" })
    @Timeout(value = JOB_TIMEOUT_S + 20, unit = TimeUnit.SECONDS)
    void everyApplicationInBothPlacements(final String app, final int ranksPerJvm) throws Exception
    {
        smallPresetIsVerifiedWithRanksPerJvm(app, ranksPerJvm);
    }

    private void smallPresetIsVerifiedWithRanksPerJvm(final String app, final int ranksPerJvm) throws Exception
    {
        final Path json = dir.resolve(app + ".json");
        final Ran ran = app("app", app, "--preset", "small", "-n", Integer.toString(RANKS), "--nodes",
            Integer.toString(NODES), "--ranks-per-jvm", Integer.toString(ranksPerJvm), "--timeout",
            Long.toString(JOB_TIMEOUT_S), "--jvm-opt", STALL_OPTION, "--json", json.toString());

        assertEquals(0, ran.status, ran.output());
        assertEquals(1, ran.out.lines().filter(("[0] am2j app " + app + ": all runs verified")::equals).count(),
            ran.output());
        assertTrue(ran.out.contains("[0] messages per rank (" + RANKS + " ranks)"), ran.output());

        final JsonNode report = JSON.readTree(Files.readString(json, StandardCharsets.UTF_8));
        assertTrue(report.get("verified").asBoolean(), report.toString());
        assertEquals(RANKS, report.get("ranks").asInt(), report.toString());
        assertEquals(ranksPerJvm, report.get("ranks_per_jvm").asInt(), report.toString());
        final List<Long> pids = new ArrayList<>();
        report.get("jvm_pids").forEach(pid -> pids.add(pid.asLong()));
        assertEquals(RANKS / ranksPerJvm, pids.size(), "a pid per JVM: " + report);
        assertEquals(pids.stream().distinct().sorted().toList(), pids, "distinct, ascending: " + report);
        assertTrue(pids.stream().noneMatch(pid -> ProcessHandle.current().pid() == pid), "rank JVMs, not this one");
        for (final JsonNode run : report.get("runs"))
        {
            assertTrue(run.get("verified").asBoolean(), run.toString());
        }
        assertNothingLeftOf(pids);
    }

    /** What {@code am2j app} printed, and its status. */
    private record Ran(int status, String out, String err)
    {
        String output()
        {
            return "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    private Ran app(final String... args) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final Future<Integer> job = executor.submit(() -> new AppCommand(
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
            .run(List.of(args).subList(1, args.length).toArray(new String[0])));
        try
        {
            return new Ran(job.get(JOB_TIMEOUT_S + 10, TimeUnit.SECONDS), out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
        }
        catch (final TimeoutException ex)
        {
            job.cancel(true);
            ourDescendants().forEach(ProcessHandle::destroyForcibly);
            return fail("am2j " + String.join(" ", args) + " did not end within its time limit\n--- stdout ---\n" +
                out.toString(StandardCharsets.UTF_8) + "--- stderr ---\n" + err.toString(StandardCharsets.UTF_8));
        }
    }

    /** No rank JVM left running, no counters file of one, no shared-memory directory of this launcher's jobs. */
    private static void assertNothingLeftOf(final List<Long> pids) throws IOException
    {
        for (final long pid : pids)
        {
            assertTrue(ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), "rank JVM " + pid + " runs");
            final Path counters = ShmDirectories.userRoot().resolve("counters").resolve(pid + ".counters");
            assertTrue(!Files.exists(counters), "counters file left: " + counters);
        }
        final String ourJobs = "j" + ProcessHandle.current().pid() + "-";
        final Path root = ShmDirectories.userRoot();
        if (Files.isDirectory(root))
        {
            try (Stream<Path> files = Files.list(root))
            {
                final List<Path> left = files.filter(f -> f.getFileName().toString().contains(ourJobs))
                    .collect(Collectors.toList());
                assertTrue(left.isEmpty(), "left in shared memory: " + left);
            }
        }
    }
}
