package org.am2j.perf;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.function.LongConsumer;

import org.HdrHistogram.Histogram;
import org.am2j.spmd.Job;

/**
 * The rank program of the network's limit in {@link PingPong} (for the net protocols): plain UDP between two JVMs
 * pinned like the AM ranks ({@link UdpPingPong}), with no AM layer. Each rank opens its socket on
 * {@code 127.0.0.1}, or on the net protocol's address setting when there is one ({@link #host}: the same path as
 * the AM ranks' NICs, e.g. across a veth pair), and the ranks learn each other's address and port through the job's
 * all-gather; the job's rendezvous also carries the commands and the receiver's reports between measurements
 * ({@link JobPhaseChannel}), and the cache-line file the probes of the {@link EpochGuard} run over. Rank 0 drives (see {@link #initiate}) and writes the results
 * to {@code --out}; rank 1 answers and receives (see {@link #respond}).
 */
public final class UdpRank
{
    /** The net protocol's address setting, which this rank's socket follows too: the same path as the NIC's. */
    static final String NET_HOST_PROPERTY = "am2j.net.host";
    /** The same setting as an environment variable. */
    static final String NET_HOST_VARIABLE = "AM2J_NET_HOST";
    private static final int ADDRESS_BYTES = 4;

    private UdpRank()
    {
    }

    /**
     * The address the rank's socket binds to: the net protocol's {@code am2j.net.host} property, else its
     * {@code AM2J_NET_HOST} variable, else {@code 127.0.0.1} (what {@code bin/am2j pingpong}'s ranks get).
     *
     * @param property the property's value, or {@code null}.
     * @param variable the variable's value, or {@code null}.
     * @return an IPv4 address.
     * @throws IllegalArgumentException when the setting is not an IPv4 address literal.
     */
    static InetAddress host(final String property, final String variable)
    {
        final String text = null != property && !property.isEmpty() ? property : variable;
        if (null == text || text.isEmpty())
        {
            return UdpPingPong.loopback();
        }
        final String name = null != property && !property.isEmpty() ? NET_HOST_PROPERTY : NET_HOST_VARIABLE;
        if (!text.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}"))
        {
            throw new IllegalArgumentException(name + " = '" + text + "' is not an IPv4 address: the UDP limit " +
                "binds IPv4 sockets, as the net protocol does");
        }
        try
        {
            final InetAddress address = InetAddress.getByName(text);
            if (!(address instanceof Inet4Address))
            {
                throw new IllegalArgumentException(name + " = '" + text + "' is not an IPv4 address");
            }
            return address;
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(name + " = '" + text + "' is not an IPv4 address", ex);
        }
    }

    /**
     * @param args a {@link RankConfig} command line.
     * @throws IOException when the socket cannot be opened, the cache-line file cannot be mapped or the results
     *                     cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        JobPhaseChannel.run(args, (config, job, line, channel) ->
        {
            try (UdpPingPong udp = openToPeer(job))
            {
                JobPhaseChannel.split(config, job, () -> initiate(config, udp, line, channel, AmPingPongRank::sleep),
                    () -> AmPingPongRank.respond(null, udp, line, channel));
            }
        });
    }

    /**
     * Open this rank's side of the plain UDP ping-pong on {@link #host} (from this JVM's {@code am2j.net.host}
     * property or {@code AM2J_NET_HOST} variable) and learn the other rank's socket through the job's all-gather:
     * every rank of the job must call this at the same point.
     *
     * @param job of two ranks.
     * @return this rank's side, its peer the other rank's.
     * @throws IOException when the socket cannot be opened or bound.
     */
    static UdpPingPong openToPeer(final Job job) throws IOException
    {
        final UdpPingPong udp = UdpPingPong.open(host(System.getProperty(NET_HOST_PROPERTY),
            System.getenv(NET_HOST_VARIABLE)));
        try
        {
            final byte[][] sockets = job.allGather(ByteBuffer.allocate(ADDRESS_BYTES + Integer.BYTES)
                .put(udp.host().getAddress()).putInt(udp.port()).array());
            final ByteBuffer peer = ByteBuffer.wrap(sockets[1 - job.rank()]);
            final byte[] address = new byte[ADDRESS_BYTES];
            peer.get(address);
            udp.peer(InetAddress.getByAddress(address), peer.getInt());
            return udp;
        }
        catch (final IOException | RuntimeException ex)
        {
            udp.close();
            throw ex;
        }
    }

