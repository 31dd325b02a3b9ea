package org.am2j.net;

import java.util.concurrent.atomic.AtomicInteger;

import org.am2j.api.EndpointName;
import org.am2j.net.auth.LinkSecret;
import org.am2j.net.auth.Mac128;
import org.am2j.spi.ProcessIdentity;

/**
 * Another process's NIC, as this NIC knows it: where it is, the two channels to it and from it (requests; replies
 * and returned messages, apart so that a request flood never holds up the replies that drain it), its round-trip
 * estimate, its fragments being reassembled, and the names of its endpoints learnt from mappings and
 * announcements. Created by a host's {@code map} or by the NIC on the first datagram from an unknown NIC.
 */
final class Peer
{
    final int index;
    final long nicId;
    /** Where its datagrams go: {@code destination.address} is its NIC's receiving socket. */
    final Destination destination;
    final SendChannel requestsOut;
    final SendChannel repliesOut;
    final ReceiveChannel requestsIn = new ReceiveChannel();
    final ReceiveChannel repliesIn = new ReceiveChannel();
    final RttEstimator rtt;
    final Reassembly reassembly;
    /** Messages drained for the peer and not sent yet: they go out together at the end of the drain. NIC thread. */
    final PendingBatch pending;
    /** The names of its endpoints this NIC knows. */
    final PeerNames names = new PeerNames();

    /**
     * The peer's process is known to be gone (it was on this machine and its pid no longer runs, or the job said
     * so): nothing more is sent to it, what it may have received comes back with EOUTCOMEUNKNOWN, what it never got
     * with EUNREACHABLE. For good: a process that comes back is a new NIC id.
     */
    volatile boolean died;
    /** A name of one of the peer's endpoints (its node and pid, for the liveness check), or null while unknown. */
    volatile EndpointName someName;
    /**
     * The start time of the process that held {@link #someName}'s pid on this machine when the name was learnt
     * ({@link ProcessIdentity#UNKNOWN_START_TIME} when none did): a pid given to another process since is no proof of
     * life. Written before {@link #someName}, whose volatile store publishes it.
     */
    long someNameStartTimeMs = ProcessIdentity.UNKNOWN_START_TIME;
    /** A message was refused for a full receive queue: tell the peer we are alive but busy. NIC thread. */
    boolean busyOwed;
    /** When a datagram from the peer last arrived. NIC thread. */
    long lastHeardNanos;
    /** When the NIC last looked for evidence that the silent peer's process is gone. NIC thread. */
    long livenessCheckedNanos;
    /** The link's secret, every key of it derives from; null for the peer that stands for this NIC. */
    final LinkSecret secret;
    /** Key of the handshake datagrams to the peer. */
    final Mac128 helloTransmit = new Mac128();
    /** Key of the handshake datagrams from the peer. */
    final Mac128 helloReceive = new Mac128();
    /** The peer's public key (RFC 7748 bytes): a peer claiming this NIC id with another key is refused. */
    final byte[] publicKey;
    /** The session datagrams go out in, or null before the first handshake completes. NIC thread. */
    LinkSession session;
    /**
     * A session this NIC answered a HELLO for: it becomes {@link #session} when a datagram of it from the peer checks
     * (the peer got the ANSWER and holds the keys). Until then the current session, if any, goes on. NIC thread.
     */
    LinkSession answered;
    /** The random of the HELLO this NIC is sending to start a session, or null. NIC thread. */
    byte[] helloRandom;
    /** The last cookie the peer gave us for our HELLO, or 0. NIC thread. */
    long cookie;
    /** When the last HELLO (or, until the peer answers in the new session, its confirmation) went out. NIC thread. */
    long helloSentNanos;
    /**
     * Sessions that replaced an earlier one (the peer had forgotten this NIC and introduced itself again): the peer
     * knows none of our names then, so a route that announced its endpoint's name in an earlier session announces it
     * again. Written by the NIC thread, read by hosts.
     */
    volatile int restarts;
    /**
     * The peer runs another wire mode: both ends logged why, and nothing is sent to it (what was queued comes back
     * EUNREACHABLE: it never left).
     */
    volatile boolean wireRefused;
    /** The peer's other wire mode was reported on stderr. NIC thread. */
    boolean mismatchReported;
    /** Routes (of hosts' translation tables, or endpoints' inverse mappings) that lead to this peer. */
    final AtomicInteger routes = new AtomicInteger();
    /**
     * True for the peer that stands for this NIC itself ({@link PeerTable#self}): routes between two endpoints it
     * serves lead to it, and their messages go from one endpoint's send queue into the other's receive queue without
     * a datagram or a window. Written before the peer is published.
     */
    boolean sameNic;

