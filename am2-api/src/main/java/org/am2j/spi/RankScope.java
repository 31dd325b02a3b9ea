package org.am2j.spi;

import java.util.Map;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * The rank a thread works for, when one JVM holds several ranks of a job as threads ({@code bin/am2j run
 * --ranks-per-jvm K}, or {@code org.am2j.launch.RankThreads} under {@code srun} or {@code mpirun}): the rank's number
 * and the environment variables its launcher would have given a process of its own ({@code AM2J_RANK} and the rest;
 * under an external launcher the process's, with {@code AM2J_RANKS_PER_JVM} and the rank's {@code AM2J_RANK_IN_JVM}).
 * <p>
 * A rank's thread is bound to its scope once, before the rank's program runs; threads it starts afterwards inherit the
 * scope ({@link InheritableThreadLocal}), so {@code Spmd.init()} called on any of them joins the job as that rank, and
 * endpoints they allocate count for it ({@code bin/am2j stat}). A thread of no scope (every thread of a JVM that holds
 * one rank) reads the process's environment, {@link System#getenv()}.
 * <p>
 * A thread made by a pool that another rank created (or that existed before the ranks started, such as
 * {@link java.util.concurrent.ForkJoinPool#commonPool()}'s) carries that other rank's scope, or none: a rank program
 * that joins its job from such a thread must pass its environment explicitly ({@code Spmd.init(Map, ...)}).
 */
public final class RankScope
{
    private static final InheritableThreadLocal<RankScope> CURRENT = new InheritableThreadLocal<>();

    private final int rank;
    private final Map<String, String> environment;
    private volatile boolean joined;

    /**
     * @param rank        the rank, 0 or more.
     * @param environment its environment variables (copied).
     */
    public RankScope(final int rank, final Map<String, String> environment)
    {
        if (rank < 0)
        {
            throw new AmException(AmError.BAD_ARG, "rank = " + rank + " is outside [0, " + Integer.MAX_VALUE + "]");
        }
        this.rank = rank;
        this.environment = Map.copyOf(AmException.checkNotNull("environment", environment));
    }

    /**
     * Bind the calling thread, and the threads it starts from now on, to a rank.
     *
     * @param scope the rank's scope.
     * @throws AmException {@link AmError#BAD_ARG} when the thread already works for another rank.
     */
    public static void bind(final RankScope scope)
    {
        AmException.checkNotNull("scope", scope);
        final RankScope bound = CURRENT.get();
        if (null != bound && bound != scope)
        {
            throw new AmException(AmError.BAD_ARG, "thread " + Thread.currentThread().getName() +
                " already works for rank " + bound.rank + ", cannot work for rank " + scope.rank);
        }
        CURRENT.set(scope);
    }

    /**
     * @return the scope of the rank the calling thread works for, or {@code null} when the JVM's environment is the
     * thread's.
     */
    public static RankScope current()
    {
        return CURRENT.get();
    }

    /**
     * @return the environment of the rank the calling thread works for, or the process's ({@link System#getenv()})
     * when it works for none.
     */
    public static Map<String, String> environment()
    {
        final RankScope scope = CURRENT.get();
        return null != scope ? scope.environment : System.getenv();
    }

    /**
     * @return the rank.
     */
    public int rank()
    {
        return rank;
    }

    /**
     * Record that the rank has joined its job ({@code Spmd.init()} returned on one of its threads).
     */
    public void markJoined()
    {
        joined = true;
    }

    /**
     * @return true once the rank has joined its job.
     */
    public boolean hasJoined()
    {
        return joined;
    }

    /**
     * @return the rank's environment variables (unmodifiable).
     */
    public Map<String, String> variables()
    {
        return environment;
    }

    @Override
    public String toString()
    {
        return "RankScope{rank=" + rank + '}';
    }
}
