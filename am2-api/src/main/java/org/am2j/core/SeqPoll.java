package org.am2j.core;

import java.util.ArrayList;
import java.util.List;

import org.am2j.core.stats.ProtocolCounters;
import org.am2j.spi.PollScheduler;
import org.am2j.spi.ReceiveQueues;

/**
 * The poll of a SEQ bundle: one flat loop over the receive queues of all its endpoints' local transports, then the
 * network when the scheduler says so.
 * <p>
 * One thread at a time polls a SEQ bundle (its thread guard, taken once per {@code poll()} by the bundle, checks it),
 * so nothing here takes a lock, an ownership or a thread-local. A turn of the loop asks each {@link ReceiveQueues}
 * of the {@linkplain Plan plan} whether it is idle (a virtual call on an array of one abstract type, which the JIT
 * binds to the shared-memory and in-process classes and inlines: no interface call per turn) and enters
 * {@link #receive}, the one method that dispatches, only for queues that are not. An endpoint's in-process rings
 * join the plan only once a first sender has written to them ({@link ReceiveQueues#inUse()}). A transport whose
 * receive side is not typed is polled through its {@code poll} (none of the shipped local transports).
 * <p>
 * Statistics: the counters of a SEQ bundle's endpoints count in plain fields ({@link ProtocolCounters}), and the
 * polls of the loop are counted here, once per turn; both are published to the counters file never per message:
 * once in {@link ProtocolCounters#PUBLISH_INTERVAL} polls and sends, after {@link ProtocolCounters#IDLE_POLLS} empty
 * polls in a row that follow a poll that handled something (the bundle went idle: publishing then costs only time
 * the owner would spend waiting), before {@code waitSema()} sleeps, and before an endpoint leaves the bundle. So
 * {@code bin/am2j stat} lags a busy endpoint by fewer than that many polls and sends, and one that stopped after a
 * burst by {@link ProtocolCounters#IDLE_POLLS} polls.
 */
final class SeqPoll
{
    private static final ReceiveQueues[] NO_QUEUES = new ReceiveQueues[0];
    private static final Dispatcher[] NO_DISPATCHERS = new Dispatcher[0];
    private static final EndpointCore[] NO_ENDPOINTS = new EndpointCore[0];

    /**
     * What a turn polls, rebuilt (under the bundle's monitor, from any thread) when an endpoint joins or leaves the
     * bundle or an endpoint's receive queues come into use, and published with a volatile store; the loop reads it
     * once per poll.
     */
    static final class Plan
    {
        final EndpointCore[] endpoints;
        /** The typed receive queues of every endpoint's local transports, in-process first per endpoint. */
        final ReceiveQueues[] queues;
        /** The dispatcher of each of {@link #queues}, at the same index. */
        final Dispatcher[] dispatchers;
        /** Local transports without typed receive queues, polled through their {@code poll}. */
        final Dispatcher[] untyped;

        Plan(final EndpointCore[] endpoints)
        {
            final List<ReceiveQueues> queues = new ArrayList<>();
            final List<Dispatcher> dispatchers = new ArrayList<>();
            final List<Dispatcher> untyped = new ArrayList<>();
            for (final EndpointCore endpoint : endpoints)
            {
                for (final Dispatcher dispatcher : endpoint.poller.local())
                {
                    final ReceiveQueues receiveQueues = dispatcher.transportQueues.receiveQueues();
                    if (null == receiveQueues)
                    {
                        untyped.add(dispatcher);
                    }
                    else if (receiveQueues.inUse())
                    {
                        queues.add(receiveQueues);
                        dispatchers.add(dispatcher);
                    }
                }
            }
            this.endpoints = endpoints;
            this.queues = queues.toArray(NO_QUEUES);
            this.dispatchers = dispatchers.toArray(NO_DISPATCHERS);
            this.untyped = untyped.toArray(NO_DISPATCHERS);
        }
    }

    private final PollScheduler scheduler;
    private final boolean hasNetwork;
    private volatile Plan plan = new Plan(NO_ENDPOINTS);

    /** The plan the counts since the last publish() were made under (the owner's view). */
    private Plan current = plan;
    /** Turns of the loop since the last publish(): each is one poll of every queue of {@link #current}. */
    private long turns;
    /** Polls and sends since the last publish(). */
    private int unpublished;
    /** Empty polls in a row since a poll that handled something, while its counts are unpublished; -1 when none. */
    private int idleRun = -1;

