package org.am2j.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.am2j.spmd.SpmdEnvironment;
import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * The command line of {@link Am2Run}, parsed by picocli with the conventions of {@link CommandLines} and checked:
 * {@value #SYNOPSIS}. The options end at {@code --} or at the first word that is not one, MAINCLASS; what follows
 * MAINCLASS is the rank program's, whatever it looks like.
 *
 * @param help           true when help was asked for; the other values are then not set.
 * @param ranks          number of ranks.
 * @param nodes          number of emulated nodes.
 * @param poll           the poll scheduler, or {@code null} for the ranks' default.
 * @param nic            the NIC agent mode, or {@code null} for the ranks' default.
 * @param nicsPerNode    NIC processes per node, 0 when every rank has a NIC of its own.
 * @param ranksPerJvm    ranks held by each rank JVM, as threads; 1 for a JVM per rank ({@link JvmPlacement}).
 * @param pin            true when each rank is to be pinned to a CPU ({@code --pin}, see {@link CpuPinning}).
 * @param timeoutSeconds the time limit of the job in seconds, or {@link #NO_TIMEOUT}.
 * @param jvmOptions     options for every rank's JVM, in order.
 * @param classPath      the ranks' class path, or {@code null} for the launcher's.
 * @param mainClass      the class whose main every rank runs.
 * @param mainArgs       the arguments of the rank program.
 */
record LaunchOptions(boolean help, int ranks, int nodes, String poll, String nic, int nicsPerNode, int ranksPerJvm,
    boolean pin, int timeoutSeconds, List<String> jvmOptions, String classPath, String mainClass, List<String> mainArgs)
{
    /** The usage line without its heading. */
    static final String SYNOPSIS = "am2j run -n P [--nodes N] [--poll NAME] [--nic inline|thread]" +
        " [--nics-per-node K] [--ranks-per-jvm K] [--pin] [--timeout SECONDS] [--jvm-opt OPT]... [--cp CLASSPATH] -- MAINCLASS [ARGS]";

    /** Most NIC processes per node. */
    static final int MAX_NICS_PER_NODE = 64;

    /** The environment variable that gives {@code --ranks-per-jvm} when the option is not given. */
    static final String RANKS_PER_JVM_VARIABLE = SpmdEnvironment.AM2J_RANKS_PER_JVM;

    /** {@link #timeoutSeconds()} of a job without {@code --timeout}. */
    static final int NO_TIMEOUT = 0;

    /** The usage line, printed after an error. */
    static final String USAGE = CommandLines.usage(new Arguments());

    /** The usage line and what each option means. */
    static final String HELP = CommandLines.help(new Arguments());

    private static final Pattern CLASS_NAME = Pattern.compile(
        "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}" +
        "\\p{javaJavaIdentifierPart}*)*");
    private static final Pattern POLL_NAME = Pattern.compile("[A-Za-z0-9_.:,=()+-]{1,128}");

    /**
     * @param args the command line, with or without a leading {@code run}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static LaunchOptions parse(final String[] args)
    {
        return parse(args, System.getenv());
    }

    /**
     * @param args the command line, with or without a leading {@code run}.
     * @param env  the launcher's environment, for {@value #RANKS_PER_JVM_VARIABLE}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static LaunchOptions parse(final String[] args, final Map<String, String> env)
    {
        final Arguments a = new Arguments();
        final int from = args.length > 0 && "run".equals(args[0]) ? 1 : 0;
        // a rank JVM's options look like options (--jvm-opt -cp): an option's value is the next word, whatever it is
        final CommandLine line = CommandLines.of(a).setStopAtPositional(true)
            .setAllowOptionsAsOptionParameters(true);
        CommandLines.parse(line, Arrays.copyOfRange(args, from, args.length));
        if (a.help)
        {
            return new LaunchOptions(true, a.ranks, a.nodes, a.poll, a.nic, a.nicsPerNode, 1, a.pin,
                a.timeoutSeconds, List.of(), a.classPath, null, List.of());
        }
        if (a.ranks < 0)
        {
            throw new IllegalArgumentException("missing -n P, the number of ranks (1 to " +
                SpmdEnvironment.MAX_SIZE + ")");
        }
        if (a.nodes > a.ranks)
        {
            throw new IllegalArgumentException("--nodes " + a.nodes + " is more than -n " + a.ranks +
                ": every node needs a rank");
        }
        final int ranksPerJvm = JvmPlacement.ranksPerJvm(a.ranksPerJvm, env, a.ranks, a.nodes);
        if (a.program.isEmpty())
        {
            throw new IllegalArgumentException("missing MAINCLASS, the class whose main(String[]) every rank runs");
        }
        if (!CLASS_NAME.matcher(a.program.get(0)).matches())
        {
            throw new IllegalArgumentException("MAINCLASS '" + a.program.get(0) + "' is not a class name");
        }
        return new LaunchOptions(false, a.ranks, a.nodes, a.poll, a.nic, a.nicsPerNode, ranksPerJvm, a.pin,
            a.timeoutSeconds, List.copyOf(a.jvmOptions), a.classPath, a.program.get(0),
            List.copyOf(a.program.subList(1, a.program.size())));
    }

    /** The options as picocli sets them. */
    @Command(name = "am2j run", customSynopsis = LaunchOptions.SYNOPSIS)
    private static final class Arguments
    {
        @Option(names = { "-h", "--help" }, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "-n", paramLabel = "P",
            description = "number of ranks (JVMs), 1 to " + SpmdEnvironment.MAX_SIZE)
        @Range(min = 1, max = SpmdEnvironment.MAX_SIZE, meaning = "ranks")
        int ranks = -1;
        @Option(names = "--nodes", paramLabel = "N", description = "emulated nodes of this machine, 1 to P " +
            "(default 1); ranks are placed in blocks, the first P mod N nodes get one rank more")
        @Range(min = 1, max = SpmdEnvironment.MAX_SIZE, meaning = "emulated nodes")
        int nodes = 1;
        @Option(names = "--poll", paramLabel = "NAME", converter = PollName.class,
            description = "poll scheduler of the ranks (AM2J_POLL, -Dam2j.poll)")
        String poll;
        @Option(names = "--nic", paramLabel = "MODE", converter = NicMode.class,
            description = "NIC agent mode of the ranks: inline or thread (AM2J_NIC, -Dam2j.nic)")
        String nic;
        @Option(names = "--nics-per-node", paramLabel = "K", description = "K NIC processes per node, started " +
            "before the ranks and stopped after them, shared by the node's ranks in contiguous groups (8 ranks on 3 " +
            "NICs: 3, 3, 2); 0, the default, gives every rank a NIC of its own (AM2J_NICS_PER_NODE)")
        @Range(min = 0, max = MAX_NICS_PER_NODE, meaning = "NIC processes per node")
        int nicsPerNode;
        @Option(names = "--ranks-per-jvm", paramLabel = "K", description = "K consecutive ranks of one node in each " +
            "JVM, as threads, each rank's program in a class loader of its own; K must divide the ranks of every node " +
            "(default 1, a JVM per rank, or " + RANKS_PER_JVM_VARIABLE + ")")
        @Range(min = 1, max = SpmdEnvironment.MAX_SIZE, meaning = "ranks per JVM")
        int ranksPerJvm;
        @Option(names = "--pin", description = "pin rank R to the R-th CPU this process may use (modulo their " +
            "number) with taskset -c; without taskset or with fewer than 2 allowed CPUs the ranks run unpinned (said " +
            "on stderr)")
        boolean pin;
        @Option(names = "--timeout", paramLabel = "S", description = "time limit of the job in seconds, a positive " +
            "integer: when it passes, every rank is stopped and the launcher exits with " + Am2Run.TIMEOUT_STATUS +
            " (default: no limit)")
        @Range(min = 1, meaning = "seconds")
        int timeoutSeconds = NO_TIMEOUT;
        @Option(names = "--jvm-opt", paramLabel = "OPT", description = "an option for every rank's JVM (repeatable)")
        List<String> jvmOptions = new ArrayList<>();
        @Option(names = "--cp", paramLabel = "CLASSPATH", converter = CommandLines.NotEmpty.class,
            description = "class path of the ranks (default: the launcher's); it must hold am2j")
        String classPath;
        @Parameters(paramLabel = "MAINCLASS ARGS",
            description = "the rank program: its main(String[]) runs in every rank")
        List<String> program = new ArrayList<>();

        /**
         * {@code -cp} and {@code --class-path}, as for {@code java}: the same as {@code --cp}, left out of the help.
         *
         * @param classPath the ranks' class path.
         */
        @Option(names = { "-cp", "--class-path" }, paramLabel = "CLASSPATH", converter = CommandLines.NotEmpty.class,
            hidden = true)
        private void classPathAlias(final String classPath)
        {
            this.classPath = classPath;
        }
    }

    /** {@code --poll}: a scheduler name of the characters the schedulers' names and arguments use. */
    static final class PollName implements ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            if (!POLL_NAME.matcher(value).matches())
            {
                throw new TypeConversionException("'" + value + "' is not a poll scheduler name" +
                    " (1 to 128 of [A-Za-z0-9_.:,=()+-])");
            }
            return value;
        }
    }

    /** {@code --nic}: inline or thread. */
    static final class NicMode implements ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            if (!"inline".equals(value) && !"thread".equals(value))
            {
                throw new TypeConversionException("'" + value + "' must be inline or thread");
            }
            return value;
        }
    }
}
