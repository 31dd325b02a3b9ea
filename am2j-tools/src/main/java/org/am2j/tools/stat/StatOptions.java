package org.am2j.tools.stat;

import java.nio.file.Path;

import org.am2j.core.stats.CountersFile;

import java.nio.file.Path;

import org.am2j.core.stats.CountersFile;
import org.am2j.tools.CommandLines;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

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
    public static final long DEFAULT_INTERVAL_MS = 1000;

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
        return new StatOptions(arguments.pid, arguments.once, arguments.intervalMs, arguments.directory,
            arguments.help);
    }

    /** The options as picocli sets them. */
    @Command(name = "am2j stat", customSynopsis = "am2j stat [--pid PID] [--once] [--interval MS] [--dir DIR]",
        description = "  Prints the am2j counters of a running process, refreshing until interrupted.",
        footer = "  exit status: 0 shown, 1 no such live process or a bad counters file, 2 bad arguments")
    private static final class Arguments
    {
        @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--pid", paramLabel = "PID", converter = Positive.class, description = "the process to " +
            "show; without it, lists the live processes that have counters files and shows the only one, if " +
            "exactly one exists")
        long pid;
        @Option(names = "--once", arity = "0", description = "print once and exit")
        boolean once;
        @Option(names = "--interval", paramLabel = "MS", converter = Positive.class,
            description = "milliseconds between refreshes (default " + DEFAULT_INTERVAL_MS + ")")
        long intervalMs = DEFAULT_INTERVAL_MS;
        @Option(names = "--dir", paramLabel = "DIR", converter = Directory.class, description = "counters directory (default: -D" +
            CountersFile.DIRECTORY_PROP_NAME + ", $" + CountersFile.DIRECTORY_ENV_NAME +
            ", /dev/shm/am2j-$USER/counters, or $TMPDIR/am2j-$USER/counters)")
        Path directory;
    }

    /** {@code --dir}: not empty. */
    static final class Directory implements ITypeConverter<Path>
    {
        @Override
        public Path convert(final String value)
        {
            if (value.isEmpty())
            {
                throw new TypeConversionException("needs a directory");
            }
            return Path.of(value);
        }
    }

    /** {@code --pid} and {@code --interval}: a whole number, at least 1. */
    static final class Positive implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            final long parsed;
            try
            {
                parsed = Long.parseLong(value);
            }
            catch (final NumberFormatException ex)
            {
                throw new TypeConversionException("'" + value + "' is not a number");
            }
            if (parsed <= 0)
            {
                throw new TypeConversionException(parsed + " must be at least 1");
            }
            return parsed;
        }
    }
}
