package org.am2j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.Test;

/**
 * The parsing and report code of {@code am2j scale}: measurement lines, options, figures derived from the lines, and
 * the Markdown and JSON they make.
 */
class ScaleReportTest
{
    private static final String HELLO_OUTPUT = String.join("\n",
        "[0] rank 0 of 3 on node 0",
        "[0] scale.hello {\"startup_ms\":900,\"rss_kb\":40960,\"hwm_kb\":51200}",
        "[2] rank 2 of 3 on node 1",
        "[1] scale.hello {\"startup_ms\":1100,\"rss_kb\":43008,\"hwm_kb\":52224}",
        "[2] scale.hello {\"startup_ms\":1000,\"rss_kb\":-1,\"hwm_kb\":53248}",
        "launcher: something else",
        "");

    @Test
    void formatsAndParsesMeasurementLines()
    {
        final String text = ScaleLine.format("poll", "medium", "net", "peers", 8, "ns_per_poll", "41.5");
        assertEquals("scale.poll {\"medium\":\"net\",\"peers\":8,\"ns_per_poll\":\"41.5\"}", text);
        final ScaleLine line = ScaleLine.parse("[3] " + text);
        assertEquals("poll", line.kind());
        assertEquals("net", line.text("medium"));
        assertEquals(8, line.longValue("peers"));
        assertEquals(41.5, line.doubleValue("ns_per_poll"));
        assertNull(ScaleLine.parse("[3] rank 3 of 4 on node 1"));
        assertNull(ScaleLine.parse("scaled down"));
        assertThrows(IllegalArgumentException.class, () -> ScaleLine.parse("[1] scale.poll peers"));
        assertThrows(IllegalArgumentException.class, () -> ScaleLine.parse("[1] scale.poll {\"peers\":"));
        assertThrows(IllegalArgumentException.class, () -> line.longValue("medium"));
        assertThrows(IllegalArgumentException.class, () -> line.text("missing"));
        assertEquals("two words", ScaleLine.parse(ScaleLine.format("x", "k", "two words")).text("k"));
        assertThrows(IllegalArgumentException.class, () -> ScaleLine.format("x", "k"));
    }

    @Test
    void collectsTheLinesOfOneKind()
    {
        final List<ScaleLine> lines = ScaleLine.parseAll(HELLO_OUTPUT, "hello");
        assertEquals(3, lines.size());
        assertEquals(0, ScaleLine.parseAll(HELLO_OUTPUT, "poll").size());
    }

    @Test
    void helloFiguresAreMediansAndMaximaOfTheKnownValues()
    {
        final ScaleReport.Hello hello = new ScaleReport.Hello(3, 2, "cmd", 4.2,
            ScaleLine.parseAll(HELLO_OUTPUT, "hello"));
        assertEquals(1000, hello.startupMs(false));
        assertEquals(1100, hello.startupMs(true));
        // rank 2 could not read its RSS (-1): the median is over the two known values
        assertEquals(41984, hello.rssKb(false));
        assertEquals(43008, hello.rssKb(true));
        assertEquals(52224, hello.hwmKb(false));
    }

    private static ScaleReport.Poll poll(final String medium)
    {
        return new ScaleReport.Poll(medium, "bin/am2j run -n 33 -- org.am2j.perf.ScalePollMain " + medium,
            ScaleLine.parseAll(String.join("\n",
                ScaleLine.format("poll", "medium", medium, "peers", 1, "ns_per_poll", "30.0", "ns_per_poll_min", "29.0",
                    "heap_b", 1000000, "direct_b", 100000, "mapped_b", 2000000),
                ScaleLine.format("poll", "medium", medium, "peers", 8, "ns_per_poll", "31.0", "ns_per_poll_min", "30.0",
                    "heap_b", 1007000, "direct_b", 114000, "mapped_b", 2000000),
                ScaleLine.format("poll", "medium", medium, "peers", 32, "ns_per_poll", "33.5", "ns_per_poll_min",
                    "31.0", "heap_b", 1031000, "direct_b", 162000, "mapped_b", 2000000)), "poll"));
    }

