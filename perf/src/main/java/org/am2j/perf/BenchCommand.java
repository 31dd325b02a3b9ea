package org.am2j.perf;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * What the benchmark commands of {@code bin/am2j} ({@code pingpong}, {@code logp}, {@code scale},
 * {@code apps-matrix}) do alike around their measurements: the {@code main} that stops their jobs on SIGTERM and exits
 * with their status, the parsing that names a bad argument and prints the usage, the check that an output file can
 * be written before anything is measured, and the command line kept with the results.
 */
public final class BenchCommand
{
    /** Exit status of bad options. */
    public static final int USAGE_STATUS = 2;
    /** Exit status when a measurement failed. */
    public static final int FAILURE_STATUS = 1;

    private BenchCommand()
    {
    }

    /**
     * The {@code main} of a benchmark: a shutdown hook that stops its jobs, its run, then exit with its status.
     *
     * @param hook thread name of the shutdown hook.
     * @param stop stops the benchmark's jobs.
     * @param run  runs the benchmark on its command line and returns its exit status.
     * @param args the command line.
     */
    public static void main(
        final String hook, final Runnable stop, final ToIntFunction<String[]> run, final String[] args)
    {
        Runtime.getRuntime().addShutdownHook(new Thread(stop, hook));
        final int status = run.applyAsInt(args);
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    /**
     * Parse a benchmark's command line, or say why it cannot be.
     *
     * @param name   the benchmark's command, e.g. {@code am2j pingpong}, for the error.
     * @param parser the benchmark's parser, which throws {@link IllegalArgumentException} naming a bad argument.
     * @param args   the command line.
     * @param usage  the usage line, printed after the error.
     * @param err    where the error goes.
     * @param <T>    the options.
     * @return the options, or {@code null} when the command line is bad (said on the error stream).
     */
    public static <T> T parse(
        final String name,
        final Function<String[], T> parser,
        final String[] args,
        final String usage,
        final PrintStream err)
    {
        try
        {
            return parser.apply(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println(name + ": " + ex.getMessage());
            err.println(usage);
            return null;
        }
    }

    /**
     * @param option the option that names the file, for the error.
     * @param file   a file the benchmark will write, or {@code null} for none.
     * @throws IllegalArgumentException when its directory is not a writable directory.
     */
    public static void writableDirectory(final String option, final Path file)
    {
        final Path dir = null == file ? null : file.toAbsolutePath().getParent();
        if (null != file && (null == dir || !Files.isDirectory(dir) || !Files.isWritable(dir)))
        {
            throw new IllegalArgumentException(option + " " + file + ": " + dir + " is not a writable directory");
        }
    }

    /**
     * @param args a command line after the benchmark's name.
     * @param name the benchmark's command, e.g. {@code am2j pingpong}.
     * @return the whole command as a shell would take it back, for the record.
     */
    public static String command(final String name, final String[] args)
    {
        final StringBuilder text = new StringBuilder(name);
        for (final String arg : args)
        {
            text.append(' ');
            if (arg.isEmpty() || !arg.matches("[A-Za-z0-9_./=:,+-]+"))
            {
                text.append('\'').append(arg.replace("'", "'\\''")).append('\'');
            }
            else
            {
                text.append(arg);
            }
        }
        return text.toString();
    }
}
