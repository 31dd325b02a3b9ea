package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.am2j.splitc.CommSummary;
import org.junit.jupiter.api.Test;

/**
 * The printed report of a run: its facts in words (the JSON keeps its field names), its parameters under the options
 * that set them, and a warning when the JIT compiled during the timed run.
 */
class RunReportTest
{
    @Test
    void theFactsArePrintedInWordsAndTheParametersUnderTheirOptions()
    {
        final String text = print(report(activity(1, 1372, 12, true)));

        assertTrue(text.contains("parameters: graph-nodes=100 degree=10 remote=0.40 layout=naive iterations=10 " +
            "seed=1\n"), text);
        assertTrue(text.contains("verification: 400 values compared with the sequential run's, 0 not bitwise equal, " +
            "checksum 1.2948\n"), text);
        assertTrue(text.contains("run: layout naive, 10 iterations, 100 ghost nodes per half step (most on one " +
            "rank)\n"), text);
        assertTrue(text.contains("besides the application (slowest rank): 1 warm-up runs before it, timed run 1, " +
            "run 1372 ms, JIT compiling 12 ms, JIT quiet true\n"), text);
        for (final String jsonName : new String[] { "values_compared", "ghosts_per_half_step_max", "run_ms_max",
            "warmup_runs", "jit_ms_max" })
        {
            assertFalse(text.contains(jsonName), jsonName + " printed as its JSON name:\n" + text);
        }
        assertFalse(text.contains("COLD RUN") || text.contains("JIT NOT QUIET"), text);
    }

    @Test
    void aColdFirstRunIsFlagged()
    {
        final RunReport cold = report(activity(0, 1372, 546, false));

        assertEquals("COLD RUN: no warm-up run before it (--warmup 0, the default) and the JIT compiled for 546 ms of " +
            "the run's 1372 ms, so its times include compilation; --warmup auto warms up until the JIT is quiet",
            cold.coldRun());
        assertTrue(print(cold).contains(cold.coldRun() + "\n"));
    }

    @Test
    void aRunAfterTooFewWarmUpsIsFlaggedToo()
    {
        assertTrue(report(activity(2, 100, 40, false)).coldRun().startsWith("JIT NOT QUIET: after 2 warm-up run(s) " +
            "the JIT compiled for 40 ms of the run's 100 ms"));
        assertNull(report(activity(2, 100, 1, true)).coldRun());
        assertNull(report(Map.of()).coldRun(), "a run whose activity was not measured claims nothing");
    }

    @Test
    void aFieldWithoutAPhraseIsPrintedWithItsNameInWords()
    {
        assertEquals("some new field 3", ReportWords.phrase("some_new_field", 3));
        assertEquals("communication 0.2482 s on the fastest rank", ReportWords.phrase("communication_s_min", 0.2482));
    }

    private static Map<String, Object> activity(final int warmups, final long runMs, final long jitMs,
        final boolean quiet)
    {
        final Map<String, Object> activity = new LinkedHashMap<>();
        activity.put("warmup_runs", warmups);
        activity.put("timed_run", 1);
        activity.put("run_ms_max", runMs);
        activity.put("jit_ms_max", jitMs);
        activity.put("jit_quiet", quiet);
        return activity;
    }

    private static RunReport report(final Map<String, Object> activity)
    {
        final RunSpec spec = Apps.byName("em3d").preset("small").get(0);
        final Map<String, String> parameters = new LinkedHashMap<>(spec.parameters());
        parameters.put("nodes", "100");
        final Map<String, Object> verification = new LinkedHashMap<>();
        verification.put("values_compared", 400L);
        verification.put("bitwise_mismatches", 0L);
        verification.put("checksum", 1.2948);
        final Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("layout", "naive");
        extra.put("iterations", 10L);
        extra.put("ghosts_per_half_step_max", 100L);
        final long[] counts = new long[CommSummary.FIELDS.size()];
        return new RunReport(new RunSpec(spec.app(), spec.label(), parameters), Map.of("communication", 0.97), 1.06,
            true, verification, new CommSummary(2, counts, counts, counts), extra).withActivity(activity);
    }

    private static String print(final RunReport report)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
