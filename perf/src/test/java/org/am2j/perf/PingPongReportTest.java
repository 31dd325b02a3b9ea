package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.launch.CpuPinning;
import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.am2j.perf.ResultsFixtures.names;
import static org.am2j.perf.ResultsFixtures.number;
import static org.am2j.perf.ResultsFixtures.numbers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table and the JSON of a run, from made-up results: which limit each protocol is held against, the ratios and
 * the UDP limit's lines and keys.
 */
@Timeout(30)
class PingPongReportTest
{
    private static final long PROBE_NS = 120;

    @Test
    void sharedMemoryIsHeldAgainstTheCacheLineAndHasNoUdpLines()
    {
        final PingPongReport report = report("shm", null);
        assertEquals(PingPongReport.CACHE_LINE_LIMIT, report.summary().limit());
        assertEquals(6.0, report.summary().ratioP50(), 1e-12);
        assertEquals(6.0, report.summary().ratioP50CacheLine(), 1e-12);

        final String table = table(report);
        assertTrue(table.contains("  limit: cache line "), table);
        assertTrue(table.contains("ratio p50 short / limit      6.00"), table);
        assertFalse(table.contains("udp"), table);

        final JsonNode json = ReportJson.read(report.json());
        assertEquals("cache_line", json.get("limit").asText(), json.toString());
        assertEquals(6.0, number(json, "ratio_p50"));
        assertEquals(6.0, number(json, "ratio_p50_cache_line"));
        assertEquals(780, number(json, "limit_rtt_p50_ns"));
        assertEquals(List.of(), names(json).stream().filter(name -> name.contains("udp")).toList());
    }

    @Test
    void interleavedBlocksAddTheirLimitAndRatiosToTheTableAndTheJson()
    {
        final Results am = am("shm");
        interleaveWithTheLine(am);
        final PingPongReport report = report("shm", am, null, null);
        assertTrue(report.interleaved());

        final String table = table(report);
        assertTrue(table.matches("(?s).*\n  limit: line, interleaved +100 +120 .*"), table);
        assertTrue(table.contains("ratio p50, interleaved       2.00   median of 3 blocks alternating with the line; " +
            "range 1.50 - 2.50"), table);

        final JsonNode json = ReportJson.read(report.json());
        assertEquals(2.0, number(json, "ratio_p50_interleaved"));
        assertEquals(1.5, number(json, "ratio_p50_interleaved_min"));
        assertEquals(2.5, number(json, "ratio_p50_interleaved_max"));
        assertEquals(100, number(json, "limit_interleaved_rtt_p50_ns"));
        assertEquals(List.of(2.0, 2.5, 1.5), numbers(json.get("ratio_p50_interleaved_blocks")));
        // The headline ratio stays the one against the limit's own pair.
        assertEquals(6.0, number(json, "ratio_p50"));
        assertFalse(report("shm", null).interleaved());
        assertFalse(table(report("shm", null)).contains("interleaved"));
    }