    @Test
    void memoryPerPeerIsTheGrowthFromTheFewestToTheMostPeers()
    {
        final ScaleReport.Poll poll = poll("net");
        assertEquals(1000.0, poll.bytesPerPeer("heap_b"));
        assertEquals(2000.0, poll.bytesPerPeer("direct_b"));
        assertEquals(0.0, poll.bytesPerPeer("mapped_b"));
        assertEquals(3000.0, poll.bytesPerPeer("heap_b", "direct_b", "mapped_b"));
        final ScaleReport.Poll single = new ScaleReport.Poll("shm", "cmd", List.of(poll.lines().get(0)));
        assertTrue(Double.isNaN(single.bytesPerPeer("heap_b")));
    }

    @Test
    void floodRateIsAllRoundTripsOverTheSlowestRank()
    {
        final ScaleReport.Flood flood = new ScaleReport.Flood(2, 1, "cmd", ScaleLine.parseAll(String.join("\n",
            "[0] scale.flood {\"rank\":0,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.5}",
            "[1] scale.flood {\"rank\":1,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.25}"), "flood"));
        assertEquals(2000, flood.roundTrips());
        assertEquals(0.5, flood.seconds());
        assertEquals(4000.0, flood.perSecond());
    }

    /**
     * @return a report of every part: a hello job, both poll media, a flood job and a failed job.
     */
    static ScaleReport fullestReport()
    {
        final ScaleReport report = new ScaleReport("bin/am2j scale", "2026-01-01T00:00:00Z", 2, "Java 17",
            new MachineState(0.5, 0.4, 0.3, 2100));
        report.hellos.add(new ScaleReport.Hello(3, 2, "bin/am2j run -n 3 --nodes 2 -- org.am2j.perf.ScaleHelloMain",
            4.25, ScaleLine.parseAll(HELLO_OUTPUT, "hello")));
        report.polls.add(poll("shm"));
        report.polls.add(poll("net"));
        report.floods.add(new ScaleReport.Flood(2, 1, "cmd", ScaleLine.parseAll(String.join("\n",
            "[0] scale.flood {\"rank\":0,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.5}",
            "[1] scale.flood {\"rank\":1,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.25}"), "flood")));
        report.failures.add("`bin/am2j run -n 2 -- x` exited with status 124 (time limit)");
        report.after(new MachineState(1.5, 0.6, 0.3, 2000));
        return report;
    }

    @Test
    void theReportNamesEachCommandAndTheMachine()
    {
        final ScaleReport report = new ScaleReport("bin/am2j scale --parts poll", "2026-01-01T00:00:00Z", 2,
            "Java 17", new MachineState(0.5, 0.4, 0.3, 2100));
        report.hellos.add(new ScaleReport.Hello(3, 2, "bin/am2j run -n 3 --nodes 2 -- org.am2j.perf.ScaleHelloMain",
            4.25, ScaleLine.parseAll(HELLO_OUTPUT, "hello")));
        report.polls.add(poll("shm"));
        report.polls.add(poll("net"));
        report.failures.add("`bin/am2j run -n 2 -- x` exited with status 124 (time limit)");
        report.after(new MachineState(1.5, 0.6, 0.3, 2000));

        final String md = report.markdown();
        assertTrue(md.contains("Made by `bin/am2j scale --parts poll` on 2026-01-01T00:00:00Z: 2 CPUs, Java 17, " +
            "load average 0.50 before and 1.50 after"), md);
        assertTrue(md.contains("| 3 | 2 | 4.3 | 1000 | 1100 | 41.0 | 42.0 | 51.0 | 52.0 |"), md);
        assertTrue(md.contains("- 3 ranks: `bin/am2j run -n 3 --nodes 2 -- org.am2j.perf.ScaleHelloMain`"), md);
        assertTrue(md.contains("| net | 32 | 33.5 | 31.0 | 1007 | 158 | 1953 |"), md);
        assertTrue(md.contains("| shm | 1000 | 2000 | 0 | 3000 |"), md);
        assertTrue(md.contains("- net: `bin/am2j run -n 33 -- org.am2j.perf.ScalePollMain net`"), md);
        assertTrue(md.contains("## Failed jobs"), md);
        assertFalse(md.contains("all-to-all against"), "no flood section without floods: " + md);

        final JsonNode json = ReportJson.read(report.json());
        assertEquals("bin/am2j scale --parts poll", json.get("command").asText());
        assertEquals(0.5, json.at("/machine_before/load_avg_1m").asDouble());
        assertEquals(1.5, json.at("/machine_after/load_avg_1m").asDouble());
        assertEquals(1000, json.at("/hello/0/startup_ms_median").asDouble());
        assertEquals(3000, json.at("/poll/0/bytes_per_peer").asDouble());
        assertEquals(33.5, json.at("/poll/1/points/2/ns_per_poll").asDouble());
        assertEquals(ReportJson.read("[]"), json.get("flood"));
        assertTrue(json.at("/failures/0").asText().endsWith("status 124 (time limit)"), json.toString());
    }

