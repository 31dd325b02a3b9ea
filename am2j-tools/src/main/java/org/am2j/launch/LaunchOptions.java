package org.am2j.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;
import org.am2j.spmd.SpmdEnvironment;

/**
 * The command line of {@link Am2Run}, parsed and checked:
 * {@value #USAGE}.
 */
final class LaunchOptions
{
    /** The usage line. */
    static final String USAGE = "usage: am2j run -n P [--nodes N] [--poll NAME] [--nic inline|thread]" +
        " [--nics-per-node K] [--pin]" +
        " [--timeout SECONDS] [--jvm-opt OPT]... [--cp CLASSPATH] -- MAINCLASS [ARGS]";

    /** Most NIC processes per node. */
    static final int MAX_NICS_PER_NODE = 64;

    /** {@link #timeoutSeconds()} of a job without {@code --timeout}. */
    static final int NO_TIMEOUT = 0;

    /** What each option means. */
    static final String HELP = String.join(System.lineSeparator(),
        "  -n P              number of ranks (JVMs), 1 to " + SpmdEnvironment.MAX_SIZE,
        "  --nodes N         emulated nodes of this machine, 1 to P (default 1); ranks are placed in blocks, the",
        "                    first P mod N nodes get one rank more",
        "  --poll NAME       poll scheduler of the ranks (AM2J_POLL, -Dam2j.poll)",
        "  --nic MODE        NIC agent mode of the ranks: inline or thread (AM2J_NIC, -Dam2j.nic)",
        "  --nics-per-node K K NIC processes per node, started before the ranks and stopped after them, shared by",
        "                    the node's ranks in contiguous groups (8 ranks on 3 NICs: 3, 3, 2); 0, the default,",
        "                    gives every rank a NIC of its own (AM2J_NICS_PER_NODE)",
        "  --pin             pin rank R to the R-th CPU this process may use (modulo their number) with taskset -c;",
        "                    without taskset or with fewer than 2 allowed CPUs the ranks run unpinned (said on stderr)",
        "  --timeout S       time limit of the job in seconds, a positive integer: when it passes, every rank is",
        "                    stopped and the launcher exits with " + Am2Run.TIMEOUT_STATUS + " (default: no limit)",
        "  --jvm-opt OPT     an option for every rank's JVM (repeatable)",
        "  --cp CLASSPATH    class path of the ranks (default: the launcher's); it must hold am2j",
        "  MAINCLASS ARGS    the rank program: its main(String[]) runs in every rank");

    private static final Pattern CLASS_NAME = Pattern.compile(
        "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}" +
        "\\p{javaJavaIdentifierPart}*)*");
    private static final Pattern POLL_NAME = Pattern.compile("[A-Za-z0-9_.:,=()+-]{1,128}");

    private final boolean help;
    private final int ranks;
    private final int nodes;
    private final String poll;
    private final String nic;
    private final int nicsPerNode;
    private final boolean pin;
    private final int timeoutSeconds;
    private final List<String> jvmOptions;
    private final String classPath;
    private final String mainClass;
    private final List<String> mainArgs;

    private LaunchOptions(
        final boolean help,
        final int ranks,
        final int nodes,
        final String poll,
        final String nic,
        final int nicsPerNode,
        final boolean pin,
        final int timeoutSeconds,
        final List<String> jvmOptions,
        final String classPath,
        final String mainClass,
        final List<String> mainArgs)
    {
        this.help = help;
        this.ranks = ranks;
        this.nodes = nodes;
        this.poll = poll;
        this.nic = nic;
        this.nicsPerNode = nicsPerNode;
        this.pin = pin;
        this.timeoutSeconds = timeoutSeconds;
        this.jvmOptions = Collections.unmodifiableList(jvmOptions);
        this.classPath = classPath;
        this.mainClass = mainClass;
        this.mainArgs = Collections.unmodifiableList(mainArgs);
    }