    @Test
    void theNetworkIsHeldAgainstPlainUdp()
    {
        final PingPongReport report = report("net", udp(8_000, 2.0));
        assertEquals(PingPongReport.UDP_LIMIT, report.summary().limit());
        assertEquals(9_360 / 8_000.0, report.summary().ratioP50(), 1e-12);
        assertEquals(9_360 / 8_000.0, report.summary().ratioP50Udp(), 1e-12);
        assertEquals(12.0, report.summary().ratioP50CacheLine(), 1e-12);
        assertEquals(0.65, report.summary().bwRatioUdp(), 1e-12);

        final String table = table(report);
        assertTrue(table.contains("  limit: cache line "), table);
        assertTrue(table.matches("(?s).*\n  limit: udp \\(136 B\\) +8000 +9000 +9500 +8100\\.5 +7000 +90000\n.*"),
            table);
        assertTrue(table.contains("ratio p50 short / udp limit  1.17"), table);
        assertFalse(table.contains("ratio p50 short / limit "), table);
        assertTrue(table.contains("limit: udp 8 KiB stream      2.000 GB/s   median of 5 runs of 1,024 datagrams; " +
            "range 1.500 - 2.500; 1.25% lost (3 send-buffer-full spins)"), table);
        assertTrue(table.contains("bandwidth / udp stream       0.65"), table);
        assertTrue(table.contains("  limit_udp_rtt "), table);
        assertTrue(table.contains("  udp_bw_8k "), table);

        final JsonNode json = ReportJson.read(report.json());
        assertEquals("udp", json.get("limit").asText(), json.toString());
        assertEquals(1.17, number(json, "ratio_p50"));
        assertEquals(1.17, number(json, "ratio_p50_udp"));
        assertEquals(12.0, number(json, "ratio_p50_cache_line"));
        assertEquals(8_000, number(json, "limit_udp_rtt_p50_ns"));
        assertEquals(9_000, number(json, "limit_udp_rtt_p99_ns"));
        assertEquals(8_100.5, number(json, "limit_udp_rtt_mean_ns"));
        assertEquals(136, number(json, "limit_udp_bytes"));
        assertEquals(0, number(json, "limit_udp_rtt_resends"));
        assertEquals(2.0, number(json, "udp_bw_8k_gbps"));
        assertEquals(1.5, number(json, "udp_bw_8k_gbps_min"));
        assertEquals(2.5, number(json, "udp_bw_8k_gbps_max"));
        assertEquals(List.of(2.0, 1.5, 2.5), numbers(json.get("udp_bw_8k_gbps_runs")));
        assertEquals(0.0125, number(json, "udp_loss"));
        assertEquals(0.65, number(json, "bw_ratio_udp"));
        assertEquals(1.3, number(json, "bw_8k_gbps"));
        assertTrue(json.at("/machine/measurements/limit_udp_rtt").isObject(), json.toString());
        assertTrue(json.at("/machine/measurements/udp_bw_8k").isObject(), json.toString());
    }

    @Test
    void udpBlocksInTheAmJvmsAddTheirLimitAndRatiosBesideTheSeparatePairs()
    {
        final Results am = am("net");
        interleaveWithUdp(am);
        final PingPongReport report = report("net", am, null, udp(8_000, 2.0));
        assertTrue(report.interleavedUdp());
        assertFalse(report.interleaved());

        final String table = table(report);
        // the histogram's buckets: 8000 and 10000 come back as the highest value of theirs
        assertTrue(table.matches(
            "(?s).*\n  limit: udp \\(136 B\\) +8000 .*\n  limit: udp, interleaved +800[0-7] +1000[0-7] .*"), table);
        assertTrue(table.contains("ratio p50, interleaved udp   1.25   median of 3 blocks alternating with plain UDP " +
            "in the same JVMs; range 1.10 - 1.50"), table);
        assertTrue(table.contains("ratio p50 short / udp limit  1.17"), table);
        assertFalse(table.contains("line, interleaved"), table);

        final JsonNode json = ReportJson.read(report.json());
        assertEquals(1.25, number(json, "ratio_p50_interleaved_udp"));
        assertEquals(1.1, number(json, "ratio_p50_interleaved_udp_min"));
        assertEquals(1.5, number(json, "ratio_p50_interleaved_udp_max"));
        assertEquals(List.of(1.25, 1.1, 1.5), numbers(json.get("ratio_p50_interleaved_udp_blocks")));
        assertEquals(8_000, number(json, "limit_interleaved_udp_rtt_p50_ns"), 10);
        assertEquals(10_000, number(json, "limit_interleaved_udp_rtt_max_ns"), 10);
        assertEquals(3, number(json, "limit_interleaved_udp_rtt_count"));
        assertEquals(2, number(json, "limit_interleaved_udp_rtt_resends"));
        assertEquals(500, number(json, "limit_interleaved_udp_rtt_warmup_rounds"));
        // the separate pair's limit and the headline ratio against it stay as they were
        assertEquals(8_000, number(json, "limit_udp_rtt_p50_ns"));
        assertEquals(1.17, number(json, "ratio_p50"));
        assertEquals(1.17, number(json, "ratio_p50_udp"));
        assertFalse(json.has("ratio_p50_interleaved"), json.toString());

        assertFalse(report("net", udp(8_000, 2.0)).interleavedUdp());
        assertFalse(table(report("net", udp(8_000, 2.0))).contains("interleaved"));
    }

