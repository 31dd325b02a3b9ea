package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.am2j.perf.ResultsFixtures.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The benchmark end to end, with real rank JVMs (started and destroyed by the SPMD launcher, also when a test times
 * out: the interrupt reaches its wait). Tiny round-trip counts; no assertion about speed.
 */
class PingPongEndToEndTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    // soak: shmPingPongWritesEveryFieldPositive checks the limit's fields in the default build
    @Tag("soak")
    @Test
    @Timeout(120)
    void theLimitsOfTwoJvmsArePositive() throws Exception
    {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final PingPong pingPong = new PingPong(print(out), print(err));
        final Results limit = pingPong.pairs().measureLimit(1, 2_000, 1_000, 8192, EpochGuard.NO_PROBE);
        assertNotNull(limit, err.toString(StandardCharsets.UTF_8));
        for (final String prefix : new String[]{ "limit_rtt", "limit_medium_rtt" })
        {
            assertEquals(2_000, limit.getLong(prefix + "_count"), prefix);
            assertTrue(limit.getLong(prefix + "_p50_ns") > 0, prefix);
            assertTrue(limit.getLong(prefix + "_p99_ns") >= limit.getLong(prefix + "_p50_ns"), prefix);
            assertTrue(limit.getDouble(prefix + "_mean_ns") > 0, prefix);
            assertTrue(limit.getLong("machine." + prefix + ".attempts") >= 1, prefix);
        }
        assertTrue(limit.getLong("probe_fastest_p50_ns") > 0);
        assertNoLineFilesLeft();
    }

    // soak: netPingPongIsHeldAgainstPlainUdp checks the udp limit's fields in the default build
    @Tag("soak")
    @Test
    @Timeout(120)
    void theUdpLimitOfTwoJvmsIsPositive() throws Exception
    {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final PingPong pingPong = new PingPong(print(out), print(err));
        final Results udp = pingPong.pairs().measureUdpLimit(
            2_000, 1_000, PingPongOptions.MIN_BW_MESSAGES, Protocol.NET.nodes(), EpochGuard.NO_PROBE);
        assertNotNull(udp, err.toString(StandardCharsets.UTF_8));
        assertEquals(2_000, udp.getLong("limit_udp_rtt_count"));
        assertTrue(udp.getLong("limit_udp_rtt_p50_ns") > 0);
        assertTrue(udp.getLong("limit_udp_rtt_p99_ns") >= udp.getLong("limit_udp_rtt_p50_ns"));
        assertTrue(udp.getDouble("udp_bw_8k_gbps") > 0);
        assertEquals(PingPongOptions.BW_REPEATS, udp.getDoubles("udp_bw_8k_gbps_runs").length);
        assertTrue(udp.getDouble("udp_loss") >= 0 && udp.getDouble("udp_loss") < 1);
        assertTrue(udp.getLong("probe_fastest_p50_ns") > 0);
        assertTrue(udp.getLong("machine.limit_udp_rtt.attempts") >= 1);
        assertTrue(udp.getLong("machine.udp_bw_8k.attempts") >= 1);
        assertNoLineFilesLeft();
    }

    @Test
    @Timeout(240)
    void netPingPongIsHeldAgainstPlainUdp() throws Exception
    {
        assumeTrue(TransportCheck.available().contains("net"), "net-protocol is not on the class path");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final Path json = dir.resolve("net.json");
        final int status = new PingPong(print(out), print(err)).run(new String[]{
            "--protocol", "net", "--rounds", "2000", "--warmup", "1000", "--json", json.toString() });
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));

        final JsonNode text = ReportJson.read(Files.readString(json));
        for (final String field : new String[]{
            "rtt_p50_ns", "limit_rtt_p50_ns", "limit_udp_rtt_p50_ns", "limit_udp_rtt_p99_ns",
            "limit_udp_rtt_mean_ns", "ratio_p50", "ratio_p50_udp", "ratio_p50_cache_line", "bw_8k_gbps",
            "udp_bw_8k_gbps", "udp_bw_8k_gbps_min", "udp_bw_8k_gbps_max", "bw_ratio_udp" })
        {
            assertTrue(number(text, field) > 0, field + " in " + text);
        }
        assertTrue(number(text, "udp_loss") >= 0, text.toString());
        assertEquals(number(text, "ratio_p50_udp"), number(text, "ratio_p50"));
        assertEquals("udp", text.get("limit").asText(), text.toString());
        // The network's limit is not the pair's cache line: no blocks alternate with it; plain UDP's do, between the
        // AM ranks' JVMs, as many round trips as am2j's.
        assertFalse(text.has("ratio_p50_interleaved"), text.toString());
        assertFalse(text.has("limit_interleaved_rtt_p50_ns"), text.toString());
        for (final String field : new String[]{
            "limit_interleaved_udp_rtt_p50_ns", "limit_interleaved_udp_rtt_warmup_rounds", "ratio_p50_interleaved_udp",
            "ratio_p50_interleaved_udp_min", "ratio_p50_interleaved_udp_max" })
        {
            assertTrue(number(text, field) > 0, field + " in " + text);
        }
        assertEquals(2000, number(text, "limit_interleaved_udp_rtt_count"));
        assertTrue(number(text, "limit_interleaved_udp_rtt_resends") >= 0, text.toString());

        final String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("  limit: udp (136 B) "), table);
        assertTrue(table.contains("ratio p50 short / udp limit"), table);
        assertTrue(table.contains("  limit: udp, interleaved "), table);
        assertTrue(table.contains("ratio p50, interleaved udp "), table);
        assertTrue(table.contains("limit: udp 8 KiB stream"), table);
        assertTrue(table.contains("bandwidth / udp stream"), table);
        assertNoLineFilesLeft();
    }

    @Test
    @Timeout(180)
    void shmPingPongWritesEveryFieldPositive() throws Exception
    {
        assumeTrue(TransportCheck.available().contains("shm"), "shm-protocol is not on the class path yet");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final Path json = dir.resolve("pp.json");
        final int status = new PingPong(print(out), print(err)).run(new String[]{
            "--protocol", "shm", "--rounds", "2000", "--warmup", "1000", "--size", "256", "--json", json.toString() });
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));

        final JsonNode text = ReportJson.read(Files.readString(json));
        for (final String field : new String[]{
            "rtt_p50_ns", "rtt_p99_ns", "rtt_mean_ns", "limit_rtt_p50_ns", "limit_rtt_p99_ns", "ratio_p50", "os_ns",
            "os_burst_p50_ns",
            "bw_8k_gbps", "bw_8k_gbps_min", "bw_8k_gbps_max", "medium_rtt_p50_ns", "rounds", "size",
            "limit_interleaved_rtt_p50_ns", "ratio_p50_interleaved",
            "ratio_p50_interleaved_min", "ratio_p50_interleaved_max" })
        {
            assertTrue(number(text, field) > 0, field + " in " + text);
        }
        assertTrue(number(text.get("machine"), "probe_fastest_p50_ns") > 0, text.toString());
        assertEquals(2000, number(text, "rounds"));
        assertEquals(256, number(text, "size"));
        // The timed round trips are the blocks' (as many as --rounds), and the line ran as many between them.
        assertEquals(2000, number(text, "rtt_count"));
        assertEquals(2000, number(text, "limit_interleaved_rtt_count"));
        assertEquals("shm", text.get("protocol").asText(), text.toString());
        assertTrue(text.get("pinned").isBoolean(), text.toString());
        assertTrue(text.get("slow_epoch").isBoolean(), text.toString());
        assertTrue(text.get("command").asText().startsWith("am2j pingpong --protocol shm --rounds 2000"),
            text.toString());
        assertTrue(text.get("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT[^\"]+Z"), text.toString());
        assertTrue(text.at("/machine/measurements").isObject(), text.toString());

        final String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("ratio p50 short / limit"), table);
        assertTrue(table.contains("ratio p50, interleaved"), table);
        assertTrue(table.contains("bandwidth 8 KiB medium"), table);
        assertFalse(table.contains("udp"), table);
        assertEquals("cache_line", text.get("limit").asText(), text.toString());
        assertEquals(number(text, "ratio_p50_cache_line"), number(text, "ratio_p50"));
        assertNoLineFilesLeft();
    }

    @Test
    @Timeout(60)
    void aProtocolWhoseTransportIsMissingFailsBeforeStartingAnything()
    {
        // net-protocol is on the test class path: hide its provider from the ServiceLoader, which reads the
        // thread's context class loader, as a class path without it would.
        final Thread thread = Thread.currentThread();
        final ClassLoader classPath = thread.getContextClassLoader();
        final int status;
        thread.setContextClassLoader(withoutProvider(classPath, "org.am2j.net."));
        try
        {
            assertFalse(TransportCheck.available().contains("net"));
            status = new PingPong(print(out), print(err)).run(new String[]{ "--protocol", "net" });
        }
        finally
        {
            thread.setContextClassLoader(classPath);
        }
        assertEquals(BenchCommand.FAILURE_STATUS, status);
        final String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains("not on the class path: net"), message);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(120)
    void aFailingRankStopsThePairAndLeavesNoJvmBehind() throws Exception
    {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final Path line = CacheLinePingPong.createFile();
        try
        {
            // no transport is named "bogus": both ranks fail, at map ("no transport reaches") or at the route check
            final RankConfig config = new RankConfig("bogus", 1_000, 0, 0, 1, 0, PingPongOptions.MIN_BW_MESSAGES, 1,
                EpochGuard.NO_PROBE, line, dir.resolve("never.results"));
            final int status = new PingPong(print(out), print(err)).pairs().runPair("failing",
                AmPingPongRank.class.getName(), config.toArgs(), Protocol.SHM.systemProperties(), 1, 0, 1, 60);
            assertTrue(status != 0, "status " + status);
            final String messages = err.toString(StandardCharsets.UTF_8);
            assertTrue(messages.contains("am2j run: rank "), messages);
            assertTrue(messages.contains("am2j pingpong: failing: the rank JVMs failed (am2j run exit status "),
                messages);
            assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(),
                "rank JVMs left running");
            assertFalse(Files.exists(dir.resolve("never.results")));
        }
        finally
        {
            Files.deleteIfExists(line);
        }
    }

    @Test
    @Timeout(120)
    void stopKillsThePairUnderWayAndStartsNoMore() throws Exception
    {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final PingPong pingPong = new PingPong(print(out), print(err));
        final Path line = CacheLinePingPong.createFile();
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        try
        {
            final Future<Integer> status = executor.submit(() -> pingPong.pairs().runPair(
                "endless", CacheLineRank.class.getName(), endless(line).toArgs(), Map.of(), 1, 0, 1, 600));
            awaitRoundTrips(line);

            pingPong.stop();

            assertNotEquals(0, status.get(60, TimeUnit.SECONDS), err.toString(StandardCharsets.UTF_8));
            assertNoJvmLeft();
            assertNotEquals(0, pingPong.pairs().runPair(
                "after stop", CacheLineRank.class.getName(), endless(line).toArgs(), Map.of(), 1, 0, 1, 600));
            assertNoJvmLeft();
        }
        finally
        {
            executor.shutdownNow();
            Files.deleteIfExists(line);
        }
    }

    @Test
    @Timeout(120)
    void anInterruptStopsThePairUnderWay() throws Exception
    {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final PingPong pingPong = new PingPong(print(out), print(err));
        final Path line = CacheLinePingPong.createFile();
        final AtomicReference<Object> outcome = new AtomicReference<>();
        final Thread runner = new Thread(() ->
        {
            try
            {
                outcome.set(pingPong.pairs().runPair(
                    "endless", CacheLineRank.class.getName(), endless(line).toArgs(), Map.of(), 1, 0, 1, 600));
            }
            catch (final InterruptedException ex)
            {
                outcome.set(ex);
            }
        }, "pingpong-runner");
        try
        {
            runner.start();
            awaitRoundTrips(line);

            runner.interrupt();

            runner.join(60_000);
            assertFalse(runner.isAlive(), "runPair ignored the interrupt");
            assertInstanceOf(InterruptedException.class, outcome.get(), String.valueOf(outcome.get()));
            assertNoJvmLeft();
        }
        finally
        {
            runner.interrupt();
            Files.deleteIfExists(line);
        }
    }

    /**
     * @param line the cache-line file.
     * @return a limit measurement far longer than any test: a billion round trips.
     */
    private RankConfig endless(final Path line)
    {
        return new RankConfig("-", 1_000_000_000, 0, 0, 0, 0, 0, 0, EpochGuard.NO_PROBE, line,
            dir.resolve("endless.results"));
    }

    /**
     * Wait until the two rank JVMs are past their start and rendezvous: their sequence number in the cache line moves.
     *
     * @param line the cache-line file of the pair.
     */
    private void awaitRoundTrips(final Path line) throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!underWay(line))
        {
            assertTrue(System.nanoTime() < deadlineNs, "the ranks made no round trip" + output());
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static boolean underWay(final Path line) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(line);
        for (int i = CacheLinePingPong.SEQUENCE_OFFSET; i < CacheLinePingPong.SEQUENCE_OFFSET + Long.BYTES; i++)
        {
            if (0 != bytes[i])
            {
                return true;
            }
        }
        return false;
    }

    private String output()
    {
        return "\n--- stdout ---\n" + out.toString(StandardCharsets.UTF_8) + "--- stderr ---\n" +
            err.toString(StandardCharsets.UTF_8);
    }

    private static void assertNoJvmLeft()
    {
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(),
            "rank JVMs left running");
    }

    private static void assertNoLineFilesLeft() throws IOException
    {
        final String mine = "am2j-pingpong-" + ProcessHandle.current().pid() + "-";
        for (final Path dir : new Path[]{ Path.of("/dev/shm"), Path.of(System.getProperty("java.io.tmpdir")) })
        {
            if (Files.isDirectory(dir))
            {
                try (Stream<Path> files = Files.list(dir))
                {
                    assertFalse(files.anyMatch(f -> f.getFileName().toString().startsWith(mine)), "left in " + dir);
                }
            }
        }
    }

    /**
     * @param parent  the class path.
     * @param prefix  package prefix of the transport provider to hide.
     * @return the class path without the transport provider files that name a class under the prefix.
     */
    private static ClassLoader withoutProvider(final ClassLoader parent, final String prefix)
    {
        return new ClassLoader(parent)
        {
            @Override
            public java.util.Enumeration<java.net.URL> getResources(final String name) throws IOException
            {
                final java.util.List<java.net.URL> kept = java.util.Collections.list(super.getResources(name));
                if (name.equals("META-INF/services/" + org.am2j.spi.TransportProvider.class.getName()))
                {
                    final java.util.Iterator<java.net.URL> each = kept.iterator();
                    while (each.hasNext())
                    {
                        try (java.io.InputStream in = each.next().openStream())
                        {
                            if (new String(in.readAllBytes(), StandardCharsets.UTF_8).contains(prefix))
                            {
                                each.remove();
                            }
                        }
                    }
                }
                return java.util.Collections.enumeration(kept);
            }
        };
    }

    private static PrintStream print(final ByteArrayOutputStream bytes)
    {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
