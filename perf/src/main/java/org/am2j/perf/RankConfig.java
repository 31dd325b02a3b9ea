package org.am2j.perf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the rank programs of a pair ({@link AmPingPongRank}, {@link CacheLineRank}) are to do, passed as their
 * command line: {@code --route NAME --rounds N --warmup N --size B --os-bursts N --os-warmup-bursts N
 * --bw-messages N --bw-repeats N --fastest-probe-ns NS --line FILE --out FILE}. {@link #toArgs()} and
 * {@link #parse(String[])} are inverses.
 */
final class RankConfig
{
    /** The options with a number, in the order of {@link #toArgs()}; only the last may exceed an int. */
    private static final String[] NUMBER_OPTIONS = {
        "--rounds", "--warmup", "--size", "--os-bursts", "--os-warmup-bursts", "--bw-messages", "--bw-repeats",
        "--fastest-probe-ns" };

    private final String route;
    private final int rounds;
    private final int warmup;
    private final int size;
    private final int osBursts;
    private final int osWarmupBursts;
    private final int bwMessages;
    private final int bwRepeats;
    private final long fastestProbeNs;
    private final Path line;
    private final Path out;

    /**
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
    RankConfig(
        final String route,
        final int rounds,
        final int warmup,
        final int size,
        final int osBursts,
        final int osWarmupBursts,
        final int bwMessages,
        final int bwRepeats,
        final long fastestProbeNs,
        final Path line,
        final Path out)
    {
        this.route = route;
        this.rounds = rounds;
        this.warmup = warmup;
        this.size = size;
        this.osBursts = osBursts;
        this.osWarmupBursts = osWarmupBursts;
        this.bwMessages = bwMessages;
        this.bwRepeats = bwRepeats;
        this.fastestProbeNs = fastestProbeNs;
        this.line = line;
        this.out = out;
    }

    /**
     * @param args a command line {@link #toArgs()} made.
     * @return the configuration.
     * @throws IllegalArgumentException when an option is missing, unknown or malformed.
     */
    static RankConfig parse(final String[] args)
    {
        String route = null;
        final long[] numbers = new long[NUMBER_OPTIONS.length];
        final boolean[] seen = new boolean[NUMBER_OPTIONS.length];
        Path line = null;
        Path out = null;
        for (int i = 0; i < args.length; i += 2)
        {
            final String option = args[i];
            if (i + 1 >= args.length)
            {
                throw new IllegalArgumentException(option + " needs a value");
            }
            final String value = args[i + 1];
            switch (option)
            {
                case "--route":
                    route = value;
                    break;
                case "--line":
                    line = Path.of(value);
                    break;
                case "--out":
                    out = Path.of(value);
                    break;
                default:
                    final int index = numberOption(option);
                    try
                    {
                        numbers[index] = Long.parseLong(value);
                    }
                    catch (final NumberFormatException ex)
                    {
                        throw new IllegalArgumentException(option + " '" + value + "' is not a number");
                    }
                    final boolean isInt = index < NUMBER_OPTIONS.length - 1;
                    if (numbers[index] < 0 || (isInt && numbers[index] > Integer.MAX_VALUE))
                    {
                        throw new IllegalArgumentException(option + " " + value + " is out of range");
                    }
                    seen[index] = true;
            }
        }
        for (int i = 0; i < NUMBER_OPTIONS.length; i++)
        {
            if (!seen[i])
            {
                throw new IllegalArgumentException("missing " + NUMBER_OPTIONS[i]);
            }
        }
        if (null == route || null == line || null == out)
        {
            throw new IllegalArgumentException("missing " + (null == route ? "--route" : null == line ? "--line" :
                "--out"));
        }
        return new RankConfig(route, (int)numbers[0], (int)numbers[1], (int)numbers[2], (int)numbers[3],
            (int)numbers[4], (int)numbers[5], (int)numbers[6], numbers[7], line, out);
    }

    private static int numberOption(final String option)
    {
        for (int i = 0; i < NUMBER_OPTIONS.length; i++)
        {
            if (NUMBER_OPTIONS[i].equals(option))
            {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown option '" + option + "'");
    }

    /**
     * @return the command line that {@link #parse(String[])} turns back into this configuration.
     */
    List<String> toArgs()
    {
        final List<String> args = new ArrayList<>();
        args.add("--route");
        args.add(route);
        final long[] numbers = {
            rounds, warmup, size, osBursts, osWarmupBursts, bwMessages, bwRepeats, fastestProbeNs };
        for (int i = 0; i < NUMBER_OPTIONS.length; i++)
        {
            args.add(NUMBER_OPTIONS[i]);
            args.add(Long.toString(numbers[i]));
        }
        args.add("--line");
        args.add(line.toString());
        args.add("--out");
        args.add(out.toString());
        return args;
    }

    /**
     * @return transport the ranks' translations must use.
     */
    String route()
    {
        return route;
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
     * @return timed round trips.
     */
    int rounds()
    {
        return rounds;
    }

    /**
     * @return untimed round trips before them.
     */
    int warmup()
    {
        return warmup;
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

    /**
     * @return medium round-trip bytes, 0 for none.
     */
    int size()
    {
        return size;
    }

    /**
     * @return timed bursts of the o_s measurement.
     */
    int osBursts()
    {
        return osBursts;
    }

    /**
     * @return untimed bursts before them.
     */
    int osWarmupBursts()
    {
        return osWarmupBursts;
    }

    /**
     * @return 8 KiB messages of one bandwidth run.
     */
    int bwMessages()
    {
        return bwMessages;
    }

    /**
     * @return timed bandwidth runs.
     */
    int bwRepeats()
    {
        return bwRepeats;
    }

    /**
     * @return fastest probe median of the run so far, or {@link EpochGuard#NO_PROBE}.
     */
    long fastestProbeNs()
    {
        return fastestProbeNs;
    }

    /**
     * @return the cache-line file of the pair.
     */
    Path line()
    {
        return line;
    }

    /**
     * @return where rank 0 writes its results.
     */
    Path out()
    {
        return out;
    }
}
