package org.am2j.launch;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;

import org.am2j.api.AmException;
import org.am2j.spmd.SpmdEnvironment;

/**
 * The main class of every rank JVM the launcher starts: {@code RankMain MAINCLASS [ARGS]}.
 * <p>
 * It checks the rank's environment ({@link SpmdEnvironment}), starts the {@link LauncherWatchdog} when a launcher pid
 * is given, and runs {@code MAINCLASS.main(ARGS)}. As with the {@code java} command, the JVM exits when that method
 * has returned and no non-daemon thread is left, with status 0. An exception thrown out of it prints its stack trace
 * and exits with status 1; a malformed environment or a missing main class prints a message and exits with status 2
 * or 1.
 */
public final class RankMain
{
    /** Exit status after an uncaught exception or a main class that cannot be run. */
    public static final int FAILURE_STATUS = 1;
    /** Exit status for a bad command line or environment. */
    public static final int USAGE_STATUS = 2;

    private RankMain()
    {
    }

    /**
     * @param args the rank program's main class, then its arguments.
     */
    public static void main(final String[] args)
    {
        if (args.length < 1)
        {
            System.err.println("usage: " + RankMain.class.getName() + " MAINCLASS [ARGS]");
            System.exit(USAGE_STATUS);
            return;
        }
        final SpmdEnvironment environment = environment();
        if (null == environment)
        {
            System.exit(USAGE_STATUS);
            return;
        }
        startWatchdog(environment, environment.rank());

        final Method main = mainMethod(args[0], ClassLoader.getSystemClassLoader(),
            "am2j rank " + environment.rank() + ": ");
        if (null == main)
        {
            System.exit(FAILURE_STATUS);
            return;
        }

        try
        {
            main.invoke(null, (Object)Arrays.copyOfRange(args, 1, args.length));
        }
        catch (final InvocationTargetException ex)
        {
            uncaught(ex.getCause());
        }
        catch (final IllegalAccessException | RuntimeException | Error ex)
        {
            uncaught(ex);
        }
    }

    /**
     * @return the environment the launcher gave this JVM, or {@code null} after saying on standard error what is wrong
     * with it.
     */
    static SpmdEnvironment environment()
    {
        return environment(System.getenv());
    }

    /**
     * @param env the environment of this JVM (of its first rank).
     * @return where it sits in its job, or {@code null} after saying on standard error what is wrong with it.
     */
    static SpmdEnvironment environment(final Map<String, String> env)
    {
        try
        {
            return SpmdEnvironment.parse(env);
        }
        catch (final AmException ex)
        {
            System.err.println("am2j rank: " + ex.getMessage());
            return null;
        }
    }

    /**
     * Start the {@link LauncherWatchdog} of a rank JVM when its launcher's pid is known.
     *
     * @param environment the JVM's environment.
     * @param rank        its (first) rank, for the watchdog's message.
     */
    static void startWatchdog(final SpmdEnvironment environment, final int rank)
    {
        if (environment.launcherPid() > 0)
        {
            LauncherWatchdog.start(environment.launcherPid(), environment.launcherStartMillis(), rank);
        }
    }

    /**
     * @param mainClass a rank program's main class.
     * @param loader    to load it with.
     * @param prefix    of the message said when it cannot be run, e.g. {@code am2j rank 3: }.
     * @return its {@code public static void main(String[])}, accessible; {@code null} after saying on standard error
     * why there is none.
     */
    static Method mainMethod(final String mainClass, final ClassLoader loader, final String prefix)
    {
        try
        {
            final Method main = Class.forName(mainClass, false, loader).getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class)
            {
                throw new NoSuchMethodException(mainClass + ".main");
            }
            main.setAccessible(true);
            return main;
        }
        catch (final ClassNotFoundException ex)
        {
            System.err.println(prefix + "main class " + mainClass + " not found on the class path " +
                System.getProperty("java.class.path"));
        }
        catch (final NoSuchMethodException ex)
        {
            System.err.println(prefix + "class " + mainClass + " has no public static void main(String[])");
        }
        catch (final RuntimeException | LinkageError ex)
        {
            System.err.println(prefix + "cannot load main class " + mainClass + ":");
            ex.printStackTrace();
        }
        return null;
    }

    private static void uncaught(final Throwable ex)
    {
        System.err.print("Exception in thread \"" + Thread.currentThread().getName() + "\" ");
        ex.printStackTrace();
        System.err.flush();
        System.exit(FAILURE_STATUS);
    }
}
