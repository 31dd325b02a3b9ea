package org.am2j.splitc.app;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.am2j.spmd.Am2Run;

/**
 * The front end {@code bin/am2j app}:
 * <pre>
 * am2j app fft3d|con|em3d [--preset NAME] [-n P] [--nodes N] [--poll S] [--pin] [--timeout S] [--jvm-opt OPT]...
 *     [--nic M] [--nics-per-node K] [--json FILE] [--PARAM VALUE]...
 * </pre>
 * It checks the options (application, preset, parameters, and that they fit P ranks on N nodes), then runs
 * {@link AppMain} as a job of the launcher in this process ({@link Am2Run}: {@code am2j run -n P --nodes N ... --
 * org.am2j.splitc.app.AppMain ...}) on this process's class path, and exits with the job's status: 0 when every run
 * was verified, 1 when one was not or a rank failed, 2 for bad options, 124 when {@code --timeout} passed.
 */
public final class AppCommand
{
    /** The usage line. */
    public static final String USAGE = "usage: am2j app fft3d|con|em3d [--preset NAME] [-n P] [--nodes N] [--poll S]" +
        " [--pin] [--timeout S] [--jvm-opt OPT]... [--nic M] [--nics-per-node K] [--warmup W] [--timed K]" +
        " [--json FILE] [--PARAM VALUE]...";

    private final PrintStream out;
    private final PrintStream err;
    private final Am2Run launcher;

    /**
     * @param out where the ranks' output goes.
     * @param err where errors go.
     */
    public AppCommand(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
        this.launcher = new Am2Run(out, err);
    }

    /**
     * @param args the command line after {@code app}.
     */
    public static void main(final String[] args)
    {
        final AppCommand command = new AppCommand(System.out, System.err);
        Runtime.getRuntime().addShutdownHook(new Thread(command.launcher::shutdown, "am2j-app-shutdown"));
        final int status = command.run(args);
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    /**
     * @param args the command line after {@code app}.
     * @return the exit status.
     */
    public int run(final String[] args)
    {
        final List<String> launch = new ArrayList<>();
        final List<String> appArgs = new ArrayList<>();
        int ranks = 1;
        int nodes = 1;
        try
        {
            for (int i = 0; i < args.length; i++)
            {
                final String arg = args[i];
                switch (arg)
                {
                    case "-h":
                    case "--help":
                        help();
                        return 0;
                    case "--pin":
                        launch.add(arg);
                        break;
                    case "-n":
                    case "--nodes":
                    case "--poll":
                    case "--timeout":
                    case "--jvm-opt":
                    case "--nic":
                    case "--nics-per-node":
                    {
                        if (i + 1 >= args.length)
                        {
                            throw new IllegalArgumentException(arg + " needs a value");
                        }
                        final String value = args[++i];
                        if ("-n".equals(arg))
                        {
                            ranks = positive(arg, value);
                        }
                        else if ("--nodes".equals(arg))
                        {
                            nodes = positive(arg, value);
                        }
                        launch.add(arg);
                        launch.add(value);
                        break;
                    }
                    default:
                        appArgs.add(arg);
                        break;
                }
            }
            if (nodes > ranks)
            {
                throw new IllegalArgumentException("--nodes " + nodes + " is more than -n " + ranks);
            }
            final AppArgs options = AppArgs.parse(appArgs);
            for (final RunSpec spec : options.runs())
            {
                options.app().check(spec, ranks, nodes);
            }
            if (null != options.json())
            {
                final Path dir = options.json().toAbsolutePath().getParent();
                if (null == dir || !Files.isDirectory(dir) || !Files.isWritable(dir))
                {
                    throw new IllegalArgumentException("--json " + options.json() + ": " + dir +
                        " is not a writable directory");
                }
            }
            if (!launch.contains("-n"))
            {
                launch.add("-n");
                launch.add("1");
            }
            launch.add("--cp");
            launch.add(System.getProperty("java.class.path"));
            launch.add("--");
            launch.add(AppMain.class.getName());
            launch.addAll(options.toArgs());
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("am2j app: " + ex.getMessage());
            err.println(USAGE);
            return AppMain.USAGE;
        }
        return launcher.run(launch.toArray(new String[0]));
    }

    private static int positive(final String option, final String value)
    {
        try
        {
            final int n = Integer.parseInt(value);
            if (n >= 1)
            {
                return n;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException(option + " " + value + " must be a positive integer");
    }

    private void help()
    {
        out.println(USAGE);
        out.println("  -n P, --nodes N, --poll S, --pin, --timeout S, --jvm-opt OPT, --nic M, --nics-per-node K: as for am2j run");
        out.println("  --preset NAME     the runs to make (default " + AppArgs.DEFAULT_PRESET + ")");
        out.println("  --warmup W        run each run W times untimed first, in the same JVMs (default 0); auto[:MAX]:");
        out.println("                    until the JIT is quiet (no rank compiled for over 2% of a run), at most MAX (20)");
        out.println("  --timed K         then time each run K times (default 1); the printed report is the median" +
            " run's,");
        out.println("                    the JSON has every timed run");
        out.println("  --json FILE       write the reports as JSON (rank 0 writes it)");
        out.println("  --PARAM VALUE     override a parameter of every run of the preset");
        for (final SplitCApp app : Apps.all())
        {
            out.println();
            out.println(app.name() + ": parameters " + String.join(", ", AppArgs.options(app)));
            for (final String preset : app.presets())
            {
                for (final RunSpec spec : app.preset(preset))
                {
                    out.println("  --preset " + preset + ": " + spec);
                }
            }
        }
    }
}
