package org.am2j.net;

import java.io.IOException;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.net.auth.NicKeys;
import org.am2j.spi.HostPort;

/**
 * The emulated intelligent NIC of one process, serving all its endpoints (virtual networks multiplexed on one
 * UDP socket): the agent that runs its duty cycle ({@link #doWork()}), its lock, its sleeps and the hosts' entry
 * points. The work is done by its parts:
 * <ol>
 *   <li>{@link SendQueues}: drain the endpoints' send queues (replies first) into the peers' retransmission windows
 *       and onto the wire ({@link FrameWriter}: headers, fragments, tags);</li>
 *   <li>{@link DatagramReceiver}: read the socket, into the receive buffer or, while that is lent to a host running a
 *       message from it ({@link DirectDelivery}), into a spare one;</li>
 *   <li>{@link FrameReader}: take datagrams apart: check their tags, apply the acknowledgements they carry, answer
 *       HELLOs and give-ups, recognise duplicates, reassemble fragments, check each message against its destination
 *       endpoint and put it into the endpoint's receive queue or send it back to its sender;</li>
 *   <li>{@link NicTimers}: retransmit, ask a running peer to give up what it has not acknowledged past the timeout,
 *       resolve the messages of peers known dead, and send the acknowledgements no outgoing message carried;</li>
 *   <li>{@link PeerTable} and {@link EndpointTable}: who the NIC talks to and for;</li>
 *   <li>{@link NicLock} and {@link DirectSends}: inline, who runs the NIC, and the messages that go from a host's
 *       send straight into their window slot.</li>
 * </ol>
 * In {@link NicMode#INLINE} mode the host's calls run these steps under a try-lock (a thread that finds the NIC busy
 * leaves the work to the holder, who looks again after unlocking); in {@link NicMode#THREAD} mode an Agrona
 * {@code AgentRunner} thread runs {@link #doWork()} and sleeps in the socket's selector when idle.
 * <p>
 * Everything but the counters, the credits of the send channels and the copy-on-write tables of peers and
 * endpoints belongs to whichever thread runs the agent.
 */
final class NicAgent implements Agent
{
    /** Most datagrams one {@link #doWork()} reads. */
    static final int RECEIVE_BATCH = 64;

    private final Wire wire;
    final long nicId;
    private final boolean inline;
    final String address;
    private final NicCounters counters;
    private final ProcessLiveness liveness;
    private final NicKeys keys;
    private final NicClock clock = new NicClock();
    private final PeerTable peers;
    private final EndpointTable endpoints = new EndpointTable();
    private final FrameWriter writer;
    private final NicTimers timers;
    private final FrameReader reader;
    private final SendQueues sendQueues;

    private final NicLock lock;
    final DirectSends directSends;
    private final AtomicLong wakeups = new AtomicLong();
    /** Inline mode: when a host thread last called in (for the keeper). */
    private final AtomicLong hostSeenNanos = new AtomicLong(System.nanoTime());
    /** Inline mode: a host thread sleeps in {@link #block(long, long)} and does the NIC's work when it wakes. */
    private volatile boolean hostBlocking;
    /** Threads in {@link #block}: one at most, the holder of the process's blocker seat (hostBlocking is one flag). */
    private final AtomicInteger blockers = new AtomicInteger();
    private volatile boolean agentSleeping;
    private final DatagramReceiver receiver;

    NicAgent(final NetConfig config, final Wire wire, final long nicId, final NicCounters counters,
        final ProcessLiveness liveness)
    {
        this.counters = counters;
        this.liveness = liveness;
        this.keys = NicKeys.generate();
        this.wire = wire;
        this.nicId = nicId;
        this.inline = config.mode == NicMode.INLINE;
        this.address = HostPort.format(wire.localAddress());
        this.peers = new PeerTable(config, wire, nicId, keys, counters);
        final WireSeal seal = new WireSeal(config.wire, config.rekeyBytes, counters);
        this.writer = new FrameWriter(config, wire, nicId, counters, keys, clock, seal);
        this.timers = new NicTimers(config, counters, liveness, clock, peers, endpoints, writer);
        final UnsafeBuffer received = new UnsafeBuffer(0, 0);
        this.reader = new FrameReader(config, nicId, counters, keys, clock, peers, endpoints, writer, timers,
            received, seal);
        this.sendQueues = new SendQueues(counters, peers, endpoints, writer, timers, clock,
            config.linkRateMBps > 0 ? new LinkRate(config.linkRateMBps) : null, reader);
        this.lock = new NicLock(inline, endpoints, sendQueues, clock);
        // A link rate paces what leaves the send queues: no message bypasses them.
        this.directSends = new DirectSends(inline && config.linkRateMBps <= 0, lock, sendQueues, writer, counters,
            clock);
        this.receiver = new DatagramReceiver(wire, counters, received, reader, this::onWakeDatagram);
    }

