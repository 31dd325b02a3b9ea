package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.am2j.spmd.CpuPinning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.am2j.perf.ResultsFixtures.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertEquals(PingPongReport.CACHE_LINE_LIMIT, report.limit());
        assertEquals(6.0, report.ratioP50(), 1e-12);
        assertEquals(6.0, report.ratioP50CacheLine(), 1e-12);

        final String table = table(report);
        assertTrue(table.contains("  limit: cache line "), table);
        assertTrue(table.contains("ratio p50 short / limit      6.00"), table);
        assertFalse(table.contains("udp"), table);

        final String json = report.json();
        assertTrue(json.contains("\"limit\": \"cache_line\""), json);
        assertEquals(6.0, number(json, "ratio_p50"));
        assertEquals(6.0, number(json, "ratio_p50_cache_line"));
        assertEquals(780, number(json, "limit_rtt_p50_ns"));
        assertFalse(json.contains("udp"), json);
    }

    @Test
    void interleavedBlocksAddTheirLimitAndRatiosToTheTableAndTheJson()
    {
        final Results am = am("shm");
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        final long[] line = { 100, 120, 100 };
        final long[] ours = { 200, 300, 150 };
        final int[] block = { 0, 0 };
        blocks.run(3, (w, n, h) -> LatencySummary.record(h, ours[block[0]++]),
            (w, n, h) -> LatencySummary.record(h, line[block[1]++]));
        blocks.putInto(am);
        final PingPongReport report = report("shm", am, null, null);
        assertTrue(report.interleaved());

        final String table = table(report);
        assertTrue(table.matches("(?s).*\n  limit: line, interleaved +100 +120 .*"), table);
        assertTrue(table.contains("ratio p50, interleaved       2.00   median of 3 blocks alternating with the line; " +
            "range 1.50 - 2.50"), table);

        final String json = report.json();
        assertEquals(2.0, number(json, "ratio_p50_interleaved"));
        assertEquals(1.5, number(json, "ratio_p50_interleaved_min"));
        assertEquals(2.5, number(json, "ratio_p50_interleaved_max"));
        assertEquals(100, number(json, "limit_interleaved_rtt_p50_ns"));
        assertTrue(json.matches("(?s).*\"ratio_p50_interleaved_blocks\": \\[\\s*2\\.0,\\s*2\\.5,\\s*1\\.5\\s*].*"),
            json);
        // The headline ratio stays the one against the limit's own pair.
        assertEquals(6.0, number(json, "ratio_p50"));
        assertFalse(report("shm", null).interleaved());
        assertFalse(table(report("shm", null)).contains("interleaved"));
    }

    @Test
    void theNetworkIsHeldAgainstPlainUdp()
    {
        final PingPongReport report = report("net", udp(8_000, 2.0));
        assertEquals(PingPongReport.UDP_LIMIT, report.limit());
        assertEquals(9_360 / 8_000.0, report.ratioP50(), 1e-12);
        assertEquals(9_360 / 8_000.0, report.ratioP50Udp(), 1e-12);
        assertEquals(12.0, report.ratioP50CacheLine(), 1e-12);
        assertEquals(0.65, report.bwRatioUdp(), 1e-12);

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

        final String json = report.json();
        assertTrue(json.contains("\"limit\": \"udp\""), json);
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
        assertTrue(json.contains("\"udp_bw_8k_gbps_runs\": [\n    2.0,\n    1.5,\n    2.5\n  ]"), json);
        assertEquals(0.0125, number(json, "udp_loss"));
        assertEquals(0.65, number(json, "bw_ratio_udp"));
        assertEquals(1.3, number(json, "bw_8k_gbps"));
        assertTrue(json.contains("\"limit_udp_rtt\": {"), json);
        assertTrue(json.contains("\"udp_bw_8k\": {"), json);
    }

    @Test
    void udpBlocksInTheAmJvmsAddTheirLimitAndRatiosBesideTheSeparatePairs()
    {
        final Results am = am("net");
        final InterleavedRoundTrips blocks = new InterleavedRoundTrips();
        final long[] udp = { 8_000, 10_000, 7_200 };
        final long[] ours = { 10_000, 11_000, 10_800 };
        final int[] block = { 0, 0 };
        blocks.run(3, (w, n, h) -> LatencySummary.record(h, ours[block[0]++]),
            (w, n, h) -> LatencySummary.record(h, udp[block[1]++]));
        blocks.putInto(am, InterleavedRoundTrips.UDP_LIMIT, InterleavedRoundTrips.UDP_RATIO);
        am.put("limit_interleaved_udp_rtt_resends", 2L).put("limit_interleaved_udp_rtt_warmup_rounds", 500L);
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

        final String json = report.json();
        assertEquals(1.25, number(json, "ratio_p50_interleaved_udp"));
        assertEquals(1.1, number(json, "ratio_p50_interleaved_udp_min"));
        assertEquals(1.5, number(json, "ratio_p50_interleaved_udp_max"));
        assertTrue(json.matches(
            "(?s).*\"ratio_p50_interleaved_udp_blocks\": \\[\\s*1\\.25,\\s*1\\.1,\\s*1\\.5\\s*].*"), json);
        assertEquals(8_000, number(json, "limit_interleaved_udp_rtt_p50_ns"), 10);
        assertEquals(10_000, number(json, "limit_interleaved_udp_rtt_max_ns"), 10);
        assertEquals(3, number(json, "limit_interleaved_udp_rtt_count"));
        assertEquals(2, number(json, "limit_interleaved_udp_rtt_resends"));
        assertEquals(500, number(json, "limit_interleaved_udp_rtt_warmup_rounds"));
        // the separate pair's limit and the headline ratio against it stay as they were
        assertEquals(8_000, number(json, "limit_udp_rtt_p50_ns"));
        assertEquals(1.17, number(json, "ratio_p50"));
        assertEquals(1.17, number(json, "ratio_p50_udp"));
        assertFalse(json.contains("\"ratio_p50_interleaved\":"), json);

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
        assertTrue(report.mediumLimit());
        assertEquals(1.5, report.ratioP50Medium(), 1e-12);

        final String table = table(report);
        assertTrue(table.matches("(?s).*\n  am2j medium 8192 B +3000 .*\n  limit: 8192 B each way +2000 .*"), table);
        assertTrue(table.contains("ratio p50 medium / limit     1.50"), table);
        assertTrue(table.contains("  limit_medium_rtt "), table);

        final String json = report.json();
        assertEquals(3_000, number(json, "medium_rtt_p50_ns"));
        assertEquals(2_000, number(json, "limit_medium_rtt_p50_ns"));
        assertEquals(4_321, number(json, "limit_medium_rtt_warmup_rounds"));
        assertEquals(1.5, number(json, "ratio_p50_medium"));
        assertTrue(json.contains("\"limit_medium_rtt\": {"), json);
        // the short round trip's figures keep their meaning
        assertEquals(780, number(json, "limit_rtt_p50_ns"));
        assertEquals(6.0, number(json, "ratio_p50"));

        assertFalse(report("shm", null).mediumLimit());
        assertFalse(report("shm", null).json().contains("medium"), report("shm", null).json());
    }

    @Test
    void theUdpPairsProbesCountTowardsTheFastestOfTheRun()
    {
        final Results udp = udp(8_000, 2.0);
        udp.put("probe_fastest_p50_ns", 50L);
        final PingPongReport report = report("multi-net", udp);
        // every other probe (120 ns) is above twice the fastest (50 ns): all flagged
        assertTrue(report.slowEpoch("rtt"));
        assertTrue(report.slowEpoch());
        assertTrue(report.json().contains("\"probe_fastest_p50_ns\": 50"));
    }

    @Test
    void aStreamOfWhichNothingArrivedHasNoRatio()
    {
        final PingPongReport report = report("net", udp(8_000, 0.0));
        assertTrue(Double.isNaN(report.bwRatioUdp()));
        assertTrue(report.json().contains("\"bw_ratio_udp\": null"), report.json());
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
        assertEquals(4_680 / 3_900.0, report.ratioP50Single(), 1e-12);

        final String table = table(report);
        assertTrue(table.matches("(?s).*\n  am2j short \\(shm alone\\) +3900 .*"), table);
        assertTrue(table.contains("ratio p50 multi / single     1.20"), table);
        assertTrue(table.contains("  single_protocol_rtt "), table);

        final String json = report.json();
        assertTrue(json.contains("\"single_protocol\": \"shm\""), json);
        assertEquals(3_900, number(json, "single_protocol_rtt_p50_ns"));
        assertEquals(4_680, number(json, "rtt_p50_ns"));
        assertEquals(1.2, number(json, "ratio_p50_single_protocol"));
        assertEquals(654_321, number(json, "single_protocol_rtt_warmup_rounds"));
    }

    @Test
    void aSingleProtocolRunHasNoSingleProtocolReference()
    {
        final String json = report("shm", null).json();
        assertFalse(json.contains("single_protocol"), json);
        assertEquals(Protocol.SHM, Protocol.MULTI_SHM.single());
        assertEquals(Protocol.NET, Protocol.MULTI_NET.single());
        assertEquals(null, Protocol.SHM.single());
        assertEquals(null, Protocol.NET.single());
    }

    @Test
    void theKindOfNicIsInTheTableAndTheJson()
    {
        final PingPongReport inProcess = report("net", udp(8_000, 2.0));
        assertTrue(inProcess.json().contains("\"nic_kind\": \"in-process\""), inProcess.json());
        assertTrue(inProcess.json().contains("\"nics_per_node\": 0"), inProcess.json());
        // The wire mode of this process's settings (none given here: the default).
        assertTrue(inProcess.json().contains("\"wire\": \"" + org.am2j.net.NetTransport.wireMode() + "\""),
            inProcess.json());
        assertTrue(table(inProcess).contains(", in-process NIC, "), table(inProcess));

        final PingPongReport shared = report(am("net"), limit(), udp(8_000, 2.0), "--protocol", "net",
            "--nics-per-node", "1");
        assertTrue(shared.json().contains("\"nic_kind\": \"shared\""), shared.json());
        assertTrue(shared.json().contains("\"nics_per_node\": 1"), shared.json());
        // the figures keep their keys whichever NIC carried them
        assertTrue(shared.json().contains("\"rtt_p50_ns\": 9360"), shared.json());
        assertTrue(table(shared).contains(", 1 shared NIC process per node, "), table(shared));
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
        AmPingPongRank.putBandwidth(am, new double[]{ 1.3, 1.2, 1.4 });
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