    @Test
    void optionsHaveTheIssuesSizesByDefault()
    {
        final ScaleOptions defaults = ScaleOptions.parse(new String[0]);
        assertEquals(List.of("hello", "poll", "flood"), List.copyOf(defaults.parts));
        assertEquals(4, defaults.nodes);
        assertEquals(List.of(8, 32, 64, 128), java.util.Arrays.stream(defaults.helloRanks).boxed().toList());
        assertEquals(List.of(1, 8, 32), java.util.Arrays.stream(defaults.pollPeers).boxed().toList());
        assertEquals(List.of("shm", "net"), defaults.media);
        assertEquals(32, defaults.floodRanks);
        assertNull(defaults.json);

        final ScaleOptions small = ScaleOptions.parse(new String[] {"--parts", "flood,hello", "--hello-ranks", "8",
            "--poll-peers", "1", "--media", "net", "--json", "x.json", "--md", "x.md"});
        assertEquals(List.of("hello", "flood"), List.copyOf(small.parts));
        assertEquals(8, small.helloRanks[0]);
        assertEquals(List.of("net"), small.media);
        assertEquals("x.json", small.json.toString());
        assertTrue(ScaleOptions.parse(new String[] {"--help"}).help);
    }

    @Test
    void badOptionsSayWhatIsWrong()
    {
        assertEquals("--parts hello,ping: 'ping' is not one of hello, poll, flood", assertThrows(
            IllegalArgumentException.class, () -> ScaleOptions.parse(new String[] {"--parts", "hello,ping"}))
            .getMessage());
        assertEquals("--poll-peers 8,1: must be ascending", assertThrows(IllegalArgumentException.class,
            () -> ScaleOptions.parse(new String[] {"--poll-peers", "8,1"})).getMessage());
        assertEquals("--nodes 'x' is not a number (1 to 1024)", assertThrows(IllegalArgumentException.class,
            () -> ScaleOptions.parse(new String[] {"--nodes", "x"})).getMessage());
        assertEquals("--nodes needs a value", assertThrows(IllegalArgumentException.class,
            () -> ScaleOptions.parse(new String[] {"--nodes"})).getMessage());
        assertEquals("unknown argument '--fast'", assertThrows(IllegalArgumentException.class,
            () -> ScaleOptions.parse(new String[] {"--fast", "1"})).getMessage());
    }

    @Test
    void readsResidentMemoryFromAStatusFile()
    {
        final String status = "Name:\tjava\nVmHWM:\t  52224 kB\nVmRSS:\t   40960 kB\n";
        assertEquals(40960, ScaleHelloMain.statusKb(status, "VmRSS:"));
        assertEquals(52224, ScaleHelloMain.statusKb(status, "VmHWM:"));
        assertEquals(-1, ScaleHelloMain.statusKb(status, "VmSwap:"));
    }

    @Test
    void aBadCommandLineExitsWithUsage()
    {
        final java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        final int status = new Scale(System.out, new java.io.PrintStream(err, true)).run(new String[] {"--media",
            "tcp"});
        assertEquals(2, status);
        assertTrue(err.toString().contains("am2j scale: --media tcp: 'tcp' is not one of shm, net"), err.toString());
        assertTrue(err.toString().contains(ScaleOptions.USAGE), err.toString());
    }
}
