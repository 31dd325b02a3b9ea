package org.am2j.tools.stat;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.am2j.core.stats.CountersFile;

/**
 * The command line of {@link StatTool}: {@code [--pid PID] [--once] [--interval MS] [--dir DIR] [--help]}; each
 * option with a value also accepts the {@code --name=value} form.
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

    /** The usage text. */
    public static final String USAGE =
        "usage: am2j stat [--pid PID] [--once] [--interval MS] [--dir DIR]\n" +
        "  Prints the am2j counters of a running process, refreshing until interrupted.\n" +
        "  --pid PID      the process to show; without it, lists the live processes that have counters\n" +
        "                 files and shows the only one, if exactly one exists\n" +
        "  --once         print once and exit\n" +
        "  --interval MS  milliseconds between refreshes (default " + DEFAULT_INTERVAL_MS + ")\n" +
        "  --dir DIR      counters directory (default: -D" + CountersFile.DIRECTORY_PROP_NAME + ", $" +
        CountersFile.DIRECTORY_ENV_NAME + ", /dev/shm/am2j-$USER/counters, or $TMPDIR/am2j-$USER/counters)\n" +
        "  exit status: 0 shown, 1 no such live process or a bad counters file, 2 bad arguments";

    /**
     * @param args the command line.
     * @return the options.
     * @throws IllegalArgumentException naming the bad argument.
     */
    public static StatOptions parse(final String[] args)
    {
        long pid = 0;
        boolean once = false;
        long intervalMs = DEFAULT_INTERVAL_MS;
        Path directory = null;
        boolean help = false;

        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            final int equals = arg.indexOf('=');
            final String name = arg.startsWith("--") && equals > 0 ? arg.substring(0, equals) : arg;
            final String inlineValue = arg.startsWith("--") && equals > 0 ? arg.substring(equals + 1) : null;

            switch (name)
            {
                case "--pid":
                {
                    final String value = null != inlineValue ? inlineValue : valueOf(args, ++i, name);
                    pid = positive(name, value);
                    break;
                }
                case "--interval":
                {
                    final String value = null != inlineValue ? inlineValue : valueOf(args, ++i, name);
                    intervalMs = positive(name, value);
                    break;
                }
                case "--dir":
                {
                    final String value = null != inlineValue ? inlineValue : valueOf(args, ++i, name);
                    if (value.isEmpty())
                    {
                        throw new IllegalArgumentException("--dir needs a directory");
                    }
                    directory = Paths.get(value);
                    break;
                }
                case "--once":
                    once = flag(name, inlineValue);
                    break;
                case "-h":
                case "--help":
                    help = flag(name, inlineValue);
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument \"" + arg + "\"");
            }
        }

        return new StatOptions(pid, once, intervalMs, directory, help);
    }

    private static String valueOf(final String[] args, final int index, final String name)
    {
        if (index >= args.length)
        {
            throw new IllegalArgumentException(name + " needs a value");
        }

        return args[index];
    }

    private static long positive(final String name, final String value)
    {
        final long parsed;
        try
        {
            parsed = Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + " = \"" + value + "\" is not a number", ex);
        }

        if (parsed <= 0)
        {
            throw new IllegalArgumentException(name + " = " + parsed + " must be at least 1");
        }

        return parsed;
    }

    private static boolean flag(final String name, final String inlineValue)
    {
        if (null != inlineValue)
        {
            throw new IllegalArgumentException(name + " takes no value");
        }

        return true;
    }
}
