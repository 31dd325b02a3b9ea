package org.am2j.launch;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

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
        final SpmdEnvironment environment;
        try
        {
            environment = SpmdEnvironment.parse(System.getenv());
        }
        catch (final AmException ex)
        {
            System.err.println("am2j rank: " + ex.getMessage());
            System.exit(USAGE_STATUS);
            return;
        }
        if (environment.launcherPid() > 0)
        {
            LauncherWatchdog.start(environment.launcherPid(), environment.launcherStartMillis(), environment.rank());
        }

        final String mainClass = args[0];
        final String prefix = "am2j rank " + environment.rank() + ": ";
        final Method main;
        try
        {
            main = Class.forName(mainClass, false, ClassLoader.getSystemClassLoader())
                .getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class)
            {
                throw new NoSuchMethodException(mainClass + ".main");
            }
            main.setAccessible(true);
        }
        catch (final ClassNotFoundException ex)
        {
            System.err.println(prefix + "main class " + mainClass + " not found on the class path " +
                System.getProperty("java.class.path"));
            System.exit(FAILURE_STATUS);
            return;
        }
        catch (final NoSuchMethodException ex)
        {
            System.err.println(prefix + "class " + mainClass + " has no public static void main(String[])");
            System.exit(FAILURE_STATUS);
            return;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            System.err.println(prefix + "cannot load main class " + mainClass + ":");
            ex.printStackTrace();
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

    private static void uncaught(final Throwable ex)
    {
        System.err.print("Exception in thread \"" + Thread.currentThread().getName() + "\" ");
        ex.printStackTrace();
        System.err.flush();
        System.exit(FAILURE_STATUS);
    }
}
