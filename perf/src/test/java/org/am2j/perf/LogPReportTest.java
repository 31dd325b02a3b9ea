package org.am2j.perf;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import org.am2j.launch.CpuPinning;
import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.am2j.perf.ResultsFixtures.names;
import static org.am2j.perf.ResultsFixtures.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table, the JSON and the plots of a LogP run, from synthetic results whose parameters are known.
 */
@Timeout(60)
class LogPReportTest
{
    private static final long PROBE_NS = 120;
    private static final List<String> CONFIG_KEYS = List.of(
        "L_us", "os_us", "or_us", "g_us", "G_us_per_byte", "bw_MBps", "half_power_bytes", "rtt_us");
    private static final List<String> PEER_KEYS = List.of(
        "aeron_ipc_rtt_us", "aeron_udp_rtt_us", "limit_shm_rtt_us", "limit_udp_rtt_us");

    @TempDir
    Path dir;

    @Test
    void theJsonHasExactlyTheKeysOfTheIssueForEachConfigurationAndThePeers()
    {
        final JsonNode json = json(report(PROBE_NS));
        for (final String config : List.of("shm", "multi_shm", "multi_net", "net"))
        {
            assertEquals(CONFIG_KEYS, keys(object(json, config)), config);
        }
        assertEquals(PEER_KEYS, keys(object(json, "peers")));
        final List<String> top = keys(json);
        assertEquals(List.of("shm", "multi_shm", "multi_net", "net", "peers"), top.subList(0, 5), top.toString());
    }

    @Test
    void theJsonSaysHowManyRoundTripsEachPairsWarmUpTook()
    {
        final Map<Protocol, Results> am = fixtureAm(PROBE_NS);
        am.get(Protocol.SHM).put("rtt_warmup_rounds", 1_234_567L);
        am.get(Protocol.NET).put("rtt_warmup_rounds", 45_678L);
        final Results aeronIpc = LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200, PROBE_NS)
            .put("aeron_rtt_warmup_rounds", 2_000_000L);
        final JsonNode warmUps = object(json(report(am, aeronIpc, PROBE_NS)), "warmup_rounds");

