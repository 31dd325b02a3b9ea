package org.am2j.core;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EventMask;
import org.am2j.spi.PollScheduler;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportQueues;

/**
 * A bundle: its endpoints, its poll scheduler, its event mask and the thread sleeping in {@link #waitSema()}.
 */
final class BundleCore implements Bundle, BlockerSeat.Sleeper
{
    /** Messages one poll accepts from one local queue. */
    static final int POLL_BUDGET = TransportQueues.BASE_POLL_BUDGET;

    /** Longest single sleep in waitSema: a safety net against a transport that forgets to wake the sleeper. */
    private final long sleepSliceNanos;

    private final AmRuntime runtime;
    private final BundleKind kind;
    private final ThreadGuard guard;
    private final PollScheduler scheduler;
    /** Who of the process's sleepers sleeps in its blocker. */
    private final BlockerSeat seat;
    /** The process's local transports: each makes its process-wide part of a poll once per poll of this bundle. */
    private final Transport[] localTransports;
    private final boolean pollBeforeSend;

    /** A SEQ bundle: polls take no locks and no poll ownership, and call the scheduler directly. */
    private final boolean seq;
    /** The process has network transports: polls ask the scheduler. */
    private final boolean hasNetwork;
    /** A SEQ bundle's poll; null for a PAR bundle. */
    private final SeqPoll seqPoll;
    private volatile EndpointCore[] endpoints = new EndpointCore[0];
    private volatile EventMask eventMask = EventMask.NOEVENTS;
    private volatile Thread waiter;
    private volatile boolean closed;

    BundleCore(final AmRuntime runtime, final BundleKind kind, final PollScheduler scheduler)
    {
        this.runtime = runtime;
        this.sleepSliceNanos = runtime.sleepSliceNanos();
        this.kind = kind;
        this.guard = new ThreadGuard(BundleKind.SEQ == kind);
        this.scheduler = scheduler;
        this.seat = runtime.blockerSeat();
        this.localTransports = runtime.localTransports();
        this.pollBeforeSend = runtime.pollBeforeSend();
        this.seq = BundleKind.SEQ == kind;
        this.hasNetwork = runtime.hasNetwork();
        this.seqPoll = seq ? new SeqPoll(scheduler, hasNetwork) : null;
    }

    @Override
    public BundleKind kind()
    {
        return kind;
    }

    boolean isSeq()
    {
        return BundleKind.SEQ == kind;
    }

    @Override
    public Endpoint allocateEndpoint()
    {
        enter("allocateEndpoint");
        try
        {
            checkOpen();
            final EndpointCore endpoint = runtime.newEndpoint(this);
            add(endpoint);
            return endpoint;
        }
        finally
        {
            exit();
        }
    }

    @Override
    public void moveEndpoint(final Endpoint endpoint)
    {
        enter("moveEndpoint");
        try
        {
            checkOpen();
            AmException.checkNotNull("endpoint", endpoint);
            if (!(endpoint instanceof EndpointCore) || endpoint.isClosed())
            {
                throw new AmException(AmError.BAD_ARG, "endpoint must be an open endpoint of this process, got " +
                    endpoint);
            }
            final EndpointCore core = (EndpointCore)endpoint;
            final BundleCore from = (BundleCore)core.bundle();
            if (from == this)
            {
                return;
            }
            if (0 != DispatchContext.current().depth)
            {
                throw new AmException(AmError.BAD_ARG, "endpoints may not be moved from inside a handler");
            }
            from.enter("moveEndpoint");
            try
            {
                from.remove(core);
                core.movedTo(this);
                add(core);
            }
            finally
            {
                from.exit();
            }
        }
        finally
        {
            exit();
        }
    }

    @Override
    public List<Endpoint> endpoints()
    {
        return List.of(endpoints);
    }

    @Override
    public int poll()
    {
        final DispatchContext context = guard.enterWithContext("poll");
        try
        {
            checkOpen();
            if (0 != context.depth)
            {
                throw new AmException(AmError.BAD_ARG, "poll() may not be called from inside a handler");
            }
            return pollEndpoints(context, false);
        }
        finally
        {
            exit();
        }
    }

    /**
     * @return true when a request polls the bundle before it is sent (the paper's send; {@code am2j.pollBeforeSend}).
     */
    boolean pollsBeforeSend()
    {
        return pollBeforeSend;
    }

    /**
     * Poll on behalf of a sender waiting for queue space; handlers run one level deeper than the caller.
     *
     * @param context     of the calling thread.
     * @param repliesOnly true for a reply waiting for space: only reply queues are polled.
     * @return messages handled.
     */
    int pollForProgress(final DispatchContext context, final boolean repliesOnly)
    {
        return pollEndpoints(context, repliesOnly);
    }

