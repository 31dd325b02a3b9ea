package org.am2j.perf;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@link Scale}, parsed and checked: {@value #USAGE}.
 */
final class ScaleOptions
{
    /** The parts of the measurement, in the order they run. */
    static final List<String> PARTS = List.of("hello", "poll", "flood");
    /** The media of the poll measurement. */
    static final List<String> MEDIA = List.of("shm", "net");

    static final String USAGE = "usage: am2j scale [--parts hello,poll,flood] [--nodes N] [--hello-ranks LIST] " +
        "[--poll-peers LIST] [--media shm,net] [--polls N] [--flood-ranks P] [--messages N] [--window W] " +
        "[--timeout SECONDS] [--json FILE] [--md FILE]";

    static final String HELP = String.join(System.lineSeparator(),
        "  --parts LIST        which measurements, of hello, poll, flood (default all three)",
        "  --nodes N           emulated nodes of the hello and flood jobs (default 4)",
        "  --hello-ranks LIST  rank counts of am2j hello: start-up time and resident memory per rank " +
        "(default 8,32,64,128)",
        "  --poll-peers LIST   mapped peers at which an empty poll is timed, ascending (default 1,8,32)",
        "  --media LIST        media of the poll measurement, of shm, net (default both)",
        "  --polls N           polls of one timing (default 1000000)",
        "  --flood-ranks P     ranks of the all-to-all of short requests (default 32), next to 2-rank floods on 1 " +
        "and 2 nodes",
        "  --messages N        requests each rank sends in the timed pass of a flood (default 62000)",
        "  --window W          most requests of a rank waiting for replies (default 64)",
        "  --timeout SECONDS   time limit of each job (default 600)",
        "  --json FILE         write the results as JSON to FILE",
        "  --md FILE           write the Markdown report to FILE (default: standard output)");

    final boolean help;
    final Set<String> parts;
    final int nodes;
    final int[] helloRanks;
    final int[] pollPeers;
    final List<String> media;
    final int polls;
    final int floodRanks;
    final long messages;
    final int window;
    final int timeoutSeconds;
    final Path json;
    final Path md;

    private ScaleOptions(
        final boolean help, final Set<String> parts, final int nodes, final int[] helloRanks, final int[] pollPeers,
        final List<String> media, final int polls, final int floodRanks, final long messages, final int window,
        final int timeoutSeconds, final Path json, final Path md)
    {
        this.help = help;
        this.parts = parts;
        this.nodes = nodes;
        this.helloRanks = helloRanks;
        this.pollPeers = pollPeers;
        this.media = media;
        this.polls = polls;
        this.floodRanks = floodRanks;
        this.messages = messages;
        this.window = window;
        this.timeoutSeconds = timeoutSeconds;
        this.json = json;
        this.md = md;
    }

    /**
     * @param args the command line after {@code scale}.
     * @return the options.
     * @throws IllegalArgumentException saying what is wrong.
     */
    static ScaleOptions parse(final String[] args)
    {
        boolean help = false;
        Set<String> parts = new LinkedHashSet<>(PARTS);
        int nodes = 4;
        int[] helloRanks = {8, 32, 64, 128};
        int[] pollPeers = {1, 8, 32};
        List<String> media = MEDIA;
        int polls = 1_000_000;
        int floodRanks = 32;
        long messages = 62_000;
        int window = 64;
        int timeout = 600;
        Path json = null;
        Path md = null;
        for (int i = 0; i < args.length; i++)
        {
            final String option = args[i];
            if ("--help".equals(option) || "-h".equals(option))
            {
                help = true;
                continue;
            }
            if (i + 1 >= args.length)
            {
                throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value" :
                    "unknown argument '" + option + "'");
            }
            final String value = args[++i];
            switch (option)
            {
                case "--parts":
                    parts = new LinkedHashSet<>(words(option, value, PARTS));
                    break;
                case "--nodes":
                    nodes = number(option, value, 1, 1024);
                    break;
                case "--hello-ranks":
                    helloRanks = numbers(option, value, 1, 4096, false);
                    break;
                case "--poll-peers":
                    pollPeers = numbers(option, value, 1, 4095, true);
                    break;
                case "--media":
                    media = words(option, value, MEDIA);
                    break;
                case "--polls":
                    polls = number(option, value, 1_000, 1_000_000_000);
                    break;
                case "--flood-ranks":
                    floodRanks = number(option, value, 2, 4096);
                    break;
                case "--messages":
                    messages = number(option, value, 1, 1_000_000_000);
                    break;
                case "--window":
                    window = number(option, value, 1, 1_000_000);
                    break;
                case "--timeout":
                    timeout = number(option, value, 1, 86_400);
                    break;
                case "--json":
                    json = Path.of(value);
                    break;
                case "--md":
                    md = Path.of(value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + option + "'");
            }
        }
        // keep the parts in the order they run, whatever the order given
        final Set<String> ordered = new LinkedHashSet<>();
        for (final String part : PARTS)
        {
            if (parts.contains(part))
            {
                ordered.add(part);
            }
        }
        return new ScaleOptions(help, ordered, nodes, helloRanks, pollPeers, media, polls, floodRanks, messages,
            window, timeout, json, md);
    }

    private static int number(final String option, final String value, final int min, final int max)
    {
        final int parsed;
        try
        {
            parsed = Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " " + value + ": not a whole number");
        }
        if (parsed < min || parsed > max)
        {
            throw new IllegalArgumentException(option + " " + value + ": must be in [" + min + ", " + max + "]");
        }
        return parsed;
    }

    private static int[] numbers(final String option, final String value, final int min, final int max,
        final boolean ascending)
    {
        final int[] parsed = Arrays.stream(value.split(",")).mapToInt(v -> number(option, v, min, max)).toArray();
        for (int i = 1; ascending && i < parsed.length; i++)
        {
            if (parsed[i] <= parsed[i - 1])
            {
                throw new IllegalArgumentException(option + " " + value + ": must be ascending");
            }
        }
        return parsed;
    }

    private static List<String> words(final String option, final String value, final List<String> allowed)
    {
        final List<String> words = Arrays.stream(value.split(",")).map(String::trim).distinct().toList();
        for (final String word : words)
        {
            if (!allowed.contains(word))
            {
                throw new IllegalArgumentException(option + " " + value + ": '" + word + "' is not one of " +
                    String.join(", ", allowed));
            }
        }
        return words;
    }
}
