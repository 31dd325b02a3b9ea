package org.am2j.perf;

import java.nio.file.Path;

import org.am2j.api.Am;

/**
 * The command line of {@link PingPong}, parsed and checked: {@value #USAGE}.
 * <p>
 * Defaults: {@value #DEFAULT_ROUNDS} timed round trips after at least {@value #DEFAULT_WARMUP} warm-up ones (and at
 * least as many as {@link WarmUp} takes to settle);
 * {@code --quick} makes them {@value #QUICK_ROUNDS} and {@value #QUICK_WARMUP}; an explicit {@code --rounds} or
 * {@code --warmup} wins over {@code --quick} whatever the order. The other workloads scale with the round trips:
 * o_s is measured over {@code rounds / 64} bursts of {@value #OS_BURST} requests, and each bandwidth run sends
 * {@code rounds / 4} medium messages of 8 KiB, kept within [{@value #MIN_BW_MESSAGES}, {@value #MAX_BW_MESSAGES}].
 */
final class PingPongOptions
{
    /** Timed round trips by default. */
    static final int DEFAULT_ROUNDS = 1_000_000;
    /** Warm-up round trips by default. */
    static final int DEFAULT_WARMUP = 200_000;
    /** Timed round trips with {@code --quick}. */
    static final int QUICK_ROUNDS = 100_000;
    /** Warm-up round trips with {@code --quick}. */
    static final int QUICK_WARMUP = 20_000;
    /** Most round trips of one measurement. */
    static final int MAX_ROUNDS = 100_000_000;
    /** Requests sent back to back, timed as one block, in the o_s measurement. */
    static final int OS_BURST = 64;
    /** Fewest medium messages of one bandwidth run. */
    static final int MIN_BW_MESSAGES = 1_024;
    /** Most medium messages of one bandwidth run. */
    static final int MAX_BW_MESSAGES = 65_536;
    /** Bandwidth runs whose median and range are reported. */
    static final int BW_REPEATS = 5;
    /** Most shared NIC processes per emulated node ({@code --nics-per-node}), the launcher's limit. */
    static final int MAX_NICS_PER_NODE = 64;
    /** {@link #nicKind()} of ranks that each run their own NIC in-process. */
    static final String IN_PROCESS_NIC = "in-process";
    /** {@link #nicKind()} of ranks served by shared NIC processes. */
    static final String SHARED_NIC = "shared";

    /** The usage line. */
    static final String USAGE = "usage: am2j pingpong --protocol " + Protocol.choices() +
        " [--size BYTES] [--rounds N] [--warmup N] [--poll NAME] [--nic inline|thread] [--nics-per-node K] [--json FILE]" +
        " [--quick]";

    /** What each option means. */
    static final String HELP = String.join(System.lineSeparator(),
        "  --protocol P   the protocol between the two ranks (shm: two JVMs of one node over shared memory)",
        "  --size BYTES   also measure round trips of medium messages of BYTES, 1 to " + Am.MAX_MEDIUM +
        " (the reply echoes them),",
        "                 and their limit: BYTES passed back and forth between the limit's two JVMs",
        "  --rounds N     timed round trips of each latency measurement (default " + DEFAULT_ROUNDS + ")",
        "  --warmup N     at least N untimed round trips before them (default " + DEFAULT_WARMUP + "), and on for at",
        "                 least 0.5 s, until the JIT has settled (at most 5 s)",
        "  --poll NAME    poll scheduler of the ranks (am2j.poll: every, fractional:K, adaptive, calibrated, ...)",
        "  --nic MODE     NIC agent mode of the ranks for the network protocols: inline (default) or thread",
        "  --nics-per-node K  network protocols: K shared NIC processes on each rank's emulated node serve the",
        "                 ranks instead of their in-process NICs, started and stopped with each pair as",
        "                 'am2j run --nics-per-node K' does; 0, the default, keeps the in-process NIC",
        "  --json FILE    also write the results as a JSON object to FILE",
        "  --quick        " + QUICK_ROUNDS + " round trips after at least " + QUICK_WARMUP + " warm-up ones, for " +
        "quick checks");