    private int pollEndpoints(final DispatchContext context, final boolean repliesOnly)
    {
        // What is process-wide in a poll (the doorbells the shared-memory transport owes sleepers) is done here,
        // once per poll whatever the number of endpoints, before any endpoint's queues are looked at.
        final Transport[] local = localTransports;
        for (int i = 0; i < local.length; i++)
        {
            local[i].beforePoll();
        }
        // Small, for the compiler to inline into poll(): a SEQ bundle's flat loop, or a PAR bundle's locked path.
        return seq ? seqPoll.poll(context, repliesOnly) : pollAllEndpoints(context, repliesOnly);
    }

    /**
     * The owner sent a request: a SEQ bundle counts it towards the publication bound of its statistics.
     */
    void sent()
    {
        final SeqPoll poll = seqPoll;
        if (null != poll)
        {
            poll.sent();
        }
    }

    /**
     * Publish a SEQ bundle's statistics to the counters file now; called by the owner (nothing to do for PAR).
     */
    void publishStatistics()
    {
        final SeqPoll poll = seqPoll;
        if (null != poll)
        {
            poll.publish();
        }
    }

    /**
     * An endpoint's receive queues came into use (a first in-process sender): the next SEQ poll looks at them. Any
     * thread.
     */
    synchronized void receiveQueuesChanged()
    {
        if (null != seqPoll)
        {
            seqPoll.plan(endpoints);
        }
    }

    /**
     * A PAR bundle's poll: the scheduler under its lock, each endpoint under its poll ownership.
     */
    private int pollAllEndpoints(final DispatchContext context, final boolean repliesOnly)
    {
        final EndpointCore[] polled = endpoints;
        final int networkBudget;
        if (!hasNetwork)
        {
            networkBudget = 0;
        }
        else
        {
            synchronized (scheduler)
            {
                networkBudget = scheduler.networkBudget(POLL_BUDGET);
            }
        }

        final int outerFound = context.networkFound;
        context.networkFound = 0;
        int handled = 0;
        try
        {
            for (final EndpointCore endpoint : polled)
            {
                handled += endpoint.poller.poll(context, POLL_BUDGET, networkBudget, repliesOnly);
            }
        }
        finally
        {
            if (networkBudget > 0)
            {
                synchronized (scheduler)
                {
                    scheduler.networkPolled(context.networkFound);
                }
            }
            context.networkFound = outerFound;
        }
        return handled;
    }

    @Override
    public void eventMask(final EventMask mask)
    {
        enter("eventMask");
        try
        {
            checkOpen();
            eventMask = AmException.checkNotNull("mask", mask);
        }
        finally
        {
            exit();
        }
    }

    @Override
    public EventMask eventMask()
    {
        return eventMask;
    }

    @Override
    public void waitSema()
    {
        await(Long.MAX_VALUE);
    }

    @Override
    public boolean waitSema(final long timeout, final TimeUnit unit)
    {
        AmException.checkNotNull("unit", unit);
        if (timeout < 0)
        {
            throw new AmException(AmError.BAD_ARG, "timeout = " + timeout + " is outside [0, " + Long.MAX_VALUE + "]");
        }
        return await(unit.toNanos(timeout));
    }

    private boolean await(final long timeoutNanos)
    {
        enter("waitSema");
        try
        {
            checkOpen();
            if (EventMask.NOTEMPTY != eventMask)
            {
                throw new AmException(AmError.BAD_ARG, "waitSema() with event mask " + eventMask +
                    " would wait forever; set EventMask.NOTEMPTY first");
            }
            if (0 != DispatchContext.current().depth)
            {
                throw new AmException(AmError.BAD_ARG, "waitSema() may not be called from inside a handler");
            }
            // Sleeping may last: what was counted so far is published first.
            publishStatistics();
            final boolean signalled = sleepUntilPending(timeoutNanos);
            if (signalled)
            {
                eventMask = EventMask.NOEVENTS;
            }
            return signalled;
        }
        finally
        {
            exit();
        }
    }

    private boolean sleepUntilPending(final long timeoutNanos)
    {
        final long start = System.nanoTime();
        final EndpointCore[] sleepers = endpoints;
        // Published before the seat is asked for: a holder that leaves it then sees this sleeper (BlockerSeat.leave).
        final Thread self = Thread.currentThread();
        waiter = self;
        try
        {
            while (true)
            {
                final boolean seated = seat.trySeat(self);
                // The ticket is read before the flags are published and the queues checked: anything that
                // happens after this point changes it, and block() then returns at once.
                final long ticket = seated ? seat.prepareBlock() : 0;
                for (final EndpointCore endpoint : sleepers)
                {
                    endpoint.poller.sleeping(true);
                }
                // The sleeping flags were published (volatile stores) before this check: a sender that queued a
                // message we do not see here must see a flag and wake us, so no wake-up is lost.
                if (anyPending(sleepers))
                {
                    return true;
                }
                if (closed)
                {
                    throw new AmException(AmError.NOT_INIT, "bundle closed while waiting in waitSema()");
                }
                final long remaining = timeoutNanos == Long.MAX_VALUE ?
                    sleepSliceNanos : timeoutNanos - (System.nanoTime() - start);
                if (remaining <= 0)
                {
                    return false;
                }
                final long slice = Math.min(remaining, sleepSliceNanos);
                // What this thread's sends left held for a batch goes out now: a poll that skipped the network left
                // it there, and the peer it is for may be what this sleep waits on.
                seat.beforeSleep();
                if (seated)
                {
                    seat.block(this, ticket, slice);
                }
                else
                {
                    LockSupport.parkNanos(this, slice);
                }
            }
        }
        finally
        {
            for (final EndpointCore endpoint : sleepers)
            {
                endpoint.poller.sleeping(false);
            }
            waiter = null;
            seat.leave(self, this);
        }
    }

