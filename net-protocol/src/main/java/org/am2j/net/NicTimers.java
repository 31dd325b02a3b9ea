package org.am2j.net;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.ReturnStatus;

/**
 * The NIC's timers, run once per tick while anything is armed: retransmissions, give-ups of messages unacknowledged
 * past the timeout while their peer runs, the liveness check of silent peers (and what a death resolves), the
 * acknowledgements no datagram carried, and the deadlines moved by a stall of this process or of a peer.
 * Agent thread.
 */
final class NicTimers
{
    /** Period of the timer scan. */
    static final long TICK_NANOS = 100_000L;
    /** How many timeouts a message may wait in all while its peer answers busy. */
    static final long BUSY_TIMEOUTS = 8;
    /** A pause of the whole process longer than this (GC, SIGSTOP) moves every deadline by its length. */
    static final long STALL_NANOS = 100_000_000L;

    private final NetConfig config;
    private final NicCounters counters;
    private final ProcessLiveness liveness;
    private final NicClock clock;
    private final PeerTable peers;
    private final EndpointTable endpoints;
    private final FrameWriter writer;
    /** Messages unresolved at the last timer scan. */
    private int outstanding;
    /** {@link ProcessLiveness#declarations()} when the timers last looked. */
    private int declarationsSeen;

    NicTimers(final NetConfig config, final NicCounters counters, final ProcessLiveness liveness, final NicClock clock,
        final PeerTable peers, final EndpointTable endpoints, final FrameWriter writer)
    {
        this.config = config;
        this.counters = counters;
        this.liveness = liveness;
        this.clock = clock;
        this.peers = peers;
        this.endpoints = endpoints;
        this.writer = writer;
    }

    /**
     * @param now the time.
     * @return true when the timer scan is due, or a process was declared dead since it last ran.
     */
    boolean due(final long now)
    {
        return now - clock.nextTimerNanos >= 0 || liveness.declarations() != declarationsSeen;
    }

    /**
     * The timer scan: retransmissions and give-ups of every peer's unresolved messages, the liveness check of silent
     * peers, owed acknowledgements, and the outstanding gauge.
     *
     * @return work done.
     */
    int run()
    {
        int work = 0;
        final long sinceLastRun = clock.nowNanos - clock.lastTimerRunNanos;
        clock.lastTimerRunNanos = clock.nowNanos;
        if (sinceLastRun > STALL_NANOS)
        {
            // Nobody ran the NIC for this long (the whole process stood still: the keeper runs every period
            // otherwise): the peers' acknowledgements may be waiting unread in the socket. Move every deadline by
            // the pause rather than blaming the peers for it.
            postpone(sinceLastRun);
        }
        clock.nextTimerNanos = clock.nowNanos + TICK_NANOS;
        outstanding = 0;
        final int declarations = liveness.declarations();
        final boolean declared = declarations != declarationsSeen;
        declarationsSeen = declarations;
        for (final Peer peer : peers.all())
        {
            if (declared && !peer.died && liveness.isGone(peer.nicId))
            {
                died(peer);
            }
            if (!peer.hasTimers())
            {
                continue;
            }
            if (!peer.died && clock.nowNanos - peer.lastHeardNanos > config.timeoutNanos &&
                clock.nowNanos - peer.livenessCheckedNanos > config.timeoutNanos)
            {
                // Silent for a timeout with messages outstanding: stalled, cut off, or gone. Only evidence that its
                // process is gone resolves its messages; silence alone returns nothing.
                peer.livenessCheckedNanos = clock.nowNanos;
                if (liveness.isGone(peer.someName, peer.someNameStartTimeMs))
                {
                    died(peer);
                }
            }
            if (peer.handshaking())
            {
                writer.handshakeTimer(peer);
                work++;
            }
            if (null == peer.session && !peer.unreachable())
            {
                // Nothing leaves before the handshake completes: its messages wait, unsent, and time nothing out.
                continue;
            }
            work += scan(peer, peer.requestsOut, false);
            work += scan(peer, peer.repliesOut, true);
            if (peer.requestsIn.ackDue(clock.nowNanos) || peer.repliesIn.ackDue(clock.nowNanos) || peer.busyOwed)
            {
                writer.sendAck(peer);
                work++;
            }
            peer.reassembly.expire(clock.nowNanos, config.timeoutNanos);
        }
        counters.set(NicEvent.OUTSTANDING, outstanding);
        return work;
    }

