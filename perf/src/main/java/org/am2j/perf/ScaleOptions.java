package org.am2j.perf;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of {@link Scale}, parsed and checked (see {@link #HELP}).
 */
@Command(name = "am2j scale")
final class ScaleOptions
{
    /** The parts of the measurement, in the order they run. */
    static final List<String> PARTS = List.of("hello", "poll", "flood");
    /** The media of the poll measurement. */
    static final List<String> MEDIA = List.of("shm", "net");

    /** The usage line, printed after an error. */
    static final String USAGE = CommandLines.usage(new ScaleOptions());
    /** The usage line and what each option means. */
    static final String HELP = CommandLines.help(new ScaleOptions());

    @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
    boolean help;
    @Option(names = "--parts", paramLabel = "LIST", split = ",", hideParamSyntax = true, defaultValue = "hello,poll,flood",
        description = "which measurements, of hello, poll, flood (default all three)")
    List<String> parts;
    @Option(names = "--nodes", paramLabel = "N", description = "emulated nodes of the hello and flood jobs (default " +
        "${DEFAULT-VALUE})")
    @Range(min = 1, max = 1024)
    int nodes = 4;
    @Option(names = "--hello-ranks", paramLabel = "LIST", split = ",", hideParamSyntax = true,
        defaultValue = "8,32,64,128", description = "rank counts of am2j hello: start-up time and resident memory per " +
        "rank (default ${DEFAULT-VALUE})")
    @Range(min = 1, max = 4096)
    int[] helloRanks;
    @Option(names = "--ranks-per-jvm", paramLabel = "LIST", split = ",", hideParamSyntax = true, defaultValue = "1",
        description = "ranks held by each JVM, as threads, in the hello jobs and the all-to-all of --flood-ranks: " +
        "each job runs once per count that divides the ranks of every node, e.g. 1,8,32 (default ${DEFAULT-VALUE}: a " +
        "JVM per rank)")
    @Range(min = 1, max = 4096)
    int[] ranksPerJvm;
    @Option(names = "--poll-peers", paramLabel = "LIST", split = ",", hideParamSyntax = true, defaultValue = "1,8,32",
        description = "mapped peers at which an empty poll is timed, ascending (default ${DEFAULT-VALUE})")
    @Range(min = 1, max = 4095)
    int[] pollPeers;
    @Option(names = "--media", paramLabel = "LIST", split = ",", hideParamSyntax = true, defaultValue = "shm,net",
        description = "media of the poll measurement, of shm, net (default both)")
    List<String> media;
    @Option(names = "--polls", paramLabel = "N", description = "polls of one timing (default ${DEFAULT-VALUE})")
    @Range(min = 1_000, max = 1_000_000_000)
    int polls = 1_000_000;
    @Option(names = "--flood-ranks", paramLabel = "P", description = "ranks of the all-to-all of short requests " +
        "(default ${DEFAULT-VALUE}), next to 2-rank floods on 1 and 2 nodes")
    @Range(min = 2, max = 4096)
    int floodRanks = 32;
    @Option(names = "--messages", paramLabel = "N", description = "requests each rank sends in the timed pass of a " +
        "flood (default ${DEFAULT-VALUE})")
    @Range(min = 1, max = 1_000_000_000)
    int messages = 62_000;
    @Option(names = "--window", paramLabel = "W", description = "most requests of a rank waiting for replies " +
        "(default ${DEFAULT-VALUE})")
    @Range(min = 1, max = 1_000_000)
    int window = 64;
    @Option(names = "--timeout", paramLabel = "SECONDS", description = "time limit of each job (default " +
        "${DEFAULT-VALUE})")
    @Range(min = 1, max = 86_400)
    int timeoutSeconds = 600;
    @Option(names = "--json", paramLabel = "FILE", description = "write the results as JSON to FILE")
    Path json;
    @Option(names = "--md", paramLabel = "FILE", description = "write the Markdown report to FILE (default: standard " +
        "output)")
    Path md;

    private ScaleOptions()
    {
    }

    /**
     * @param args the command line after {@code scale}.
     * @return the options.
     * @throws IllegalArgumentException saying what is wrong.
     */
    static ScaleOptions parse(final String[] args)
    {
        final ScaleOptions options = CommandLines.parse(new ScaleOptions(), args);
        // the parts in the order they run, whatever the order given
        options.parts = PARTS.stream().filter(words("--parts", options.parts, PARTS)::contains).toList();
        options.media = words("--media", options.media, MEDIA);
        options.ranksPerJvm = Arrays.stream(options.ranksPerJvm).distinct().toArray();
        for (int i = 1; i < options.pollPeers.length; i++)
        {
            if (options.pollPeers[i] <= options.pollPeers[i - 1])
            {
                throw new IllegalArgumentException("--poll-peers " + String.join(",",
                    Arrays.stream(options.pollPeers).mapToObj(Integer::toString).toList()) + ": must be ascending");
            }
        }
        return options;
    }

    /**
     * @return the words given, each once.
     * @throws IllegalArgumentException when one is not allowed.
     */
    private static List<String> words(final String option, final List<String> given, final List<String> allowed)
    {
        for (final String word : given)
        {
            if (!allowed.contains(word))
            {
                throw new IllegalArgumentException(option + " " + String.join(",", given) + ": '" + word +
                    "' is not one of " + String.join(", ", allowed));
            }
        }
        return given.stream().distinct().toList();
    }
}
