package org.am2j.idle;

/**
 * How many threads of the whole machine are runnable (running or waiting for a CPU) and how many CPUs they share:
 * when there are more of the first than of the second, a waiter that spins takes a CPU its peer may need.
 * <p>
 * {@link LoadavgProbe} reads the kernel's count; tests give scripted counts.
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
}
