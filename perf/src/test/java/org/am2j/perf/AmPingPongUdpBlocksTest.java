package org.am2j.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Exchanger;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AM ranks' plain UDP limit, between two threads of this JVM (AM over the in-process transport, UDP over
 * loopback): the command each UDP block sends to rank 1, rank 1's answers, and the keys the interleaved short round
 * trips put. Nothing about the values is asserted beyond their being there and sane.
 */
class AmPingPongUdpBlocksTest
{
    private static final int ROUNDS = 2_000;

    private Path lineFile;
    private ExecutorService executor;

    @BeforeAll
    static void inProcessOnly()
    {
        // this JVM's AM runtime only ever connects its own endpoints: keep other transports' files out of the test
        System.setProperty(Protocol.TRANSPORTS_PROPERTY, "inproc");
    }

    @BeforeEach
    void setUp() throws Exception
    {
        lineFile = CacheLinePingPong.createFile();
        executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "responder");
            thread.setDaemon(true);
            return thread;
        });
    }

    @AfterEach
    void tearDown() throws Exception
    {
        executor.shutdownNow();
        Files.deleteIfExists(lineFile);
    }

    @Test
    @Timeout(60)
    void eachUdpBlockCommandsRankOneToEchoItsRoundTripsThenTimesOnlyTheTimedOnes() throws Exception
    {
        try (UdpPingPong initiator = UdpPingPong.open(UdpPingPong.loopback());
            UdpPingPong responder = UdpPingPong.open(UdpPingPong.loopback());
            CacheLinePingPong line = CacheLinePingPong.map(lineFile))
        {
            initiator.peer(responder.host(), responder.port());
            responder.peer(initiator.host(), initiator.port());
            final RecordingChannel channel = new RecordingChannel(new ThreadPhaseChannel());
            final Future<?> answers = executor.submit(() ->
            {
                try (CacheLinePingPong responderLine = CacheLinePingPong.map(lineFile))
                {
                    AmPingPongRank.respond(null, responder, responderLine, channel);
                }
                return null;
            });

            final Histogram scratch = LatencySummary.newHistogram();
            final Histogram timed = LatencySummary.newHistogram();
            final InterleavedRoundTrips.Side side =
                ShortRoundTrips.blocks(PhaseChannel.UDP_ECHO, channel, initiator::roundTrips, scratch);
            side.roundTrips(100, 50, timed);
            side.roundTrips(0, 7, timed);
            channel.command(PhaseChannel.EXIT, 0);
            answers.get(30, TimeUnit.SECONDS);

            assertEquals(List.of(PhaseChannel.pack(PhaseChannel.UDP_ECHO, 150),
                PhaseChannel.pack(PhaseChannel.UDP_ECHO, 7), PhaseChannel.pack(PhaseChannel.EXIT, 0)),
                channel.commands);
            assertEquals(100, scratch.getTotalCount());
            assertEquals(57, timed.getTotalCount());
            assertTrue(timed.getMinValue() > 0);
        }
    }

    @Test
    @Timeout(30)
    void aRankWithoutTheUdpLimitRefusesItsPingsAndSaysWhy() throws Exception
    {
        final Queue<Long> pending = new ArrayDeque<>(List.of(PhaseChannel.pack(PhaseChannel.UDP_ECHO, 1)));
        final PhaseChannel channel = new RecordingChannel(null)
        {
            @Override
            public long next()
            {
                return pending.remove();
            }
        };
        try (CacheLinePingPong line = CacheLinePingPong.map(lineFile))
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> AmPingPongRank.respond(null, null, line, channel));
            assertTrue(refused.getMessage().contains("plain UDP"), refused.getMessage());
        }
    }

    @Test
    @Timeout(30)
    void theShortRoundTripsAlternateWithOneLimitOnly() throws Exception
    {
        try (UdpPingPong udp = UdpPingPong.open(UdpPingPong.loopback());
            CacheLinePingPong line = CacheLinePingPong.map(lineFile))
        {
            final RankConfig config = new RankConfig("net", ROUNDS, 1_000, 0, 0, 0, 0, 0, EpochGuard.NO_PROBE,
                lineFile, lineFile);
            assertTrue(config.routeIsNet());
            assertThrows(IllegalArgumentException.class, () -> ShortRoundTrips.measure(config, null, line,
                udp, new ThreadPhaseChannel(), LatencySummary.newHistogram(), new Results()));
        }
    }

    @Test
    @Timeout(60)
    void theShortRoundTripsAlternateWithUdpBetweenTheSameTwoRanks() throws Exception
    {
        try (UdpPingPong initiator = UdpPingPong.open(UdpPingPong.loopback());
            UdpPingPong responder = UdpPingPong.open(UdpPingPong.loopback()))
        {
            initiator.peer(responder.host(), responder.port());
            responder.peer(initiator.host(), initiator.port());
            final Exchanger<Object[]> names = new Exchanger<>();
            final RecordingChannel channel = new RecordingChannel(new ThreadPhaseChannel());
            final Future<?> answers = executor.submit(() ->
            {
                try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ);
                    CacheLinePingPong line = CacheLinePingPong.map(lineFile))
                {
                    final Endpoint endpoint = bundle.allocateEndpoint();
                    endpoint.tag(Tags.fresh());
                    final AmMessaging messaging = new AmMessaging(bundle, endpoint, 0);
                    final Object[] peer = names.exchange(new Object[]{ endpoint.name(), endpoint.tag() });
                    endpoint.map(0, (EndpointName)peer[0], (Long)peer[1]);
                    AmPingPongRank.respond(messaging, responder, line, channel);
                }
                return null;
            });

            final Results results = new Results();
            try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                final Endpoint endpoint = bundle.allocateEndpoint();
                endpoint.tag(Tags.fresh());
                final AmMessaging messaging = new AmMessaging(bundle, endpoint, 1);
                final Object[] peer = names.exchange(new Object[]{ endpoint.name(), endpoint.tag() });
                endpoint.map(1, (EndpointName)peer[0], (Long)peer[1]);
                final RankConfig config = new RankConfig("inproc", ROUNDS, 1_000, 0, 0, 0, 0, 0,
                    EpochGuard.NO_PROBE, lineFile, lineFile);
                final Histogram histogram = LatencySummary.newHistogram();
                ShortRoundTrips.warmUp(config, messaging, initiator, channel, histogram, results);
                ShortRoundTrips.measure(config, messaging, null, initiator, channel, histogram, results);
                channel.command(PhaseChannel.EXIT, 0);
            }
            answers.get(30, TimeUnit.SECONDS);

            assertEquals(ROUNDS, results.getLong("rtt_count"));
            assertEquals(ROUNDS, results.getLong("limit_interleaved_udp_rtt_count"));
            assertTrue(results.getLong("limit_interleaved_udp_rtt_min_ns") > 0);
            assertTrue(results.getLong("limit_interleaved_udp_rtt_p50_ns") <=
                results.getLong("limit_interleaved_udp_rtt_p99_ns"));
            assertTrue(results.getLong("limit_interleaved_udp_rtt_resends") >= 0);
            assertTrue(results.getLong("rtt_warmup_rounds") >= 1_000);
            assertTrue(results.getLong("limit_interleaved_udp_rtt_warmup_rounds") >= 1_000);
            final double median = results.getDouble("ratio_p50_interleaved_udp");
            assertTrue(results.getDouble("ratio_p50_interleaved_udp_min") <= median);
            assertTrue(median <= results.getDouble("ratio_p50_interleaved_udp_max"));
            assertEquals(InterleavedRoundTrips.BLOCKS,
                results.getDoubles("ratio_p50_interleaved_udp_blocks").length);
            assertTrue(!results.has("ratio_p50_interleaved"), "no cache-line blocks over the network");

            // the timed part: blocks alternate, am2j's first, each UDP block one echo command of its round trips
            final List<Long> timed = channel.commands.subList(
                channel.commands.size() - 2 * InterleavedRoundTrips.BLOCKS - 1, channel.commands.size() - 1);
            for (int i = 0; i < InterleavedRoundTrips.BLOCKS; i++)
            {
                assertEquals(PhaseChannel.SERVE, PhaseChannel.type(timed.get(2 * i)));
                assertEquals(PhaseChannel.pack(PhaseChannel.UDP_ECHO, InterleavedRoundTrips.BLOCK_WARMUP +
                    InterleavedRoundTrips.blockRounds(ROUNDS, InterleavedRoundTrips.BLOCKS, i)),
                    (long)timed.get(2 * i + 1));
            }
        }
    }

    /**
     * A channel that records the initiator's commands, in order, and hands everything on to another.
     */
    private static class RecordingChannel implements PhaseChannel
    {
        final List<Long> commands = new ArrayList<>();
        private final PhaseChannel delegate;

        RecordingChannel(final PhaseChannel delegate)
        {
            this.delegate = delegate;
        }

        @Override
        public void command(final int type, final int count)
        {
            commands.add(PhaseChannel.pack(type, count));
            delegate.command(type, count);
        }

        @Override
        public long next()
        {
            return delegate.next();
        }

        @Override
        public void report(final byte[] report)
        {
            delegate.report(report);
        }

        @Override
        public byte[] awaitReport()
        {
            return delegate.awaitReport();
        }
    }
}
