package org.am2j.splitc.app;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import org.am2j.launch.Am2Run;
import org.am2j.launch.JvmPlacement;
import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * The front end {@code bin/am2j app}:
 * <pre>
 * am2j app fft3d|con|em3d [--preset NAME] [-n P] [--nodes N] [--ranks-per-jvm K] [--poll S] [--pin] [--timeout S]
 *     [--jvm-opt OPT]... [--nic M] [--nics-per-node K] [--json FILE] [--PARAM VALUE]...
 * </pre>
 * It checks the options (application, preset, parameters, that they fit P ranks on N nodes, and that K ranks per JVM
 * ({@code --ranks-per-jvm}, else {@code AM2J_RANKS_PER_JVM}) divides the ranks of every node), then runs
 * {@link AppMain} as a job of the launcher in this process ({@link Am2Run}: {@code am2j run -n P --nodes N ... --
 * org.am2j.splitc.app.AppMain ...}) on this process's class path, and exits with the job's status: 0 when every run
 * was verified, 1 when one was not or a rank failed, 2 for bad options, 124 when {@code --timeout} passed.
 */
public final class AppCommand
{
    /** The usage line, printed after an error. */
    public static final String USAGE = CommandLines.usage(new LaunchOptions());

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
        final List<String> launch;
        try
        {
            launch = launchArguments(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("am2j app: " + ex.getMessage());
            err.println(USAGE);
            return AppMain.USAGE;
        }
        if (null == launch)
        {
            help();
            return 0;
        }
        return launcher.run(launch.toArray(new String[0]));
    }

    /**
     * @param args the command line after {@code app}.
     * @return the launcher's command line that runs them: the launcher's options as given ({@code -n} always), this
     * process's class path, then {@link AppMain} with the application's options; {@code null} when help was asked for.
     * @throws IllegalArgumentException naming what is wrong, before anything is launched.
     */
    static List<String> launchArguments(final String[] args)
    {
        final LaunchOptions given = new LaunchOptions();
        final CommandLine line = CommandLines.of(given).setUnmatchedArgumentsAllowed(true);
        final ParseResult parsed = CommandLines.parse(line, args);
        if (given.help)
        {
            return null;
        }
        if (given.nodes > given.ranks)
        {
            throw new IllegalArgumentException("--nodes " + given.nodes + " is more than -n " + given.ranks);
        }
        JvmPlacement.ranksPerJvm(given.ranksPerJvm, System.getenv(), given.ranks, given.nodes);
        final AppArgs options = AppArgs.parse(line.getUnmatchedArguments());
        for (final RunSpec spec : options.runs())
        {
            options.app().check(spec, given.ranks, given.nodes);
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
        final List<String> launch = new ArrayList<>(List.of("-n", Integer.toString(given.ranks)));
        for (final OptionSpec option : new LinkedHashSet<>(parsed.matchedOptions()))
        {
            if (0 == option.arity().max())
            {
                launch.add(option.longestName());
            }
            else if (!"-n".equals(option.longestName()))
            {
                option.originalStringValues().forEach(value -> launch.addAll(List.of(option.longestName(), value)));
            }
        }
        launch.addAll(List.of("--cp", System.getProperty("java.class.path"), "--", AppMain.class.getName()));
        launch.addAll(options.toArgs());
        return launch;
    }

    private void help()
    {
        final CommandLine line = CommandLines.of(new LaunchOptions()).addMixin("app", AppArgs.help());
        line.getCommandSpec().addOption(OptionSpec.builder("--PARAM").paramLabel("VALUE").type(String.class)
            .description("override a parameter of every run of the preset").build());
        out.print(CommandLines.help(line));
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

    /** The options of the launcher that {@code am2j app} takes, handed on to it as given. */
    @Command(name = "am2j app", customSynopsis = "am2j app fft3d|con|em3d [--preset NAME] [-n P] [--nodes N] " +
        "[--ranks-per-jvm K] [--poll S] [--pin] [--timeout S] [--jvm-opt OPT]... [--nic M] [--nics-per-node K] " +
        "[--warmup W] [--timed K] [--json FILE] [--PARAM VALUE]...")
    private static final class LaunchOptions
    {
        @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "-n", paramLabel = "P", description = "ranks, as for am2j run (default ${DEFAULT-VALUE})")
        @Range(min = 1)
        int ranks = 1;
        @Option(names = "--nodes", paramLabel = "N", description = "emulated nodes, as for am2j run (default " +
            "${DEFAULT-VALUE})")
        @Range(min = 1)
        int nodes = 1;
        @Option(names = "--ranks-per-jvm", paramLabel = "K", description = "K ranks of a node in each JVM, as " +
            "threads, as for am2j run (default 1, or AM2J_RANKS_PER_JVM)")
        @Range(min = 1)
        int ranksPerJvm;
        @Option(names = "--poll", paramLabel = "S", description = "as for am2j run")
        String poll;
        @Option(names = "--pin", description = "as for am2j run")
        boolean pin;
        @Option(names = "--timeout", paramLabel = "S", description = "as for am2j run")
        String timeout;
        @Option(names = "--jvm-opt", paramLabel = "OPT", description = "as for am2j run")
        List<String> jvmOptions;
        @Option(names = "--nic", paramLabel = "M", description = "as for am2j run")
        String nic;
        @Option(names = "--nics-per-node", paramLabel = "K", description = "as for am2j run")
        String nicsPerNode;
    }
}
