package org.am2j.tools.stat;

import java.nio.file.Path;

import org.am2j.core.stats.CountersFile;
import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of {@link StatTool}: {@code [--pid PID] [--once] [--interval MS] [--dir DIR] [--help]}, parsed by
 * picocli with the conventions of {@link CommandLines}; each option with a value also accepts the
 * {@code --name=value} form.
 *
 * @param pid        the process to show, or 0 to list the processes that have counters files.
 * @param once       print once and exit rather than refresh.
 * @param intervalMs milliseconds between refreshes.
 * @param directory  the counters directory, or {@code null} for {@link CountersFile#defaultDirectory()}.
 * @param help       print the usage and exit.
 */
public record StatOptions(long pid, boolean once, long intervalMs, Path directory, boolean help)
{
    /** Refresh interval when none is given. */
    public static final int DEFAULT_INTERVAL_MS = 1000;

    /** The usage line, printed after an error. */
    public static final String USAGE = CommandLines.usage(new Arguments());

    /** The usage line, what the command does and what each option means. */
    public static final String HELP = CommandLines.help(new Arguments());

    /**
     * @param args the command line.
     * @return the options.
     * @throws IllegalArgumentException naming the bad argument.
     */
    public static StatOptions parse(final String[] args)
    {
        final Arguments arguments = new Arguments();
        // --name=value as well as --name value, as this command has always taken them
        CommandLines.parse(CommandLines.of(arguments).setSeparator("="), args);
        return new StatOptions(arguments.pid, arguments.once, arguments.intervalMs,
            null == arguments.directory ? null : Path.of(arguments.directory), arguments.help);
    }

    /** The options as picocli sets them. */
    @Command(name = "am2j stat", customSynopsis = "am2j stat [--pid PID] [--once] [--interval MS] [--dir DIR]",
        description = "  Prints the am2j counters of a running process, refreshing until interrupted.",
        footer = "  exit status: 0 shown, 1 no such live process or a bad counters file, 2 bad arguments")
    private static final class Arguments
    {
        @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--pid", paramLabel = "PID", description = "the process to show; without it, lists the live " +
            "processes that have counters files and shows the only one, if exactly one exists")
        @Range(min = 1)
        int pid;
        @Option(names = "--once", arity = "0", description = "print once and exit")
        boolean once;
        @Option(names = "--interval", paramLabel = "MS",
            description = "milliseconds between refreshes (default " + DEFAULT_INTERVAL_MS + ")")
        @Range(min = 1)
        int intervalMs = DEFAULT_INTERVAL_MS;
        @Option(names = "--dir", paramLabel = "DIR", converter = CommandLines.NotEmpty.class, description = "counters " +
            "directory (default: -D" + CountersFile.DIRECTORY_PROP_NAME + ", $" + CountersFile.DIRECTORY_ENV_NAME +
            ", /dev/shm/am2j-$USER/counters, or $TMPDIR/am2j-$USER/counters)")
        String directory;
    }
}