    Peer(final int index, final long nicId, final Destination destination, final NetConfig config,
        final long nowNanos, final byte[] publicKey, final LinkSecret secret)
    {
        this.publicKey = publicKey;
        this.secret = secret;
        if (null != secret)
        {
            secret.helloKeys(helloTransmit, helloReceive);
        }
        this.index = index;
        this.nicId = nicId;
        this.destination = destination;
        this.requestsOut = new SendChannel(config.depth);
        this.repliesOut = new SendChannel(config.depth);
        this.rtt = new RttEstimator(config.rtoInitialNanos, config.rtoMinNanos, config.rtoMaxNanos);
        this.reassembly = new Reassembly(config.reassemblySlots);
        this.pending = new PendingBatch(2 * config.depth);
        this.lastHeardNanos = nowNanos;
    }

    /**
     * A local endpoint maps an endpoint of the peer's process: its name is known from then on.
     *
     * @param endpointId id of an endpoint of the peer's process.
     * @param name       its name.
     */
    void learnName(final int endpointId, final EndpointName name)
    {
        names.mapped(endpointId, name);
        knowProcessBy(name);
    }

    /**
     * Take {@code name} as the one the liveness check looks the peer's process up by, unless one was taken already.
     *
     * @param name a name of one of the peer's endpoints.
     */
    void knowProcessBy(final EndpointName name)
    {
        if (null == someName && null != name)
        {
            // Read once, while the name is fresh: its process is the one running under the pid now, or none.
            someNameStartTimeMs = ProcessIdentity.startTimeMs(name.pid());
            someName = name;
        }
    }

    /**
     * @param endpointId id of an endpoint of the peer's process.
     * @return its name, or null when not known (yet).
     */
    EndpointName name(final int endpointId)
    {
        return names.get(endpointId);
    }

    /**
     * @param replyChannel true for replies and returned messages.
     * @return the send channel.
     */
    SendChannel out(final boolean replyChannel)
    {
        return replyChannel ? repliesOut : requestsOut;
    }

    /**
     * @param replyChannel true for replies and returned messages.
     * @return the receive channel.
     */
    ReceiveChannel in(final boolean replyChannel)
    {
        return replyChannel ? repliesIn : requestsIn;
    }

    /**
     * @return true when the NIC has something to do for this peer on a timer.
     */
    boolean hasTimers()
    {
        return requestsOut.hasInFlight() || repliesOut.hasInFlight() || requestsIn.ackOwed() || repliesIn.ackOwed() ||
            busyOwed || reassembly.busy() || handshaking();
    }

    /**
     * @return true while this NIC sends HELLOs, or has a session the peer has not shown it holds yet (the
     *         confirmation of a session this NIC started is sent again until it does).
     */
    boolean handshaking()
    {
        return null != helloRandom || (null != session && session.initiator && !session.anchored);
    }

    /**
     * @return true when nothing may be sent to the peer: its process is gone, or it runs another wire mode.
     */
    boolean unreachable()
    {
        return died || wireRefused;
    }

    @Override
    public String toString()
    {
        return "peer NIC " + Long.toHexString(nicId) + " at " + destination.address + (died ? " (died)" : "");
    }
}
