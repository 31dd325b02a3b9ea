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
        "[0] scale.hello {\"pid\":100,\"startup_ms\":900,\"rss_kb\":40960,\"hwm_kb\":51200,\"pss_kb\":30720}",
        "[2] rank 2 of 3 on node 1",
        "[1] scale.hello {\"pid\":101,\"startup_ms\":1100,\"rss_kb\":43008,\"hwm_kb\":52224,\"pss_kb\":31744}",
        "[2] scale.hello {\"pid\":102,\"startup_ms\":1000,\"rss_kb\":-1,\"hwm_kb\":53248,\"pss_kb\":32768}",
        "launcher: something else",
        "");

    @Test
    void formatsAndParsesMeasurementLines()
    {
        final ScaleLine.Poll point = new ScaleLine.Poll(8, 41.5, 40.0, 1000, 200, 30);
        final String text = ScaleLine.format("poll", point);
        assertEquals("scale.poll {\"peers\":8,\"ns_per_poll\":41.5,\"ns_per_poll_min\":40.0,\"heap_b\":1000," +
            "\"direct_b\":200,\"mapped_b\":30}", text);
        assertEquals(point, ScaleLine.parse("[3] " + text, "poll", ScaleLine.Poll.class));
        assertNull(ScaleLine.parse("[3] " + text, "hello", ScaleLine.Hello.class));
        assertNull(ScaleLine.parse("[3] rank 3 of 4 on node 1", "poll", ScaleLine.Poll.class));
        assertNull(ScaleLine.parse("scaled down", "poll", ScaleLine.Poll.class));
        for (final String bad : List.of("[1] scale.poll peers", "[1] scale.poll {\"peers\":",
            "[1] scale.poll {\"peers\":8}", "[1] " + text.replace("8", "\"eight\"")))
        {
            assertThrows(IllegalArgumentException.class, () -> ScaleLine.parse(bad, "poll", ScaleLine.Poll.class), bad);
        }
    }

    @Test
    void collectsTheLinesOfOneKind()
    {
        assertEquals(3, ScaleLine.parseAll(HELLO_OUTPUT, "hello", ScaleLine.Hello.class).size());
        assertEquals(0, ScaleLine.parseAll(HELLO_OUTPUT, "poll", ScaleLine.Poll.class).size());
    }

    /** Four ranks, two in each of two JVMs (pids 100 and 200), each rank reading its JVM's memory in turn. */
    private static final String SHARED_JVM_OUTPUT = String.join("\n",
        "[0] scale.hello {\"pid\":100,\"startup_ms\":900,\"rss_kb\":61440,\"hwm_kb\":61440,\"pss_kb\":30000}",
        "[2] scale.hello {\"pid\":200,\"startup_ms\":950,\"rss_kb\":61440,\"hwm_kb\":61440,\"pss_kb\":29000}",
        "[1] scale.hello {\"pid\":100,\"startup_ms\":900,\"rss_kb\":62464,\"hwm_kb\":62464,\"pss_kb\":31000}",
        "[3] scale.hello {\"pid\":200,\"startup_ms\":950,\"rss_kb\":61440,\"hwm_kb\":61440,\"pss_kb\":29000}",
        "");

    @Test
    void ranksOfOneJvmCountItsProportionalSetSizeOnce()
    {
        final ScaleReport.Hello shared = new ScaleReport.Hello(4, 2, 2, "cmd", 3.0,
            ScaleLine.parseAll(SHARED_JVM_OUTPUT, "hello", ScaleLine.Hello.class));
        assertEquals(2, shared.jvms());
        // JVM 100 counted once, at its later (larger) reading: (31000 + 29000) / 4 ranks
        assertEquals(15000.0, shared.pssKbPerRank());
        // the resident memory columns stay those of the ranks' JVMs
        assertEquals(61440, shared.rssKb(false));
        assertEquals(62464, shared.rssKb(true));

        final ScaleReport.Hello own = new ScaleReport.Hello(3, 2, 1, "cmd", 4.2,
            ScaleLine.parseAll(HELLO_OUTPUT, "hello", ScaleLine.Hello.class));
        assertEquals(3, own.jvms());
        assertEquals((30720 + 31744 + 32768) / 3.0, own.pssKbPerRank());

        final ScaleReport.Hello unknown = new ScaleReport.Hello(4, 2, 2, "cmd", 3.0,
            ScaleLine.parseAll(SHARED_JVM_OUTPUT.replace("\"pss_kb\":29000", "\"pss_kb\":-1"), "hello",
                ScaleLine.Hello.class));
        assertTrue(Double.isNaN(unknown.pssKbPerRank()), "a JVM without a PSS makes the sum unknown");
    }

    @Test
    void theHelloLineIsWrittenWithoutJacksonAsJacksonWouldWriteIt()
    {
        final ScaleLine.Hello hello = new ScaleLine.Hello(4242, 1234, 61440, 65536, -1);
        assertEquals(ScaleLine.format("hello", hello), ScaleHelloMain.line(hello));
        assertEquals(hello, ScaleLine.parse("[7] " + ScaleHelloMain.line(hello), "hello", ScaleLine.Hello.class));
    }

    @Test
    void ranksPerJvmMustDivideTheRanksOfEveryNode()
    {
        assertNull(Scale.indivisible(32, 4, 8));
        assertNull(Scale.indivisible(128, 4, 32));
        assertNull(Scale.indivisible(5, 2, 1));
        assertEquals("-n 32 --nodes 4 --ranks-per-jvm 16: 16 does not divide the 8 rank(s) of node 0",
            Scale.indivisible(32, 4, 16));
        // 6 ranks on 4 nodes: 2, 2, 1, 1
        assertEquals("-n 6 --nodes 4 --ranks-per-jvm 2: 2 does not divide the 1 rank(s) of node 2",
            Scale.indivisible(6, 4, 2));
    }

    @Test
    void helloFiguresAreMediansAndMaximaOfTheKnownValues()
    {
        final ScaleReport.Hello hello = new ScaleReport.Hello(3, 2, 1, "cmd", 4.2,
            ScaleLine.parseAll(HELLO_OUTPUT, "hello", ScaleLine.Hello.class));
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
            List.of(new ScaleLine.Poll(1, 30.0, 29.0, 1000000, 100000, 2000000),
                new ScaleLine.Poll(8, 31.0, 30.0, 1007000, 114000, 2000000),
                new ScaleLine.Poll(32, 33.5, 31.0, 1031000, 162000, 2000000)));
    }

    @Test
    void memoryPerPeerIsTheGrowthFromTheFewestToTheMostPeers()
    {
        final ScaleReport.Poll poll = poll("net");
        assertEquals(1000.0, poll.bytesPerPeer(ScaleLine.Poll::heapB));
        assertEquals(2000.0, poll.bytesPerPeer(ScaleLine.Poll::directB));
        assertEquals(0.0, poll.bytesPerPeer(ScaleLine.Poll::mappedB));
        assertEquals(3000.0, poll.allBytesPerPeer());
        final ScaleReport.Poll single = new ScaleReport.Poll("shm", "cmd", List.of(poll.lines().get(0)));
        assertTrue(Double.isNaN(single.bytesPerPeer(ScaleLine.Poll::heapB)));
    }

    @Test
    void floodRateIsAllRoundTripsOverTheSlowestRank()
    {
        final ScaleReport.Flood flood = new ScaleReport.Flood(2, 1, 1, "cmd", ScaleLine.parseAll(String.join("\n",
            "[0] scale.flood {\"rank\":0,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.5}",
            "[1] scale.flood {\"rank\":1,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.25}"), "flood",
            ScaleLine.Flood.class));
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
        report.hellos.add(new ScaleReport.Hello(3, 2, 1, "bin/am2j run -n 3 --nodes 2 -- org.am2j.perf.ScaleHelloMain",
            4.25, ScaleLine.parseAll(HELLO_OUTPUT, "hello", ScaleLine.Hello.class)));
        report.polls.add(poll("shm"));
        report.polls.add(poll("net"));
        report.floods.add(new ScaleReport.Flood(2, 1, 1, "cmd", ScaleLine.parseAll(String.join("\n",
            "[0] scale.flood {\"rank\":0,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.5}",
            "[1] scale.flood {\"rank\":1,\"ranks\":2,\"round_trips\":1000,\"seconds\":0.25}"), "flood",
            ScaleLine.Flood.class)));
        report.skipped.add("hello -n 6 --nodes 4 --ranks-per-jvm 2: 2 does not divide the 1 rank(s) of node 2");
        report.failures.add("`bin/am2j run -n 2 -- x` exited with status 124 (time limit)");
        report.after(new MachineState(1.5, 0.6, 0.3, 2000));
        return report;
    }

    @Test
    void theReportNamesEachCommandAndTheMachine()
    {
        final ScaleReport report = new ScaleReport("bin/am2j scale --parts poll", "2026-01-01T00:00:00Z", 2,
            "Java 17", new MachineState(0.5, 0.4, 0.3, 2100));
        report.hellos.add(new ScaleReport.Hello(3, 2, 1, "bin/am2j run -n 3 --nodes 2 -- org.am2j.perf.ScaleHelloMain",
            4.25, ScaleLine.parseAll(HELLO_OUTPUT, "hello", ScaleLine.Hello.class)));
        report.hellos.add(new ScaleReport.Hello(4, 2, 2,
            "bin/am2j run -n 4 --nodes 2 --ranks-per-jvm 2 -- org.am2j.perf.ScaleHelloMain", 3.0,
            ScaleLine.parseAll(SHARED_JVM_OUTPUT, "hello", ScaleLine.Hello.class)));
        report.polls.add(poll("shm"));
        report.polls.add(poll("net"));
        report.skipped.add("hello -n 6 --nodes 4 --ranks-per-jvm 2: 2 does not divide the 1 rank(s) of node 2");
        report.failures.add("`bin/am2j run -n 2 -- x` exited with status 124 (time limit)");
        report.after(new MachineState(1.5, 0.6, 0.3, 2000));

        final String md = report.markdown();
        assertTrue(md.contains("Made by `bin/am2j scale --parts poll` on 2026-01-01T00:00:00Z: 2 CPUs, Java 17, " +
            "load average 0.50 before and 1.50 after"), md);
        assertTrue(md.contains("| 3 | 2 | 1 | 4.3 | 1000 | 1100 | 41.0 | 42.0 | 51.0 | 52.0 | 31.0 |"), md);
        assertTrue(md.contains("| 4 | 2 | 2 | 3.0 | 925 | 950 | 60.0 | 61.0 | 60.0 | 61.0 | 14.6 |"), md);
        assertTrue(md.contains("- 3 ranks, 1 per JVM: `bin/am2j run -n 3 --nodes 2 -- org.am2j.perf.ScaleHelloMain`"),
            md);
        assertTrue(md.contains("## Jobs not run\n\n- hello -n 6 --nodes 4 --ranks-per-jvm 2: 2 does not divide"), md);
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
        assertEquals(1, json.at("/hello/0/ranks_per_jvm").asInt());
        assertEquals(3, json.at("/hello/0/jvms").asInt());
        assertEquals(2, json.at("/hello/1/ranks_per_jvm").asInt());
        assertEquals(2, json.at("/hello/1/jvms").asInt());
        assertEquals(15000, json.at("/hello/1/pss_kb_per_rank").asDouble());
        assertTrue(json.at("/skipped/0").asText().contains("--ranks-per-jvm 2"), json.toString());
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
        assertEquals(List.of(1), java.util.Arrays.stream(defaults.ranksPerJvm).boxed().toList());
        assertNull(defaults.json);

        final ScaleOptions small = ScaleOptions.parse(new String[] {"--parts", "flood,hello", "--hello-ranks", "8",
            "--poll-peers", "1", "--media", "net", "--json", "x.json", "--md", "x.md", "--ranks-per-jvm", "1,8,32,8"});
        assertEquals(List.of("hello", "flood"), List.copyOf(small.parts));
        assertEquals(8, small.helloRanks[0]);
        assertEquals(List.of("net"), small.media);
        assertEquals(List.of(1, 8, 32), java.util.Arrays.stream(small.ranksPerJvm).boxed().toList());
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
        assertEquals("--ranks-per-jvm 0 is outside [1, 4096]", assertThrows(IllegalArgumentException.class,
            () -> ScaleOptions.parse(new String[] {"--ranks-per-jvm", "1,0"})).getMessage());
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
        final String rollup = "00400000-7fff00000000 ---p 00000000 00:00 0    [rollup]\nRss:\t   61440 kB\n" +
            "Pss:\t   20480 kB\nPss_Anon:\t   15360 kB\nPss_File:\t    5120 kB\n";
        assertEquals(20480, ScaleHelloMain.statusKb(rollup, "Pss:"));
        assertEquals(-1, ScaleHelloMain.statusKb("", "Pss:"));
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