    private final boolean help;
    private final Protocol protocol;
    private final int size;
    private final int rounds;
    private final int warmup;
    private final Path json;
    private final boolean quick;
    private final String poll;
    private final String nic;
    private final int nicsPerNode;

    private PingPongOptions(
        final boolean help,
        final Protocol protocol,
        final int size,
        final int rounds,
        final int warmup,
        final Path json,
        final boolean quick,
        final String poll,
        final String nic,
        final int nicsPerNode)
    {
        this.help = help;
        this.protocol = protocol;
        this.size = size;
        this.rounds = rounds;
        this.warmup = warmup;
        this.json = json;
        this.quick = quick;
        this.poll = poll;
        this.nic = nic;
        this.nicsPerNode = nicsPerNode;
    }

    /**
     * @param args the command line after {@code pingpong}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static PingPongOptions parse(final String[] args)
    {
        Protocol protocol = null;
        int size = 0;
        int rounds = -1;
        int warmup = -1;
        Path json = null;
        boolean quick = false;
        String poll = null;
        String nic = null;
        int nicsPerNode = 0;
        int i = 0;
        while (i < args.length)
        {
            final String arg = args[i];
            switch (arg)
            {
                case "-h":
                case "--help":
                    return new PingPongOptions(true, null, 0, 0, 0, null, false, null, null, 0);
                case "--quick":
                    quick = true;
                    i++;
                    continue;
                case "--protocol":
                    protocol = Protocol.byName(value(args, i));
                    break;
                case "--size":
                    size = number(arg, value(args, i), 1, Am.MAX_MEDIUM, "medium message bytes");
                    break;
                case "--rounds":
                    rounds = number(arg, value(args, i), 1, MAX_ROUNDS, "timed round trips");
                    break;
                case "--warmup":
                    warmup = number(arg, value(args, i), 0, MAX_ROUNDS, "warm-up round trips");
                    break;
                case "--json":
                    json = file(arg, value(args, i));
                    break;
                case "--poll":
                    poll = value(args, i);
                    if (poll.isBlank())
                    {
                        throw new IllegalArgumentException("--poll needs a scheduler name");
                    }
                    break;
                case "--nic":
                    nic = value(args, i);
                    if (!"inline".equals(nic) && !"thread".equals(nic))
                    {
                        throw new IllegalArgumentException("--nic '" + nic + "' must be inline or thread");
                    }
                    break;
                case "--nics-per-node":
                    nicsPerNode = nicsPerNode(arg, value(args, i));
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
            i += 2;
        }
        if (null == protocol)
        {
            throw new IllegalArgumentException("missing --protocol " + Protocol.choices());
        }
        if (nicsPerNode > 0 && !protocol.overNetwork())
        {
            throw new IllegalArgumentException("--nics-per-node " + nicsPerNode + " needs a network protocol (" +
                Protocol.NET.cliName() + " or " + Protocol.MULTI_NET.cliName() + "): the ranks of --protocol " +
                protocol.cliName() + " do not reach each other through a NIC");
        }
        if (rounds < 0)
        {
            rounds = quick ? QUICK_ROUNDS : DEFAULT_ROUNDS;
        }
        if (warmup < 0)
        {
            warmup = quick ? QUICK_WARMUP : DEFAULT_WARMUP;
        }
        return new PingPongOptions(false, protocol, size, rounds, warmup, json, quick, poll, nic, nicsPerNode);
    }

    /**
     * @param option the option.
     * @param value  its value.
     * @return the NIC processes per emulated node it asks for.
     * @throws IllegalArgumentException when it is not a number in [0, {@value #MAX_NICS_PER_NODE}].
     */
    static int nicsPerNode(final String option, final String value)
    {
        return number(option, value, 0, MAX_NICS_PER_NODE, "shared NIC processes per node, 0 for in-process NICs");
    }

    /**
     * @param nicsPerNode shared NIC processes per emulated node, 0 for in-process NICs.
     * @return how the results name that kind of NIC: {@value #IN_PROCESS_NIC} or {@value #SHARED_NIC}.
     */
    static String nicKind(final int nicsPerNode)
    {
        return nicsPerNode > 0 ? SHARED_NIC : IN_PROCESS_NIC;
    }

