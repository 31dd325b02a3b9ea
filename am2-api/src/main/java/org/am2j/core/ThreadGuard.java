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
 * <p>
 * The guard of a SEQ bundle also keeps its owner's {@link DispatchContext}, so that the owner's calls find it without
 * a {@link ThreadLocal} look-up ({@link #enterWithContext(String)}). The cached context is used only by the thread it
 * belongs to: even two threads that raced past the guard each get their own.
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
     * The context of the thread that last took the bundle over. Plain field: written by that thread, and read by any
     * thread that enters, which uses it only when it is its own ({@link DispatchContext#thread}), so a stale or racy
     * read costs a look-up, never a wrong context.
     */
    private DispatchContext ownerContext;

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
     * Enter a call that needs the calling thread's dispatch context.
     *
     * @param call the public call, for the message.
     * @return the calling thread's context: for a SEQ bundle its owner's, cached; for a PAR bundle from the
     * thread-local.
     */
    DispatchContext enterWithContext(final String call)
    {
        if (!enforced)
        {
            return DispatchContext.current();
        }
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
        final DispatchContext context = ownerContext;
        return null != context && context.thread == thread ? context : cacheContext();
    }

    private DispatchContext cacheContext()
    {
        final DispatchContext context = DispatchContext.current();
        ownerContext = context;
        return context;
    }

    /**
     * Leave a call entered with {@link #enter(String)} or {@link #enterWithContext(String)}.
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
