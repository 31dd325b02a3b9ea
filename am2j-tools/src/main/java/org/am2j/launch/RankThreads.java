package org.am2j.launch;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.am2j.api.AmException;
import org.am2j.spi.RankScope;
import org.am2j.spmd.SpmdEnvironment;

/**
 * The main class of a JVM that holds K consecutive ranks of one node as threads: {@code RankThreads [K] MAINCLASS
 * [ARGS]}, K from the argument, else from {@value SpmdEnvironment#AM2J_RANKS_PER_JVM}, else 1.
 * <ul>
 * <li>Under {@code bin/am2j run --ranks-per-jvm K} the JVM has the environment the launcher gives a rank
 * ({@link SpmdEnvironment}) for the first of its ranks.</li>
 * <li>Under an external launcher ({@code srun}, {@code mpirun}: {@link SpmdEnvironment}, "Several ranks per process")
 * the launcher's process p of n holds ranks p·K .. p·K + K - 1 of a job of n·K ranks.</li>
 * </ul>
 * <p>
 * Each rank R runs {@code MAINCLASS.main(ARGS)} on a thread of its own, {@code rank-R}, with
 * <ul>
 * <li>a class loader of its own for the program ({@link RankClassLoader}): the program's static fields are the
 * rank's, am2j's runtime is the JVM's, so the JVM's ranks reach each other through the in-process transport;</li>
 * <li>an environment of its own ({@link RankScope}): the JVM's with {@code AM2J_RANK=R} (under an external launcher
 * with {@value SpmdEnvironment#AM2J_RANKS_PER_JVM} = K and {@value SpmdEnvironment#AM2J_RANK_IN_JVM} = R - p·K),
 * which {@code Spmd.init()} reads on the rank's thread and on the threads it starts;</li>
 * <li>its own lines on standard output and error, prefixed {@code [R] } ({@link RankOutput}).</li>
 * </ul>
 * The ranks' threads are platform threads, or virtual threads with {@code AM2J_RANK_THREADS=virtual}
 * ({@link RankThreadKind}, Java 21 and later).
 * As with the {@code java} command, the JVM exits with status 0 once every rank's main has returned and no
 * non-daemon thread is left. An exception thrown out of a rank's main prints {@code am2j rank R: ...} and its stack
 * trace, and ends the JVM, and so every rank of it, with status {@value RankMain#FAILURE_STATUS}; the launcher then
 * stops the job. So does a rank whose main returns before it has joined the job, with no thread of its left (a virtual rank: at all)
 * ({@code Spmd.init()}): the other ranks would wait for it until the join timeout. A rank's {@code System.exit(n)}
 * ends the JVM too.
 */
public final class RankThreads
{
    private final int first;
    private final int count;
    private final boolean external;
    private final Method[] mains;
    private final RankClassLoader[] loaders;
    private final String[] programArgs;
    private final RankOutput out;
    private final RankOutput err;
    private final boolean virtual;
    private final AtomicBoolean failed = new AtomicBoolean();

    private RankThreads(final int first, final int count, final boolean external, final Method[] mains,
        final RankClassLoader[] loaders, final String[] programArgs, final RankOutput out, final RankOutput err,
        final boolean virtual)
    {
        this.virtual = virtual;
        this.first = first;
        this.count = count;
        this.external = external;
        this.mains = mains;
        this.loaders = loaders;
        this.programArgs = programArgs;
        this.out = out;
        this.err = err;
    }

