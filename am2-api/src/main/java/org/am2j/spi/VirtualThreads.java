package org.am2j.spi;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Whether a thread is virtual ({@code Thread.isVirtual()}, Java 21 and later; on Java 17 no thread is). A virtual
 * thread must not sleep in native code: a futex wait through JNA pins its carrier, and two pinned carriers can stop
 * every virtual thread of the JVM. So a virtual sleeper never sleeps in the process's blocker: a platform thread of
 * the core sleeps there for it, and a transport whose {@link Transport#block} waits in native code refuses a virtual
 * caller.
 */
public final class VirtualThreads
{
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private VirtualThreads()
    {
    }

    private static MethodHandle isVirtualHandle()
    {
        try
        {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                MethodType.methodType(boolean.class));
        }
        catch (final NoSuchMethodException | IllegalAccessException ex)
        {
            return null;
        }
    }

    /**
     * @param thread a thread.
     * @return true when it is a virtual thread.
     */
    public static boolean isVirtual(final Thread thread)
    {
        if (null == IS_VIRTUAL)
        {
            return false;
        }
        try
        {
            return (boolean)IS_VIRTUAL.invokeExact(thread);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("Thread.isVirtual() failed", ex);
        }
    }
}
