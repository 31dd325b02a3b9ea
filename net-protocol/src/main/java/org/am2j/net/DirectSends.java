package org.am2j.net;

import org.am2j.idle.CpuShare;

/**
 * Direct sends of an inline NIC: a message goes from the host's send straight into the window slot it leaves in (one
 * copy, no send-queue record, no drain) when the sending thread can take the NIC and its endpoint has nothing queued
 * on that channel; while the CPUs are oversubscribed such a message is held for its peer's batch and goes out with
 * the others at the next flush ({@link #flushHeld()}). A paced NIC ({@link LinkRate}) and a NIC on its own thread
 * make no direct sends: every message goes through the send queues.
 */
final class DirectSends
{
    private final boolean enabled;
    private final NicLock lock;
    private final SendQueues sendQueues;
    private final FrameWriter writer;
    private final NicCounters counters;
    private final NicClock clock;
    /** Whether the CPUs are oversubscribed, in which case direct sends are held for their peer's batch. */
    private CpuShare share = CpuShare.process();

    DirectSends(final boolean enabled, final NicLock lock, final SendQueues sendQueues, final FrameWriter writer,
        final NicCounters counters, final NicClock clock)
    {
        this.enabled = enabled;
        this.lock = lock;
        this.sendQueues = sendQueues;
        this.writer = writer;
        this.counters = counters;
        this.clock = clock;
    }

    /**
     * The first half of a direct send: when this thread can take the NIC and the endpoint's send queue of the
     * channel is empty (so that the message overtakes nothing the endpoint queued before), the NIC stays taken and
     * the caller, holding a credit of the channel, writes the body at {@link WireDescriptor#HEADER_LENGTH} of the
     * returned slot's view and calls {@link #sendDirect} (or {@link #abandonDirect} when writing failed).
     *
     * @param endpoint     the sending endpoint.
     * @param peer         the destination's NIC.
     * @param replyChannel the channel of the message.
     * @param bodyLength   bytes of the message body.
     * @return the slot to write, the NIC taken; or null (the NIC not taken): queue the message instead.
     */
    WindowSlot directSlot(final NetQueues endpoint, final Peer peer, final boolean replyChannel, final int bodyLength)
    {
        if (!enabled || !lock.tryLock())
        {
            return null;
        }
        WindowSlot slot = null;
        try
        {
            if (!endpoint.hasQueuedSends(replyChannel))
            {
                slot = peer.out(replyChannel).next();
                // May allocate the slot's buffer (its first message, or its first large one): an OutOfMemoryError
                // must not leave the NIC taken for good.
                slot.ensureCapacity(bodyLength);
            }
        }
        catch (final RuntimeException | Error ex)
        {
            lock.unlock();
            throw ex;
        }
        if (null == slot)
        {
            // Outside the try: unlock() drains queues, and a failure there must not unlock a second time.
            lock.unlock();
        }
        return slot;
    }

    /**
     * The second half of a direct send: assign the slot {@link #directSlot} gave its sequence number, send it (or
     * hold it for its peer's batch), and give the NIC back.
     *
     * @param peer            the destination's NIC.
     * @param replyChannel    the channel of the message.
     * @param bodyLength      bytes of the body written into the slot.
     * @param localEndpointId the sending endpoint.
     */
    void sendDirect(final Peer peer, final boolean replyChannel, final int bodyLength, final int localEndpointId)
    {
        try
        {
            clock.nowNanos = System.nanoTime();
            final SendChannel channel = peer.out(replyChannel);
            final WindowSlot slot = channel.assign();
            writer.start(slot, bodyLength, localEndpointId);
            if (share.oversubscribed())
            {
                // The CPUs are shared by more runnable threads than they have: the peer's host is likely off a CPU,
                // and a datagram per message costs every rank CPU time. The message waits for the others this host
                // sends its peer until the host polls, sleeps, finds a window full or closes (or the keeper runs
                // the NIC): one datagram and one wake-up for the lot.
                sendQueues.hold(peer, channel, replyChannel, slot);
                counters.increment(NicEvent.HELD_SENDS);
            }
            else
            {
                sendQueues.send(peer, channel, replyChannel, slot);
            }
            counters.increment(NicEvent.DIRECT_SENDS);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Give the NIC back after {@link #directSlot} without sending: nothing was assigned.
     */
    void abandonDirect()
    {
        lock.unlock();
    }

    /**
     * Send what direct sends held: the host polls, is about to sleep, found a window full, or closes an endpoint.
     * When another thread holds the NIC, that thread sends them as it gives the NIC back. Any thread; nothing to do
     * (one volatile read) when nothing is held.
     */
    void flushHeld()
    {
        if (!sendQueues.holds())
        {
            return;
        }
        lock.wantFlush();
        if (lock.tryLock())
        {
            try
            {
                lock.flushing();
                clock.nowNanos = System.nanoTime();
                sendQueues.flushHeld();
            }
            finally
            {
                lock.unlock();
            }
        }
    }

    /**
     * For tests: what tells the NIC whether the CPUs are oversubscribed.
     *
     * @param share a scripted one.
     */
    void cpuShare(final CpuShare share)
    {
        this.share = share;
    }
}
