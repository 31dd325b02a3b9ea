package org.am2j.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The polls of one endpoint: the local poll (the in-process transport, then shared memory), the network poll, and,
 * for a PAR bundle, the poll ownership that lets one thread at a time read the endpoint's queues (each has a single
 * consumer). Also what {@code waitSema()} asks of the endpoint: whether a message waits, and the sleeping flags.
 * <p>
 * A SEQ bundle calls {@link #pollLocal} and {@link #pollNetwork} directly: one thread at a time by contract, checked
 * by the bundle's thread guard. A PAR bundle calls {@link #poll}, which takes the ownership first.
 */
final class Poller
{
    private static final VarHandle OWNER;

    static
    {
        try
        {
            OWNER = MethodHandles.lookup().findVarHandle(Poller.class, "owner", Thread.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** The in-process transport's dispatcher: the first transport of every endpoint. */
    private final Dispatcher inProcess;
    /** The dispatchers of the local transports other than the in-process one. */
    private final Dispatcher[] shared;
    /** The dispatchers of the network transports. */
    private final Dispatcher[] network;
    private final Dispatcher[] all;
    /** The in-process dispatcher, then the other local ones. */
    private final Dispatcher[] local;

    /** The thread that reads this endpoint's queues in a PAR bundle, or null. */
    private volatile Thread owner;

    Poller(final Dispatcher[] all, final Dispatcher[] shared, final Dispatcher[] network)
    {
        this.all = all;
        this.inProcess = all[0];
        this.shared = shared;
        this.network = network;
        this.local = new Dispatcher[1 + shared.length];
        local[0] = inProcess;
        System.arraycopy(shared, 0, local, 1, shared.length);
    }

    /**
     * @return the dispatchers of the local transports, in-process first; not to be modified.
     */
    Dispatcher[] local()
    {
        return local;
    }

    /**
     * Poll this endpoint's transports for a PAR bundle, under the endpoint's poll ownership.
     *
     * @param context       of the polling thread.
     * @param budget        messages per local transport.
     * @param networkBudget messages per network transport, 0 to skip them.
     * @param repliesOnly   poll reply queues only.
     * @return messages handled.
     */
    int poll(final DispatchContext context, final int budget, final int networkBudget, final boolean repliesOnly)
    {
        final boolean owned = owner != Thread.currentThread();
        if (owned && !tryOwn())
        {
            return 0;
        }
        try
        {
            int handled = pollLocal(context, budget, repliesOnly);
            if (networkBudget > 0)
            {
                final int found = pollNetwork(context, networkBudget, repliesOnly);
                context.networkFound += found;
                handled += found;
            }
            return handled;
        }
        finally
        {
            if (owned)
            {
                disown();
            }
        }
    }

    /**
     * The local poll: in-process first (AmRuntime keeps it the cheapest), then shared memory. Takes no poll
     * ownership.
     *
     * @param context     of the polling thread.
     * @param budget      messages per transport.
     * @param repliesOnly poll reply queues only.
     * @return messages handled.
     */
    int pollLocal(final DispatchContext context, final int budget, final boolean repliesOnly)
    {
        int handled = inProcess.pollInProcess(context, budget, repliesOnly);
        for (final Dispatcher dispatcher : shared)
        {
            handled += dispatcher.pollShared(context, budget, repliesOnly);
        }
        return handled;
    }

    /**
     * The network poll, for a bundle whose scheduler chose to poll the network; takes no poll ownership.
     *
     * @param context     of the polling thread.
     * @param budget      messages per network transport.
     * @param repliesOnly poll reply queues only.
     * @return messages handled.
     */
    int pollNetwork(final DispatchContext context, final int budget, final boolean repliesOnly)
    {
        int found = 0;
        for (final Dispatcher dispatcher : network)
        {
            found += dispatcher.pollNetwork(context, budget, repliesOnly);
        }
        return found;
    }

    /**
     * @return true when a message waits in any transport (before sleeping).
     */
    boolean hasPending()
    {
        for (final Dispatcher dispatcher : all)
        {
            if (dispatcher.transportQueues.hasPending())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Publish to every transport whether the owner is about to sleep.
     */
    void sleeping(final boolean sleeping)
    {
        for (final Dispatcher dispatcher : all)
        {
            dispatcher.transportQueues.sleeping(sleeping);
        }
    }

    /**
     * @return true when the calling thread now owns the poll; false when another thread does.
     */
    boolean tryOwn()
    {
        // CAS: one thread at a time reads this endpoint's queues (they have a single consumer); a thread that loses
        // returns at once, the winner is making the progress.
        return OWNER.compareAndSet(this, null, Thread.currentThread());
    }

    /**
     * Take the poll ownership, waiting for a thread that holds it to finish its poll.
     *
     * @return true when taken here, false when the calling thread held it already.
     */
    boolean own()
    {
        if (owner == Thread.currentThread())
        {
            return false;
        }
        int attempt = 0;
        while (!tryOwn())
        {
            attempt = Backoff.idle(attempt);
        }
        return true;
    }

    /**
     * Give up the poll ownership taken by {@link #tryOwn()} or {@link #own()}.
     */
    void disown()
    {
        // Release store: the queues' consumer positions written while polling are visible to the next owner.
        OWNER.setRelease(this, null);
    }
}
