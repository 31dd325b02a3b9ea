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
    /** Messages delivered into a receive queue. */
    MESSAGES_DELIVERED,
    /** Explicit acknowledgement datagrams sent. */
    ACKS_SENT,
    /** Messages retransmitted. */
    RETRANSMITS,
    /** Duplicates recognised and not delivered. */
    DUPLICATES,
    /** One-byte wake-up datagrams from other transports' senders (ignored; they woke the selector). */
    WAKEUPS,
    /** Datagrams shorter than a header, or whose lengths contradict their size. */
    TRUNCATED,
    /** Datagrams with the wrong magic number or version, or an unknown type. */
    BAD_HEADER,
    /** Datagrams for another incarnation of this process (port reused). */
    WRONG_NIC,
    /** Datagrams from an unknown NIC when no more peers fit. */
    TOO_MANY_PEERS,
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
    /** Messages that timed out and went back to their senders' handler 0. */
    TIMED_OUT,
    /** Datagrams the socket did not take (its buffer was full): left to retransmission. */
    SEND_BUFFER_FULL,
    /**
     * Socket errors: counted by the agent and by host threads that block in the wire without holding it, so its
     * every increment is an atomic add ({@link #hasSeveralWriters()}).
     */
    IO_ERRORS(true);

    private final boolean severalWriters;

    NicEvent()
    {
        this(false);
    }

    NicEvent(final boolean severalWriters)
    {
        this.severalWriters = severalWriters;
    }

    /**
     * @return true when threads other than the agent count it too: its increments must be atomic adds, where the
     * agent's own events take a release store of the value it read.
     */
    boolean hasSeveralWriters()
    {
        return severalWriters;
    }
}
