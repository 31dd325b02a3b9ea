package org.am2j.perf;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * What the rank programs of a pair ({@link AmPingPongRank}, {@link CacheLineRank}, ...) are to do, passed as their
 * one command-line argument: this record as a JSON object (Jackson). {@link #toArgs()} and {@link #parse(String[])}
 * are inverses.
 *
 * @param route          transport the ranks' translations must use ({@code -} for none: no AM).
 * @param rounds         timed round trips.
 * @param warmup         untimed round trips before them.
 * @param size           medium round-trip bytes, 0 for none.
 * @param osBursts       timed bursts of the o_s measurement.
 * @param osWarmupBursts untimed bursts before them.
 * @param bwMessages     8 KiB messages of one bandwidth run.
 * @param bwRepeats      timed bandwidth runs.
 * @param fastestProbeNs fastest probe median of the run so far, or {@link EpochGuard#NO_PROBE}.
 * @param line           the cache-line file of the pair.
 * @param out            where rank 0 writes its results.
 */
record RankConfig(
    String route,
    int rounds,
    int warmup,
    int size,
    int osBursts,
    int osWarmupBursts,
    int bwMessages,
    int bwRepeats,
    long fastestProbeNs,
    Path line,
    Path out)
{
    /**
     * @throws IllegalArgumentException when a count is negative or a member is missing.
     */
    RankConfig
    {
        if (null == route || null == line || null == out || fastestProbeNs < 0 ||
            IntStream.of(rounds, warmup, size, osBursts, osWarmupBursts, bwMessages, bwRepeats).min().orElse(0) < 0)
        {
            throw new IllegalArgumentException("a rank configuration needs a route, a line and an out file, and no " +
                "negative count: route " + route + ", line " + line + ", out " + out);
        }
    }

    /**
     * @param args a command line {@link #toArgs()} made.
     * @return the configuration.
     * @throws IllegalArgumentException when it is not one JSON object of every member.
     */
    static RankConfig parse(final String[] args)
    {
        if (1 != args.length)
        {
            throw new IllegalArgumentException("a rank program takes one argument, its configuration as a JSON " +
                "object, not " + args.length);
        }
        try
        {
            return Results.STRICT.readValue(args[0], RankConfig.class);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("not a rank configuration: " + ex.getOriginalMessage(), ex);
        }
    }

    /**
     * @return the command line that {@link #parse(String[])} turns back into this configuration.
     */
    List<String> toArgs()
    {
        try
        {
            return List.of(Results.STRICT.writeValueAsString(this));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("a rank configuration is plain JSON", ex);
        }
    }

    /**
     * @return true when the route is shared memory, whose limit is the pair's own cache line: its short round trips
     * then alternate with the line's ({@link InterleavedRoundTrips}).
     */
    boolean routeIsShm()
    {
        return Protocol.SHM.route().equals(route);
    }

    /**
     * @return true when the route is the network protocol's, whose limit is plain UDP: its short round trips then
     * alternate with plain UDP round trips between the same two JVMs ({@link InterleavedRoundTrips}).
     */
    boolean routeIsNet()
    {
        return Protocol.NET.route().equals(route);
    }

    /**
     * @return true when the pair measures the short round trips only: no medium size, no o_s bursts, no bandwidth
     * runs (the single-protocol reference of a multi-protocol ping-pong).
     */
    boolean roundTripsOnly()
    {
        return 0 == size && 0 == osBursts && 0 == bwRepeats;
    }

    /**
     * @return timed round trips to a sleeping responder: a hundredth of {@link #rounds()}, from 100 to 10,000 (each
     * waits {@value AmMessaging#SLEEPER_GAP_NS} ns for the responder to fall asleep).
     */
    int wakeRounds()
    {
        return Math.max(100, Math.min(10_000, rounds / 100));
    }
}
