package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.am2j.perf.ResultsFixtures.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code am2j pingpong --ranks-per-jvm 2}: each pair is two threads of one rank JVM, started by the launcher in this
 * process; the AM round trips go through the in-process transport, and the report says so. No assertion about speed.
 * Whatever the test started is killed when it ends.
 */
class PingPongRanksAsThreadsTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void killEverythingStarted()
    {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aQuickRunOfThePairInOneJvmReportsTheInProcessTransport() throws Exception
    {
        assumeTrue(TransportCheck.available().contains("shm"), "shm-protocol is not on the class path");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning ranks");
        final Path json = dir.resolve("pp.json");
        final int status = new PingPong(print(out), print(err)).run(new String[]{
            "--protocol", "shm", "--ranks-per-jvm", "2", "--quick", "--json", json.toString() });
        assertEquals(0, status, output());

        final JsonNode report = ReportJson.read(Files.readString(json));
        assertEquals("shm", report.get("protocol").asText(), report.toString());
        assertEquals("inproc", report.get("route").asText(), report.toString());
        assertEquals(2, number(report, "ranks_per_jvm"), report.toString());
        assertEquals(PingPongOptions.QUICK_ROUNDS, number(report, "rtt_count"), report.toString());
        for (final String field : new String[]{ "rtt_p50_ns", "limit_rtt_p50_ns", "os_ns", "bw_8k_gbps" })
        {
            assertTrue(number(report, field) > 0, field + " in " + report);
        }
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(
            "am2j pingpong --protocol shm: 2 ranks as threads of one JVM, route inproc, "), output());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(
            "measuring am2j over shm (inproc,shm, in-process NIC, the pair in one JVM: route inproc)"), output());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(
            "measuring the machine's limit (cache-line ping-pong between two threads of one JVM"), output());
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(),
            "rank JVMs left running");
    }

    private String output()
    {
        return "\n--- stdout ---\n" + out.toString(StandardCharsets.UTF_8) + "--- stderr ---\n" +
            err.toString(StandardCharsets.UTF_8);
    }

    private static PrintStream print(final ByteArrayOutputStream bytes)
    {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