    // ----------------------------------------------------------------------------------------------------------
    // Tables

    NicCounters counters()
    {
        return counters;
    }

    void register(final ServedQueues endpoint)
    {
        endpoints.register(endpoint);
    }

    /**
     * The endpoint closed: nothing more is delivered to it. It stays in the table the agent drains until its send
     * queues are empty (their messages hold credits of the peers' channels, which every endpoint shares), and the
     * agent then retires it.
     *
     * @param endpoint closed.
     */
    void unregister(final ServedQueues endpoint)
    {
        endpoints.unregister(endpoint);
    }

    /**
     * @return this NIC's address as published in endpoint names: {@code host:port#key}, the key being its X25519
     *         public key (base64url, RFC 7748 bytes), so that whoever maps one of its endpoints can key the link.
     */
    String publishedAddress()
    {
        return address + PeerTable.KEY_SEPARATOR +
            Base64.getUrlEncoder().withoutPadding().encodeToString(keys.publicKey());
    }

    /**
     * The peer for a destination a host maps; counts the route the host makes to it.
     *
     * @param peerNicId the destination process's id.
     * @param text      its NIC address as published, {@code host:port#key}.
     * @return the peer, or null when the address is malformed, its key differs from the one the NIC knows for that
     *         id, or no more peers fit.
     */
    Peer peerFor(final long peerNicId, final String text)
    {
        return peers.peerFor(peerNicId, text);
    }

    /**
     * @param text the NIC address a host's destination names, {@code host:port#key}: this NIC's own.
     * @return the peer standing for this NIC itself ({@link PeerTable#self}), or null when the key is not its own.
     */
    Peer sameNicPeer(final String text)
    {
        return peers.self(text);
    }

    /**
     * @param nicId a peer NIC's id.
     * @return the peer, or null when this NIC does not know it.
     */
    Peer peer(final long nicId)
    {
        return peers.byNic(nicId);
    }

    // ----------------------------------------------------------------------------------------------------------
    // Host entry points

    /**
     * The process of a peer is gone (the job's launcher or rendezvous said so): its unresolved messages come back
     * with EOUTCOMEUNKNOWN at the next timer scan, later ones with EUNREACHABLE. Any thread.
     *
     * @param processId the dead process's id, its NIC id.
     */
    void declareDead(final long processId)
    {
        liveness.declareDead(processId);
        // The next duty cycle runs the timers (timers.due() sees the declaration); a sleeping agent thread is woken.
        if (agentSleeping)
        {
            wire.wakeup();
        }
    }

    /**
     * A host queued a message: move it now (inline) or wake the agent thread.
     */
    void submitted()
    {
        if (!(inline && drainLocked(System.nanoTime(), false)) && agentSleeping)
        {
            wire.wakeup();
        }
    }

    /**
     * Inline mode: read one datagram (after moving queued sends), and hand a message of it to the polling host when
     * the host's offer allows ({@link DirectDelivery}). When {@link DirectDelivery#accepted} afterwards, the
     * message lies in the receive buffer: the host runs it, then calls {@link #returnReceiveBuffer()}.
     *
     * @param offer the polling endpoint's offer, or null.
     * @return true when a datagram was read; always false in thread mode or when another thread runs the NIC.
     */
    boolean inlineReceive(final DirectDelivery offer)
    {
        if (!inline || !tryLock())
        {
            return false;
        }
        try
        {
            clock.nowNanos = System.nanoTime();
            sendQueues.drain();
            return receiver.receiveOne(offer) > 0;
        }
        finally
        {
            unlock();
        }
    }

    /**
     * The host has run the message {@link #inlineReceive(DirectDelivery)} handed over: the receive buffer is the
     * NIC's again.
     */
    void returnReceiveBuffer()
    {
        receiver.giveBack();
    }

