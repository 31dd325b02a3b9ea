package org.am2j.idle;

/**
 * A runnable count the test sets, counting how often it is read.
 */
final class ScriptedProbe implements RunnableProbe
{
    int runnable;
    final int cpus;
    int reads;

    ScriptedProbe(final int runnable, final int cpus)
    {
        this.runnable = runnable;
        this.cpus = cpus;
    }

    @Override
    public int runnable()
    {
        reads++;
        return runnable;
    }

    @Override
    public int cpus()
    {
        return cpus;
    }
}
