package org.am2j.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.am2j.api.Am;
import org.am2j.api.EndpointName;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.net.auth.Cookies;
import org.am2j.net.auth.NicKeys;
import org.am2j.net.auth.SipHash;

/**
 * The emulated intelligent NIC of one process, serving all its endpoints (virtual networks multiplexed on one
 * UDP socket). Its duty cycle ({@link #doWork()}):
 * <ol>
 *   <li>drain the endpoints' send queues (replies first) into the peers' retransmission windows and onto the wire,
 *       cutting bodies larger than a datagram into fragments;</li>
 *   <li>read datagrams: apply the acknowledgements they carry, recognise duplicates, reassemble fragments, check
 *       each message against its destination endpoint (exists, tag, handler, lengths, segment range) and either
 *       put it into the endpoint's receive queue or send it back to its sender as a returned message;</li>
 *   <li>on a timer: retransmit what is unacknowledged after the peer's retransmission timeout (doubling for each
 *       retry), return to its sender's handler 0 what stays unacknowledged past the timeout (ECONGESTION, or
 *       EUNREACHABLE once the peer is known dead), and send the acknowledgements no outgoing message carried.</li>
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
    /** Period of the timer scan. */
    static final long TIMER_TICK_NANOS = 100_000L;
    /** How many timeouts a message may wait in all while its peer answers busy. */
    static final long BUSY_TIMEOUTS = 8;
    /** A pause of the whole process longer than this (GC, SIGSTOP) moves every deadline by its length. */
    static final long STALL_NANOS = 100_000_000L;
    /** Separates a NIC's {@code host:port} from its public key in published addresses. */
    static final char KEY_SEPARATOR = '#';
    /** A peer no route leads to, silent for this many timeouts, may give its place in a full table up. */
    static final long IDLE_PEER_TIMEOUTS = 3;
    /** Period of the cookie secret: a cookie is good for one to two periods. */
    private static final long COOKIE_PERIOD_NANOS = 2_000_000_000L;
    /** Most passes of a host's send over the send queues (others' messages included) before it leaves them. */
    private static final int SEND_PASSES = 4;
    /** Most datagrams one {@link #doWork()} reads. */
    static final int RECEIVE_BATCH = 64;
    private static final int RECEIVE_BUFFER = 65536;

    private static final int RETURN_STATUS_COUNT = ReturnStatus.values().length;

    /** The message was taken (delivered, answered or dropped for good): acknowledge it. */
    private static final int TAKEN = 0;
    /** The message could not be taken now (a queue is full): do not acknowledge; the sender retransmits. */
    private static final int BUSY = 1;
    /** The message cannot be taken yet (what it depends on is still on its way): the sender retransmits. */
    private static final int NOT_YET = 2;

    private final NetConfig config;
    private final Wire wire;
    private final long nicId;
    private final boolean inline;
    private final String address;
    /** The port of {@link Wire#localAddress()}, for {@link WireDescriptor#SOURCE_PORT_OFFSET}. */
    private final long receivingPort;
    private final NicCounters counters;
    private final ProcessLiveness liveness;
    private final NicKeys keys;
    private final Cookies cookies = new Cookies(COOKIE_PERIOD_NANOS, System.nanoTime());
    private final int ackBatch;

    private final AtomicBoolean lock = new AtomicBoolean();
    private final AtomicLong wakeups = new AtomicLong();
    /** Inline mode: when a host thread last called in (for the keeper). */
    private final AtomicLong hostSeenNanos = new AtomicLong(System.nanoTime());
    /** Inline mode: a host thread sleeps in {@link #block(long, long)} and does the NIC's work when it wakes. */
    private volatile boolean hostBlocking;
    private volatile boolean agentSleeping;
    /** The traffic count {@link #keeperBusy()} saw last; keeper thread only. */
    private long keeperSeenTraffic;

    private final Object registry = new Object();
    private volatile Peer[] peers = new Peer[0];
    private volatile Long2ObjectHashMap<Peer> peersByNic = new Long2ObjectHashMap<>();
    private volatile NetEndpoint[] endpoints = new NetEndpoint[0];
    private volatile Int2ObjectHashMap<NetEndpoint> endpointsById = new Int2ObjectHashMap<>();

    private final ByteBuffer receiveBuffer = direct(RECEIVE_BUFFER);
    private final UnsafeBuffer received = new UnsafeBuffer(receiveBuffer);
    private final ByteBuffer fragmentBuffer;
    private final UnsafeBuffer fragment;
    private final ByteBuffer ackBuffer = direct(WireDescriptor.HELLO_LENGTH + WireDescriptor.TAG_LENGTH);
    private final UnsafeBuffer ack = new UnsafeBuffer(ackBuffer);
    private final MessageHandler sendDrainer = this::onQueuedMessage;
    private final ControlledMessageHandler undeliveredReturner = this::onUndelivered;
    /** The closed endpoint whose receive queues {@link #returnUndelivered} reads. */
    private NetEndpoint closing;
    private long nowNanos;
    private long nextTimerNanos;
    private long lastTimerRunNanos = System.nanoTime();
    /** Messages unresolved at the last timer scan. */
    private int outstanding;
    /** {@link ProcessLiveness#declarations()} when the timers last looked. */
    private int declarationsSeen;

    NicAgent(final NetConfig config, final Wire wire, final long nicId)
    {
        this(config, wire, nicId, new NicCounters(), new ProcessLiveness(null));
    }

    NicAgent(final NetConfig config, final Wire wire, final long nicId, final NicCounters counters,
        final ProcessLiveness liveness)
    {
        this.counters = counters;
        this.liveness = liveness;
        this.keys = NicKeys.generate();
        this.config = config;
        this.wire = wire;
        this.nicId = nicId;
        this.inline = config.mode == NicMode.INLINE;
        this.address = format(wire.localAddress());
        this.receivingPort = wire.localAddress().getPort();
        this.fragmentBuffer = direct(config.datagramLimit);
        this.fragment = new UnsafeBuffer(fragmentBuffer);
        this.ackBatch = Math.max(1, config.depth / 4);
    }

    private static ByteBuffer direct(final int capacity)
    {
        return BufferUtil.allocateDirectAligned(org.agrona.BitUtil.align(capacity, 64), 64).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static String format(final InetSocketAddress address)
    {
        final String host = address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    // ----------------------------------------------------------------------------------------------------------
    // Tables

    /**
     * @return this NIC's address, {@code host:port}, as recorded in endpoint names.
     */
    String address()
    {
        return address;
    }

    long nicId()
    {
        return nicId;
    }

    NicCounters counters()
    {
        return counters;
    }

    void register(final NetEndpoint endpoint)
    {
        synchronized (registry)
        {
            final NetEndpoint[] grown = Arrays.copyOf(endpoints, endpoints.length + 1);
            grown[grown.length - 1] = endpoint;
            final Int2ObjectHashMap<NetEndpoint> byId = new Int2ObjectHashMap<>(endpointsById);
            byId.put(endpoint.id(), endpoint);
            // Volatile stores of fully built copies: the agent sees the old table or the new one, never a torn one.
            endpointsById = byId;
            endpoints = grown;
        }
    }

    /**
     * The endpoint closed: nothing more is delivered to it. It stays in the table the agent drains until its send
     * queues are empty (their messages hold credits of the peers' channels, which every endpoint shares), and the
     * agent then retires it.
     *
     * @param endpoint closed.
     */
    void unregister(final NetEndpoint endpoint)
    {
        synchronized (registry)
        {
            if (endpointsById.get(endpoint.id()) != endpoint)
            {
                return;
            }
            final Int2ObjectHashMap<NetEndpoint> byId = new Int2ObjectHashMap<>(endpointsById);
            byId.remove(endpoint.id());
            // Volatile store of a fully built copy.
            endpointsById = byId;
        }
    }

    private void retire(final NetEndpoint endpoint)
    {
        synchronized (registry)
        {
            final NetEndpoint[] current = endpoints;
            int at = -1;
            for (int i = 0; i < current.length; i++)
            {
                if (current[i] == endpoint)
                {
                    at = i;
                }
            }
            if (at < 0)
            {
                return;
            }
            final NetEndpoint[] shrunk = new NetEndpoint[current.length - 1];
            System.arraycopy(current, 0, shrunk, 0, at);
            System.arraycopy(current, at + 1, shrunk, at, current.length - at - 1);
            // Volatile store of a fully built copy.
            endpoints = shrunk;
        }
    }

    /**
     * @return this NIC's address as published in endpoint names: {@code host:port#key}, the key being its X25519
     *         public key (base64url, RFC 7748 bytes), so that whoever maps one of its endpoints can key the link.
     */
    String publishedAddress()
    {
        return address + KEY_SEPARATOR + Base64.getUrlEncoder().withoutPadding().encodeToString(keys.publicKey());
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
        final int hash = text.indexOf(KEY_SEPARATOR);
        final InetSocketAddress socketAddress = parse(text);
        final byte[] publicKey;
        try
        {
            publicKey = hash < 0 ? null : Base64.getUrlDecoder().decode(text.substring(hash + 1));
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
        if (null == socketAddress || null == publicKey || publicKey.length != NicKeys.PUBLIC_KEY_LENGTH)
        {
            return null;
        }
        synchronized (registry)
        {
            final Peer known = peersByNic.get(peerNicId);
            final Peer peer;
            if (null != known)
            {
                peer = Arrays.equals(known.publicKey, publicKey) ? known : null;
            }
            else
            {
                final SipHash transmit = new SipHash();
                final SipHash receive = new SipHash();
                try
                {
                    keys.deriveLinkKeys(nicId, peerNicId, publicKey, transmit, receive);
                }
                catch (final IllegalArgumentException ex)
                {
                    return null;
                }
                peer = addPeer(peerNicId, socketAddress, publicKey, transmit, receive);
            }
            if (null != peer)
            {
                peer.routes.incrementAndGet();
            }
            return peer;
        }
    }

    /**
     * @param nicId a peer NIC's id.
     * @return the peer, or null when this NIC does not know it.
     */
    Peer peer(final long nicId)
    {
        return peersByNic.get(nicId);
    }

    /**
     * @param published {@code host:port}, the host a literal address or a name, and possibly {@code #key} after it.
     * @return the socket address, or null when malformed.
     */
    static InetSocketAddress parse(final String published)
    {
        final int key = published.indexOf(KEY_SEPARATOR);
        final String text = key < 0 ? published : published.substring(0, key);
        final int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1)
        {
            return null;
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        try
        {
            final int port = Integer.parseInt(text.substring(colon + 1));
            if (port <= 0 || port > 65535)
            {
                return null;
            }
            return new InetSocketAddress(InetAddress.getByName(host), port);
        }
        catch (final NumberFormatException | UnknownHostException ex)
        {
            return null;
        }
    }

    /**
     * Make a peer with keyed links (under the registry lock). When the table is full, a peer that no route leads to,
     * with nothing in flight, silent for {@link #IDLE_PEER_TIMEOUTS} timeouts, gives its place up.
     */
    private Peer addPeer(final long peerNicId, final InetSocketAddress socketAddress, final byte[] publicKey,
        final SipHash transmit, final SipHash receive)
    {
        final Peer[] current = peers;
        int index = current.length;
        if (current.length >= config.maxPeers)
        {
            index = evictable(current, System.nanoTime());
            if (index < 0)
            {
                return null;
            }
        }
        final Peer peer = new Peer(index, peerNicId, wire.destination(socketAddress), config, System.nanoTime(),
            publicKey, transmit, receive);
        final Long2ObjectHashMap<Peer> byNic = new Long2ObjectHashMap<>(peersByNic);
        final Peer[] table = index < current.length ? current.clone() : Arrays.copyOf(current, current.length + 1);
        if (index < current.length)
        {
            byNic.remove(current[index].nicId);
            counters.increment(NicEvent.PEERS_EVICTED);
        }
        byNic.put(peerNicId, peer);
        table[index] = peer;
        // Volatile stores of fully built copies, the array first: an index read from the map is always valid.
        peers = table;
        peersByNic = byNic;
        return peer;
    }

    private int evictable(final Peer[] table, final long now)
    {
        int oldest = -1;
        for (int i = 0; i < table.length; i++)
        {
            final Peer peer = table[i];
            if (0 == peer.routes.get() && !peer.hasTimers() &&
                now - peer.lastHeardNanos > IDLE_PEER_TIMEOUTS * config.timeoutNanos &&
                (oldest < 0 || peer.lastHeardNanos - table[oldest].lastHeardNanos < 0))
            {
                oldest = i;
            }
        }
        return oldest;
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
        // The next duty cycle runs the timers (timersDue() sees the declaration); a sleeping agent thread is woken.
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
        if (inline && tryLock())
        {
            try
            {
                nowNanos = System.nanoTime();
                drainSendQueues();
            }
            finally
            {
                unlock();
            }
        }
        else if (agentSleeping)
        {
            wire.wakeup();
        }
    }

    /**
     * Inline mode, the first half of a direct send: a message goes from the host's send straight into the window
     * (one copy, no send-queue record, no drain) when this thread can take the NIC and the endpoint's send queue of
     * the channel is empty, so that it overtakes nothing the endpoint queued before. Then the NIC stays taken and the
     * caller, holding a credit of the channel, writes the body at {@link WireDescriptor#HEADER_LENGTH} of the
     * returned slot's view and calls {@link #sendDirect} (or {@link #abandonDirect} when writing failed).
     *
     * @param endpoint     the sending endpoint.
     * @param peer         the destination's NIC.
     * @param replyChannel the channel of the message.
     * @param bodyLength   bytes of the message body.
     * @return the slot to write, the NIC taken; or null (the NIC not taken): queue the message instead.
     */
    WindowSlot directSlot(final NetEndpoint endpoint, final Peer peer, final boolean replyChannel, final int bodyLength)
    {
        if (!inline || !tryLock())
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
            unlock();
            throw ex;
        }
        if (null == slot)
        {
            // Outside the try: unlock() drains queues, and a failure there must not unlock a second time.
            unlock();
        }
        return slot;
    }

    /**
     * The second half of a direct send: assign the slot {@link #directSlot} gave its sequence number, send it, and
     * give the NIC back.
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
            nowNanos = System.nanoTime();
            final SendChannel channel = peer.out(replyChannel);
            final WindowSlot slot = channel.assign();
            start(slot, bodyLength, localEndpointId);
            send(peer, channel, replyChannel, slot);
            counters.increment(NicEvent.DIRECT_SENDS);
        }
        finally
        {
            unlock();
        }
    }

    /**
     * Give the NIC back after {@link #directSlot} without sending: nothing was assigned.
     */
    void abandonDirect()
    {
        unlock();
    }

    /**
     * Inline mode: read one datagram (after moving queued sends).
     *
     * @return true when a datagram was read; always false in thread mode or when another thread runs the NIC.
     */
    boolean inlineReceive()
    {
        if (!inline || !tryLock())
        {
            return false;
        }
        try
        {
            nowNanos = System.nanoTime();
            drainSendQueues();
            return receiveOne() > 0;
        }
        finally
        {
            unlock();
        }
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
        if (timersDue(now) && tryLock())
        {
            try
            {
                nowNanos = now;
                drainSendQueues();
                runTimers();
            }
            finally
            {
                unlock();
            }
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
        // Volatile store before the ticket check: a thread that takes a wake datagram from the socket increments the
        // ticket, then reads this flag (onDatagram). One of the two sees the other, so a wake-up read by another
        // thread (the keeper, a host thread polling) ends this sleep or prevents it.
        hostBlocking = true;
        try
        {
            if (wakeups.get() != ticket)
            {
                return;
            }
            final long now = System.nanoTime();
            final long untilTimer = hasTimers() ? Math.max(0, nextTimerNanos - now) : Long.MAX_VALUE;
            wire.await(Math.min(nanos, untilTimer));
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
        if (tryLock())
        {
            try
            {
                doWorkLocked();
            }
            finally
            {
                unlock();
            }
        }
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
        return doWorkLocked();
    }

    private int doWorkLocked()
    {
        nowNanos = System.nanoTime();
        int work = drainSendQueues();
        for (int i = 0; i < RECEIVE_BATCH; i++)
        {
            if (receiveOne() == 0)
            {
                break;
            }
            work++;
        }
        if (timersDue(nowNanos))
        {
            work += runTimers();
        }
        return work;
    }

    /**
     * @param now the time.
     * @return true when the timer scan is due, or a process was declared dead since it last ran.
     */
    private boolean timersDue(final long now)
    {
        return now - nextTimerNanos >= 0 || liveness.declarations() != declarationsSeen;
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
            // reads the flag: one of the two sees the other, so no message waits for the full sleep.
            if (!hasQueuedSends())
            {
                final long untilTimer = hasTimers() ? Math.max(0, nextTimerNanos - System.nanoTime()) : nanos;
                wire.await(Math.min(nanos, untilTimer));
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
        final boolean timersOnly = !away;
        if ((timersOnly && (!timersDue(now) || !hasTimers())) || !tryLock())
        {
            return false;
        }
        try
        {
            if (timersOnly)
            {
                nowNanos = now;
                drainSendQueues();
                runTimers();
            }
            else
            {
                doWorkLocked();
            }
            return true;
        }
        finally
        {
            unlock();
        }
    }

    /**
     * For the {@link NicKeeper}: whether the NIC had network traffic (datagrams sent or received, wake-ups from
     * shared-memory senders not counted) since the last call, or has timers armed (messages in flight, acknowledgements
     * owed). Called by the keeper thread only.
     *
     * @return true when the keeper should come back after one period.
     */
    boolean keeperBusy()
    {
        final long traffic = counters.get(NicEvent.DATAGRAMS_SENT) + counters.get(NicEvent.DATAGRAMS_RECEIVED) -
            counters.get(NicEvent.WAKEUPS);
        final boolean busy = traffic != keeperSeenTraffic || hasTimers();
        keeperSeenTraffic = traffic;
        return busy;
    }

    private boolean tryLock()
    {
        // CAS: at most one thread runs the agent's steps at a time; the agent's state is never shared.
        return !lock.get() && lock.compareAndSet(false, true);
    }

    private void unlock()
    {
        // Ordered store: everything the holder wrote is visible to the next thread that takes the lock.
        lock.setRelease(false);
        // A host that queued a message while we held the lock found it taken and left the message to us: look
        // again (a few passes at most, so that no caller drains another thread's stream for ever).
        for (int pass = 0; pass < SEND_PASSES && inline && hasQueuedSends() && tryLock(); pass++)
        {
            try
            {
                nowNanos = System.nanoTime();
                drainSendQueues();
            }
            finally
            {
                lock.setRelease(false);
            }
        }
    }

    private boolean hasQueuedSends()
    {
        for (final NetEndpoint endpoint : endpoints)
        {
            if (endpoint.hasQueuedSends())
            {
                return true;
            }
        }
        return false;
    }

    private boolean hasTimers()
    {
        for (final Peer peer : peers)
        {
            if (peer.hasTimers())
            {
                return true;
            }
        }
        return false;
    }

    // ----------------------------------------------------------------------------------------------------------
    // Sending

    private int drainSendQueues()
    {
        int drained = 0;
        for (final NetEndpoint endpoint : endpoints)
        {
            drained += endpoint.sendQueue(true).read(sendDrainer);
            drained += endpoint.sendQueue(false).read(sendDrainer);
            if (endpoint.isClosed())
            {
                drained += returnUndelivered(endpoint);
                if (!endpoint.hasQueuedSends() && !endpoint.hasUndelivered())
                {
                    retire(endpoint);
                }
            }
        }
        return drained;
    }

    /**
     * A closed endpoint's receive queues: what the NIC took for it and its host never handled goes back to the
     * senders, requests with EBADENDPOINT, replies with EREPLYREJECTED (returned messages have nobody to go back to:
     * counted and dropped). The host reads its queues no more once closed; the NIC is their only reader then.
     * A message whose return finds the reply window to its peer full stays queued for the next duty cycle.
     *
     * @return messages returned (or dropped).
     */
    private int returnUndelivered(final NetEndpoint endpoint)
    {
        closing = endpoint;
        final int returned = endpoint.receiveQueue(true).controlledRead(undeliveredReturner) +
            endpoint.receiveQueue(false).controlledRead(undeliveredReturner);
        closing = null;
        return returned;
    }

    private ControlledMessageHandler.Action onUndelivered(final int msgTypeId, final MutableDirectBuffer buffer,
        final int index, final int length)
    {
        final int body = index + QueueRecordDescriptor.BODY_OFFSET;
        final int bodyLength = length - QueueRecordDescriptor.BODY_OFFSET;
        final int code = buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        final Opcode opcode = Opcode.fromCode(code);
        final NetRoute route = (NetRoute)closing.routeAt(buffer.getInt(index + QueueRecordDescriptor.ROUTE_OFFSET));
        if (null == opcode || 0 != buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) || route.peer.died)
        {
            counters.increment(NicEvent.UNDELIVERED_DROPPED);
            return ControlledMessageHandler.Action.CONTINUE;
        }
        final int status = opcode.isRequest() ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
        final boolean deposited = 0 != buffer.getInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET);
        if (BUSY == refuse(route.peer, buffer, body, bodyLength, status, deposited))
        {
            return ControlledMessageHandler.Action.ABORT;
        }
        counters.increment(NicEvent.UNDELIVERED_RETURNED);
        return ControlledMessageHandler.Action.CONTINUE;
    }

    private void onQueuedMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final Peer[] table = peers;
        final int peerIndex = buffer.getInt(index + QueueRecordDescriptor.PEER_OFFSET);
        final int body = index + QueueRecordDescriptor.BODY_OFFSET;
        final int bodyLength = length - QueueRecordDescriptor.BODY_OFFSET;
        if (peerIndex < 0 || peerIndex >= table.length || bodyLength < MessageDescriptor.HEADER_LENGTH)
        {
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        final Peer peer = table[peerIndex];
        final boolean replyChannel = onReplyChannel(buffer, body);
        final SendChannel channel = peer.out(replyChannel);
        final WindowSlot slot = channel.assign();
        slot.ensureCapacity(bodyLength);
        slot.view.putBytes(WireDescriptor.HEADER_LENGTH, buffer, body, bodyLength);
        start(slot, bodyLength, buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET));
        send(peer, channel, replyChannel, slot);
    }

    /**
     * Send a message just assigned to its slot, or, when its peer is known dead, return it (it never left).
     */
    private void send(final Peer peer, final SendChannel channel, final boolean replyChannel, final WindowSlot slot)
    {
        if (peer.died)
        {
            counters.increment(NicEvent.UNREACHABLE);
            slot.returnStatus = ReturnStatus.EUNREACHABLE.code();
            if (returnLocally(peer, slot, slot.returnStatus))
            {
                channel.complete(slot);
            }
            return;
        }
        transmit(peer, replyChannel, slot);
        counters.increment(NicEvent.MESSAGES_SENT);
    }

    private static boolean onReplyChannel(final DirectBuffer buffer, final int body)
    {
        final int code = buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        if (MessageDescriptor.OPCODE_NAME == code)
        {
            return false;
        }
        final Opcode opcode = Opcode.fromCode(code);
        return null == opcode || !opcode.isRequest() ||
            0 != buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET);
    }

    private void start(final WindowSlot slot, final int bodyLength, final int localEndpointId)
    {
        slot.bodyLength = bodyLength;
        slot.localEndpointId = localEndpointId;
        slot.firstSentNanos = nowNanos;
        slot.lastSentNanos = nowNanos;
        slot.expiresAtNanos = nowNanos + config.timeoutNanos;
    }

    private void transmit(final Peer peer, final boolean replyChannel, final WindowSlot slot)
    {
        helloIfUnaccepted(peer);
        final UnsafeBuffer datagram = slot.view;
        writeHeader(datagram, WireDescriptor.TYPE_DATA, replyChannel ? WireDescriptor.FLAG_REPLY_CHANNEL : 0, peer,
            slot.sequence);
        datagram.putInt(WireDescriptor.BODY_LENGTH_OFFSET, slot.bodyLength);
        final int total = WireDescriptor.HEADER_LENGTH + slot.bodyLength;
        if (total + WireDescriptor.TAG_LENGTH <= config.datagramLimit)
        {
            datagram.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
            send(slot.datagram, slot.view, total, peer);
        }
        else
        {
            final int fragmentBytes = config.fragmentBytes();
            final int count = (slot.bodyLength + fragmentBytes - 1) / fragmentBytes;
            for (int i = 0; i < count; i++)
            {
                final int offset = i * fragmentBytes;
                final int length = Math.min(fragmentBytes, slot.bodyLength - offset);
                fragment.putBytes(0, datagram, 0, WireDescriptor.HEADER_LENGTH);
                fragment.putByte(WireDescriptor.FRAGMENT_INDEX_OFFSET, (byte)i);
                fragment.putByte(WireDescriptor.FRAGMENT_COUNT_OFFSET, (byte)count);
                fragment.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, offset);
                fragment.putBytes(WireDescriptor.HEADER_LENGTH, datagram, WireDescriptor.HEADER_LENGTH + offset, length);
                send(fragmentBuffer, fragment, WireDescriptor.HEADER_LENGTH + length, peer);
            }
        }
        slot.lastSentNanos = nowNanos;
        slot.retransmitAtNanos = nowNanos + peer.rtt.backedOff(slot.retransmits);
        if (slot.retransmitAtNanos - nextTimerNanos < 0)
        {
            nextTimerNanos = Math.max(slot.retransmitAtNanos, nowNanos + TIMER_TICK_NANOS / 4);
        }
    }

    private void writeHeader(final UnsafeBuffer datagram, final int type, final int flags, final Peer peer,
        final long sequence)
    {
        datagram.putShort(WireDescriptor.MAGIC_OFFSET, WireDescriptor.MAGIC);
        datagram.putByte(WireDescriptor.VERSION_OFFSET, WireDescriptor.VERSION);
        datagram.putByte(WireDescriptor.TYPE_OFFSET, (byte)type);
        final int busy = peer.busyOwed ? WireDescriptor.FLAG_BUSY : 0;
        peer.busyOwed = false;
        datagram.putShort(WireDescriptor.FLAGS_OFFSET, (short)(flags | busy));
        datagram.putByte(WireDescriptor.FRAGMENT_INDEX_OFFSET, (byte)0);
        datagram.putByte(WireDescriptor.FRAGMENT_COUNT_OFFSET, (byte)1);
        datagram.putLong(WireDescriptor.SOURCE_NIC_OFFSET, nicId);
        datagram.putLong(WireDescriptor.DESTINATION_NIC_OFFSET, peer.nicId);
        datagram.putLong(WireDescriptor.SEQUENCE_OFFSET, sequence);
        // The port with the reserved bytes after it, in one store.
        datagram.putLong(WireDescriptor.SOURCE_PORT_OFFSET, receivingPort);
        // Every datagram carries both channels' acknowledgement state: nothing is owed once it is sent.
        datagram.putLong(WireDescriptor.REQUEST_ACK_NEXT_OFFSET, peer.requestsIn.next());
        datagram.putLong(WireDescriptor.REQUEST_ACK_BITS_OFFSET, peer.requestsIn.bits());
        datagram.putLong(WireDescriptor.REPLY_ACK_NEXT_OFFSET, peer.repliesIn.next());
        datagram.putLong(WireDescriptor.REPLY_ACK_BITS_OFFSET, peer.repliesIn.bits());
        datagram.putLong(WireDescriptor.REQUEST_FLOOR_OFFSET, peer.requestsOut.oldest());
        datagram.putLong(WireDescriptor.REPLY_FLOOR_OFFSET, peer.repliesOut.oldest());
        peer.requestsIn.acknowledged();
        peer.repliesIn.acknowledged();
    }

    /**
     * Tag a datagram with the link's key (after its {@code length} bytes, which its buffer has room for) and hand it
     * to the wire.
     */
    private void send(final ByteBuffer datagram, final UnsafeBuffer view, final int length, final Peer peer)
    {
        if (config.authenticate)
        {
            view.putLong(length, peer.transmitKey.hash(view, 0, length));
        }
        datagram.limit(length + WireDescriptor.TAG_LENGTH).position(0);
        try
        {
            if (wire.send(datagram, peer.destination))
            {
                counters.increment(NicEvent.DATAGRAMS_SENT);
            }
            else
            {
                counters.increment(NicEvent.SEND_BUFFER_FULL);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            counters.increment(NicEvent.IO_ERRORS);
        }
    }

    /**
     * Send a header-only control datagram about one sequence ({@link WireDescriptor#TYPE_GIVE_UP} or
     * {@link WireDescriptor#TYPE_GIVE_UP_ANSWER}); it carries the acknowledgement state too, like every datagram.
     */
    private void sendControl(final Peer peer, final int type, final boolean replyChannel, final long sequence,
        final int flags)
    {
        writeHeader(ack, type, flags | (replyChannel ? WireDescriptor.FLAG_REPLY_CHANNEL : 0), peer, sequence);
        ack.putInt(WireDescriptor.BODY_LENGTH_OFFSET, 0);
        ack.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
        send(ackBuffer, ack, WireDescriptor.HEADER_LENGTH, peer);
    }

    /**
     * Introduce this NIC to a peer that has not shown it knows us yet: our public key, and the peer's cookie when it
     * gave us one. Sent with a message's first transmission and then at most once per retransmission timeout.
     */
    private void sendHello(final Peer peer)
    {
        peer.helloSentNanos = nowNanos;
        writeHeader(ack, WireDescriptor.TYPE_HELLO, 0 != peer.cookie ? WireDescriptor.FLAG_HAS_COOKIE : 0, peer, 0);
        ack.putInt(WireDescriptor.BODY_LENGTH_OFFSET, 0);
        ack.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
        keys.publicKey(ack, WireDescriptor.HELLO_KEY_OFFSET);
        ack.putLong(WireDescriptor.HELLO_COOKIE_OFFSET, peer.cookie);
        send(ackBuffer, ack, WireDescriptor.HELLO_LENGTH, peer);
        counters.increment(NicEvent.HELLOS_SENT);
    }

    private void helloIfUnaccepted(final Peer peer)
    {
        if (!peer.accepted && config.authenticate && nowNanos - peer.helloSentNanos >= peer.rtt.backedOff(0))
        {
            sendHello(peer);
        }
    }

    private void sendAck(final Peer peer)
    {
        writeHeader(ack, WireDescriptor.TYPE_ACK, 0, peer, 0);
        ack.putInt(WireDescriptor.BODY_LENGTH_OFFSET, 0);
        ack.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, 0);
        send(ackBuffer, ack, WireDescriptor.HEADER_LENGTH, peer);
        counters.increment(NicEvent.ACKS_SENT);
    }

    // ----------------------------------------------------------------------------------------------------------
    // Receiving

    private int receiveOne()
    {
        receiveBuffer.clear();
        final InetSocketAddress from;
        try
        {
            from = wire.receive(receiveBuffer);
        }
        catch (final IOException | RuntimeException ex)
        {
            counters.increment(NicEvent.IO_ERRORS);
            return 0;
        }
        if (null == from)
        {
            counters.increment(NicEvent.EMPTY_RECEIVES);
            return 0;
        }
        counters.increment(NicEvent.DATAGRAMS_RECEIVED);
        onDatagram(from, receiveBuffer.position());
        return 1;
    }

    private void onDatagram(final InetSocketAddress from, final int datagramLength)
    {
        final UnsafeBuffer d = received;
        if (datagramLength == WireDescriptor.WAKE_LENGTH)
        {
            // A wake-up from another transport's sender (see NetTransport.wakeAddress()). Its job was to end a sleep
            // in the selector; whoever took it from the socket passes it on, as wakeup() does: a sleeper about to
            // block sees the ticket move, one already in the selector is woken. (The shared-memory sender that sent
            // it rang once for the sleep: no second datagram would come.)
            counters.increment(NicEvent.WAKEUPS);
            wakeups.incrementAndGet();
            if (hostBlocking)
            {
                wire.wakeup();
            }
            return;
        }
        if (datagramLength < WireDescriptor.HEADER_LENGTH + WireDescriptor.TAG_LENGTH &&
            datagramLength != WireDescriptor.COOKIE_LENGTH)
        {
            counters.increment(NicEvent.TRUNCATED);
            return;
        }
        final int type = d.getByte(WireDescriptor.TYPE_OFFSET) & 0xFF;
        if (d.getShort(WireDescriptor.MAGIC_OFFSET) != WireDescriptor.MAGIC ||
            d.getByte(WireDescriptor.VERSION_OFFSET) != WireDescriptor.VERSION ||
            type < WireDescriptor.TYPE_DATA || type > WireDescriptor.TYPE_COOKIE)
        {
            counters.increment(NicEvent.BAD_HEADER);
            return;
        }
        if (d.getLong(WireDescriptor.DESTINATION_NIC_OFFSET) != nicId)
        {
            counters.increment(NicEvent.WRONG_NIC);
            return;
        }
        final long sourceNic = d.getLong(WireDescriptor.SOURCE_NIC_OFFSET);
        final Peer peer = peersByNic.get(sourceNic);
        if (type == WireDescriptor.TYPE_COOKIE)
        {
            onCookie(peer, datagramLength);
            return;
        }
        final int length = datagramLength - WireDescriptor.TAG_LENGTH;
        if (null == peer)
        {
            // Nothing from an unknown NIC is believed or answered, but a HELLO: it gets a cookie, or a peer.
            if (type == WireDescriptor.TYPE_HELLO && length == WireDescriptor.HELLO_LENGTH)
            {
                onHelloFromUnknown(from, sourceNic, length);
            }
            else
            {
                counters.increment(NicEvent.UNKNOWN_PEER);
            }
            return;
        }
        if (config.authenticate && d.getLong(length) != peer.receiveKey.hash(d, 0, length))
        {
            // Forged, spoiled, or from another incarnation: it changes nothing.
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        if (!peer.accepted)
        {
            // The peer knows us: stop introducing ourselves, and resend at once what it dropped while it did not.
            peer.accepted = true;
            retransmitSoon(peer.requestsOut);
            retransmitSoon(peer.repliesOut);
        }
        if (nowNanos - peer.lastHeardNanos > config.timeoutNanos / 2)
        {
            // Heard again after a long silence (it stalled, or was cut off; a running peer answers every
            // retransmission, at least every rtoMaxMs): what we sent meanwhile may still be in its socket or on its
            // way; give it a whole timeout before asking it to give anything up.
            extendDeadlines(peer);
        }
        peer.lastHeardNanos = nowNanos;
        final int flags = d.getShort(WireDescriptor.FLAGS_OFFSET) & 0xFFFF;
        if (peer.requestsOut.acknowledge(d.getLong(WireDescriptor.REQUEST_ACK_NEXT_OFFSET),
            d.getLong(WireDescriptor.REQUEST_ACK_BITS_OFFSET), nowNanos, peer.rtt) < 0 ||
            peer.repliesOut.acknowledge(d.getLong(WireDescriptor.REPLY_ACK_NEXT_OFFSET),
            d.getLong(WireDescriptor.REPLY_ACK_BITS_OFFSET), nowNanos, peer.rtt) < 0)
        {
            // An acknowledgement of sequences never sent: garbage (or another incarnation); trust nothing in it.
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        // The peer has its answers for everything below its floors: what we gave up below them can be forgotten.
        peer.requestsIn.floor(d.getLong(WireDescriptor.REQUEST_FLOOR_OFFSET));
        peer.repliesIn.floor(d.getLong(WireDescriptor.REPLY_FLOOR_OFFSET));
        if (0 != (flags & WireDescriptor.FLAG_BUSY))
        {
            refreshDeadlines(peer);
        }
        if (type == WireDescriptor.TYPE_ACK)
        {
            return;
        }
        if (type == WireDescriptor.TYPE_HELLO)
        {
            // From a peer we know: it does not know yet that we know it. Any tagged datagram tells it.
            if (length != WireDescriptor.HELLO_LENGTH || !Arrays.equals(peer.publicKey, helloKey(d)))
            {
                counters.increment(NicEvent.MALFORMED);
                return;
            }
            sendAck(peer);
            return;
        }
        final boolean replyChannel = 0 != (flags & WireDescriptor.FLAG_REPLY_CHANNEL);
        final long sequence = d.getLong(WireDescriptor.SEQUENCE_OFFSET);
        if (type == WireDescriptor.TYPE_GIVE_UP)
        {
            onGiveUp(peer, replyChannel, sequence);
            return;
        }
        if (type == WireDescriptor.TYPE_GIVE_UP_ANSWER)
        {
            onGiveUpAnswer(peer, replyChannel, sequence, 0 != (flags & WireDescriptor.FLAG_GIVEN_UP));
            return;
        }
        final ReceiveChannel in = peer.in(replyChannel);
        final int state = in.check(sequence);
        if (state == ReceiveChannel.DUPLICATE)
        {
            // Our acknowledgement was lost (or is late): the sender retransmitted. Answer at once.
            counters.increment(NicEvent.DUPLICATES);
            in.owe(nowNanos, 0, 1);
            nextTimerNanos = nowNanos;
            return;
        }
        if (state == ReceiveChannel.OUT_OF_WINDOW)
        {
            counters.increment(NicEvent.OUT_OF_WINDOW);
            return;
        }
        final int fragmentIndex = d.getByte(WireDescriptor.FRAGMENT_INDEX_OFFSET) & 0xFF;
        final int fragmentCount = d.getByte(WireDescriptor.FRAGMENT_COUNT_OFFSET) & 0xFF;
        final int bodyLength = d.getInt(WireDescriptor.BODY_LENGTH_OFFSET);
        final int fragmentOffset = d.getInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET);
        final int fragmentLength = length - WireDescriptor.HEADER_LENGTH;
        if (fragmentCount < 1 || fragmentCount > WireDescriptor.MAX_FRAGMENTS || fragmentIndex >= fragmentCount ||
            bodyLength < MessageDescriptor.HEADER_LENGTH || bodyLength > MessageDescriptor.MAX_BODY_LENGTH ||
            fragmentOffset < 0 || fragmentLength > bodyLength || fragmentOffset > bodyLength - fragmentLength ||
            (1 == fragmentCount && (0 != fragmentOffset || fragmentLength != bodyLength)))
        {
            counters.increment(NicEvent.TRUNCATED);
            return;
        }
        final int result;
        if (1 == fragmentCount)
        {
            result = deliver(peer, replyChannel, d, WireDescriptor.HEADER_LENGTH, bodyLength);
        }
        else
        {
            final Reassembly.Entry entry = peer.reassembly.add(replyChannel, sequence, fragmentIndex, fragmentCount,
                bodyLength, d, WireDescriptor.HEADER_LENGTH, fragmentOffset, fragmentLength, nowNanos);
            if (null == entry)
            {
                return;
            }
            result = deliver(peer, replyChannel, entry.body, 0, bodyLength);
            peer.reassembly.release(entry);
        }
        if (TAKEN == result)
        {
            in.take(sequence);
            in.owe(nowNanos, config.ackDelayNanos, ackBatch);
        }
        else if (BUSY == result)
        {
            peer.busyOwed = true;
        }
        if (peer.busyOwed)
        {
            nextTimerNanos = nowNanos;
        }
        else if (in.ackOwed() && in.ackDueNanos() - nextTimerNanos < 0)
        {
            nextTimerNanos = in.ackDueNanos();
        }
    }

    /**
     * Check a complete message body against its destination and put it into the destination's receive queue, or
     * send it back to its sender.
     *
     * @return {@link #TAKEN} or {@link #BUSY}.
     */
    private int deliver(final Peer peer, final boolean replyChannel, final DirectBuffer buffer, final int body,
        final int bodyLength)
    {
        final int code = buffer.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        final int sourceEndpoint = buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET);
        final int dataLength = buffer.getInt(body + MessageDescriptor.DATA_LENGTH_OFFSET);
        if (dataLength != bodyLength - MessageDescriptor.HEADER_LENGTH)
        {
            counters.increment(NicEvent.MALFORMED);
            return TAKEN;
        }
        if (MessageDescriptor.OPCODE_NAME == code)
        {
            learnName(peer, replyChannel, buffer, body, sourceEndpoint, dataLength);
            return TAKEN;
        }
        final int status = buffer.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) & 0xFF;
        final Opcode opcode = Opcode.fromCode(code);
        final NetEndpoint endpoint =
            endpointsById.get(buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        final int refusal = refusal(opcode, status, endpoint, buffer, body, dataLength);
        if (0 != refusal)
        {
            if (0 != status)
            {
                // A returned message is never returned again: drop it.
                counters.increment(NicEvent.MALFORMED);
                return TAKEN;
            }
            return refuse(peer, buffer, body, bodyLength, refusal);
        }
        // A long message always names its place in the segment, even with no data: the core checks it there.
        final boolean deposit = 0 == status && MessageCategory.LONG == opcode.category();
        final OneToOneRingBuffer queue = endpoint.receiveQueue(0 != status || !opcode.isRequest());
        final int route = endpoint.inverseRoute(peer, sourceEndpoint);
        if (route < 0)
        {
            // More distinct senders than the endpoint keeps routes for: refuse, so the sender learns.
            return 0 != status ? TAKEN : refuse(peer, buffer, body, bodyLength, ReturnStatus.EBADENDPOINT.code());
        }
        if (0 == status && opcode.isRequest() && null == endpoint.routeAt(route).peer())
        {
            // The sender's name announcement (an earlier sequence) has not arrived yet: take the request when it
            // is retransmitted, so that its token always names its source.
            return NOT_YET;
        }
        final int recordLength = QueueRecordDescriptor.BODY_OFFSET +
            (deposit ? MessageDescriptor.HEADER_LENGTH : bodyLength);
        final int index = queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, recordLength);
        if (index < 0)
        {
            counters.increment(NicEvent.RECEIVE_QUEUE_FULL);
            return BUSY;
        }
        final MutableDirectBuffer ring = queue.buffer();
        if (deposit)
        {
            // One read of the segment, checked and written: the user may install another one meanwhile.
            final org.agrona.concurrent.AtomicBuffer segment = endpoint.host().segment();
            final long segmentOffset = buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET);
            if (null == segment || segmentOffset < 0 || segmentOffset > segment.capacity() - (long)dataLength)
            {
                queue.abort(index);
                return refuse(peer, buffer, body, bodyLength, ReturnStatus.EBADSEGOFF.code());
            }
            // The NIC's "DMA" into the segment, before the record that announces it is committed.
            segment.putBytes((int)segmentOffset, buffer, body + MessageDescriptor.HEADER_LENGTH, dataLength);
        }
        ring.putInt(index + QueueRecordDescriptor.ROUTE_OFFSET, route);
        ring.putInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET, deposit ? 1 : 0);
        ring.putBytes(index + QueueRecordDescriptor.BODY_OFFSET, buffer, body,
            recordLength - QueueRecordDescriptor.BODY_OFFSET);
        commitAndSignal(queue, index, endpoint);
        counters.increment(NicEvent.MESSAGES_DELIVERED);
        return TAKEN;
    }

    /**
     * A HELLO from a NIC this NIC does not know. Without a valid cookie it costs one hash: a cookie goes back to the
     * datagram's source address and nothing is kept. With one (the claimant receives at that address), the link key is
     * derived from the claimed public key and must check the HELLO's tag; then the peer is made, its datagrams going to
     * the source address's host at the receiving port the (now authenticated) header names.
     */
    private void onHelloFromUnknown(final InetSocketAddress from, final long sourceNic, final int length)
    {
        final UnsafeBuffer d = received;
        final int port = d.getShort(WireDescriptor.SOURCE_PORT_OFFSET) & 0xFFFF;
        if (0 == port)
        {
            counters.increment(NicEvent.BAD_HEADER);
            return;
        }
        // The claimant's receiving socket: the source host, at the port its header names (its datagrams may leave
        // from a send socket of their own, see UdpWire). The cookie goes there and is bound to it, so a HELLO with it
        // proves the claimant receives there. A cookie is smaller than the HELLO that asked for it: no amplification.
        final InetSocketAddress claimant = from.getPort() == port ? from : new InetSocketAddress(from.getAddress(), port);
        final boolean hasCookie = 0 != (d.getShort(WireDescriptor.FLAGS_OFFSET) & WireDescriptor.FLAG_HAS_COOKIE);
        if (!hasCookie || !cookies.verify(d.getLong(WireDescriptor.HELLO_COOKIE_OFFSET), claimant, sourceNic, d,
            WireDescriptor.HELLO_KEY_OFFSET, nowNanos))
        {
            final long cookie = cookies.issue(claimant, sourceNic, d, WireDescriptor.HELLO_KEY_OFFSET, nowNanos);
            ack.putShort(WireDescriptor.MAGIC_OFFSET, WireDescriptor.MAGIC);
            ack.putByte(WireDescriptor.VERSION_OFFSET, WireDescriptor.VERSION);
            ack.putByte(WireDescriptor.TYPE_OFFSET, (byte)WireDescriptor.TYPE_COOKIE);
            ack.setMemory(WireDescriptor.FLAGS_OFFSET, WireDescriptor.HEADER_LENGTH - WireDescriptor.FLAGS_OFFSET,
                (byte)0);
            ack.putLong(WireDescriptor.SOURCE_NIC_OFFSET, nicId);
            ack.putLong(WireDescriptor.DESTINATION_NIC_OFFSET, sourceNic);
            ack.putLong(WireDescriptor.SOURCE_PORT_OFFSET, receivingPort);
            ack.putLong(WireDescriptor.COOKIE_OFFSET, cookie);
            ackBuffer.limit(WireDescriptor.COOKIE_LENGTH).position(0);
            try
            {
                wire.send(ackBuffer, wire.destination(claimant));
                counters.increment(NicEvent.COOKIES_SENT);
            }
            catch (final IOException | RuntimeException ex)
            {
                counters.increment(NicEvent.IO_ERRORS);
            }
            return;
        }
        // Allocates: only a claimant that proved it receives at its address gets this far.
        final SipHash transmit = new SipHash();
        final SipHash receive = new SipHash();
        try
        {
            keys.deriveLinkKeys(nicId, sourceNic, d, WireDescriptor.HELLO_KEY_OFFSET, transmit, receive);
        }
        catch (final IllegalArgumentException ex)
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        if (config.authenticate && d.getLong(length) != receive.hash(d, 0, length))
        {
            counters.increment(NicEvent.AUTH_FAILED);
            return;
        }
        final Peer peer;
        synchronized (registry)
        {
            peer = null != peersByNic.get(sourceNic) ? null :
                addPeer(sourceNic, claimant, helloKey(d), transmit, receive);
        }
        if (null == peer)
        {
            counters.increment(NicEvent.TOO_MANY_PEERS);
            return;
        }
        counters.increment(NicEvent.PEERS_ACCEPTED);
        peer.accepted = true;
        peer.lastHeardNanos = nowNanos;
        sendAck(peer);
    }

    private static byte[] helloKey(final UnsafeBuffer d)
    {
        final byte[] key = new byte[NicKeys.PUBLIC_KEY_LENGTH];
        d.getBytes(WireDescriptor.HELLO_KEY_OFFSET, key);
        return key;
    }

    /**
     * A peer we introduced ourselves to gave us a cookie: send the HELLO again with it. Untagged, so believed only
     * from a peer we are introducing ourselves to, and it only makes us send one more HELLO.
     */
    private void onCookie(final Peer peer, final int length)
    {
        if (null == peer || peer.accepted || length != WireDescriptor.COOKIE_LENGTH)
        {
            counters.increment(NicEvent.UNKNOWN_PEER);
            return;
        }
        peer.cookie = received.getLong(WireDescriptor.COOKIE_OFFSET);
        sendHello(peer);
    }

    private void retransmitSoon(final SendChannel channel)
    {
        final long end = channel.nextSequence();
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.slot(sequence);
            if (slot.inFlight)
            {
                slot.retransmitAtNanos = nowNanos;
            }
        }
        nextTimerNanos = nowNanos;
    }

    /**
     * The peer asks us to give up a message it sent and has had no acknowledgement for. Taken already (delivered, or
     * refused and answered): say so, and the peer will not return it. Not taken: give it up for good (no copy of it
     * is ever delivered after this) and say so, and the peer returns it to its sender. Either answer is final, and a
     * repeated request gets the same one.
     */
    private void onGiveUp(final Peer peer, final boolean replyChannel, final long sequence)
    {
        final int answer = peer.in(replyChannel).giveUp(sequence);
        if (answer == ReceiveChannel.OUT_OF_WINDOW)
        {
            counters.increment(NicEvent.OUT_OF_WINDOW);
            return;
        }
        if (answer == ReceiveChannel.GIVEN_UP)
        {
            peer.reassembly.discard(replyChannel, sequence);
            counters.increment(NicEvent.GIVEN_UP_HERE);
        }
        sendControl(peer, WireDescriptor.TYPE_GIVE_UP_ANSWER, replyChannel, sequence,
            answer == ReceiveChannel.GIVEN_UP ? WireDescriptor.FLAG_GIVEN_UP : 0);
    }

    /**
     * The peer answered a give-up: return the message to its sender when the peer gave it up, forget it when the
     * peer had delivered it. An answer for a sequence that is no longer being given up (a repeat) changes nothing.
     */
    private void onGiveUpAnswer(final Peer peer, final boolean replyChannel, final long sequence,
        final boolean givenUp)
    {
        final SendChannel channel = peer.out(replyChannel);
        final WindowSlot slot = channel.inFlight(sequence);
        if (null == slot || !slot.givingUp || 0 != slot.returnStatus)
        {
            return;
        }
        if (!givenUp)
        {
            counters.increment(NicEvent.GIVEN_UP_DELIVERED);
            channel.complete(slot);
            return;
        }
        counters.increment(NicEvent.GIVEN_UP_RETURNED);
        slot.returnStatus = ReturnStatus.ECONGESTION.code();
        if (returnLocally(peer, slot, slot.returnStatus))
        {
            channel.complete(slot);
        }
    }

    private static void commitAndSignal(final OneToOneRingBuffer queue, final int index, final NetEndpoint endpoint)
    {
        // Commit is a release store of the record length. The full fence orders it before the read of the sleeping
        // flag: the Dekker pair with the host, which stores its flag (volatile) and then checks the queue. Without
        // it the flag could be read before the commit is visible, and a host that has just gone to sleep would
        // miss the message until its time slice ends.
        queue.commit(index);
        VarHandle.fullFence();
        if (endpoint.isSleeping())
        {
            endpoint.host().signalArrival();
        }
    }

    private static int refusal(final Opcode opcode, final int status, final NetEndpoint endpoint,
        final DirectBuffer buffer, final int body, final int dataLength)
    {
        if (null == opcode || (buffer.getByte(body + MessageDescriptor.ARG_COUNT_OFFSET) & 0xFF) > Am.MAX_SHORT)
        {
            return ReturnStatus.EBADARGS.code();
        }
        if (null == endpoint || endpoint.isClosed())
        {
            return ReturnStatus.EBADENDPOINT.code();
        }
        if (0 != status)
        {
            return status > RETURN_STATUS_COUNT ? ReturnStatus.EBADARGS.code() : 0;
        }
        if (0 == (buffer.getByte(body + MessageDescriptor.HANDLER_OFFSET) & 0xFF))
        {
            return ReturnStatus.EBADHANDLER.code();
        }
        final MessageCategory category = opcode.category();
        if ((MessageCategory.SHORT == category && 0 != dataLength) ||
            (MessageCategory.MEDIUM == category && dataLength > Am.MAX_MEDIUM) ||
            (MessageCategory.LONG == category && dataLength > Am.MAX_LONG))
        {
            return ReturnStatus.EBADLENGTH.code();
        }
        if (opcode.isRequest() && !Tags.accepts(endpoint.tag(), buffer.getLong(body + MessageDescriptor.TAG_OFFSET)))
        {
            return ReturnStatus.EBADTAG.code();
        }
        if (MessageCategory.LONG == category)
        {
            return endpoint.host().checkSegment(buffer.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET),
                dataLength);
        }
        return 0;
    }

    /**
     * Send a message back to its sender with a status, on the reply channel.
     */
    private int refuse(final Peer peer, final DirectBuffer buffer, final int body, final int bodyLength,
        final int status)
    {
        return refuse(peer, buffer, body, bodyLength, status, false);
    }

    /**
     * @param deposited the body is a long message's header whose data went into the segment: it goes back without
     *                  its data (data length 0).
     */
    private int refuse(final Peer peer, final DirectBuffer buffer, final int body, final int bodyLength,
        final int status, final boolean deposited)
    {
        final SendChannel channel = peer.repliesOut;
        if (!channel.tryAcquire(1))
        {
            return BUSY;
        }
        final WindowSlot slot = channel.assign();
        slot.ensureCapacity(bodyLength);
        final UnsafeBuffer out = slot.view;
        final int copy = WireDescriptor.HEADER_LENGTH;
        out.putBytes(copy, buffer, body, bodyLength);
        out.putByte(copy + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)status);
        out.putInt(copy + MessageDescriptor.SOURCE_ENDPOINT_OFFSET,
            buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        out.putInt(copy + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET,
            buffer.getInt(body + MessageDescriptor.SOURCE_ENDPOINT_OFFSET));
        if (deposited)
        {
            out.putInt(copy + MessageDescriptor.DATA_LENGTH_OFFSET, 0);
        }
        start(slot, bodyLength, -1);
        transmit(peer, true, slot);
        counters.increment(NicEvent.REFUSED);
        return TAKEN;
    }

    private void learnName(final Peer peer, final boolean replyChannel, final DirectBuffer buffer, final int body,
        final int sourceEndpoint, final int dataLength)
    {
        if (replyChannel || dataLength > EndpointName.MAX_ENCODED_LENGTH)
        {
            counters.increment(NicEvent.MALFORMED);
            return;
        }
        final EndpointName known = peer.name(sourceEndpoint);
        if (null != known)
        {
            return;
        }
        final byte[] bytes = new byte[dataLength];
        buffer.getBytes(body + MessageDescriptor.HEADER_LENGTH, bytes);
        try
        {
            peer.learnName(sourceEndpoint, EndpointName.fromBytes(bytes));
        }
        catch (final RuntimeException ex)
        {
            counters.increment(NicEvent.MALFORMED);
        }
    }

    // ----------------------------------------------------------------------------------------------------------
    // Timers

    private int runTimers()
    {
        int work = 0;
        final long sinceLastRun = nowNanos - lastTimerRunNanos;
        lastTimerRunNanos = nowNanos;
        if (sinceLastRun > STALL_NANOS)
        {
            // Nobody ran the NIC for this long (the whole process stood still: the keeper runs every period
            // otherwise): the peers' acknowledgements may be waiting unread in the socket. Move every deadline by
            // the pause rather than blaming the peers for it.
            postpone(sinceLastRun);
        }
        nextTimerNanos = nowNanos + TIMER_TICK_NANOS;
        outstanding = 0;
        final int declarations = liveness.declarations();
        final boolean declared = declarations != declarationsSeen;
        declarationsSeen = declarations;
        for (final Peer peer : peers)
        {
            if (declared && !peer.died && liveness.isGone(peer.nicId))
            {
                died(peer);
            }
            if (!peer.hasTimers())
            {
                continue;
            }
            if (!peer.died && nowNanos - peer.lastHeardNanos > config.timeoutNanos &&
                nowNanos - peer.livenessCheckedNanos > config.timeoutNanos)
            {
                // Silent for a timeout with messages outstanding: stalled, cut off, or gone. Only evidence that its
                // process is gone resolves its messages; silence alone returns nothing.
                peer.livenessCheckedNanos = nowNanos;
                if (liveness.isGone(peer.someName))
                {
                    died(peer);
                }
            }
            work += scan(peer, peer.requestsOut, false);
            work += scan(peer, peer.repliesOut, true);
            if (peer.requestsIn.ackDue(nowNanos) || peer.repliesIn.ackDue(nowNanos) || peer.busyOwed)
            {
                sendAck(peer);
                work++;
            }
            peer.reassembly.expire(nowNanos, config.timeoutNanos);
        }
        counters.set(NicEvent.OUTSTANDING, outstanding);
        return work;
    }

    private int scan(final Peer peer, final SendChannel channel, final boolean replyChannel)
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
            else if (!slot.givingUp && nowNanos - slot.expiresAtNanos >= 0 &&
                nowNanos - peer.lastHeardNanos < config.timeoutNanos && mayGiveUp(slot))
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
            else if (nowNanos - slot.retransmitAtNanos >= 0)
            {
                slot.retransmits++;
                if (slot.givingUp)
                {
                    requestGiveUp(peer, replyChannel, slot);
                }
                else
                {
                    transmit(peer, replyChannel, slot);
                    counters.increment(NicEvent.RETRANSMITS);
                    final NetEndpoint endpoint = endpointsById.get(slot.localEndpointId);
                    if (null != endpoint)
                    {
                        endpoint.counters().retransmit();
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
    private static boolean mayGiveUp(final WindowSlot slot)
    {
        final UnsafeBuffer message = slot.view;
        final int body = WireDescriptor.HEADER_LENGTH;
        return MessageDescriptor.OPCODE_NAME != (message.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF) &&
            0 == message.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET) && slot.localEndpointId >= 0;
    }

    private void requestGiveUp(final Peer peer, final boolean replyChannel, final WindowSlot slot)
    {
        sendControl(peer, WireDescriptor.TYPE_GIVE_UP, replyChannel, slot.sequence, 0);
        counters.increment(NicEvent.GIVE_UPS_SENT);
        slot.lastSentNanos = nowNanos;
        slot.retransmitAtNanos = nowNanos + peer.rtt.backedOff(slot.retransmits);
    }

    /**
     * The peer's process is gone: every unresolved message to it comes back, with EOUTCOMEUNKNOWN since it was sent
     * and may have run there; messages queued for it later come back EUNREACHABLE without being sent.
     *
     * @param peer known dead.
     */
    private void died(final Peer peer)
    {
        if (peer.died)
        {
            return;
        }
        peer.died = true;
        counters.increment(NicEvent.PEERS_DIED);
        resolveAll(peer, peer.requestsOut);
        resolveAll(peer, peer.repliesOut);
        peer.reassembly.clear();
    }

    private void resolveAll(final Peer peer, final SendChannel channel)
    {
        final long end = channel.nextSequence();
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.inFlight(sequence);
            if (null != slot && 0 == slot.returnStatus)
            {
                counters.increment(NicEvent.OUTCOME_UNKNOWN);
                slot.returnStatus = ReturnStatus.EOUTCOMEUNKNOWN.code();
                if (returnLocally(peer, slot, slot.returnStatus))
                {
                    channel.complete(slot);
                }
            }
        }
    }

    private void postpone(final long nanos)
    {
        for (final Peer peer : peers)
        {
            postpone(peer.requestsOut, nanos);
            postpone(peer.repliesOut, nanos);
            peer.lastHeardNanos += nanos;
        }
    }

    private static void postpone(final SendChannel channel, final long nanos)
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

    private void extendDeadlines(final Peer peer)
    {
        extendDeadlines(peer.requestsOut);
        extendDeadlines(peer.repliesOut);
    }

    private void extendDeadlines(final SendChannel channel)
    {
        final long end = channel.nextSequence();
        final long expires = nowNanos + config.timeoutNanos;
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.slot(sequence);
            if (slot.inFlight && slot.expiresAtNanos - expires < 0)
            {
                slot.expiresAtNanos = expires;
            }
        }
    }

    private void refreshDeadlines(final Peer peer)
    {
        refreshDeadlines(peer.requestsOut);
        refreshDeadlines(peer.repliesOut);
    }

    private void refreshDeadlines(final SendChannel channel)
    {
        final long end = channel.nextSequence();
        for (long sequence = channel.oldest(); sequence < end; sequence++)
        {
            final WindowSlot slot = channel.slot(sequence);
            if (slot.inFlight)
            {
                // A busy peer is alive: restart the timeout, but not past BUSY_TIMEOUTS timeouts from the first
                // transmission, so that one endpoint that never polls cannot hold the window (shared by every
                // endpoint of its process) for ever.
                slot.expiresAtNanos = Math.min(nowNanos + config.timeoutNanos,
                    slot.firstSentNanos + BUSY_TIMEOUTS * config.timeoutNanos);
            }
        }
    }

    /**
     * Hand a message that will not be delivered back to the local endpoint that sent it, as a returned message
     * in its reply receive queue.
     *
     * @return true when done (or there is nobody to hand it to); false when the queue is full, to try again.
     */
    private boolean returnLocally(final Peer peer, final WindowSlot slot, final int status)
    {
        final UnsafeBuffer message = slot.view;
        final int body = WireDescriptor.HEADER_LENGTH;
        final int code = message.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF;
        final NetEndpoint endpoint = slot.localEndpointId < 0 ? null : endpointsById.get(slot.localEndpointId);
        if (MessageDescriptor.OPCODE_NAME == code || 0 != (message.getByte(body +
            MessageDescriptor.RETURN_STATUS_OFFSET)) || null == endpoint || endpoint.isClosed())
        {
            // An announcement, a returned message, or a sender that has gone: nobody to tell.
            return true;
        }
        final int route = endpoint.inverseRoute(peer, message.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET));
        final OneToOneRingBuffer queue = endpoint.receiveQueue(true);
        final int index = route < 0 ? -1 :
            queue.tryClaim(QueueRecordDescriptor.MESSAGE_TYPE, QueueRecordDescriptor.BODY_OFFSET + slot.bodyLength);
        if (index < 0)
        {
            return route < 0;
        }
        final MutableDirectBuffer ring = queue.buffer();
        ring.putInt(index + QueueRecordDescriptor.ROUTE_OFFSET, route);
        ring.putInt(index + QueueRecordDescriptor.DEPOSITED_OFFSET, 0);
        ring.putBytes(index + QueueRecordDescriptor.BODY_OFFSET, message, body, slot.bodyLength);
        ring.putByte(index + QueueRecordDescriptor.BODY_OFFSET + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)status);
        commitAndSignal(queue, index, endpoint);
        return true;
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