    /**
     * Inline mode: run the timers when they are due.
     */
    void inlineTimers()
    {
        if (!inline)
        {
            return;
        }
        final long now = System.nanoTime();
        // Ordered store (a plain store on x86): the keeper only needs to see it eventually.
        hostSeenNanos.setRelease(now);
        directSends.flushHeld();
        if (timers.due(now))
        {
            drainLocked(now, true);
        }
    }

    /**
     * Move what hosts queued, and run the timers when asked, unless another thread runs the NIC (it does that work).
     *
     * @return true when this thread did it.
     */
    private boolean drainLocked(final long nowNanos, final boolean runTimers)
    {
        if (!tryLock())
        {
            return false;
        }
        try
        {
            clock.nowNanos = nowNanos;
            sendQueues.drain();
            if (runTimers)
            {
                timers.run();
            }
            return true;
        }
        finally
        {
            unlock();
        }
    }

    /**
     * Do the NIC's work ({@link #doWork()}) unless another thread runs the NIC.
     *
     * @return true when this thread did it.
     */
    private boolean workLocked()
    {
        if (!tryLock())
        {
            return false;
        }
        try
        {
            doWork();
            return true;
        }
        finally
        {
            unlock();
        }
    }

    /**
     * @return the ticket for {@link #block(long, long)}.
     */
    long prepareBlock()
    {
        return wakeups.get();
    }

    /**
     * Inline mode: sleep in the selector until a datagram arrives, the next timer is due, {@link #wakeup()}, or the
     * time passes; then do the NIC's work, which fills the receive queues the sleeper checks next.
     *
     * @param ticket from {@link #prepareBlock()}.
     * @param nanos  longest sleep.
     */
    void block(final long ticket, final long nanos)
    {
        // One sleeper at a time: a second would find the selector held by the first, deaf to wake-ups, and would
        // clear the first's hostBlocking flag when it left.
        if (blockers.getAndIncrement() != 0)
        {
            blockers.decrementAndGet();
            throw new IllegalStateException("two threads asleep in one NIC at once: the process's sleepers must " +
                "take turns in its blocker");
        }
        try
        {
            blockAlone(ticket, nanos);
        }
        finally
        {
            blockers.decrementAndGet();
        }
    }

    private void blockAlone(final long ticket, final long nanos)
    {
        // Volatile store before the ticket check: a thread that takes a wake datagram from the socket increments the
        // ticket, then reads this flag (onDatagram). One of the two sees the other, so a wake-up read by another
        // thread (the keeper, a host thread polling) ends this sleep or prevents it.
        hostBlocking = true;
        // Nothing held waits out the sleep: the replies and requests this host held go out before it sleeps.
        directSends.flushHeld();
        try
        {
            if (wakeups.get() != ticket)
            {
                return;
            }
            wire.await(sleepNanos(nanos, System.nanoTime()));
        }
        catch (final IOException | RuntimeException ex)
        {
            // Closed at shutdown, or a selector failure: the sleeper's loop checks its queues and goes on.
            counters.increment(NicEvent.IO_ERRORS);
        }
        finally
        {
            hostBlocking = false;
            seen();
        }
        workLocked();
    }

    /**
     * End a {@link #block(long, long)} in progress, or make the next one return at once.
     */
    void wakeup()
    {
        wakeups.incrementAndGet();
        wire.wakeup();
    }

    // ----------------------------------------------------------------------------------------------------------
    // The duty cycle

    @Override
    public int doWork()
    {
        return doWorkAt(System.nanoTime());
    }

