package org.am2j.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Exchanger;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AM measurements of the ping-pong, run between two threads of this JVM over the in-process transport: every
 * phase, handler and result of {@link AmPingPongRank} without needing a cross-process transport. Nothing about
 * the values is asserted beyond their being there and positive.
 */
class AmMessagingTest
{
    private static final int ROUNDS = 2_000;

    @BeforeAll
    static void inProcessOnly()
    {
        // this JVM's AM runtime only ever connects its own endpoints: keep other transports' files out of the test
        System.setProperty(Protocol.TRANSPORTS_PROPERTY, "inproc");
    }

    @Test
    @Timeout(60)
    void measuresEveryPhaseBetweenTwoThreads() throws Exception
    {
        final Path lineFile = CacheLinePingPong.createFile();
        final ExecutorService executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "responder");
            thread.setDaemon(true);
            return thread;
        });
        try
        {
            final Exchanger<Object[]> names = new Exchanger<>();
            final PhaseChannel channel = new ThreadPhaseChannel();

            final Future<?> responder = executor.submit(() ->
            {
                try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ);
                    CacheLinePingPong line = CacheLinePingPong.map(lineFile))
                {
                    final Endpoint endpoint = bundle.allocateEndpoint();
                    endpoint.tag(Tags.fresh());
                    final AmMessaging messaging = new AmMessaging(bundle, endpoint, 0);
                    final Object[] peer = names.exchange(new Object[]{ endpoint.name(), endpoint.tag() });
                    endpoint.map(0, (EndpointName)peer[0], (Long)peer[1]);
                    AmPingPongRank.respond(messaging, null, line, channel);
                }
                return null;
            });

            final Results results;
            try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ);
                CacheLinePingPong line = CacheLinePingPong.map(lineFile))
            {
                final Endpoint endpoint = bundle.allocateEndpoint();
                endpoint.tag(Tags.fresh());
                final AmMessaging messaging = new AmMessaging(bundle, endpoint, 1);
                final Object[] peer = names.exchange(new Object[]{ endpoint.name(), endpoint.tag() });
                endpoint.map(1, (EndpointName)peer[0], (Long)peer[1]);
                AmPingPongRank.checkRoute(endpoint, 1, "inproc");
                assertThrows(IllegalStateException.class, () -> AmPingPongRank.checkRoute(endpoint, 1, "shm"));

                final RankConfig config = new RankConfig("inproc", ROUNDS, 1_000, 256, ROUNDS / 64, 1_000 / 64,
                    PingPongOptions.MIN_BW_MESSAGES, 5, EpochGuard.NO_PROBE, lineFile, lineFile);
                results = AmPingPongRank.initiate(config, messaging, line, null, channel, ms -> { });
            }
            responder.get(30, TimeUnit.SECONDS);

            for (final String prefix : new String[]{ "rtt", "medium_rtt" })
            {
                assertEquals(ROUNDS, results.getLong(prefix + "_count"));
                assertTrue(results.getLong(prefix + "_p50_ns") > 0);
                assertTrue(results.getLong(prefix + "_min_ns") <= results.getLong(prefix + "_p50_ns"));
                assertTrue(results.getLong(prefix + "_p50_ns") <= results.getLong(prefix + "_p99_ns"));
                assertTrue(results.getLong(prefix + "_p99_ns") <= results.getLong(prefix + "_max_ns"));
                assertTrue(results.getDouble(prefix + "_mean_ns") > 0);
            }
            assertTrue(results.getDouble("os_ns") > 0);
            assertTrue(results.getDouble("os_burst_p50_ns") > 0);
            assertTrue(results.getLong("os_queue_full_backoffs") >= 0);
            final double median = results.getDouble("bw_8k_gbps");
            assertTrue(results.getDouble("bw_8k_gbps_min") > 0);
            assertTrue(results.getDouble("bw_8k_gbps_min") <= median);
            assertTrue(median <= results.getDouble("bw_8k_gbps_max"));
            assertEquals(5, results.getDoubles("bw_8k_gbps_runs").length);
            assertTrue(results.getLong("probe_fastest_p50_ns") > 0);
            for (final String name : new String[]{ "rtt", "medium_rtt", "os", "bw_8k" })
            {
                assertTrue(results.getLong("machine." + name + ".attempts") >= 1, name);
                assertTrue(results.getLong("machine." + name + ".probe_p50_ns") > 0, name);
                assertTrue(results.has("machine." + name + ".slow_epoch"), name);
            }
        }
        finally
        {
            executor.shutdownNow();
            Files.deleteIfExists(lineFile);
        }
    }

    @Test
    @Timeout(30)
    void bandwidthIsTheMedianAndRangeOfTheRuns()
    {
        final Results odd = new Results();
        AmPingPongRank.putBandwidth(odd, "bw_8k", new double[]{ 5.0, 1.0, 9.0, 7.0, 3.0 });
        assertEquals(5.0, odd.getDouble("bw_8k_gbps"));
        assertEquals(1.0, odd.getDouble("bw_8k_gbps_min"));
        assertEquals(9.0, odd.getDouble("bw_8k_gbps_max"));
        assertArrayEquals(new double[]{ 5.0, 1.0, 9.0, 7.0, 3.0 }, odd.getDoubles("bw_8k_gbps_runs"));

        final Results even = new Results();
        AmPingPongRank.putBandwidth(even, "bw_8k", new double[]{ 4.0, 2.0 });
        assertEquals(3.0, even.getDouble("bw_8k_gbps"));

        final Results prefixed = new Results();
        AmPingPongRank.putBandwidth(prefixed, "udp_bw_8k", new double[]{ 2.5 });
        assertEquals(2.5, prefixed.getDouble("udp_bw_8k_gbps"));
        assertEquals(2.5, prefixed.getDouble("udp_bw_8k_gbps_min"));
        assertEquals(2.5, prefixed.getDouble("udp_bw_8k_gbps_max"));
        assertArrayEquals(new double[]{ 2.5 }, prefixed.getDoubles("udp_bw_8k_gbps_runs"));
        assertEquals(List.of(), prefixed.asJson().properties().stream().map(Map.Entry::getKey)
            .filter(key -> key.startsWith("bw_8k")).toList());
    }
}