    @Test
    void aMediumRoundTripIsHeldAgainstTheLimitOfItsSize()
    {
        final Results am = am("shm");
        latency(am, "medium_rtt", 3_000);
        machine(am, "medium_rtt");
        final Results limit = limit();
        latency(limit, "limit_medium_rtt", 2_000);
        machine(limit, "limit_medium_rtt");
        limit.put("limit_medium_rtt_warmup_rounds", 4_321L);
        final PingPongReport report = report(am, limit, null, "--protocol", "shm", "--size", "8192");
        assertNotNull(report.summary().ratioP50Medium());
        assertEquals(1.5, report.summary().ratioP50Medium(), 1e-12);

        final String table = table(report);
        assertTrue(table.matches("(?s).*\n  am2j medium 8192 B +3000 .*\n  limit: 8192 B each way +2000 .*"), table);
        assertTrue(table.contains("ratio p50 medium / limit     1.50"), table);
        assertTrue(table.contains("  limit_medium_rtt "), table);

        final JsonNode json = ReportJson.read(report.json());
        assertEquals(3_000, number(json, "medium_rtt_p50_ns"));
        assertEquals(2_000, number(json, "limit_medium_rtt_p50_ns"));
        assertEquals(4_321, number(json, "limit_medium_rtt_warmup_rounds"));
        assertEquals(1.5, number(json, "ratio_p50_medium"));
        assertTrue(json.at("/machine/measurements/limit_medium_rtt").isObject(), json.toString());
        // the short round trip's figures keep their meaning
        assertEquals(780, number(json, "limit_rtt_p50_ns"));
        assertEquals(6.0, number(json, "ratio_p50"));

        assertNull(report("shm", null).summary().ratioP50Medium());
        assertEquals(List.of(), names(ReportJson.read(report("shm", null).json())).stream()
            .filter(name -> name.contains("medium")).toList());
    }

    @Test
    void theUdpPairsProbesCountTowardsTheFastestOfTheRun()
    {
        final Results udp = udp(8_000, 2.0);
        udp.put("probe_fastest_p50_ns", 50L);
        final PingPongReport report = report("multi-net", udp);
        // every other probe (120 ns) is above twice the fastest (50 ns): all flagged
        assertTrue(ReportJson.read(report.json()).at("/machine/measurements/rtt/slow_epoch").asBoolean());
        assertTrue(report.summary().slowEpoch());
        assertEquals(50, ReportJson.read(report.json()).at("/machine/probe_fastest_p50_ns").asLong());
    }

    @Test
    void aStreamOfWhichNothingArrivedHasNoRatio()
    {
        final PingPongReport report = report("net", udp(8_000, 0.0));
        assertTrue(Double.isNaN(report.summary().bwRatioUdp()));
        assertTrue(ReportJson.read(report.json()).get("bw_ratio_udp").isNull(), report.json());
        assertTrue(table(report).contains("bandwidth / udp stream       NaN"));
    }

    @Test
    void ratioOfALimitOfZeroIsNaN()
    {
        assertTrue(Double.isNaN(PingPongReport.ratio(1.0, 0.0)));
        assertEquals(0.5, PingPongReport.ratio(1.0, 2.0));
    }

    @Test
    void onlyTheNetProtocolsHaveAUdpLimit()
    {
        assertFalse(Protocol.SHM.overNetwork());
        assertFalse(Protocol.MULTI_SHM.overNetwork());
        assertTrue(Protocol.NET.overNetwork());
        assertTrue(Protocol.MULTI_NET.overNetwork());
    }

    @Test
    void aMultiProtocolRunIsHeldAgainstItsSingleProtocolMeasuredInTheSameRun()
    {
        final Results single = new Results();
        latency(single, "rtt", 3_900);
        machine(single, "rtt");
        single.put("probe_fastest_p50_ns", PROBE_NS);
        single.put("rtt_warmup_rounds", 654_321L);
        final PingPongReport report = report("multi-shm", single, null);
        assertEquals(4_680 / 3_900.0, report.summary().ratioP50SingleProtocol(), 1e-12);

        final String table = table(report);
        assertTrue(table.matches("(?s).*\n  am2j short \\(shm alone\\) +3900 .*"), table);
        assertTrue(table.contains("ratio p50 multi / single     1.20"), table);
        assertTrue(table.contains("  single_protocol_rtt "), table);

        final JsonNode json = ReportJson.read(report.json());
        assertEquals("shm", json.get("single_protocol").asText(), json.toString());
        assertEquals(3_900, number(json, "single_protocol_rtt_p50_ns"));
        assertEquals(4_680, number(json, "rtt_p50_ns"));
        assertEquals(1.2, number(json, "ratio_p50_single_protocol"));
        assertEquals(654_321, number(json, "single_protocol_rtt_warmup_rounds"));
    }

