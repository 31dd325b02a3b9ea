package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code am2j logp} end to end at a tiny scale: all eight rank pairs (the four configurations, Aeron IPC and UDP,
 * the cache-line and UDP limits) with real JVMs, the table, the JSON and the plots. About 20 s on a quiet machine
 * of two CPUs, most of it the sixteen JVMs starting, and minutes on a loaded one (every pair spins on both CPUs); no
 * assertion about speed. Sixteen JVMs took 197 s on a machine busy with other builds: in the soak profile
 * ({@code mvn -B verify -Psoak}); {@code PingPongEndToEndTest} keeps the rank pairs in the default build.
 */
@Tag("heavy")
@Tag("soak")
class LogPEndToEndTest
{
    /** A few thousand round trips, bursts up to 16, transfers up to 256 KiB. */
    static final LogPOptions.Scale TINY = new LogPOptions.Scale(2_000, 1_000, 2, 1, 16, 16, 256 * 1024, 2, 1_024);

    @TempDir
    Path dir;

    @Test
    @Timeout(600)
    void aTinyRunMeasuresEveryConfigurationAndPeerAndDrawsThePlots() throws Exception
    {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        assumeTrue(TransportCheck.missing("shm,net").isEmpty(), "the shm and net transports are needed");
        final Path json = dir.resolve("logp.json");
        final Path plots = dir.resolve("plots");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final LogP logP = new LogP(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

        final List<Path> before = aeronDirectories(List.of());
        final long began = System.nanoTime();
        final int status = logP.run(new LogPOptions(false, true, TINY, json, plots, 0, 1), "am2j logp (test)");
        System.out.printf("am2j logp (test) took %.1f s%n", (System.nanoTime() - began) / 1e9);
        System.out.print(out.toString(StandardCharsets.UTF_8));
        System.out.print(err.toString(StandardCharsets.UTF_8));

        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        final JsonNode text = ReportJson.read(Files.readString(json));
        for (final String config : List.of("shm", "multi_shm", "multi_net", "net"))
        {
            final JsonNode object = LogPReportTest.object(text, config);
            assertEquals(List.of("L_us", "os_us", "or_us", "g_us", "G_us_per_byte", "bw_MBps", "half_power_bytes",
                "rtt_us"), LogPReportTest.keys(object), config);
            assertTrue(ResultsFixtures.number(object, "rtt_us") > 0, object.toString());
            assertTrue(ResultsFixtures.number(object, "os_us") > 0, object.toString());
            // G, 1/G and the half-power point: present, but at this scale possibly null (too few transfers to fit)
        }
        // the poll-cost pairs: an empty network poll costs something, and the calibrated scheduler has read r
        final JsonNode poll = LogPReportTest.object(text, "poll_cost");
        assertTrue(ResultsFixtures.number(poll, "network_poll_empty_ns") > 0, poll.toString());
        assertFalse(Double.isNaN(ResultsFixtures.number(poll, "calibrated_ratio")), poll.toString());
        assertTrue(poll.get("calibrated_scheduler").asText().startsWith("Bundle[SEQ, 1 endpoints, poll calibrated[ratio "),
            poll.toString());
        assertEquals("in-process", poll.get("nic_kind").asText());
        final JsonNode peers = LogPReportTest.object(text, "peers");
        for (final String key : List.of("aeron_ipc_rtt_us", "aeron_udp_rtt_us", "limit_shm_rtt_us",
            "limit_udp_rtt_us"))
        {
            assertTrue(ResultsFixtures.number(peers, key) > 0, peers.toString());
        }
        // shm, multi_shm and Aeron IPC each ran in blocks alternating with their own pair's line.
        final JsonNode ratios = LogPReportTest.object(text, "ratios");
        for (final String key : List.of("shm_rtt_over_line_interleaved", "multi_shm_rtt_over_line_interleaved",
            "aeron_ipc_rtt_over_line_interleaved", "shm_rtt_over_aeron_ipc_line_normalized",
            "multi_shm_rtt_over_aeron_ipc_line_normalized"))
        {
            assertTrue(ResultsFixtures.number(ratios, key) > 0, key + " in " + ratios);
        }
        for (final Protocol protocol : LogPReport.CONFIGS)
        {
            assertTrue(Files.size(plots.resolve(LogPPlots.signatureFile(protocol))) > 10_000);
        }
        assertTrue(Files.size(plots.resolve(LogPPlots.BANDWIDTH_FILE)) > 10_000);
        final String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("Round Trip Time (RTT)"), table);
        assertTrue(table.contains("shm / Aeron IPC"), table);
        assertTrue(table.contains("net / Aeron UDP"), table);
        assertEquals(aeronDirectories(before), List.of(), "Aeron directories left behind");
    }

    /**
     * @param known directories to leave out.
     * @return the Aeron drivers' directories in /dev/shm that are not known.
     * @throws java.io.IOException when /dev/shm cannot be listed.
     */
    private static List<Path> aeronDirectories(final List<Path> known) throws java.io.IOException
    {
        final Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm))
        {
            return List.of();
        }
        try (var files = Files.list(shm))
        {
            return files.filter(f -> f.getFileName().toString().startsWith("am2j-aeron-") && !known.contains(f))
                .collect(java.util.stream.Collectors.toList());
        }
    }
}
