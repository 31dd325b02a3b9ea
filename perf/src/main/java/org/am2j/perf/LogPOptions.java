package org.am2j.perf;

import java.nio.file.Path;

/**
 * The command line of {@link LogP}, parsed and checked: {@value #USAGE}.
 * <p>
 * The amount of work of each measurement is a {@link Scale}: {@link #FULL} by default, {@link #QUICK} with
 * {@code --quick}; {@code --rounds N} sets the round trips of every ping-pong (with a fifth as many warm-up ones)
 * whatever the order.
 *
 * @param help    true when help was asked for; the other values are then not set.
 * @param quick   true for {@code --quick}.
 * @param scale   the work of each measurement.
 * @param json    where to write the JSON results, or {@code null}.
 * @param plots   the directory to write the PNG plots to, or {@code null}.
 * @param nicsPerNode shared NIC processes per emulated node of the network configurations' pairs, 0 (the default)
 *                for the in-process NIC.
 */
record LogPOptions(boolean help, boolean quick, LogPOptions.Scale scale, Path json, Path plots, int nicsPerNode)
{
    /**
     * How much each measurement does.
     *
     * @param rounds          timed round trips of every ping-pong (AM, Aeron, limits).
     * @param warmup          untimed round trips before them.
     * @param signatureReps   timed repetitions of every burst of the signature.
     * @param signatureWarmup untimed repetitions before them.
     * @param longestBurst    the longest burst of the signature over shared memory (a power of two, at most the
     *                        shared-memory protocol's request depth).
     * @param longestNetBurst the longest burst of the signature over the network (a power of two).
     * @param largestTransfer the largest transfer of the bandwidth curve, bytes (a power of two, at most
     *                        {@link AmMessaging#TRANSFER_BUFFER_BYTES}).
     * @param fewestTransfers the fewest transfers of one size.
     * @param udpStream       datagrams of each stream of the UDP limit.
     */
    record Scale(
        int rounds,
        int warmup,
        int signatureReps,
        int signatureWarmup,
        int longestBurst,
        int longestNetBurst,
        int largestTransfer,
        int fewestTransfers,
        int udpStream)
    {
        /**
         * @param rounds timed round trips.
         * @return this scale with that many round trips and a fifth as many warm-up ones.
         */
        Scale withRounds(final int rounds)
        {
            return new Scale(rounds, rounds / 5, signatureReps, signatureWarmup, longestBurst, longestNetBurst,
                largestTransfer, fewestTransfers, udpStream);
        }

        /**
         * @param protocol a configuration.
         * @return the longest burst of its signature.
         */
        int longestBurst(final Protocol protocol)
        {
            return protocol.overNetwork() ? longestNetBurst : longestBurst;
        }
    }

    /**
     * The longest burst of the signature over shared memory at either scale: the shared-memory protocol's request
     * depth. A longer burst fills the destination queue and the sender backs off (spin, yield, then park); on the
     * development machine the bursts timed after such a back-off, short ones included, took about three times as long
     * for the rest of the row, which spoils o_s and g.
     */
    static final int LONGEST_BURST = 256;
    /**
     * The longest burst of the signature over the network at either scale: 32 windows of credits. Without delay the
     * time per message there grows until a burst is several windows long (the sender waits for acknowledgements), so
     * the four longest bursts, whose slopes give g, must all be well past that.
     */
    static final int LONGEST_NET_BURST = 1024;
    /** The default scale. */
    static final Scale FULL = new Scale(
        1_000_000, 200_000, 50, 5, LONGEST_BURST, LONGEST_NET_BURST, 1 << 20, 32, 16_384);
    /** The scale of {@code --quick}. */
    static final Scale QUICK = new Scale(
        100_000, 20_000, 10, 3, LONGEST_BURST, LONGEST_NET_BURST, 1 << 20, 8, PingPongOptions.MIN_BW_MESSAGES);

    /** The usage line. */
    static final String USAGE = "usage: am2j logp [--quick] [--rounds N] [--nics-per-node K] [--json FILE] " +
        "[--plots DIR]";

    /** What each option means. */
    static final String HELP = String.join(System.lineSeparator(),
        "  --quick        " + QUICK.rounds() + " round trips per ping-pong (default " + FULL.rounds() + "), " +
        QUICK.signatureReps() + " repetitions of each signature burst (default " + FULL.signatureReps() + "), " +
        QUICK.fewestTransfers() + " or more transfers of each size (default " + FULL.fewestTransfers() + ")",
        "  --rounds N     timed round trips of every ping-pong, with at least N/5 warm-up ones (each warm-up goes on",
        "                 for at least 0.5 s, until the JIT has settled, at most 5 s)",
        "  --nics-per-node K  the network configurations (multi-net, net) and the poll-cost pairs: K shared NIC",
        "                 processes on each rank's emulated node serve the ranks instead of their in-process NICs",
        "                 ('am2j run --nics-per-node K'); 0, the default, keeps the in-process NIC",
        "  --json FILE    also write the results as a JSON object to FILE",
        "  --plots DIR    draw the signature of each configuration and the bandwidth curves as PNG files in DIR");

    /**
     * @param protocol a configuration.
     * @return the shared NIC processes per emulated node of its pair: {@link #nicsPerNode()} over the network, 0 (no
     * NIC process: its ranks do not reach each other through a NIC) over shared memory.
     */
    int nicsPerNode(final Protocol protocol)
    {
        return protocol.overNetwork() ? nicsPerNode : 0;
    }

    /**
     * @param args the command line after {@code logp}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static LogPOptions parse(final String[] args)
    {
        boolean quick = false;
        int rounds = -1;
        Path json = null;
        Path plots = null;
        int nicsPerNode = 0;
        int i = 0;
        while (i < args.length)
        {
            final String arg = args[i];
            switch (arg)
            {
                case "-h":
                case "--help":
                    return new LogPOptions(true, false, null, null, null, 0);
                case "--quick":
                    quick = true;
                    i++;
                    continue;
                case "--rounds":
                    rounds = PingPongOptions.number(arg, PingPongOptions.value(args, i), 1,
                        PingPongOptions.MAX_ROUNDS, "timed round trips");
                    break;
                case "--json":
                    json = PingPongOptions.file(arg, PingPongOptions.value(args, i));
                    break;
                case "--plots":
                    plots = PingPongOptions.file(arg, PingPongOptions.value(args, i));
                    break;
                case "--nics-per-node":
                    nicsPerNode = PingPongOptions.nicsPerNode(arg, PingPongOptions.value(args, i));
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
            i += 2;
        }
        Scale scale = quick ? QUICK : FULL;
        if (rounds > 0)
        {
            scale = scale.withRounds(rounds);
        }
        return new LogPOptions(false, quick, scale, json, plots, nicsPerNode);
    }
}