    @Test
    void aSingleProtocolRunHasNoSingleProtocolReference()
    {
        final JsonNode json = ReportJson.read(report("shm", null).json());
        assertEquals(List.of(), names(json).stream().filter(name -> name.contains("single_protocol")).toList());
        assertEquals(Protocol.SHM, Protocol.MULTI_SHM.single());
        assertEquals(Protocol.NET, Protocol.MULTI_NET.single());
        assertEquals(null, Protocol.SHM.single());
        assertEquals(null, Protocol.NET.single());
    }

    @Test
    void theKindOfNicIsInTheTableAndTheJson()
    {
        final PingPongReport inProcess = report("net", udp(8_000, 2.0));
        final JsonNode inProcessJson = ReportJson.read(inProcess.json());
        assertEquals("in-process", inProcessJson.get("nic_kind").asText());
        assertEquals(0, number(inProcessJson, "nics_per_node"));
        // The wire mode of this process's settings (none given here: the default).
        assertEquals(org.am2j.net.NetTransport.wireMode(), inProcessJson.get("wire").asText());
        assertTrue(table(inProcess).contains(", in-process NIC, "), table(inProcess));

        final PingPongReport shared = report(am("net"), limit(), udp(8_000, 2.0), "--protocol", "net",
            "--nics-per-node", "1");
        final JsonNode sharedJson = ReportJson.read(shared.json());
        assertEquals("shared", sharedJson.get("nic_kind").asText());
        assertEquals(1, number(sharedJson, "nics_per_node"));
        // the figures keep their keys whichever NIC carried them
        assertEquals(9360, number(sharedJson, "rtt_p50_ns"));
        assertTrue(table(shared).contains(", 1 shared NIC process per node, "), table(shared));
    }

    /**
     * @return a shared-memory run with every optional part: warm-up counts, medium round trips and their limit,
     * blocks interleaved with the cache line.
     */
    static PingPongReport fullestSharedMemoryReport()
    {
        final Results am = mediumAndWarmUps(am("shm"));
        interleaveWithTheLine(am);
        return fullest("shm", am, null, null);
    }

    /**
     * @return a network run with every optional part: warm-up counts, medium round trips and their limit, the UDP
     * limits and blocks interleaved with plain UDP.
     */
    static PingPongReport fullestNetworkReport()
    {
        final Results am = mediumAndWarmUps(am("net"));
        interleaveWithUdp(am);
        return fullest("net", am, null, udp(8_000, 2.0).put("limit_udp_rtt_warmup_rounds", 1_000L));
    }

    /**
     * @return a two-protocol run with its single protocol measured in the same run, and the shared-memory parts.
     */
    static PingPongReport multiProtocolReport()
    {
        final Results am = mediumAndWarmUps(am("multi-shm"));
        interleaveWithTheLine(am);
        final Results single = new Results();
        latency(single, "rtt", 3_900);
        machine(single, "rtt");
        single.put("probe_fastest_p50_ns", PROBE_NS).put("rtt_warmup_rounds", 1_000L);
        return fullest("multi-shm", am, single, null);
    }

    private static PingPongReport fullest(final String protocol, final Results am, final Results single,
        final Results udp)
    {
        final Results limit = limit().put("limit_rtt_warmup_rounds", 1_000L);
        latency(limit, "limit_medium_rtt", 2_000);
        machine(limit, "limit_medium_rtt");
        limit.put("limit_medium_rtt_warmup_rounds", 1_000L);
        final PingPongOptions options = PingPongOptions.parse(
            new String[]{ "--protocol", protocol, "--size", "8192", "--rounds", "4000", "--warmup", "100" });
        return new PingPongReport(options, "am2j pingpong --protocol " + protocol, "2026-01-01T00:00:00Z",
            CpuPinning.detect(), new MachineState(1.0, 2.0, 3.0, 2400.0), am, single, limit, udp);
    }

    private static Results mediumAndWarmUps(final Results am)
    {
        latency(am, "medium_rtt", 3_000);
        machine(am, "medium_rtt");
        return am.put("rtt_warmup_rounds", 1_000L).put("medium_rtt_warmup_rounds", 1_000L);
    }

    /** Three blocks of round trips alternating with the pair's cache line: ratios 2.0, 2.5, 1.5. */
    private static void interleaveWithTheLine(final Results am)
    {
        interleave(new long[]{ 200, 300, 150 }, new long[]{ 100, 120, 100 }).putInto(am);
    }