    /**
     * @param args the command line, with or without a leading {@code run}.
     * @return the options.
     * @throws IllegalArgumentException naming the bad or missing argument.
     */
    static LaunchOptions parse(final String[] args)
    {
        int i = args.length > 0 && "run".equals(args[0]) ? 1 : 0;
        int ranks = -1;
        int nodes = 1;
        String poll = null;
        String nic = null;
        int nicsPerNode = 0;
        boolean pin = false;
        int timeoutSeconds = NO_TIMEOUT;
        String classPath = null;
        final List<String> jvmOptions = new ArrayList<>();
        while (i < args.length)
        {
            final String arg = args[i];
            if ("--".equals(arg))
            {
                i++;
                break;
            }
            if (!arg.startsWith("-"))
            {
                break;
            }
            int step = 2;
            switch (arg)
            {
                case "-h":
                case "--help":
                    return new LaunchOptions(
                        true, 0, 0, null, null, 0, false, NO_TIMEOUT, jvmOptions, null, null, new ArrayList<>());
                case "-n":
                    ranks = number(arg, value(args, i), 1, SpmdEnvironment.MAX_SIZE);
                    break;
                case "--nodes":
                    nodes = number(arg, value(args, i), 1, SpmdEnvironment.MAX_SIZE);
                    break;
                case "--poll":
                    poll = value(args, i);
                    if (!POLL_NAME.matcher(poll).matches())
                    {
                        throw new IllegalArgumentException("--poll '" + poll + "' is not a poll scheduler name" +
                            " (1 to 128 of [A-Za-z0-9_.:,=()+-])");
                    }
                    break;
                case "--nic":
                    nic = value(args, i);
                    if (!"inline".equals(nic) && !"thread".equals(nic))
                    {
                        throw new IllegalArgumentException("--nic '" + nic + "' must be inline or thread");
                    }
                    break;
                case "--nics-per-node":
                    nicsPerNode = number(arg, value(args, i), 0, MAX_NICS_PER_NODE);
                    break;
                case "--pin":
                    pin = true;
                    step = 1;
                    break;
                case "--timeout":
                    timeoutSeconds = timeout(value(args, i));
                    break;
                case "--jvm-opt":
                    jvmOptions.add(value(args, i));
                    break;
                case "--cp":
                case "-cp":
                case "--class-path":
                    classPath = value(args, i);
                    if (classPath.isEmpty())
                    {
                        throw new IllegalArgumentException(arg + " must not be empty");
                    }
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
            i += step;
        }
        if (ranks < 0)
        {
            throw new IllegalArgumentException("missing -n P, the number of ranks (1 to " +
                SpmdEnvironment.MAX_SIZE + ")");
        }
        if (nodes > ranks)
        {
            throw new IllegalArgumentException("--nodes " + nodes + " is more than -n " + ranks +
                ": every node needs a rank");
        }
        if (i >= args.length)
        {
            throw new IllegalArgumentException("missing MAINCLASS, the class whose main(String[]) every rank runs");
        }
        final String mainClass = args[i];
        if (!CLASS_NAME.matcher(mainClass).matches())
        {
            throw new IllegalArgumentException("MAINCLASS '" + mainClass + "' is not a class name");
        }
        final List<String> mainArgs = new ArrayList<>(Arrays.asList(args).subList(i + 1, args.length));
        return new LaunchOptions(
            false, ranks, nodes, poll, nic, nicsPerNode, pin, timeoutSeconds, jvmOptions, classPath, mainClass, mainArgs);
    }

    private static String value(final String[] args, final int i)
    {
        if (i + 1 >= args.length)
        {
            throw new IllegalArgumentException(args[i] + " needs a value");
        }
        return args[i + 1];
    }

    private static int timeout(final String value)
    {
        final int seconds;
        try
        {
            seconds = Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--timeout '" + value + "' must be a positive integer (seconds, 1 to " +
                Integer.MAX_VALUE + ")");
        }
        if (seconds < 1)
        {
            throw new IllegalArgumentException("--timeout " + seconds + " must be a positive integer (seconds, 1 to " +
                Integer.MAX_VALUE + ")");
        }
        return seconds;
    }

    private static int number(final String option, final String value, final int min, final int max)
    {
        final int n;
        try
        {
            n = Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " '" + value + "' is not a number in [" + min + ", " + max +
                "]");
        }
        if (n < min || n > max)
        {
            throw new IllegalArgumentException(option + " " + n + " is outside [" + min + ", " + max + "]");
        }
        return n;
    }

    /**
     * @return true when help was asked for; the other values are then not set.
     */
    boolean help()
    {
        return help;
    }

    /**
     * @return number of ranks.
     */
    int ranks()
    {
        return ranks;
    }

    /**
     * @return number of emulated nodes.
     */
    int nodes()
    {
        return nodes;
    }

    /**
     * @return the poll scheduler, or {@code null} for the ranks' default.
     */
    String poll()
    {
        return poll;
    }

    /**
     * @return the NIC agent mode, or {@code null} for the ranks' default.
     */
    String nic()
    {
        return nic;
    }

    /**
     * @return NIC processes per node, 0 when every rank has a NIC of its own.
     */
    int nicsPerNode()
    {
        return nicsPerNode;
    }

    /**
     * @return true when each rank is to be pinned to a CPU ({@code --pin}, see {@link CpuPinning}).
     */
    boolean pin()
    {
        return pin;
    }

    /**
     * @return the time limit of the job in seconds, or {@link #NO_TIMEOUT}.
     */
    int timeoutSeconds()
    {
        return timeoutSeconds;
    }

    /**
     * @return options for every rank's JVM, in order.
     */
    List<String> jvmOptions()
    {
        return jvmOptions;
    }

    /**
     * @return the ranks' class path, or {@code null} for the launcher's.
     */
    String classPath()
    {
        return classPath;
    }

    /**
     * @return the class whose main every rank runs.
     */
    String mainClass()
    {
        return mainClass;
    }

    /**
     * @return the arguments of the rank program.
     */
    List<String> mainArgs()
    {
        return mainArgs;
    }
}