    /**
     * @param args K (optional), the rank program's main class, then its arguments.
     */
    public static void main(final String[] args)
    {
        // a main class name never starts with a digit or a sign: such a first argument is K
        final boolean countGiven = args.length >= 1 && !args[0].isEmpty() &&
            "+-0123456789".indexOf(args[0].charAt(0)) >= 0;
        final int count = countGiven ? count(args[0]) : ranksPerJvm();
        if (args.length < (countGiven ? 2 : 1) || (countGiven && count < 1))
        {
            System.err.println("usage: " + RankThreads.class.getName() + " [K] MAINCLASS [ARGS] (K: ranks in this " +
                "JVM, 1 or more; default " + SpmdEnvironment.AM2J_RANKS_PER_JVM + ", else 1)");
            System.exit(RankMain.USAGE_STATUS);
            return;
        }
        if (count < 1)
        {
            System.exit(RankMain.USAGE_STATUS);
            return;
        }
        final SpmdEnvironment environment = RankMain.environment(placed(System.getenv(), count, 0));
        if (null == environment)
        {
            System.exit(RankMain.USAGE_STATUS);
            return;
        }
        final boolean external = environment.launcher().isExternal();
        final int first = environment.rank();
        if (first + count > environment.size())
        {
            System.err.println("am2j rank " + first + ": " + count + " ranks from " + first + " go past the last " +
                "rank of the job, " + (environment.size() - 1));
            System.exit(RankMain.USAGE_STATUS);
            return;
        }
        final boolean virtual;
        try
        {
            virtual = RankThreadKind.setting() == RankThreadKind.VIRTUAL;
        }
        catch (final RuntimeException ex)
        {
            System.err.println("am2j rank " + first + ": " + ex.getMessage());
            System.exit(RankMain.USAGE_STATUS);
            return;
        }
        RankMain.startWatchdog(environment, first);
        final String label = first + "-" + (first + count - 1);
        final RankOutput out = new RankOutput(System.out, label);
        final RankOutput err = new RankOutput(System.err, label);
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));

        final URL[] urls = ClassPaths.urls(System.getProperty("java.class.path")).toArray(new URL[0]);
        final String mainClass = args[countGiven ? 1 : 0];
        final Method[] mains = new Method[count];
        final RankClassLoader[] loaders = new RankClassLoader[count];
        for (int i = 0; i < count; i++)
        {
            loaders[i] = new RankClassLoader(first + i, urls, ClassLoader.getSystemClassLoader());
            mains[i] = RankMain.mainMethod(mainClass, loaders[i], "am2j rank " + (first + i) + ": ");
            if (null == mains[i])
            {
                out.finishAll();
                err.finishAll();
                System.exit(RankMain.FAILURE_STATUS);
                return;
            }
        }
        new RankThreads(first, count, external, mains, loaders,
            Arrays.copyOfRange(args, countGiven ? 2 : 1, args.length), out, err, virtual).run();
    }

    /**
     * @return {@value SpmdEnvironment#AM2J_RANKS_PER_JVM} of this JVM's environment, 1 when not set, or -1 after saying
     * on standard error what is wrong with it.
     */
    private static int ranksPerJvm()
    {
        try
        {
            return SpmdEnvironment.ranksPerJvm(System.getenv());
        }
        catch (final AmException ex)
        {
            System.err.println("am2j rank: " + ex.getMessage());
            return -1;
        }
    }

    private static int count(final String text)
    {
        try
        {
            return Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * @param env     the JVM's environment.
     * @param perJvm  K.
     * @param inJvm   which of the JVM's ranks, 0 to K - 1.
     * @return the environment of that rank under an external launcher: {@code env} with
     * {@value SpmdEnvironment#AM2J_RANKS_PER_JVM} = K and {@value SpmdEnvironment#AM2J_RANK_IN_JVM} its own (which
     * am2j's launcher and a job without one do not read).
     */
    static Map<String, String> placed(final Map<String, String> env, final int perJvm, final int inJvm)
    {
        final Map<String, String> placed = new HashMap<>(env);
        placed.put(SpmdEnvironment.AM2J_RANKS_PER_JVM, Integer.toString(perJvm));
        placed.put(SpmdEnvironment.AM2J_RANK_IN_JVM, Integer.toString(inJvm));
        return placed;
    }

    /**
     * @param rank one of this JVM's ranks.
     * @return its environment: the JVM's, with {@code AM2J_RANK} its own, or under an external launcher with its
     * place among the JVM's ranks ({@link #placed}).
     */
    private Map<String, String> environmentOf(final int rank)
    {
        if (external)
        {
            return placed(System.getenv(), count, rank - first);
        }
        final Map<String, String> env = new HashMap<>(System.getenv());
        env.put(SpmdEnvironment.AM2J_RANK, Integer.toString(rank));
        return env;
    }

    private void run()
    {
        final Thread[] threads = new Thread[count];
        for (int i = 0; i < count; i++)
        {
            final int rank = first + i;
            final RankScope scope = new RankScope(rank, environmentOf(rank));
            final Method main = mains[i];
            final Runnable body = () -> runRank(scope, main);
            // A platform rank has a group of its own: the threads it starts are in it too, which tells when it has
            // none left. A virtual thread's group is the JVM's.
            threads[i] = virtual ? RankThreadKind.virtualThread("rank-" + rank, body) :
                new Thread(new ThreadGroup("rank-" + rank), body, "rank-" + rank);
            threads[i].setContextClassLoader(loaders[i]);
        }
        for (final Thread thread : threads)
        {
            thread.start();
        }
        for (final Thread thread : threads)
        {
            joinUninterruptibly(thread);
        }
        // the JVM exits once the threads the ranks started are done, as after the java command's main
    }

    private void runRank(final RankScope scope, final Method main)
    {
        RankScope.bind(scope);
        try
        {
            main.invoke(null, (Object)programArgs.clone());
            if (!scope.hasJoined() && (virtual || Thread.currentThread().getThreadGroup().activeCount() <= 1))
            {
                // as a rank JVM that exits before joining: the others would wait for the join timeout
                fail(scope.rank(), "main returned before joining the job (a rank program must join it, " +
                    "Spmd.init(), before it ends)", null);
            }
        }
        catch (final InvocationTargetException ex)
        {
            fail(scope.rank(), "uncaught exception in the rank's main", ex.getCause());
        }
        catch (final IllegalAccessException | RuntimeException | Error ex)
        {
            fail(scope.rank(), "uncaught exception in the rank's main", ex);
        }
        finally
        {
            out.finish(scope.rank());
            err.finish(scope.rank());
        }
    }

    /**
     * A rank failed: say which and why, with the stack trace of what it threw, and end the JVM, stopping its other
     * ranks (the launcher then stops the job). Only the first failure is reported: the others' may be the consequence
     * of it.
     *
     * @param rank that failed.
     * @param what went wrong.
     * @param ex   what it threw, or {@code null}.
     */
    private void fail(final int rank, final String what, final Throwable ex)
    {
        if (!failed.compareAndSet(false, true))
        {
            return;
        }
        final String others = count > 1 ? "; stopping this JVM's ranks " + first + "-" + (first + count - 1) : "";
        System.err.println("am2j rank " + rank + ": " + what + others);
        if (null != ex)
        {
            System.err.print("Exception in thread \"" + Thread.currentThread().getName() + "\" ");
            ex.printStackTrace();
        }
        out.finishAll();
        err.finishAll();
        System.exit(RankMain.FAILURE_STATUS);
    }

    private static void joinUninterruptibly(final Thread thread)
    {
        boolean interrupted = false;
        while (true)
        {
            try
            {
                thread.join();
                break;
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}