        assertEquals(List.of("shm", "net", "aeron_ipc"), keys(warmUps), "pairs whose results do not say are left out");
        assertEquals(1_234_567.0, number(warmUps, "shm"));
        assertEquals(45_678.0, number(warmUps, "net"));
        assertEquals(2_000_000.0, number(warmUps, "aeron_ipc"));
    }

    @Test
    void theJsonValuesAreTheParametersInMicroseconds()
    {
        final JsonNode json = json(report(PROBE_NS));
        final JsonNode shm = object(json, "shm");
        assertEquals(0.32, number(shm, "rtt_us"));
        assertEquals(0.11, number(shm, "os_us"));
        assertEquals(0.06, number(shm, "or_us"));
        assertEquals(0.18, number(shm, "g_us"));
        assertEquals(0.16 - 0.11 - 0.06, number(shm, "L_us"), 1e-9);
        assertEquals(0.00008, number(shm, "G_us_per_byte"), 1e-12);
        assertEquals(12_500, number(shm, "bw_MBps"));
        assertEquals(4_096, number(shm, "half_power_bytes"));
        final JsonNode net = object(json, "net");
        assertEquals(10.5, number(net, "rtt_us"));
        assertEquals(5.3, number(net, "os_us"), 1e-9);
        assertEquals(0.85, number(net, "or_us"), 1e-9);
        assertEquals(19, number(net, "g_us"), 1e-9);
        final JsonNode peers = object(json, "peers");
        assertEquals(0.2, number(peers, "aeron_ipc_rtt_us"));
        assertEquals(8.5, number(peers, "aeron_udp_rtt_us"));
        assertEquals(0.13, number(peers, "limit_shm_rtt_us"));
        assertEquals(7.0, number(peers, "limit_udp_rtt_us"));
        final JsonNode ratios = object(json, "ratios");
        assertEquals(1.6, number(ratios, "shm_rtt_over_aeron_ipc"));
        assertEquals(10.5 / 8.5, number(ratios, "net_rtt_over_aeron_udp"), 0.001);
        assertEquals(1.5, number(ratios, "net_rtt_over_limit_udp"));
        final JsonNode targets = object(json, "targets");
        assertEquals(BooleanNode.FALSE, targets.get("shm_rtt_at_most_aeron_ipc"), targets.toString());
        assertEquals(BooleanNode.FALSE, targets.get("net_rtt_at_most_aeron_udp"), targets.toString());
    }

    @Test
    void sharedMemoryMeetsItsTargetUpToTwentyPercentOverAeronIpc()
    {
        // The fixture's shm round trip is 320 ns: 1.14x an Aeron IPC of 280 ns, 1.23x one of 260 ns.
        final LogPReport within = report(fixtureAm(PROBE_NS),
            LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 280, PROBE_NS), PROBE_NS);
        assertTrue(table(within).matches(
            "(?s).*shm / Aeron IPC\\s+0\\.320\\s+0\\.280\\s+1\\.143\\s+<=1\\.20 met\n.*"), table(within));
        assertEquals(BooleanNode.TRUE, object(json(within), "targets").get("shm_rtt_at_most_aeron_ipc"));

        final LogPReport over = report(fixtureAm(PROBE_NS),
            LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 260, PROBE_NS), PROBE_NS);
        assertTrue(table(over).matches(
            "(?s).*shm / Aeron IPC\\s+0\\.320\\s+0\\.260\\s+1\\.231\\s+<=1\\.20 NOT met\n.*"), table(over));
        assertEquals(BooleanNode.FALSE, object(json(over), "targets").get("shm_rtt_at_most_aeron_ipc"));
    }

    @Test
    void sharedMemoryAndAeronIpcAreEachHeldAgainstTheLineOfTheirOwnPair()
    {
        // Fixtures without interleaved blocks (a build before them): no such ratios.
        final LogPReport plain = report(PROBE_NS);
        assertTrue(plain.lineNormalized().isEmpty());
        assertEquals(List.of(), names(json(plain)).stream().filter(name -> name.contains("interleaved")).toList());
        assertFalse(table(plain).contains("own machine state"));

        final Map<Protocol, Results> am = fixtureAm(PROBE_NS);
        am.get(Protocol.SHM).put("ratio_p50_interleaved", 2.0);
        am.get(Protocol.MULTI_SHM).put("ratio_p50_interleaved", 2.2);
        // A network pair never interleaves; if its results said so, they would still not be held against the line.
        am.get(Protocol.NET).put("ratio_p50_interleaved", 1.1);
        final Results aeronIpc = LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200, PROBE_NS);
        aeronIpc.put("ratio_p50_interleaved", 1.6);
        final LogPReport report = report(am, aeronIpc, PROBE_NS);

        final JsonNode ratios = object(json(report), "ratios");
        assertEquals(2.0, number(ratios, "shm_rtt_over_line_interleaved"));
        assertEquals(2.2, number(ratios, "multi_shm_rtt_over_line_interleaved"));
        assertEquals(1.6, number(ratios, "aeron_ipc_rtt_over_line_interleaved"));
        assertEquals(1.25, number(ratios, "shm_rtt_over_aeron_ipc_line_normalized"));
        assertEquals(1.375, number(ratios, "multi_shm_rtt_over_aeron_ipc_line_normalized"));
        assertTrue(keys(ratios).stream().noneMatch(key -> key.contains("net_rtt_over_line")), ratios.toString());
        // The issue's keys are untouched: the peers keep exactly their four.
        assertEquals(PEER_KEYS, keys(object(json(report), "peers")));

        final String table = table(report);
        assertTrue(table.contains("own machine state"), table);
        assertTrue(table.matches("(?s).*\n  shm_rtt_over_aeron_ipc_line_normalized +1\\.250\n.*"), table);

        // Only our side interleaved: nothing to normalize by.
        final Map<Protocol, Results> ours = fixtureAm(PROBE_NS);
        ours.get(Protocol.SHM).put("ratio_p50_interleaved", 2.0);
        final Map<String, Double> alone = report(ours,
            LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200, PROBE_NS), PROBE_NS).lineNormalized();
        assertEquals(Map.of("shm_rtt_over_line_interleaved", 2.0), alone);
    }

    @Test
    void theEmptyNetworkPollAndTheCalibratedRatioAreReportedWithTheKindOfNic()
    {
        final LogPReport report = report(PROBE_NS);
        final JsonNode poll = object(json(report), "poll_cost");
        assertEquals(600.0, number(poll, "network_poll_empty_ns"));
        assertEquals(38.2, number(poll, "calibrated_ratio"));
        assertEquals(25.0, number(poll, "calibrated_poll_empty_ns"));
        assertEquals(0.0, number(poll, "nics_per_node"));
        assertEquals("in-process", poll.get("nic_kind").asText());
        assertEquals("in-process", json(report).get("nic_kind").asText());
        final String table = table(report);
        assertTrue(table.contains("empty network poll (in-process NIC): 600.0 ns"), table);
        assertTrue(table.contains("calibrated scheduler's ratio r = 38.2"), table);
        assertTrue(table.contains("network configurations over in-process NIC"), table);
    }

    @Test
    void theJsonCarriesThePapersTableAsPrinted()
    {
        final JsonNode paper = object(json(report(PROBE_NS)), "paper");
        final JsonNode shm = object(paper, "shm");
        assertEquals("Shared Memory", shm.get("column").asText());
        assertEquals(-0.3, number(shm, "L_us"));
        assertEquals(1.8, number(shm, "os_us"));
        assertEquals(1.3, number(shm, "or_us"));
        assertEquals(3.1, number(shm, "g_us"));
        assertEquals(0.00602, number(shm, "G_us_per_byte"));
        assertEquals(166, number(shm, "bw_MBps"));
        assertEquals(5_100, number(shm, "half_power_bytes"));
        assertEquals(5.6, number(shm, "rtt_us"));
        final JsonNode multiNet = object(paper, "multi_net");
        assertEquals("Multi-Protocol Myrinet", multiNet.get("column").asText());
        assertEquals(15.5, number(multiNet, "L_us"));
        assertEquals(0.0305, number(multiNet, "G_us_per_byte"));
        assertEquals(32.8, number(multiNet, "bw_MBps"));
        assertEquals(55, number(multiNet, "rtt_us"));
    }

    @Test
    void theTablePutsThePapersColumnsBesideOursWithRatios()
    {
        final String table = table(report(PROBE_NS));
        assertTrue(table.contains("shm / SM"), table);
        assertTrue(table.contains("multi_net / Multi Myrinet"), table);
        // shm RTT 0.320 us beside the paper's 5.600: ratio 0.057
        assertTrue(table.matches("(?s).*Round Trip Time \\(RTT\\)\\s+us\\s+\\|\\s+0\\.320\\s+5\\.600\\s+0\\.057 .*"),
            table);
        // L of the paper's shared memory is negative: no ratio
        assertTrue(table.matches("(?s).*Latency \\(L\\)\\s+us\\s+\\|\\s+-0\\.010\\s+-0\\.300\\s+- .*"), table);
        assertTrue(table.matches("(?s).*Bandwidth \\(1/G\\)\\s+MB/s\\s+\\|\\s+12500\\s+166\\.0\\s+75\\.3 .*"), table);
        assertTrue(table.contains("shm / Aeron IPC"), table);
        assertTrue(table.contains("<=1.20 NOT met"), table);
        assertTrue(table.contains("<=1.00 NOT met"), table);
        assertTrue(table.contains("net / limit: plain UDP"), table);
        assertTrue(table.contains("  shm.sig_d3 "), table);
        assertTrue(table.contains("  aeron_udp "), table);
        // the fixture's shm L is -0.010 us: the verdict says it cannot be, and why
        assertTrue(table.contains("verdict                      compare with care:"), table);
        assertTrue(table.contains("impossible figure: shm L = -0.010 us < 0: o_s + o_r (0.170 us) exceed half the " +
            "round trip (0.160 us)"), table);
        assertFalse(table.contains("slow epoch (the probe"), table);
        assertFalse(table.contains("busy machine"), table);
    }

    @Test
    void aQuietRunWhoseFiguresAreAllPossibleStands()
    {
        final LogPReport report = report(possibleAm(), LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200,
            PROBE_NS), PROBE_NS);
        assertTrue(report.impossibleFigures().isEmpty(), report.impossibleFigures().toString());
        final String table = table(report);
        assertTrue(table.contains("verdict                      quiet machine, no slow epoch, no impossible figure: " +
            "the figures stand"), table);
        assertFalse(table.contains("compare with care"), table);
        assertEquals(ReportJson.read("[]"), json(report).get("impossible_figures"));
        assertEquals(BooleanNode.FALSE, json(report).at("/machine/busy"));
    }

    @Test
    void aNegativeLatencyIsNamedAsImpossibleInTheTableAndTheJson()
    {
        final Map<Protocol, Results> am = possibleAm();
        // o_s + o_r = 6.15 us against half a round trip of 5.25 us: L = -0.9 us
        am.put(Protocol.NET, LogPFixtures.amResults(10_500, 5_300, 850, 19_000, 20_000, 0.9, PROBE_NS));
        final LogPReport report = report(am, LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200, PROBE_NS),
            PROBE_NS);

        assertEquals(1, report.impossibleFigures().size(), report.impossibleFigures().toString());
        final String table = table(report);
        assertTrue(table.contains("compare with care:"), table);
        assertTrue(table.contains("impossible figure: net L = -0.900 us < 0"), table);
        assertFalse(table.contains("impossible figure: shm"), table);
        final JsonNode impossible = json(report).get("impossible_figures");
        assertEquals(1, impossible.size(), impossible.toString());
        assertTrue(impossible.get(0).asText().startsWith("net L = -0.900 us < 0"), impossible.toString());
    }

    @Test
    void aLoadAboveTheCpuCountDuringAMeasurementSaysTheMachineWasBusy()
    {
        final Map<Protocol, Results> am = possibleAm();
        final double load = Runtime.getRuntime().availableProcessors() + 1.5;
        am.get(Protocol.MULTI_NET).put("machine.rtt.load_avg_1m", load);
        final LogPReport report = report(am, LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200, PROBE_NS),
            PROBE_NS);

        final String table = table(report);
        assertTrue(table.contains("compare with care:"), table);
        assertTrue(table.contains(String.format(java.util.Locale.ROOT, "busy machine: load average up to %.2f above " +
            "its %d CPUs during: multi_net.rtt (other processes", load, Runtime.getRuntime().availableProcessors())),
            table);
        assertFalse(table.contains("impossible figure"), table);
        assertEquals(BooleanNode.TRUE, json(report).at("/machine/busy"));
    }

    @Test
    void aSlowProbeInAnyPairFlagsTheRun()
    {
        final LogPReport report = report(PROBE_NS, 40);
        assertTrue(report.slowEpoch());
        assertEquals(BooleanNode.TRUE, json(report).get("slow_epoch"));
        assertTrue(table(report).contains("SLOW EPOCH"));
    }

    @Test
    void thePlotsAreWrittenAsReadablePngs() throws Exception
    {
        final List<Path> files = LogPPlots.write(report(PROBE_NS), dir.resolve("plots"));
        assertEquals(5, files.size());
        for (final Path file : files)
        {
            assertTrue(Files.size(file) > 10_000, file.toString());
            final BufferedImage image = ImageIO.read(file.toFile());
            assertNotNull(image, file.toString());
            assertEquals(LogPPlots.WIDTH, image.getWidth());
            assertEquals(LogPPlots.HEIGHT, image.getHeight());
        }
        assertTrue(Files.exists(dir.resolve("plots").resolve("signature-multi_shm.png")));
        assertTrue(Files.exists(dir.resolve("plots").resolve(LogPPlots.BANDWIDTH_FILE)));
        assertFalse(Files.exists(dir.resolve("plots").resolve("bandwidth.png.png")));
    }

    /**
     * @param probeNs the probes of every pair.
     * @return a report of four configurations at shared-memory and network scales.
     */
    static LogPReport report(final long probeNs)
    {
        return report(probeNs, probeNs);
    }

    /**
     * @return a report with every optional part: each pair's warm-up, the line-normalized ratios of the pairs that
     * interleaved with their cache line, an impossible figure and a slow epoch.
     */
    static LogPReport fullestReport()
    {
        final Map<Protocol, Results> am = fixtureAm(PROBE_NS);
        am.values().forEach(results -> results.put("rtt_warmup_rounds", 1_000L));
        am.get(Protocol.SHM).put("ratio_p50_interleaved", 2.0);
        am.get(Protocol.MULTI_SHM).put("ratio_p50_interleaved", 2.2);
        final Results aeronIpc = LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200, PROBE_NS)
            .put("aeron_rtt_warmup_rounds", 1_000L).put("ratio_p50_interleaved", 1.6);
        final Results aeronUdp = LogPFixtures.peerResults("aeron_rtt", "aeron_udp_rtt", 8_500, PROBE_NS)
            .put("aeron_rtt_warmup_rounds", 1_000L).put("probe_fastest_p50_ns", 40L);
        return new LogPReport(LogPOptions.parse(new String[]{ "--quick" }), "am2j logp --quick",
            "2026-01-01T00:00:00Z", CpuPinning.detect(), new MachineState(1.0, 2.0, 3.0, 2400.0), am,
            aeronIpc, aeronUdp, LogPFixtures.peerResults("limit_rtt", "limit_rtt", 130, PROBE_NS)
            .put("limit_rtt_warmup_rounds", 1_000L), udpLimit(PROBE_NS).put("limit_udp_rtt_warmup_rounds", 1_000L),
            LogPFixtures.pollCost(0, PROBE_NS));
    }

    private static LogPReport report(final long probeNs, final long fastestOfAeronUdp)
    {
        final Results aeronUdp = LogPFixtures.peerResults("aeron_rtt", "aeron_udp_rtt", 8_500, probeNs);
        aeronUdp.put("probe_fastest_p50_ns", fastestOfAeronUdp);
        return report(fixtureAm(probeNs), LogPFixtures.peerResults("aeron_rtt", "aeron_ipc_rtt", 200, probeNs),
            aeronUdp, probeNs);
    }

    private static LogPReport report(final Map<Protocol, Results> am, final Results aeronIpc, final long probeNs)
    {
        return report(am, aeronIpc, LogPFixtures.peerResults("aeron_rtt", "aeron_udp_rtt", 8_500, probeNs), probeNs);
    }

    private static LogPReport report(
        final Map<Protocol, Results> am, final Results aeronIpc, final Results aeronUdp, final long probeNs)
    {
        return new LogPReport(LogPOptions.parse(new String[]{ "--quick" }), "am2j logp --quick",
            "2026-01-01T00:00:00Z", CpuPinning.detect(), new MachineState(1.0, 2.0, 3.0, 2400.0), am,
            aeronIpc, aeronUdp, LogPFixtures.peerResults("limit_rtt", "limit_rtt", 130, probeNs),
            udpLimit(probeNs), LogPFixtures.pollCost(0, probeNs));
    }

    private static Map<Protocol, Results> fixtureAm(final long probeNs)
    {
        final Map<Protocol, Results> am = new LinkedHashMap<>();
        am.put(Protocol.SHM, LogPFixtures.amResults(320, 110, 60, 180, 4_096 * 0.08, 0.08, probeNs));
        am.put(Protocol.MULTI_SHM, LogPFixtures.amResults(2_700, 760, 100, 1_000, 8_000 * 0.1, 0.1, probeNs));
        am.put(Protocol.MULTI_NET, LogPFixtures.amResults(11_000, 5_300, 860, 20_000, 20_000, 1.0, probeNs));
        am.put(Protocol.NET, LogPFixtures.amResults(10_500, 5_300, 850, 19_000, 20_000, 0.9, probeNs));
        return am;
    }

    /** Four configurations whose L is positive: half the round trip exceeds o_s + o_r. */
    private static Map<Protocol, Results> possibleAm()
    {
        final Map<Protocol, Results> am = new LinkedHashMap<>();
        am.put(Protocol.SHM, LogPFixtures.amResults(320, 100, 50, 180, 4_096 * 0.08, 0.08, PROBE_NS));
        am.put(Protocol.MULTI_SHM, LogPFixtures.amResults(2_700, 760, 100, 1_000, 8_000 * 0.1, 0.1, PROBE_NS));
        am.put(Protocol.MULTI_NET, LogPFixtures.amResults(12_000, 4_000, 860, 20_000, 20_000, 1.0, PROBE_NS));
        am.put(Protocol.NET, LogPFixtures.amResults(11_500, 4_000, 850, 19_000, 20_000, 0.9, PROBE_NS));
        return am;
    }

    private static Results udpLimit(final long probeNs)
    {
        final Results results = LogPFixtures.peerResults("limit_udp_rtt", "limit_udp_rtt", 7_000, probeNs);
        ResultsFixtures.machine(results, "udp_bw_8k", probeNs);
        return results;
    }

    static String table(final LogPReport report)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.printTable(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * @param report a run's report.
     * @return its JSON.
     */
    static JsonNode json(final LogPReport report)
    {
        return ReportJson.read(report.json());
    }

    /**
     * @param json a JSON object.
     * @param name of one of its members.
     * @return that member, an object.
     */
    static JsonNode object(final JsonNode json, final String name)
    {
        final JsonNode object = json.get(name);
        assertTrue(null != object && object.isObject(), "no object " + name + " in " + json);
        return object;
    }

    /**
     * @param object a JSON object.
     * @return the names of its members, in order.
     */
    static List<String> keys(final JsonNode object)
    {
        return object.properties().stream().map(Map.Entry::getKey).toList();
    }
}