    /**
     * One duty cycle at a given time (tests script the clock with it; the caller holds the NIC, or is its thread).
     *
     * @param nowNanos the time.
     * @return work done.
     */
    int doWorkAt(final long nowNanos)
    {
        clock.nowNanos = nowNanos;
        int work = sendQueues.drain();
        for (int i = 0; i < RECEIVE_BATCH; i++)
        {
            if (receiver.receiveOne() == 0)
            {
                break;
            }
            work++;
        }
        if (timers.due(clock.nowNanos))
        {
            work += timers.run();
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "am2j-nic";
    }

    /**
     * Thread mode, called by the idle strategy: sleep in the selector unless sends are queued; hosts that queue a
     * message while the agent sleeps wake it.
     *
     * @param nanos longest sleep.
     */
    void sleep(final long nanos)
    {
        agentSleeping = true;
        try
        {
            // The flag is published (volatile) before the queues are checked; a host commits its record before it
            // reads the flag: one of the two sees the other, so no message waits for the full sleep. Records the last
            // drain held back (the peer's window or the in-flight log full, the link busy, a full receive queue of an
            // endpoint of this NIC) are no reason to stay awake: an acknowledgement wakes the selector, and the sleep
            // ends at the next timer, link token or look at that receive queue (SendQueues.linkReadyNanos).
            if (!sendQueues.hasReadySends())
            {
                wire.await(sleepNanos(nanos, System.nanoTime()));
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            counters.increment(NicEvent.IO_ERRORS);
        }
        finally
        {
            agentSleeping = false;
        }
    }

    /**
     * @param nanos    longest sleep.
     * @param nowNanos the time.
     * @return how long the NIC may sleep in the selector: until the next timer, or until the link lets the record
     *         the last drain held back for it leave, at most {@code nanos}.
     */
    long sleepNanos(final long nanos, final long nowNanos)
    {
        long sleep = nanos;
        if (hasTimers())
        {
            sleep = Math.min(sleep, Math.max(0, clock.nextTimerNanos - nowNanos));
        }
        final long linkReady = sendQueues.linkReadyNanos();
        if (Long.MAX_VALUE != linkReady)
        {
            sleep = Math.min(sleep, Math.max(0, linkReady - nowNanos));
        }
        return sleep;
    }

    /**
     * @return true when a send queue holds a record the NIC could take now (not held back by a full window, a full
     *         in-flight log or the link).
     */
    boolean hasReadySends()
    {
        return sendQueues.hasReadySends();
    }

    private void seen()
    {
        // Ordered store (a plain store on x86): the keeper only needs to see it eventually.
        hostSeenNanos.setRelease(System.nanoTime());
    }

    /**
     * Inline mode, called by the {@link NicKeeper} thread: when no host thread has called in for {@code idleNanos}
     * and none sleeps in the selector, do the NIC's work, so acknowledgements, refusals, retransmissions and
     * timeouts go on while the host computes or waits outside am2j (a process that did not answer for the timeout
     * would be taken for dead by its peers).
     *
     * @param idleNanos how long the host must have been away.
     * @return true when the keeper did the work.
     */
    boolean keep(final long idleNanos)
    {
        final long now = System.nanoTime();
        final boolean away = !hostBlocking && now - hostSeenNanos.get() >= idleNanos;
        // A host asleep in the selector computed its timeout from the timers it saw; one armed since (by another
        // thread) would wait for the end of its slice: the keeper runs the timers that are due, and leaves the
        // socket to the sleeper.
        return away ? workLocked() : timers.due(now) && hasTimers() && drainLocked(now, true);
    }

    /**
     * For the {@link NicKeeper}: whether a host thread tends the NIC itself.
     *
     * @param withinNanos how recently a host must have called in.
     * @return true when a host sleeps in the selector or has called in within {@code withinNanos}.
     */
    boolean hostPresent(final long withinNanos)
    {
        return hostBlocking || System.nanoTime() - hostSeenNanos.get() < withinNanos;
    }

    /**
     * For tests: start the handshake with a peer now, as its first message would.
     *
     * @param peer without a session.
     */
    void handshake(final Peer peer)
    {
        if (tryLock())
        {
            try
            {
                clock.nowNanos = System.nanoTime();
                writer.handshake(peer);
            }
            finally
            {
                unlock();
            }
        }
    }

    /**
     * @return true when this thread now holds the NIC (tests hold it to keep host threads from running it).
     */
    boolean tryLock()
    {
        return lock.tryLock();
    }

    void unlock()
    {
        lock.unlock();
    }

    /**
     * @return true when a peer has timers armed (messages in flight, acknowledgements owed).
     */
    boolean hasTimers()
    {
        return peers.hasTimers();
    }

    // ----------------------------------------------------------------------------------------------------------
    // Receiving

    /**
     * A wake-up from another transport's sender (see NetTransport.wakeAddress()). Its job was to end a sleep in the
     * selector; whoever took it from the socket passes it on, as wakeup() does: a sleeper about to block sees the
     * ticket move, one already in the selector is woken. (The shared-memory sender that sent it rang once for the
     * sleep: no second datagram would come.)
     */
    private void onWakeDatagram()
    {
        wakeups.incrementAndGet();
        if (hostBlocking)
        {
            wire.wakeup();
        }
    }

    @Override
    public void onClose()
    {
        wire.close();
    }

    @Override
    public String toString()
    {
        return "NIC " + Long.toHexString(nicId) + " at " + address + " " + counters;
    }
}
