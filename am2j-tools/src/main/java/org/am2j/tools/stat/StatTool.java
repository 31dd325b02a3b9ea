package org.am2j.tools.stat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.am2j.api.AmException;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.CountersFileReader;

/**
 * {@code bin/am2j stat [--pid PID] [--once] [--interval MS] [--dir DIR]}: prints the counters of a running am2j
 * process from its counters file (see {@link StatOptions#HELP}).
 * <p>
 * Without {@code --pid} it lists the live processes that have counters files in the directory and, when exactly one
 * exists, shows it. With {@code --pid} it shows that process, refreshing every interval until interrupted or until
 * the process exits, or once with {@code --once}. Exit status: 0 when shown, 1 when there is no such live process or
 * its file is bad, 2 for bad arguments.
 */
public final class StatTool
{
    /** Exit status when the counters were shown. */
    public static final int EXIT_OK = 0;

    /** Exit status when no live process or no valid counters file was found. */
    public static final int EXIT_NOT_FOUND = 1;

    /** Exit status for bad arguments. */
    public static final int EXIT_USAGE = 2;

    private static final String CLEAR_SCREEN = "\033[H\033[2J";

    private StatTool()
    {
    }

    /**
     * Run the tool and exit with its status.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Run the tool.
     *
     * @param args the command line.
     * @param out  where the counters go.
     * @param err  where errors and the usage go.
     * @return the exit status: {@link #EXIT_OK}, {@link #EXIT_NOT_FOUND} or {@link #EXIT_USAGE}.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final StatOptions options;
        try
        {
            options = StatOptions.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("am2j stat: " + ex.getMessage());
            err.println(StatOptions.USAGE);
            return EXIT_USAGE;
        }

        if (options.help())
        {
            out.print(StatOptions.HELP);
            return EXIT_OK;
        }

        final Path directory = null != options.directory() ? options.directory() : CountersFile.defaultDirectory();
        if (0 != options.pid())
        {
            return show(directory, options.pid(), options, out, err);
        }

        final List<StatRenderer.ProcessEntry> processes = liveProcesses(directory, err);
        StatRenderer.renderListing(directory, processes, out);
        if (1 == processes.size())
        {
            out.println();
            return show(directory, processes.get(0).owner().pid(), options, out, err);
        }
        if (processes.isEmpty())
        {
            return EXIT_NOT_FOUND;
        }

        out.println("choose one with --pid PID");
        return EXIT_OK;
    }

    /**
     * Render the counters of a file as {@link #run} prints them.
     *
     * @param reader an open reader.
     * @param out    where to print.
     */
    public static void render(final CountersFileReader reader, final PrintStream out)
    {
        StatRenderer.renderProcess(reader.path(), reader.owner(), reader.maxCounters(), reader.snapshot(), out);
    }

    /**
     * Find the live processes with a counters file in a directory; files of dead owners and files that are not
     * valid counters files are skipped (the second with a note on {@code err}).
     *
     * @param directory the counters directory.
     * @param err       where to note skipped files.
     * @return the live processes, by pid.
     */
    public static List<StatRenderer.ProcessEntry> liveProcesses(final Path directory, final PrintStream err)
    {
        final List<StatRenderer.ProcessEntry> processes = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return processes;
        }

        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + CountersFile.FILE_SUFFIX))
        {
            for (final Path file : files)
            {
                try (CountersFileReader reader = CountersFileReader.open(file))
                {
                    if (reader.isOwnerAlive())
                    {
                        processes.add(StatRenderer.ProcessEntry.of(
                            file, reader.owner(), reader.snapshot(), reader.maxCounters()));
                    }
                }
                catch (final AmException ex)
                {
                    err.println("am2j stat: skipped " + ex.getMessage());
                }
            }
        }
        catch (final IOException ex)
        {
            err.println("am2j stat: cannot list " + directory + ": " + ex);
        }

        processes.sort(Comparator.comparingLong((StatRenderer.ProcessEntry process) -> process.owner().pid()));
        return processes;
    }

    private static int show(
        final Path directory, final long pid, final StatOptions options, final PrintStream out, final PrintStream err)
    {
        final Path file = CountersFile.fileFor(directory, pid);
        if (!Files.exists(file))
        {
            err.println("am2j stat: no counters file for pid " + pid + " in " + directory +
                " (not a running am2j process, or it uses another counters directory: see --dir)");
            return EXIT_NOT_FOUND;
        }

        try (CountersFileReader reader = CountersFileReader.open(file))
        {
            if (reader.ownerPid() != pid || !reader.isOwnerAlive())
            {
                err.println("am2j stat: process " + pid + " is not running; " + file + " is a stale counters file" +
                    " of pid " + reader.ownerPid() + " started " + StatRenderer.formatStart(reader.ownerStartTimeMs()));
                return EXIT_NOT_FOUND;
            }

            final boolean clearScreen = !options.once() && out == System.out && null != System.console();
            while (true)
            {
                if (clearScreen)
                {
                    out.print(CLEAR_SCREEN);
                }
                render(reader, out);
                out.flush();

                if (options.once())
                {
                    return EXIT_OK;
                }

                try
                {
                    Thread.sleep(options.intervalMs());
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return EXIT_OK;
                }

                if (!reader.isOwnerAlive())
                {
                    out.println();
                    out.println("process " + pid + " has exited");
                    return EXIT_OK;
                }
                out.println();
            }
        }
        catch (final AmException ex)
        {
            err.println("am2j stat: " + ex.getMessage());
            return EXIT_NOT_FOUND;
        }
    }
}
