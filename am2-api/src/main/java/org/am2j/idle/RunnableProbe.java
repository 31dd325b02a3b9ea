package org.am2j.idle;

/**
 * How many threads of the whole machine are runnable (running or waiting for a CPU) and how many CPUs they share:
 * when there are more of the first than of the second, a waiter that spins takes a CPU its peer may need.
 * <p>
 * {@link LoadavgProbe} reads the kernel's count; {@link #fixed(int, int)} gives fixed ones, and tests scripted ones.
 */
public interface RunnableProbe
{
    /** What {@link #runnable()} answers when it cannot tell. */
    int UNKNOWN = -1;

    /**
     * @return the number of runnable threads on the machine now, the caller included, or {@link #UNKNOWN}.
     */
    int runnable();

    /**
     * @return the number of CPUs the threads counted by {@link #runnable()} run on, at least 1.
     */
    int cpus();

    /**
     * @param runnable what {@link #runnable()} answers, or {@link #UNKNOWN}.
     * @param cpus     what {@link #cpus()} answers, at least 1.
     * @return a probe that always gives these counts: a machine state fixed for a test or a measurement.
     */
    static RunnableProbe fixed(final int runnable, final int cpus)
    {
        if (cpus < 1 || (runnable < 0 && runnable != UNKNOWN))
        {
            throw new IllegalArgumentException("runnable must be 0 or more (or UNKNOWN), cpus 1 or more: " +
                runnable + ", " + cpus);
        }
        return new Fixed(runnable, cpus);
    }

    /**
     * A probe that always gives the same counts ({@link #fixed(int, int)} checks them).
     *
     * @param runnable what {@link #runnable()} answers.
     * @param cpus     what {@link #cpus()} answers.
     */
    record Fixed(int runnable, int cpus) implements RunnableProbe
    {
    }
}