    SeqPoll(final PollScheduler scheduler, final boolean hasNetwork)
    {
        this.scheduler = scheduler;
        this.hasNetwork = hasNetwork;
    }

    /**
     * Make a new plan for these endpoints, when an endpoint's receive queues came into use. Called under the bundle's
     * monitor, from any thread: the owner adopts it at its next poll.
     *
     * @param endpoints the bundle's endpoints.
     */
    void plan(final EndpointCore[] endpoints)
    {
        // Volatile store: the owner's next poll reads a complete plan.
        plan = new Plan(endpoints);
    }

    /**
     * Make a new plan for these endpoints, when one joins or leaves the bundle. Called under the bundle's monitor by
     * the owner (the thread guard is held): the counts so far are published under the old plan first, so an
     * endpoint that leaves takes them along.
     *
     * @param endpoints the bundle's endpoints.
     */
    void replan(final EndpointCore[] endpoints)
    {
        publish();
        final Plan next = new Plan(endpoints);
        current = next;
        plan = next;
    }

    /**
     * One poll: every local receive queue once, then the network if the scheduler gives it a budget.
     *
     * @param context     of the owner thread.
     * @param repliesOnly true for a reply waiting for queue space: only reply queues are polled.
     * @return messages handled.
     */
    int poll(final DispatchContext context, final boolean repliesOnly)
    {
        final Plan plan = this.plan;
        if (plan != current)
        {
            adopt(plan);
        }
        int handled = 0;
        final ReceiveQueues[] queues = plan.queues;
        for (int i = 0; i < queues.length; i++)
        {
            if (!queues[i].idle(repliesOnly))
            {
                handled += receive(plan, i, context, repliesOnly);
            }
        }
        final Dispatcher[] untyped = plan.untyped;
        for (int i = 0; i < untyped.length; i++)
        {
            handled += untyped[i].pollShared(context, BundleCore.POLL_BUDGET, repliesOnly);
        }
        turns++;
        // Asked after the local polls: a handler that throws there leaves the scheduler untouched, where asking first
        // would have counted a network poll it never heard the end of.
        final int networkBudget = hasNetwork ? scheduler.networkBudget(BundleCore.POLL_BUDGET) : 0;
        if (0 != networkBudget)
        {
            handled += pollNetwork(plan, context, networkBudget, repliesOnly);
        }
        if (++unpublished >= ProtocolCounters.PUBLISH_INTERVAL)
        {
            publish();
        }
        else if (0 != handled)
        {
            idleRun = 0;
        }
        else if (idleRun >= 0 && ++idleRun >= ProtocolCounters.IDLE_POLLS)
        {
            publish();
        }
        return handled;
    }

    /**
     * The dispatch of one turn, entered only when a queue is not idle.
     */
    private static int receive(
        final Plan plan, final int index, final DispatchContext context, final boolean repliesOnly)
    {
        final Dispatcher dispatcher = plan.dispatchers[index];
        dispatcher.useContext(context);
        return plan.queues[index].receive(dispatcher, BundleCore.POLL_BUDGET, repliesOnly);
    }

    private int pollNetwork(
        final Plan plan, final DispatchContext context, final int networkBudget, final boolean repliesOnly)
    {
        int found = 0;
        try
        {
            for (final EndpointCore endpoint : plan.endpoints)
            {
                found += endpoint.poller.pollNetwork(context, networkBudget, repliesOnly);
            }
        }
        finally
        {
            scheduler.networkPolled(found);
        }
        return found;
    }

    /**
     * A request was sent by the owner: counts towards the publication bound, so a program that sends and never
     * polls still has its counts published.
     */
    void sent()
    {
        if (++unpublished >= ProtocolCounters.PUBLISH_INTERVAL)
        {
            publish();
        }
    }

    /**
     * Publish the counts of the bundle's endpoints to the counters file: the polls of the turns since the last
     * publish, then every plain count. Called by the owner thread.
     */
    void publish()
    {
        unpublished = 0;
        idleRun = -1;
        final Plan plan = current;
        final long turns = this.turns;
        if (0 != turns)
        {
            this.turns = 0;
            for (final Dispatcher dispatcher : plan.dispatchers)
            {
                dispatcher.counters.onPolls(turns);
            }
        }
        for (final EndpointCore endpoint : plan.endpoints)
        {
            endpoint.counters.publish();
        }
    }

    private void adopt(final Plan plan)
    {
        // The turns so far were made under the old plan: counted for its queues before switching.
        publish();
        current = plan;
    }
}
