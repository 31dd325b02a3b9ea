package org.am2j.net;

/**
 * What a NIC counts ({@link NicCounters}): traffic, and every datagram or message it dropped, refused or retried.
 */
enum NicEvent
{
    /** Datagrams handed to the socket. */
    DATAGRAMS_SENT,
    /** Datagrams read from the socket. */
    DATAGRAMS_RECEIVED,
    /** Reads of the socket that found no datagram: each a system call spent on nothing. */
    EMPTY_RECEIVES,
    /** Messages (all fragments) sent for the first time. */
    MESSAGES_SENT,
    /** Of those, messages an inline NIC's host wrote straight into the window, without a send-queue record. */
    DIRECT_SENDS,
    /**
     * Of those, direct sends held for their peer's next batch because the CPUs were oversubscribed: they went out
     * when the host polled, slept, found a window full or closed, or the keeper ran the NIC.
     */
    HELD_SENDS,
    /** Datagrams that carried several whole messages for one peer at once ({@link WireDescriptor#TYPE_BATCH}). */
    BATCHES_SENT,
    /**
     * Messages sent in those (among {@link #MESSAGES_SENT}): {@code batched_messages / batches_sent} is the batch
     * factor, and {@code messages_sent} over {@code messages_sent - batched_messages + batches_sent} the messages per
     * first-sending datagram (messages cut into fragments aside).
     */
    BATCHED_MESSAGES,
    /** Batch datagrams read whose tag and layout checked. */
    BATCHES_RECEIVED,
    /** Messages delivered into a receive queue or handed to the polling host. */
    MESSAGES_DELIVERED,
    /** Of those, messages an inline NIC handed to its polling host from the datagram, without a receive-queue record. */
    DIRECT_DELIVERIES,
    /** Explicit acknowledgement datagrams sent. */
    ACKS_SENT,
    /** Messages retransmitted. */
    RETRANSMITS,
    /** Duplicates recognised and not delivered. */
    DUPLICATES,
    /** One-byte wake-up datagrams from other transports' senders (ignored; they woke the selector). */
    WAKEUPS,
    /**
     * Datagrams shorter than a header, or whose lengths contradict their size (a batch whose entries do not fill it
     * exactly: dropped whole, none of its messages taken).
     */
    TRUNCATED,
    /** Datagrams with the wrong magic number or version, or an unknown type. */
    BAD_HEADER,
    /** Datagrams for another incarnation of this process (port reused). */
    WRONG_NIC,
    /** HELLOs from unknown NICs that checked out, when no more peers fit (and none could be evicted). */
    TOO_MANY_PEERS,
    /** Datagrams from a NIC this NIC does not know (no HELLO): dropped unanswered. */
    UNKNOWN_PEER,
    /** Datagrams whose tag does not check under the link's key (forged, spoiled, or a stale key): dropped. */
    AUTH_FAILED,
    /** HELLOs this NIC sent to introduce itself. */
    HELLOS_SENT,
    /** Cookies sent in answer to HELLOs from unknown NICs (one hash each, nothing kept). */
    COOKIES_SENT,
    /** ANSWERs sent to HELLOs (repeats of a lost one included). */
    ANSWERS_SENT,
    /** HELLOs from a peer this NIC was sending its own HELLO to, left unanswered: the lower NIC's handshake goes on. */
    HELLOS_CROSSED,
    /** ANSWERs for a HELLO this NIC no longer sends (repeats, or replays): they change nothing. */
    STALE_HANDSHAKES,
    /** Sessions made by handshakes (each with keys of its own). */
    SESSIONS,
    /**
     * Sessions that replaced one in use: the peer had forgotten this NIC (it evicted it from a full table) and made a
     * new one. Messages sent in the old session and unresolved came back EOUTCOMEUNKNOWN.
     */
    SESSIONS_RESTARTED,
    /** Datagrams of a session this NIC does not hold (an earlier one's, or made up): dropped. */
    UNKNOWN_SESSION,
    /** Key epochs this NIC's sending directions moved to: each key sealed what it may, and the next took over. */
    REKEYS,
    /** Handshakes refused because the peer runs another wire mode or version (reported once on stderr). */
    WIRE_MISMATCHES,
    /**
     * Name announcements not kept: for an endpoint that does not exist or does not accept their tag, or over the
     * announcing peer's budget of names (or all peers'); such a peer's requests from endpoints not named are refused.
     */
    NAMES_REFUSED,
    /** Peers made from HELLOs with a valid cookie and tag. */
    PEERS_ACCEPTED,
    /** Idle peers that no route led to, evicted from a full table for a new one. */
    PEERS_EVICTED,
    /** Data sequences outside the receive window. */
    OUT_OF_WINDOW,
    /** Message bodies whose fields contradict each other or the datagram: dropped. */
    MALFORMED,
    /** Messages refused by this NIC (tag, endpoint, handler, lengths) and sent back to their senders. */
    REFUSED,
    /** Messages not taken because a receive queue was full (the sender retransmits). */
    RECEIVE_QUEUE_FULL,
    /** Fragments dropped because no reassembly entry was free. */
    REASSEMBLY_FULL,
    /** Give-up requests sent for messages unacknowledged past the timeout (first requests and repeats). */
    GIVE_UPS_SENT,
    /** Messages the peer gave up at this NIC's request: returned to their senders' handler 0 with ECONGESTION. */
    GIVEN_UP_RETURNED,
    /** Messages this NIC asked to give up that the peer had delivered already: not returned. */
    GIVEN_UP_DELIVERED,
    /** Messages this NIC gave up at a peer's request, never to be delivered. */
    GIVEN_UP_HERE,
    /** Messages returned with EUNREACHABLE: their peer was known dead before they were sent. */
    UNREACHABLE,
    /** Messages returned with EOUTCOMEUNKNOWN: their peer died while they were unresolved. */
    OUTCOME_UNKNOWN,
    /** Messages taken for an endpoint that closed before its host handled them, returned to their senders. */
    UNDELIVERED_RETURNED,
    /** Of those, returned messages (nobody to return them to) and messages from dead peers: dropped. */
    UNDELIVERED_DROPPED,
    /** Peers known dead (their process is gone). */
    PEERS_DIED,
    /**
     * Gauge, not a count: messages sent and not resolved yet (waiting for an acknowledgement or a give-up answer),
     * updated by the timer scan. Messages to a silent peer stay here until it answers or is known dead.
     */
    OUTSTANDING,
    /** Datagrams the socket did not take (its buffer was full): left to retransmission. */
    SEND_BUFFER_FULL,
    /**
     * Socket errors: counted by the agent and by host threads that block in the wire without holding it, so its
     * every increment is an atomic add ({@link #hasSeveralWriters()}).
     */
    IO_ERRORS;

    /**
     * @return true when threads other than the agent count it too: its increments must be atomic adds, where the
     * agent's own events take a release store of the value it read. Only {@link #IO_ERRORS} has.
     */
    boolean hasSeveralWriters()
    {
        return IO_ERRORS == this;
    }
}
