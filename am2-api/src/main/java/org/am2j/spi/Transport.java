package org.am2j.spi;

import org.am2j.api.EndpointName;
import org.agrona.concurrent.AtomicBuffer;

/**
 * One protocol of a process: in-process, shared memory or the network. It creates its part of each endpoint
 * ({@link TransportQueues}) and routes to the names it can reach.
 * <p>
 * <b>Routing.</b> When a translation table entry is mapped, the core asks the transports in increasing
 * {@link #cost()} order to connect to the name; the first that can carries every request sent through the entry.
 * <p>
 * <b>Polling.</b> Local transports ({@link #isNetwork()} false) are polled by every poll; network transports when the
 * bundle's {@link PollScheduler} says so.
 * <p>
 * <b>Blocking.</b> A transport that can put a thread to sleep until its own traffic arrives ({@link #canBlock()})
 * is used by {@code waitSema()}; every other transport wakes the sleeper through {@link EndpointHost#signalArrival()}.
 */
public interface Transport extends AutoCloseable
{
    /**
     * @return the provider's name.
     */
    String name();

    /**
     * @return routing preference: lower is cheaper (in-process 0, shared memory 10, network 100).
     */
    int cost();

    /**
     * @return true for an expensive-to-poll network transport, polled under the poll scheduler.
     */
    boolean isNetwork();

    /**
     * @param name of an endpoint.
     * @return true when this transport can carry messages to it from this process.
     */
    boolean canReach(EndpointName name);

    /**
     * Create this transport's part of a new endpoint.
     *
     * @param host the endpoint's core.
     * @return the transport endpoint.
     * @throws org.am2j.api.AmException {@link org.am2j.api.AmError#RESOURCE} when it cannot be created.
     */
    TransportQueues attach(EndpointHost host);

    /**
     * Allocate segment memory this transport can deposit long messages into directly (for shared memory: a mapped
     * file peers can map too).
     *
     * @param host   the endpoint the segment is for.
     * @param length of the segment in bytes.
     * @return the segment, or null when this transport has no special memory (the core then allocates it).
     */
    AtomicBuffer allocateSegment(EndpointHost host, int length);

    /**
     * The work of a poll that belongs to the whole process rather than to an endpoint (the shared-memory transport
     * rings here the doorbells its senders kept while the CPUs are oversubscribed): made once per poll of a bundle,
     * before any of its endpoints' queues are looked at, however many endpoints the bundle has. Called for local
     * transports ({@link #isNetwork()} false) by whichever thread polls, several at once when several bundles poll;
     * on the hot path, so it allocates nothing and costs a read and a compare when there is nothing to do. Default:
     * nothing.
     */
    default void beforePoll()
    {
    }

    /**
     * A thread of this process is about to sleep in {@code waitSema()}, in the blocker or parked: send what this
     * transport holds back for a batch (an inline NIC's held direct sends), since the sleeper's peers may be waiting
     * for it and no poll of the sleeper's will come to send it. Any thread, several at once; costs a read when nothing
     * is held. Default: nothing.
     */
    default void beforeSleep()
    {
    }

    /**
     * @return true when {@link #block(long, long)} can sleep until this transport's traffic arrives.
     */
    boolean canBlock();

    /**
     * First step of a sleep: read whatever a later {@link #wakeup()} or arriving message will change (a doorbell's
     * sequence number), before the sleeper publishes its sleeping flags and checks its queues one last time. Only
     * called when {@link #canBlock()}.
     *
     * @return the ticket to hand to {@link #block(long, long)}.
     */
    long prepareBlock();

    /**
     * Sleep until this transport sees traffic for an endpoint of this process, {@link #wakeup()} is called, or the
     * time passes. Returns at once when anything happened since {@link #prepareBlock()} returned the ticket, so no
     * wake-up between the sleeper's last check and this call is lost. Only called when {@link #canBlock()}.
     *
     * @param ticket from {@link #prepareBlock()}.
     * @param nanos  longest sleep.
     */
    void block(long ticket, long nanos);

    /**
     * Wake a thread sleeping in {@link #block(long, long)}; harmless when none sleeps.
     */
    void wakeup();

    /**
     * @return how another process wakes a thread asleep in {@link #block(long, long)} when this transport is the
     * process's blocker, for the other transports' senders: {@code udp:host:port} (send any one-byte datagram
     * there), or null when only this transport's own senders can (a futex doorbell).
     */
    default String wakeAddress()
    {
        return null;
    }

    /**
     * Another transport is the process's blocker: when a sender of this transport wakes a sleeping endpoint of this
     * process, it must also use this address (see {@link #wakeAddress()}). Called once, before any endpoint exists.
     *
     * @param address the blocker's wake address.
     */
    default void blockerWakeAddress(final String address)
    {
    }

    /**
     * A process this one may talk to is gone: the job's rendezvous lost its rank, or its launcher reaped it. A
     * transport that keeps messages outstanding until a peer answers (the network's) resolves those sent to it: what
     * may have run there comes back with {@link org.am2j.api.ReturnStatus#EOUTCOMEUNKNOWN}, what never left with a
     * not-delivered status. Any thread; must not block. Default: nothing (a transport that judges liveness itself).
     *
     * @param processId the gone process's {@link org.am2j.api.EndpointName#processId()}.
     */
    default void processGone(final long processId)
    {
    }

    /**
     * Release the transport's resources: called at process exit after every endpoint is closed.
     */
    @Override
    void close();
}
