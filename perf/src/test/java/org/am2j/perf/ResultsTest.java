package org.am2j.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ResultsTest
{
    @TempDir
    Path dir;

    @Test
    void goesThroughAFileInOrderAndUnchanged() throws Exception
    {
        final Results results = new Results()
            .put("rtt_p50_ns", 312L)
            .put("os_ns", 45.123456789)
            .put("bw_8k_gbps", Double.NaN)
            .put("machine.rtt.slow_epoch", true)
            .put("bw_8k_gbps_runs", "1.5,2.5")
            .put("poll_scheduler", "Bundle[SEQ, \"quoted\",\n two lines]");
        final Path file = dir.resolve("r.results");
        results.write(file);
        final Results back = Results.read(file);
        assertEquals(results.asMap(), back.asMap());
        assertEquals(List.of("rtt_p50_ns", "os_ns", "bw_8k_gbps", "machine.rtt.slow_epoch", "bw_8k_gbps_runs",
            "poll_scheduler"), List.copyOf(back.asMap().keySet()));
        assertEquals(312, back.getLong("rtt_p50_ns"));
        assertEquals(45.123456789, back.getDouble("os_ns"));
        assertTrue(Double.isNaN(back.getDouble("bw_8k_gbps")));
        assertTrue(back.getBoolean("machine.rtt.slow_epoch"));
        assertEquals(List.of("machine.rtt.slow_epoch"),
            back.asMap().keySet().stream().filter(key -> key.startsWith("machine.")).toList());
        assertFalse(Files.exists(dir.resolve("r.results.partial")));
    }

    @Test
    void refusesMissingResultsWrongNumbersAndFilesThatAreNotAnObject() throws Exception
    {
        assertThrows(IllegalArgumentException.class, () -> new Results().getLong("missing"));
        assertThrows(IllegalArgumentException.class, () -> new Results().put("k", "x").getLong("k"));
        final Path file = dir.resolve("bad.results");
        for (final String bad : List.of("rtt_p50_ns=312\n", "[\"312\"]", "{\"rtt_p50_ns\": \"312\""))
        {
            Files.writeString(file, bad);
            final java.io.IOException refused = assertThrows(java.io.IOException.class, () -> Results.read(file), bad);
            assertTrue(refused.getMessage().startsWith(file.toString()), refused.getMessage());
        }
    }

    @Test
    void rankConfigGoesThroughItsCommandLine()
    {
        final RankConfig config = new RankConfig("shm", 1_000_000, 200_000, 1024, 15_625, 3_125, 62_500, 5,
            EpochGuard.NO_PROBE, Path.of("/dev/shm/x.line"), Path.of("/tmp/x.results"));
        final RankConfig back = RankConfig.parse(config.toArgs().toArray(new String[0]));
        assertEquals(config.toArgs(), back.toArgs());
        assertEquals("shm", back.route());
        assertEquals(1_000_000, back.rounds());
        assertEquals(200_000, back.warmup());
        assertEquals(1024, back.size());
        assertEquals(15_625, back.osBursts());
        assertEquals(3_125, back.osWarmupBursts());
        assertEquals(62_500, back.bwMessages());
        assertEquals(5, back.bwRepeats());
        assertEquals(EpochGuard.NO_PROBE, back.fastestProbeNs());
        assertEquals(Path.of("/dev/shm/x.line"), back.line());
        assertEquals(Path.of("/tmp/x.results"), back.out());

        assertEquals(config, back);
        // a script may write plain paths (perf/scripts/netns-pingpong.sh)
        assertEquals(Path.of("/dev/shm/y.line"), RankConfig.parse(new String[]{
            config.toArgs().get(0).replace(config.line().toUri().toString(), "/dev/shm/y.line") }).line());
        final String json = config.toArgs().get(0);
        for (final String bad : List.of(json.replace("\"rounds\"", "\"nope\""), json.replace(",\"warmup\":200000", ""),
            json.replace("200000", "-1"), json.replace("\"shm\"", "null"), "{", "[]"))
        {
            assertThrows(IllegalArgumentException.class, () -> RankConfig.parse(new String[]{ bad }), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> RankConfig.parse(new String[]{ json, json }));
    }

    @Test
    void machineStateReadsLoadAndClock()
    {
        final MachineState state = MachineState.parse("0.52 0.31 1.07 2/345 6789",
            List.of("processor\t: 0", "cpu MHz\t\t: 2445.406", "processor\t: 1", "cpu MHz\t\t: 2400.000"));
        assertEquals(0.52, state.load1());
        assertEquals(0.31, state.load5());
        assertEquals(1.07, state.load15());
        assertEquals(2422.703, state.cpuMhz(), 1e-9);

        final MachineState unknown = MachineState.parse(null, List.of("processor : 0"));
        assertTrue(Double.isNaN(unknown.load1()));
        assertTrue(Double.isNaN(unknown.cpuMhz()));
    }
}