    /** Three blocks of round trips alternating with plain UDP in the same JVMs: ratios 1.25, 1.1, 1.5. */
    private static void interleaveWithUdp(final Results am)
    {
        interleave(new long[]{ 10_000, 11_000, 10_800 }, new long[]{ 8_000, 10_000, 7_200 })
            .putInto(am, InterleavedRoundTrips.UDP_LIMIT, InterleavedRoundTrips.UDP_RATIO);
        am.put("limit_interleaved_udp_rtt_resends", 2L).put("limit_interleaved_udp_rtt_warmup_rounds", 500L);
    }

    private static InterleavedRoundTrips interleave(final long[] ours, final long[] limit)
    {
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        final int[] block = { 0, 0 };
        blocks.run(ours.length, (w, n, h) -> LatencySummary.record(h, ours[block[0]++]),
            (w, n, h) -> LatencySummary.record(h, limit[block[1]++]));
        return blocks;
    }

    private static PingPongReport report(final String protocol, final Results udp)
    {
        return report(protocol, null, udp);
    }

    private static PingPongReport report(final String protocol, final Results single, final Results udp)
    {
        return report(protocol, am(protocol), single, udp);
    }

    private static PingPongReport report(
        final String protocol, final Results am, final Results single, final Results udp)
    {
        final PingPongOptions options = PingPongOptions.parse(
            new String[]{ "--protocol", protocol, "--rounds", "4000", "--warmup", "100" });
        return new PingPongReport(options, "am2j pingpong --protocol " + protocol, "2026-01-01T00:00:00Z",
            CpuPinning.detect(), new MachineState(1.0, 2.0, 3.0, 2400.0), am, single, limit(), udp);
    }

    /**
     * @return the report of a single-protocol run with these options, 4,000 round trips after 100.
     */
    private static PingPongReport report(
        final Results am, final Results limit, final Results udp, final String... options)
    {
        final String[] args = java.util.Arrays.copyOf(options, options.length + 4);
        System.arraycopy(new String[]{ "--rounds", "4000", "--warmup", "100" }, 0, args, options.length, 4);
        return new PingPongReport(PingPongOptions.parse(args), "am2j pingpong " + String.join(" ", options),
            "2026-01-01T00:00:00Z", CpuPinning.detect(), new MachineState(1.0, 2.0, 3.0, 2400.0), am, null, limit,
            udp);
    }

    private static Results am(final String protocol)
    {
        final Results am = new Results();
        final boolean net = protocol.endsWith("net");
        latency(am, "rtt", net ? 9_360 : 4_680);
        latency(am, "wake_rtt", net ? 20_000 : 10_000);
        am.put("os_ns", 300.0).put("os_burst_p50_ns", 290.0).put("os_queue_full_backoffs", 0L);
        AmPingPongRank.putBandwidth(am, "bw_8k", new double[]{ 1.3, 1.2, 1.4 });
        am.put("bw_8k_queue_full_backoffs", 0L);
        for (final String name : new String[]{ "rtt", "wake_rtt", "os", "bw_8k" })
        {
            machine(am, name);
        }
        return am.put("probe_fastest_p50_ns", PROBE_NS);
    }

    private static Results limit()
    {
        final Results limit = new Results();
        latency(limit, "limit_rtt", 780);
        machine(limit, "limit_rtt");
        return limit.put("probe_fastest_p50_ns", PROBE_NS);
    }

    private static Results udp(final long p50, final double gbps)
    {
        final Results udp = new Results();
        latency(udp, "limit_udp_rtt", p50);
        udp.put("limit_udp_rtt_resends", 0L);
        AmPingPongRank.putBandwidth(udp, "udp_bw_8k", gbps == 0 ? new double[]{ 0.0 } :
            new double[]{ gbps, gbps - 0.5, gbps + 0.5 });
        udp.put("udp_loss", 0.0125).put("udp_bw_8k_datagrams", 1_024L).put("udp_bw_8k_send_full_spins", 3L);
        machine(udp, "limit_udp_rtt");
        machine(udp, "udp_bw_8k");
        return udp.put("probe_fastest_p50_ns", PROBE_NS);
    }

    private static void latency(final Results results, final String prefix, final long p50)
    {
        ResultsFixtures.latency(results, prefix, p50);
    }

    private static void machine(final Results results, final String name)
    {
        ResultsFixtures.machine(results, name, PROBE_NS);
    }

    private static String table(final PingPongReport report)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.printTable(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