    private static boolean anyPending(final EndpointCore[] sleepers)
    {
        for (final EndpointCore endpoint : sleepers)
        {
            if (endpoint.poller.hasPending())
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean unparkSleeper()
    {
        final Thread sleeper = waiter;
        if (null == sleeper)
        {
            return false;
        }
        LockSupport.unpark(sleeper);
        return true;
    }

    @Override
    public void unparkIfPending()
    {
        final Thread sleeper = waiter;
        if (null == sleeper)
        {
            return;
        }
        boolean pending;
        try
        {
            pending = anyPending(endpoints);
        }
        catch (final RuntimeException ex)
        {
            // The owner woke meanwhile and changed what the check reads: it runs, and will find its work itself.
            pending = true;
        }
        if (pending)
        {
            LockSupport.unpark(sleeper);
        }
    }

    /**
     * Wake the thread sleeping in {@link #waitSema()}, if any.
     */
    void wakeup()
    {
        final Thread sleeper = waiter;
        if (null != sleeper)
        {
            // One system call either way: a thread asleep in the blocker is not parked, so the unpark only leaves
            // it a permit; a parked one is not in the blocker.
            LockSupport.unpark(sleeper);
            if (seat.heldBy(sleeper))
            {
                seat.wakeBlocker();
            }
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        enter("Bundle.close");
        try
        {
            if (0 != DispatchContext.current().depth)
            {
                throw new AmException(AmError.BAD_ARG, "a bundle may not be freed from inside a handler");
            }
            close(true);
            runtime.bundleClosed(this);
        }
        finally
        {
            exit();
        }
    }

    /**
     * Close at process exit, from the shutdown thread: the thread guard is not consulted, since the owner may be
     * stopped anywhere.
     */
    void closeAtExit()
    {
        close(false);
    }

    /**
     * @param returnQueued true when the owner frees the bundle: the messages queued for its endpoints go back to
     *                     their senders; false at exit, when the owner may be in the middle of a poll.
     */
    private void close(final boolean returnQueued)
    {
        closed = true;
        final EndpointCore[] closing;
        synchronized (this)
        {
            closing = endpoints;
            endpoints = new EndpointCore[0];
            if (null != seqPoll)
            {
                if (returnQueued)
                {
                    // The owner: the counts so far are published, then its polls (a returned message waiting for
                    // space) look at no endpoint being closed.
                    seqPoll.replan(endpoints);
                }
                else
                {
                    // The shutdown thread: the owner's counts are its own (each endpoint's close publishes them).
                    seqPoll.plan(endpoints);
                }
            }
        }
        for (final EndpointCore endpoint : closing)
        {
            endpoint.closeFromBundle(returnQueued);
        }
        wakeup();
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    public String toString()
    {
        return "Bundle[" + kind + ", " + endpoints.length + " endpoints, poll " + scheduler.describe() +
            (closed ? ", closed" : "") + "]";
    }

    void enter(final String call)
    {
        guard.enter(call);
    }

    DispatchContext enterWithContext(final String call)
    {
        return guard.enterWithContext(call);
    }

    void exit()
    {
        guard.exit();
    }

    private synchronized void add(final EndpointCore endpoint)
    {
        final EndpointCore[] current = endpoints;
        final EndpointCore[] grown = Arrays.copyOf(current, current.length + 1);
        grown[current.length] = endpoint;
        // Volatile store of a new array: pollers iterate a consistent snapshot without a lock.
        endpoints = grown;
        if (null != seqPoll)
        {
            seqPoll.replan(grown);
        }
    }

    synchronized void remove(final EndpointCore endpoint)
    {
        final EndpointCore[] current = endpoints;
        int index = -1;
        for (int i = 0; i < current.length; i++)
        {
            if (current[i] == endpoint)
            {
                index = i;
                break;
            }
        }
        if (index >= 0)
        {
            final EndpointCore[] shrunk = new EndpointCore[current.length - 1];
            System.arraycopy(current, 0, shrunk, 0, index);
            System.arraycopy(current, index + 1, shrunk, index, current.length - index - 1);
            endpoints = shrunk;
            if (null != seqPoll)
            {
                seqPoll.replan(shrunk);
            }
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new AmException(AmError.NOT_INIT, "bundle is closed");
        }
    }
}
