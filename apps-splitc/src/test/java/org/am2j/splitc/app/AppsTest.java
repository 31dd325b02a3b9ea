package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.LauncherTestSupport;
import org.am2j.spmd.Job;
import org.am2j.spmd.RendezvousConfig;
import org.am2j.spmd.Spmd;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The applications' {@code small} presets as jobs of rank JVMs through the launcher ({@link AppTestMain} runs
 * {@link AppMain}), on each node count of {@link LauncherTestSupport#NODE_COUNTS}: every run verified, its report
 * printed, the JSON report written with {@code "verified": true}, times and counts; EM3D also with 8 ranks on this
 * machine's 2 cores. Nothing may be left in shared memory. The driver's warm-up and timed runs are checked with one
 * rank in this JVM, and under the soak profile between two rank JVMs too.
 */
class AppsTest extends LauncherTestSupport
{
    @TempDir
    Path dir;

    static Stream<Arguments> jobs()
    {
        return IntStream.of(NODE_COUNTS).boxed().flatMap(nodes -> Stream.of(
            Arguments.of("fft3d", 4, nodes, 1),
            Arguments.of("con", 4, nodes, 2),
            Arguments.of("em3d", 4, nodes, 2),
            Arguments.of("em3d", 8, nodes, 2)));
    }

    /** The default build's job: one application over both protocols (4 ranks on 2 nodes). */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void oneApplicationOnTwoNodesIsVerifiedAndReported() throws Exception
    {
        smallPresetIsVerifiedAndReported("fft3d", 4, 2, 1);
    }

    /** Every application on every node count: minutes on 2 CPUs, so in the soak profile. */
    @Tag("soak")
    @ParameterizedTest(name = "{0} --preset small on {1} ranks, {2} node(s)")
    @MethodSource("jobs")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyApplicationOnEveryNodeCount(final String app, final int ranks, final int nodes, final int runs)
        throws Exception
    {
        smallPresetIsVerifiedAndReported(app, ranks, nodes, runs);
    }

    private void smallPresetIsVerifiedAndReported(final String app, final int ranks, final int nodes, final int runs)
        throws Exception
    {
        final Path json = dir.resolve(app + ".json");
        final JobResult result = runJob(100, ranks, nodes, List.of(), AppTestMain.class, app, "--preset", "small",
            "--json", json.toString());

        result.assertSucceeded(ranks);
        assertEquals(runs, result.out.lines().filter(l -> l.startsWith("[0] == " + app + " ") &&
            l.endsWith(": VERIFIED ==")).count(), result.output());
        assertEquals(1, result.out.lines().filter(("[0] am2j app " + app + ": all runs verified")::equals).count(),
            result.output());
        assertTrue(result.out.contains("[0] messages per rank (" + ranks + " ranks)"), result.output());
        assertTrue(result.out.lines().anyMatch(l -> l.startsWith("[0] total ")), result.output());

        final JsonNode report = report(json);
        assertEquals("app", report.fieldNames().next(), "the application first: " + report);
        assertEquals(app, report.get("app").asText());
        assertTrue(report.get("verified").asBoolean(), report.toString());
        assertEquals(ranks, report.get("ranks").asInt());
        assertEquals(runs, report.get("runs").size(), report.toString());
        for (final JsonNode run : report.get("runs"))
        {
            assertTrue(run.get("verified").asBoolean(), run.toString());
            assertTrue(run.get("phases_s").isObject(), run.toString());
            assertTrue(run.at("/counts_per_rank/network_short").isObject(), run.toString());
            final JsonNode local = run.at("/counts_per_rank/percent_local");
            assertTrue(local.isNumber(), run.toString());
            if (nodes == 1)
            {
                assertEquals(100.0, local.asDouble(), run.toString());
            }
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    /** One rank in this JVM: what the driver prints and reports does not depend on where the ranks run. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void warmupRunsComeFirstAndAreVerifiedButNotReported() throws Exception
    {
        warmupRunsComeFirstAndAreVerifiedButNotReported(AppsTest::inThisJvm);
    }

    private void warmupRunsComeFirstAndAreVerifiedButNotReported(final RankZero rankZero) throws Exception
    {
        final Path json = dir.resolve("em3d-warm.json");
        final List<String> lines = rankZero.run("em3d", "--preset", "small", "--warmup", "1", "--json",
            json.toString());

        for (final String label : List.of("EM3D/naive (small)", "EM3D/good (small)"))
        {
            final int warm = indexOfPrefix(lines, "em3d: " + label + ": warm-up run 1 of 1 verified; JIT ");
            final int timed = lines.indexOf("== em3d " + label + ": VERIFIED ==");
            assertTrue(warm >= 0 && timed > warm, "the warm-up of " + label + " before its timed run: " +
                String.join("\n", lines));
        }
        final JsonNode report = report(json);
        assertEquals(1, report.get("warmup").asInt(), report.toString());
        assertEquals(2, report.get("runs").size(), "timed runs only: " + report);
        for (final JsonNode run : report.get("runs"))
        {
            assertTrue(run.get("verified").asBoolean(), run.toString());
            assertEquals(1, run.at("/activity/warmup_runs").asInt(), run.toString());
            assertTrue(run.at("/activity/jit_ms_max").isIntegralNumber(), run.toString());
        }
    }

    // runs the application until the JIT is quiet, tens of seconds on 2 CPUs: soak (the fixed warm-up count stays)
    @Tag("soak")
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anAutomaticWarmupRunsUntilTheJitIsQuietAndSaysHowMany() throws Exception
    {
        final Path json = dir.resolve("em3d-auto.json");
        final JobResult result = runJob(100, 2, 1, List.of(), AppTestMain.class, "em3d", "--preset", "small",
            "--warmup", "auto:3", "--json", json.toString());

        result.assertSucceeded(2);
        final List<String> lines = result.out.lines().toList();
        final int first = indexOfPrefix(lines,
            "[0] em3d: EM3D/naive (small): warm-up run 1 (until the JIT is quiet, at most 3) verified; JIT ");
        final int timed = lines.indexOf("[0] == em3d EM3D/naive (small): VERIFIED ==");
        assertTrue(first >= 0 && timed > first, result.output());
        final long warmups = lines.subList(first, timed).stream()
            .filter(l -> l.startsWith("[0] em3d: EM3D/naive (small): warm-up run ")).count();
        assertTrue(warmups >= 1 && warmups <= 3, result.output());
        final JsonNode report = report(json);
        assertEquals("auto:3", report.get("warmup").asText(), report.toString());
        assertEquals("EM3D/naive (small)", report.at("/runs/0/label").asText(), report.toString());
        assertEquals(warmups, report.at("/runs/0/activity/warmup_runs").asLong(), report.toString());
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    /** One rank in this JVM, as the warm-up's test. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void timedRunsAreAllReportedAndTheMedianOneIsPrinted() throws Exception
    {
        timedRunsAreAllReportedAndTheMedianOneIsPrinted(AppsTest::inThisJvm);
    }

    // soak: both between two rank JVMs (the default build runs an application between rank JVMs in
    // oneApplicationOnTwoNodesIsVerifiedAndReported)
    @Tag("soak")
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void warmupAndTimedRunsBetweenRankJvms() throws Exception
    {
        warmupRunsComeFirstAndAreVerifiedButNotReported(this::inTwoRankJvms);
        timedRunsAreAllReportedAndTheMedianOneIsPrinted(this::inTwoRankJvms);
    }

    private void timedRunsAreAllReportedAndTheMedianOneIsPrinted(final RankZero rankZero) throws Exception
    {
        final Path json = dir.resolve("con-timed.json");
        final List<String> lines = rankZero.run("con", "--preset", "small", "--timed", "3", "--json",
            json.toString());

        for (final String label : List.of("CON/comm (small)", "CON/comp (small)"))
        {
            for (int t = 1; t <= 3; t++)
            {
                final int at = indexOfPrefix(lines, "con: " + label + ": timed run " + t + " of 3: ");
                assertTrue(at >= 0 && lines.get(at).endsWith(" s, verified"), String.join("\n", lines));
            }
            assertEquals(1, lines.stream().filter(("== con " + label + ": VERIFIED ==")::equals).count(),
                "one report printed, the median run's: " + String.join("\n", lines));
        }
        final JsonNode report = report(json);
        assertEquals(3, report.get("timed").asInt(), report.toString());
        final List<Double> totals = new ArrayList<>();
        final List<Integer> timedRuns = new ArrayList<>();
        for (final JsonNode run : report.get("runs"))
        {
            assertTrue(run.get("verified").asBoolean(), run.toString());
            timedRuns.add(run.at("/activity/timed_run").asInt());
            totals.add(run.get("total_s").asDouble());
        }
        assertEquals(List.of(1, 2, 3, 1, 2, 3), timedRuns, report.toString());
        final double sumOfMedians = median(totals.subList(0, 3)) + median(totals.subList(3, 6));
        assertEquals(sumOfMedians, report.get("total_s").asDouble(), 1e-9, report.toString());
    }

    /** Runs {@code bin/am2j app}'s arguments and returns rank 0's output lines. */
    @FunctionalInterface
    private interface RankZero
    {
        List<String> run(String... args) throws Exception;
    }

    /**
     * @param args of the application.
     * @return its output lines, run as the one rank of a job in this JVM (in-process transport).
     */
    private static List<String> inThisJvm(final String... args) throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int status;
        try (Job job = Spmd.init(Map.of(), new RendezvousConfig());
            PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            status = AppMain.run(job, args, out);
        }
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text);
        return text.lines().toList();
    }

    /**
     * @param args of the application.
     * @return rank 0's output lines ({@code [0] } taken off), run as a job of two rank JVMs on one node, which must
     * succeed and leave nothing behind.
     */
    private List<String> inTwoRankJvms(final String... args) throws Exception
    {
        final JobResult result = runJob(100, 2, 1, List.of(), AppTestMain.class, args);
        result.assertSucceeded(2);
        assertNothingLeft(result.jobId(), result.rankPids());
        return result.out.lines().filter(l -> l.startsWith("[0] ")).map(l -> l.substring(4)).toList();
    }

    private static JsonNode report(final Path json) throws IOException
    {
        return ReportJson.read(Files.readString(json, StandardCharsets.UTF_8));
    }

    private static double median(final List<Double> three)
    {
        final List<Double> sorted = new ArrayList<>(three);
        Collections.sort(sorted);
        return sorted.get(1);
    }

    private static int indexOfPrefix(final List<String> lines, final String prefix)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).startsWith(prefix))
            {
                return i;
            }
        }
        return -1;
    }
}