    int scan(final Peer peer, final SendChannel channel, final boolean replyChannel)
    {
        int work = 0;
        final long end = channel.nextSequence();
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.slot(sequence);
            if (!slot.inFlight || slot.sequence != sequence)
            {
                continue;
            }
            outstanding++;
            if (0 != slot.returnStatus)
            {
                // Resolved as returned, waiting for room in its sender's reply receive queue.
                if (returnLocally(peer, slot, slot.returnStatus))
                {
                    channel.complete(slot);
                    work++;
                }
            }
            else if (!slot.givingUp && clock.nowNanos - slot.expiresAtNanos >= 0 &&
                clock.nowNanos - peer.lastHeardNanos < config.timeoutNanos && mayGiveUp(slot))
            {
                // Unacknowledged past the timeout while the peer runs (it was heard within the timeout; a silent peer
                // gets the data again and again instead, however long it stays silent). Returning it now could return a message the peer delivered (it may
                // be stalled with our datagrams in its socket buffer): ask the peer to give it up instead, and stop
                // sending its data. It is returned only when the peer answers that it gave it up.
                slot.givingUp = true;
                slot.retransmits = 0;
                requestGiveUp(peer, replyChannel, slot);
                work++;
            }
            else if (clock.nowNanos - slot.retransmitAtNanos >= 0)
            {
                slot.retransmits++;
                if (slot.givingUp)
                {
                    requestGiveUp(peer, replyChannel, slot);
                }
                else
                {
                    peer.rtt.timedOut(clock.nowNanos);
                    writer.transmit(peer, replyChannel, slot);
                    counters.increment(NicEvent.RETRANSMITS);
                    final ServedQueues endpoint = endpoints.byId(slot.localEndpointId);
                    if (null != endpoint)
                    {
                        endpoint.countRetransmit();
                    }
                }
                work++;
            }
        }
        return work;
    }

    /**
     * @return false for messages that have nobody to go back to (name announcements, returned messages): they are
     *         retransmitted until acknowledged or the peer dies, since giving them up would lose them.
     */
    static boolean mayGiveUp(final WindowSlot slot)
    {
        final UnsafeBuffer message = slot.view;
        final int body = WireDescriptor.HEADER_LENGTH;
        return MessageDescriptor.OPCODE_NAME != (message.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF) &&
            0 == message.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) && slot.localEndpointId >= 0;
    }

    void requestGiveUp(final Peer peer, final boolean replyChannel, final WindowSlot slot)
    {
        writer.sendControl(peer, WireDescriptor.TYPE_GIVE_UP, replyChannel, slot.sequence, 0);
        counters.increment(NicEvent.GIVE_UPS_SENT);
        slot.lastSentNanos = clock.nowNanos;
        slot.retransmitAtNanos = clock.nowNanos + peer.rtt.backedOff(slot.retransmits);
    }

    /**
     * The peer's process is gone: every unresolved message to it comes back, with EOUTCOMEUNKNOWN since it was sent
     * and may have run there; messages queued for it later come back EUNREACHABLE without being sent.
     *
     * @param peer known dead.
     */
    void died(final Peer peer)
    {
        if (peer.died)
        {
            return;
        }
        peer.died = true;
        peer.helloRandom = null;
        counters.increment(NicEvent.PEERS_DIED);
        resolveAll(peer);
    }

    /**
     * Return every unresolved message to the peer, and forget the messages from it being reassembled.
     */
    private void resolveAll(final Peer peer)
    {
        resolveBelow(peer, peer.requestsOut, peer.requestsOut.nextSequence());
        resolveBelow(peer, peer.repliesOut, peer.repliesOut.nextSequence());
        peer.reassembly.clear();
    }

    private void resolveBelow(final Peer peer, final SendChannel channel, final long end)
    {
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.inFlight(sequence);
            if (null != slot && 0 == slot.returnStatus)
            {
                resolve(peer, channel, slot, null == slot.sentIn ? NicEvent.UNREACHABLE : NicEvent.OUTCOME_UNKNOWN);
            }
        }
    }

    /**
     * Return an unresolved message: EUNREACHABLE when it never left, else EOUTCOMEUNKNOWN (it may have run).
     */
    private void resolve(final Peer peer, final SendChannel channel, final WindowSlot slot, final NicEvent event)
    {
        counters.increment(event);
        slot.returnStatus = (NicEvent.UNREACHABLE == event ? ReturnStatus.EUNREACHABLE :
            ReturnStatus.EOUTCOMEUNKNOWN).code();
        if (returnLocally(peer, slot, slot.returnStatus))
        {
            channel.complete(slot);
        }
    }

    /**
     * The peer runs another wire mode: nothing will ever be sent to it, and what waited for the handshake comes back
     * EUNREACHABLE.
     *
     * @param peer refused.
     */
    void refuseAll(final Peer peer)
    {
        peer.pending.clear();
        resolveAll(peer);
    }

    /**
     * A session replaced the one in use: the peer forgot this NIC, and what it received in the old session with it.
     * The messages that left in the old session and are unresolved come back EOUTCOMEUNKNOWN (the peer may have
     * taken them before it forgot); those that never left go out in the new one, whose sequences start after the
     * last that left. Routes announce their endpoints' names again.
     *
     * @param peer whose session was replaced.
     */
    void restart(final Peer peer)
    {
        peer.pending.clear();
        restart(peer, peer.requestsOut);
        restart(peer, peer.repliesOut);
        peer.reassembly.clear();
        peer.busyOwed = false;
        // Volatile store: a host that reads it announces its endpoint's name before its next request.
        peer.restarts++;
        counters.increment(NicEvent.SESSIONS_RESTARTED);
    }

    private void restart(final Peer peer, final SendChannel channel)
    {
        // The new session starts after the last message that left in the old one: one below it that never left
        // cannot go out in the new session (the peer's receive state starts above it), so it comes back EUNREACHABLE.
        final long end = channel.nextSequence();
        long base = channel.oldest();
        for (long sequence = base; sequence < end; sequence++)
        {
            final WindowSlot slot = channel.inFlight(sequence);
            if (null != slot && null != slot.sentIn)
            {
                base = sequence + 1;
            }
        }
        resolveBelow(peer, channel, base);
        channel.restart(base);
    }

    void postpone(final long nanos)
    {
        for (final Peer peer : peers.all())
        {
            postpone(peer.requestsOut, nanos);
            postpone(peer.repliesOut, nanos);
            peer.lastHeardNanos += nanos;
        }
    }

    static void postpone(final SendChannel channel, final long nanos)
    {
        final long end = channel.nextSequence();
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.slot(sequence);
            if (slot.inFlight)
            {
                slot.firstSentNanos += nanos;
                slot.expiresAtNanos += nanos;
                slot.retransmitAtNanos += nanos;
            }
        }
    }

    /**
     * Move the timeouts of the peer's messages in flight: heard again after a long silence, each gets at least a
     * whole timeout from now; busy, each restarts its timeout, but not past {@link #BUSY_TIMEOUTS} timeouts from its
     * first transmission, so that one endpoint that never polls cannot hold the window (shared by every endpoint of
     * its process) for ever.
     *
     * @param busy whether the peer said it is busy (else it was heard after a long silence).
     */
    void moveDeadlines(final Peer peer, final boolean busy)
    {
        moveDeadlines(peer.requestsOut, busy);
        moveDeadlines(peer.repliesOut, busy);
    }

    private void moveDeadlines(final SendChannel channel, final boolean busy)
    {
        final long end = channel.nextSequence();
        final long expires = clock.nowNanos + config.timeoutNanos;
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.slot(sequence);
            if (slot.inFlight && (busy || slot.expiresAtNanos - expires < 0))
            {
                slot.expiresAtNanos = busy ?
                    Math.min(expires, slot.firstSentNanos + BUSY_TIMEOUTS * config.timeoutNanos) : expires;
            }
        }
    }

    /**
     * Hand a message that will not be delivered back to the local endpoint that sent it, as a returned message
     * in its reply receive queue.
     *
     * @return true when done (or there is nobody to hand it to); false when the queue is full, to try again.
     */
    boolean returnLocally(final Peer peer, final WindowSlot slot, final int status)
    {
        final UnsafeBuffer message = slot.view;
        final int body = WireDescriptor.HEADER_LENGTH;
        final int code = message.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        final ServedQueues endpoint = slot.localEndpointId < 0 ? null : endpoints.byId(slot.localEndpointId);
        if (MessageDescriptor.OPCODE_NAME == code || 0 != (message.getByte(body +
            MessageDescriptor.RETURN_STATUS_OFFSET)) || null == endpoint || endpoint.isClosed())
        {
            // An announcement, a returned message, or a sender that has gone: nobody to tell.
            return true;
        }
        final int route = endpoint.inverseRoute(peer, message.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        // A sender with more peers than routes cannot be told.
        return route < 0 ||
            ReceiveRecords.putReturned(endpoint, route, message, body, slot.bodyLength, status, slot.log, slot.logPosition);
    }
}
