package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.am2j.spmd.Job;
import org.am2j.spmd.RendezvousConfig;
import org.am2j.spmd.Spmd;
import org.am2j.splitc.app.AppMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class AppReportTest
{
    @Test
    void readsTheJobAndEveryRun()
    {
        final AppReport report = AppReport.parse(Reports.report("con", 2, List.of("inproc", "shm", "net"),
            Reports.run("CON/comm (small)", true, 0.7, "local", 0.03, "boundary", 0.3, "global", 0.37),
            Reports.run("CON/comp (small)", false, 0.2, "local", 0.02)));

        assertEquals("con", report.app());
        assertEquals(4, report.ranks());
        assertEquals(2, report.nodes());
        assertEquals(1, report.ranksPerJvm(), "a report that does not say: a JVM per rank");
        assertEquals("every", report.poll());
        assertEquals(List.of("inproc", "shm", "net"), report.transports());
        assertFalse(report.verified());
        assertEquals(2, report.runs().size());

        final AppRun comm = report.runs().get(0);
        assertEquals("CON/comm (small)", comm.label());
        assertTrue(comm.verified());
        assertEquals(0.7, comm.totalSeconds());
        assertEquals(List.of("local", "boundary", "global"), List.copyOf(comm.phases().keySet()));
        assertEquals(0.3, comm.phases().get("boundary"));
        assertEquals(7.0, comm.mean("network_short"));
        assertEquals(256.0, comm.mean("network_bulk"));
        assertEquals(4096.0, comm.meanBulkSize("network_bulk"));
        assertEquals(0.0, comm.meanBulkSize("local_bulk"));
        assertEquals(33.33333, comm.percentLocal());
        assertFalse(report.runs().get(1).verified());
    }

    @Test
    void readsTheReportAnApplicationWrites(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("con.json");
        try (Job job = Spmd.init(Map.of(), new RendezvousConfig()))
        {
            assertEquals(0, AppMain.run(job, new String[]{ "con", "--preset", "small", "--json", json.toString() },
                new PrintStream(OutputStream.nullOutputStream())));
        }
        final AppReport report = AppReport.parse(Files.readString(json, StandardCharsets.UTF_8));

        assertEquals("con", report.app());
        assertEquals(1, report.ranks());
        assertEquals(1, report.ranksPerJvm());
        assertTrue(report.verified());
        assertEquals(List.of("CON/comm (small)", "CON/comp (small)"),
            report.runs().stream().map(AppRun::label).toList());
        for (final AppRun run : report.runs())
        {
            assertTrue(run.verified(), run.toString());
            assertTrue(run.totalSeconds() > 0, run.toString());
            assertFalse(run.phases().isEmpty(), run.toString());
            assertEquals(1, run.parameter("seed", -1), run.toString());
            assertEquals(0.0, run.mean("network_short"), "one rank sends no message: " + run);
        }
    }

    @Test
    void refusesAReportWithoutItsNumbers()
    {
        final Map<String, Object> run = Reports.run("r", true, 1.0);
        run.remove("total_s");
        assertThrows(IllegalArgumentException.class, () -> AppReport.parse(Reports.report("fft3d", 1,
            List.of("inproc"), run)));
        assertThrows(IllegalArgumentException.class, () -> AppReport.parse("{\"app\": \"fft3d\"}"));
        assertThrows(IllegalArgumentException.class, () -> AppReport.parse("not json"));
    }
}