    /**
     * Rank 0: the UDP ping-pong and the UDP stream, each inside an {@link EpochGuard}, then the end command.
     * <p>
     * Results: {@code limit_udp_rtt_*} and {@code limit_udp_rtt_resends}; {@code udp_bw_8k_gbps} (the median of
     * {@link RankConfig#bwRepeats()} streams of {@link RankConfig#bwMessages()} datagrams, after one untimed stream of
     * {@link AmPingPongRank#bwWarmupMessages(RankConfig)}), {@code _min}, {@code _max}, {@code _runs};
     * {@code udp_loss} (datagrams lost over all timed streams), {@code udp_bw_8k_datagrams},
     * {@code udp_bw_8k_send_full_spins}; the guard's results and {@code probe_fastest_p50_ns}.
     *
     * @param config  of the run.
     * @param udp     rank 0's socket, its peer set.
     * @param line    the pair's cache line, for the probes.
     * @param channel to rank 1.
     * @param pause   sleeps the given milliseconds.
     * @return the results.
     */
    static Results initiate(
        final RankConfig config,
        final UdpPingPong udp,
        final CacheLinePingPong line,
        final PhaseChannel channel,
        final LongConsumer pause)
    {
        final Results results = new Results();
        final EpochGuard guard = AmPingPongRank.guard(config, line, channel, pause);
        final Histogram histogram = LatencySummary.newHistogram();

        // Before the guard: its probe then comes right before the timed round trips, and a retry is not warmed again.
        results.put("limit_udp_rtt_warmup_rounds", WarmUp.run(config.warmup(), n ->
        {
            channel.command(PhaseChannel.UDP_ECHO, n);
            udp.roundTrips(n, histogram);
        }));
        guard.measure("limit_udp_rtt", () ->
        {
            channel.command(PhaseChannel.UDP_ECHO, config.rounds());
            histogram.reset();
            final long resends = udp.resends();
            udp.roundTrips(config.rounds(), histogram);
            LatencySummary.of(histogram).putInto(results, "limit_udp_rtt");
            results.put("limit_udp_rtt_resends", udp.resends() - resends);
        }, results);

        guard.measure("udp_bw_8k", () ->
        {
            stream(udp, channel, AmPingPongRank.bwWarmupMessages(config));
            final long spins = udp.sendFullSpins();
            final double[] runs = new double[config.bwRepeats()];
            long received = 0;
            for (int i = 0; i < runs.length; i++)
            {
                final UdpStreamTally tally = stream(udp, channel, config.bwMessages());
                runs[i] = tally.gbps();
                received += tally.datagrams();
            }
            AmPingPongRank.putBandwidth(results, "udp_bw_8k", runs);
            results.put("udp_loss", MachineReport.round(
                UdpStreamTally.loss((long)runs.length * config.bwMessages(), received), 1_000_000));
            results.put("udp_bw_8k_datagrams", config.bwMessages());
            results.put("udp_bw_8k_send_full_spins", udp.sendFullSpins() - spins);
        }, results);

        return AmPingPongRank.end(channel, guard, results);
    }

    /**
     * One stream from rank 0 to rank 1 and rank 1's tally of it.
     */
    private static UdpStreamTally stream(final UdpPingPong udp, final PhaseChannel channel, final int datagrams)
    {
        channel.command(PhaseChannel.UDP_SINK, datagrams);
        udp.stream(datagrams);
        return UdpStreamTally.fromBytes(channel.awaitReport());
    }
}
