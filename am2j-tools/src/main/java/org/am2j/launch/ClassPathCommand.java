package org.am2j.launch;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * {@code bin/am2j classpath}: prints the class path am2j's commands and ranks run on (the class path of this JVM),
 * one line, its entries absolute and separated by {@link File#pathSeparator}, for starting rank JVMs under another
 * launcher:
 * <pre>
 * mpirun -n 16 -x AM2J_BOOTSTRAP=node01:7400 java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
 *     --enable-native-access=ALL-UNNAMED -cp "/tmp/hello:$(bin/am2j classpath)" HelloAm
 * </pre>
 * Exit status 0, or 2 (with the usage) for any argument but {@code --help}.
 */
public final class ClassPathCommand
{
    /** The usage text. */
    public static final String USAGE =
        "usage: am2j classpath\n" +
        "  Prints the class path of am2j's runtime (its jars, absolute, separated by '" + File.pathSeparator + "'),\n" +
        "  for the -cp of rank JVMs that another launcher starts (mpirun, srun), after the program's own classes:\n" +
        "    java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \\\n" +
        "        -cp \"MYCLASSES" + File.pathSeparator + "$(am2j classpath)\" MAINCLASS";

    /** Exit status for bad arguments. */
    public static final int USAGE_STATUS = 2;

    private ClassPathCommand()
    {
    }

    /**
     * Print the class path and exit.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        final int status = run(args, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /**
     * @param args the command line: nothing, or {@code --help}.
     * @param out  where the class path (or the usage asked for) goes.
     * @param err  where a usage error goes.
     * @return the exit status: 0, or {@value #USAGE_STATUS} for a bad argument.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        if (1 == args.length && ("--help".equals(args[0]) || "-h".equals(args[0])))
        {
            out.println(USAGE);
            return 0;
        }
        if (0 != args.length)
        {
            err.println("am2j classpath: unexpected argument \"" + args[0] + "\"");
            err.println(USAGE);
            return USAGE_STATUS;
        }
        out.println(absolute(System.getProperty("java.class.path")));
        return 0;
    }

    /**
     * @param classPath a class path.
     * @return the same entries, each absolute and normalised, empty ones left out.
     */
    static String absolute(final String classPath)
    {
        return Arrays.stream(classPath.split(File.pathSeparator)).filter(entry -> !entry.isEmpty())
            .map(ClassPathCommand::absoluteEntry).collect(Collectors.joining(File.pathSeparator));
    }

    private static String absoluteEntry(final String entry)
    {
        try
        {
            return Path.of(entry).toAbsolutePath().normalize().toString();
        }
        catch (final InvalidPathException ex)
        {
            // not a path of this platform: the JVM skipped it too
            return entry;
        }
    }
}
