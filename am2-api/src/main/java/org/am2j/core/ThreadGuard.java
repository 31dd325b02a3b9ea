package org.am2j.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Enforces the SEQ contract: one thread at a time inside a bundle. A thread owns the bundle from its first call;
 * another thread may take it over between calls, but a call while the owner is inside throws
 * {@link AmError#IN_USE}. The owner's fast path is a plain read and a release store.
 * <p>
 * Detection is for diagnosis: two threads racing into an idle bundle at the same instant may both pass. The guard
 * never blocks and never makes a correct program fail.
 */
final class ThreadGuard
{
    private static final VarHandle OWNER;
    private static final VarHandle INSIDE;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(ThreadGuard.class, "owner", Thread.class);
            INSIDE = lookup.findVarHandle(ThreadGuard.class, "inside", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final boolean enforced;
    private volatile Thread owner;
    private volatile int inside;
    private int depth;

    /**
     * @param enforced false for a PAR bundle: every call passes.
     */
    ThreadGuard(final boolean enforced)
    {
        this.enforced = enforced;
    }

    /**
     * Enter a call.
     *
     * @param call the public call, for the message.
     */
    void enter(final String call)
    {
        if (enforced)
        {
            final Thread thread = Thread.currentThread();
            if (owner != thread)
            {
                takeOver(thread, call);
            }
            if (depth++ == 0)
            {
                // Release store: a thread that later sees inside == 0 also sees every write this owner made inside.
                INSIDE.setRelease(this, 1);
            }
        }
    }

    /**
     * Leave a call entered with {@link #enter(String)}.
     */
    void exit()
    {
        if (enforced && --depth == 0)
        {
            // Release store: publishes that the owner is outside, so another thread may take the bundle over.
            INSIDE.setRelease(this, 0);
        }
    }

    private void takeOver(final Thread thread, final String call)
    {
        final Thread current = owner;
        if (null != current && 0 != (int)INSIDE.getVolatile(this))
        {
            throw busy(thread, current, call);
        }
        // CAS: ownership changes hands only from the owner we saw outside the bundle; losing means another thread
        // took it at the same moment.
        if (!OWNER.compareAndSet(this, current, thread))
        {
            throw busy(thread, owner, call);
        }
        depth = 0;
    }

    private static AmException busy(final Thread thread, final Thread current, final String call)
    {
        return new AmException(AmError.IN_USE, "SEQ bundle: thread '" + thread.getName() + "' called " + call +
            " while thread '" + (null == current ? "?" : current.getName()) +
            "' is inside the bundle; use BundleKind.PAR for concurrent threads");
    }
}
