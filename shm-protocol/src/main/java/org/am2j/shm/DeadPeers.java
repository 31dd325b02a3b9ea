package org.am2j.shm;

import java.util.List;

import org.am2j.spi.EndpointHost;
import org.am2j.spi.MessageSink;
import org.am2j.spi.TransportCounters;

/**
 * An endpoint's part in finding dead peer processes and handing back what its routes sent them
 * (docs/shm-protocol.md, "A dead receiving process"):
 * <ul>
 *   <li>{@link #watch()}, now and then from the poll's periodic path and before each sleep slice: a route whose
 *       destination's queues stalled (they hold messages and no head moved since the last watch), or whose owner a
 *       loss notice named, has its owner looked at ({@link PeerProcess#check}); a death found is told to every
 *       endpoint of the process ({@link ShmTransport#peerDied});</li>
 *   <li>{@link #settle}, from the poll once a death was told: each route into a dead process's blocks hands back
 *       what it sent there ({@link ShmRoute#settle}), to the endpoint's dispatcher, which runs handler 0.</li>
 * </ul>
 * Nothing here runs on the message path: the poll looks at {@link #pending()} once per call that found something or
 * was the periodic one, and {@code hasPending()} reports it so a sleeper wakes to poll.
 */
final class DeadPeers
{
    private static final ShmRoute[] NO_ROUTES = new ShmRoute[0];

    private final ShmTransport transport;
    private final EndpointHost host;
    /** The endpoint's routes (forward and inverse), guarded by the list itself. */
    private final List<ShmRoute> routes;
    private final TransportCounters counters;
    private final long watchIntervalNanos;
    /** A death was told and not all its routes were settled: the next poll settles. Written by any thread. */
    private volatile boolean pending;
    private long nextWatchNanos;
    private boolean settling;

    /**
     * @param transport the transport.
     * @param host      the endpoint's core.
     * @param routes    the endpoint's routes, guarded by the list.
     * @param counters  the endpoint's transport counters.
     */
    DeadPeers(
        final ShmTransport transport, final EndpointHost host, final List<ShmRoute> routes,
        final TransportCounters counters)
    {
        this.transport = transport;
        this.host = host;
        this.routes = routes;
        this.counters = counters;
        // Four watches per liveness timeout: a death is found within about half of it once its queues stall.
        this.watchIntervalNanos = Math.max(1, transport.config.livenessNanos / 4);
    }

    /**
     * A peer process died, or a message was published into a dead process's box after a pass looked: the next poll
     * settles, and a sleeping poller is woken for it. Any thread.
     */
    void peerDied()
    {
        pending = true;
        host.signalArrival();
    }

    /**
     * @return true when a poll has messages to hand back.
     */
    boolean pending()
    {
        return pending;
    }

    /**
     * Hand back what the endpoint's routes sent into the blocks of dead processes. Called by the endpoint's poller.
     *
     * @param sink the endpoint's dispatcher (or, while the endpoint is freed, its sink for returns).
     * @return messages handed back.
     */
    int settle(final MessageSink sink)
    {
        if (settling)
        {
            // Handler 0 of a message handed back polled: the outer call goes on.
            return 0;
        }
        settling = true;
        // Cleared before the pass: a request for another one made meanwhile (a box sender) is not lost.
        pending = false;
        boolean again = false;
        int handed = 0;
        try
        {
            final ShmRoute[] all;
            synchronized (routes)
            {
                // A copy: handler 0 runs inside the pass and may map a translation, adding a route.
                all = routes.toArray(NO_ROUTES);
            }
            for (final ShmRoute route : all)
            {
                if (route.owner().isDead() || route.abandoned())
                {
                    handed += route.settle(sink, counters);
                    again |= !route.settled();
                }
            }
        }
        finally
        {
            settling = false;
            if (again)
            {
                pending = true;
            }
        }
        return handed;
    }

    /**
     * Look at the owners of routes whose destination stalled or was named by a loss notice, at most once per quarter
     * liveness timeout. Called by the endpoint's poller (its periodic path, and before each sleep slice).
     */
    void watch()
    {
        final long now = System.nanoTime();
        if (now - nextWatchNanos < 0)
        {
            return;
        }
        nextWatchNanos = now + watchIntervalNanos;
        synchronized (routes)
        {
            // By index: a poll that must not allocate runs this now and then.
            for (int i = 0, n = routes.size(); i < n; i++)
            {
                final ShmRoute route = routes.get(i);
                final PeerProcess owner = route.owner();
                if (owner.isDead() || route.abandoned())
                {
                    if (!route.settled())
                    {
                        pending = true;
                    }
                    continue;
                }
                // The stall check first: it keeps the heads it saw for the next watch.
                final boolean stalled = route.stalled();
                if ((stalled || owner.isSuspect()) && owner.check(now))
                {
                    transport.peerDied(owner);
                }
                else if (stalled && !owner.isDead() && route.abandonUnderOpen(now))
                {
                    pending = true;
                    host.signalArrival();
                }
            }
        }
    }
}
