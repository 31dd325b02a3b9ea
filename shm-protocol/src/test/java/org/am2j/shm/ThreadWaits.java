package org.am2j.shm;

/**
 * Waits on what another thread is doing, for tests that would otherwise guess with a sleep. A thread asleep in a
 * native call (a futex, a selector) reads as RUNNABLE, so its state says nothing: its stack does.
 */
public final class ThreadWaits
{
    private ThreadWaits()
    {
    }

    /**
     * Wait until the thread runs inside the method, however long that takes (the caller's {@code @Timeout} bounds it).
     *
     * @param thread the thread to watch.
     * @param type   the class declaring the method.
     * @param method the method's name.
     * @throws InterruptedException when the test's timeout interrupts the wait.
     */
    public static void awaitInside(final Thread thread, final Class<?> type, final String method)
        throws InterruptedException
    {
        while (!inside(thread, type, method))
        {
            if (!thread.isAlive())
            {
                throw new AssertionError(thread.getName() + " ended before it reached " + type.getSimpleName() + "." +
                    method);
            }
            Thread.sleep(1);
        }
    }

    private static boolean inside(final Thread thread, final Class<?> type, final String method)
    {
        for (final StackTraceElement frame : thread.getStackTrace())
        {
            if (frame.getClassName().equals(type.getName()) && frame.getMethodName().equals(method))
            {
                return true;
            }
        }
        return false;
    }
}