    /**
     * @param args a command line.
     * @param i    index of an option that takes a value.
     * @return the value.
     * @throws IllegalArgumentException when there is none.
     */
    static String value(final String[] args, final int i)
    {
        if (i + 1 >= args.length)
        {
            throw new IllegalArgumentException(args[i] + " needs a value");
        }
        return args[i + 1];
    }

    /**
     * @param option the option.
     * @param value  its value.
     * @return the value as a path.
     * @throws IllegalArgumentException when it is empty.
     */
    static Path file(final String option, final String value)
    {
        if (value.isEmpty())
        {
            throw new IllegalArgumentException(option + " needs a file name");
        }
        return Path.of(value);
    }

    /**
     * @param option  the option.
     * @param value   its value.
     * @param min     the smallest allowed.
     * @param max     the largest allowed.
     * @param meaning what the number is, for the error.
     * @return the value as a number.
     * @throws IllegalArgumentException when it is not a number in [min, max].
     */
    static int number(
        final String option, final String value, final int min, final int max, final String meaning)
    {
        final int n;
        try
        {
            n = Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " '" + value + "' is not a number (" + meaning + ", " + min +
                " to " + max + ")");
        }
        if (n < min || n > max)
        {
            throw new IllegalArgumentException(option + " " + n + " is outside [" + min + ", " + max + "] (" +
                meaning + ")");
        }
        return n;
    }

    /**
     * @return true when help was asked for; the other values are then not set.
     */
    boolean help()
    {
        return help;
    }

    /**
     * @return the protocol to measure.
     */
    Protocol protocol()
    {
        return protocol;
    }

    /**
     * @return bytes of the medium round trips, or 0 when they are not measured.
     */
    int size()
    {
        return size;
    }

    /**
     * @return timed round trips of each latency measurement.
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
     * @return where to write the JSON results, or {@code null}.
     */
    Path json()
    {
        return json;
    }

    /**
     * @return the poll scheduler setting of the AM ranks, or null for their default.
     */
    String poll()
    {
        return poll;
    }

    /**
     * @return the NIC mode of the AM ranks, or null for the default.
     */
    String nic()
    {
        return nic;
    }

    /**
     * @return shared NIC processes per emulated node of the AM ranks, 0 when each has its in-process NIC.
     */
    int nicsPerNode()
    {
        return nicsPerNode;
    }

    /**
     * @return {@value #IN_PROCESS_NIC} or {@value #SHARED_NIC}.
     */
    String nicKind()
    {
        return nicKind(nicsPerNode);
    }

    /**
     * @return the system properties of the AM ranks: the protocol's, then the scheduler and NIC mode given.
     */
    java.util.Map<String, String> amProperties()
    {
        return amProperties(protocol);
    }

    /**
     * @param measured the configuration of a rank pair of this run (the single-protocol reference may differ from
     *                 {@link #protocol()}).
     * @return its system properties with this run's {@code --poll} and {@code --nic}.
     */
    java.util.Map<String, String> amProperties(final Protocol measured)
    {
        final java.util.Map<String, String> properties = new java.util.LinkedHashMap<>(measured.systemProperties());
        if (null != poll)
        {
            properties.put("am2j.poll", poll);
        }
        if (null != nic)
        {
            properties.put("am2j.nic", nic);
        }
        return properties;
    }

    /**
     * @return true for {@code --quick}.
     */
    boolean quick()
    {
        return quick;
    }

    /**
     * @return bursts of {@link #OS_BURST} requests timed for o_s.
     */
    int osBursts()
    {
        return Math.max(1, rounds / OS_BURST);
    }

    /**
     * @return untimed bursts before them.
     */
    int osWarmupBursts()
    {
        return warmup / OS_BURST;
    }

    /**
     * @return medium messages of 8 KiB in each bandwidth run.
     */
    int bwMessages()
    {
        return Math.max(MIN_BW_MESSAGES, Math.min(MAX_BW_MESSAGES, rounds / 4));
    }
}
