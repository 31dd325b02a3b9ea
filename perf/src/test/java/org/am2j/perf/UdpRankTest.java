package org.am2j.perf;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The UDP limit's measurements, run between two threads of this JVM: every command, report and result of
 * {@link UdpRank} without starting rank JVMs. Nothing about the values is asserted beyond their being there and
 * sane.
 */
class UdpRankTest
{
    private static final int ROUNDS = 2_000;

    @Test
    @Timeout(60)
    void measuresThePingPongAndTheStreamsBetweenTwoThreads() throws Exception
    {
        final Path lineFile = CacheLinePingPong.createFile();
        final ExecutorService executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "responder");
            thread.setDaemon(true);
            return thread;
        });
        try (UdpPingPong initiator = UdpPingPong.open(UdpPingPong.loopback());
            UdpPingPong responder = UdpPingPong.open(UdpPingPong.loopback()))
        {
            initiator.peer(responder.host(), responder.port());
            responder.peer(initiator.host(), initiator.port());
            final PhaseChannel channel = new ThreadPhaseChannel();
            final Future<?> answers = executor.submit(() ->
            {
                try (CacheLinePingPong line = CacheLinePingPong.map(lineFile))
                {
                    AmPingPongRank.respond(null, responder, line, channel);
                }
                return null;
            });

            final Results results;
            final int bwMessages = PingPongOptions.MIN_BW_MESSAGES;
            try (CacheLinePingPong line = CacheLinePingPong.map(lineFile))
            {
                final RankConfig config = new RankConfig("-", ROUNDS, 1_000, 0, 0, 0, bwMessages, 3,
                    EpochGuard.NO_PROBE, lineFile, lineFile);
                results = UdpRank.initiate(config, initiator, line, channel, ms -> { });
            }
            answers.get(30, TimeUnit.SECONDS);

            assertEquals(ROUNDS, results.getLong("limit_udp_rtt_count"));
            assertTrue(results.getLong("limit_udp_rtt_min_ns") > 0);
            assertTrue(results.getLong("limit_udp_rtt_p50_ns") <= results.getLong("limit_udp_rtt_p99_ns"));
            assertTrue(results.getLong("limit_udp_rtt_resends") >= 0);
            final double median = results.getDouble("udp_bw_8k_gbps");
            assertTrue(results.getDouble("udp_bw_8k_gbps_min") <= median);
            assertTrue(median <= results.getDouble("udp_bw_8k_gbps_max"));
            assertTrue(median > 0, "the median stream got fewer than two datagrams across");
            assertEquals(3, results.getDoubles("udp_bw_8k_gbps_runs").length);
            final double loss = results.getDouble("udp_loss");
            assertTrue(loss >= 0 && loss < 1, "loss " + loss);
            assertEquals(bwMessages, results.getLong("udp_bw_8k_datagrams"));
            assertTrue(results.getLong("udp_bw_8k_send_full_spins") >= 0);
            assertTrue(results.getLong("probe_fastest_p50_ns") > 0);
            for (final String name : new String[]{ "limit_udp_rtt", "udp_bw_8k" })
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
    void theSocketFollowsTheNetProtocolsAddressSettingPropertyFirst() throws Exception
    {
        assertEquals(UdpPingPong.loopback(), UdpRank.host(null, null));
        assertEquals(UdpPingPong.loopback(), UdpRank.host("", ""));
        assertEquals(InetAddress.getByName("192.0.2.1"), UdpRank.host(null, "192.0.2.1"));
        assertEquals(InetAddress.getByName("192.0.2.2"), UdpRank.host("192.0.2.2", "192.0.2.1"));
        final IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
            () -> UdpRank.host(null, "some-host"));
        assertTrue(name.getMessage().contains("AM2J_NET_HOST = 'some-host'"), name.getMessage());
        final IllegalArgumentException v6 = assertThrows(IllegalArgumentException.class,
            () -> UdpRank.host("::1", null));
        assertTrue(v6.getMessage().contains("am2j.net.host"), v6.getMessage());
    }
}
