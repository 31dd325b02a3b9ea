package org.am2j.net;

/**
 * Layout of the header of every datagram the emulated NIC sends, little-endian:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+---------------+---------------+
 *  |        magic 0x4D41 "AM"      |    version    |     type      |  0
 *  +-------------------------------+---------------+---------------+
 *  |             flags             |  fragment ix  | fragment count|  4
 *  +-------------------------------+---------------+---------------+
 *  |                  source NIC id (64 bits)                      |  8
 *  +---------------------------------------------------------------+
 *  |                  destination NIC id (64 bits)                 | 16
 *  +---------------------------------------------------------------+
 *  |      sequence number of this message in its channel (DATA)    | 24
 *  +---------------------------------------------------------------+
 *  |   request channel: next sequence expected from the receiver   | 32
 *  +---------------------------------------------------------------+
 *  |   request channel: bit i = sequence (next + 1 + i) received   | 40
 *  +---------------------------------------------------------------+
 *  |   reply channel: next sequence expected from the receiver     | 48
 *  +---------------------------------------------------------------+
 *  |   reply channel: bit i = sequence (next + 1 + i) received     | 56
 *  +---------------------------------------------------------------+
 *  |   request channel floor: the sender's oldest sequence in its  | 64
 *  |   window (everything below is acknowledged or given up)       |
 *  +---------------------------------------------------------------+
 *  |   reply channel floor                                         | 72
 *  +---------------------------------------------------------------+
 *  |            body length (whole message, all fragments)         | 80
 *  +---------------------------------------------------------------+
 *  |            offset of this fragment's bytes in the body        | 84
 *  +-------------------------------+---------------+---------------+
 *  |  port of the sender's socket  |   key epoch   |  reserved (0) | 88
 *  +-------------------------------+---------------+---------------+
 *  |                 session id (handshake's, 32 bits)             | 92
 *  +---------------------------------------------------------------+
 *  |          transmission number under the epoch's key (64 bits)  | 96
 *  +---------------------------------------------------------------+
 *  |          fragment bytes: a slice of the message body ...      | 104
 *  +---------------------------------------------------------------+
 *  |          tag (128 bits)                                       | end - 16
 * </pre>
 * The tag is AES-128-GCM's, with the header as associated data, of a DATA or BATCH datagram in {@code encrypt} mode
 * (its fragment bytes are encrypted); the {@code Mac128} of every byte before it otherwise; zeros in {@code off} mode
 * ({@link WireSeal}).
 * The session id names the handshake whose keys the datagram is under (both ends derive it with the keys,
 * {@code org.am2j.net.auth.LinkSecret}); a receiver checks a datagram only against the session it names, and takes
 * nothing from one of a session it does not hold. The key epoch and transmission number are those of the datagram's
 * key; handshake datagrams ({@link #TYPE_HELLO}, {@link #TYPE_ANSWER}, {@link #TYPE_COOKIE}) carry zeros there and no
 * acknowledgement state or floors.
 * Every datagram carries the sender's acknowledgement state of both channels it receives from the destination
 * (piggybacked acknowledgements), and the floors of both channels it sends on (its oldest unresolved sequence: the
 * receiver forgets what it gave up below it); an {@link #TYPE_ACK} datagram carries nothing else, a
 * {@link #TYPE_GIVE_UP} or {@link #TYPE_GIVE_UP_ANSWER} only the sequence it is about. A {@link #TYPE_DATA} datagram
 * carries one fragment of a message body ({@link MessageDescriptor}); most messages fit in one fragment. A
 * {@link #TYPE_BATCH} datagram carries several whole messages for one peer, each with its own channel and sequence
 * number, in the entries {@link BatchDescriptor} draws after this header; its sequence field is 0 and its body length
 * field holds the number of entries.
 * A datagram of exactly {@link #WAKE_LENGTH} byte is a wake-up: a shared-memory sender sends it to a process asleep
 * in the NIC's selector, and the NIC ignores it.
 * The sender's port is where its NIC receives: a datagram may leave from another socket (see {@link UdpWire}), so
 * a receiver that learns of a peer from a datagram answers to the datagram's source address with this port.
 * The NIC ids are the processes' ids ({@code EndpointName.processId()}): a datagram for an earlier incarnation of
 * a process that reused the port is recognised and dropped.
 */
final class WireDescriptor
{
    /** Magic number: "AM" little-endian. */
    static final short MAGIC = 0x4D41;
    /** Version of this layout. */
    static final byte VERSION = 7;

    /** A fragment of a message. */
    static final int TYPE_DATA = 1;
    /** Acknowledgements only. */
    static final int TYPE_ACK = 2;
    /**
     * The sender asks the receiver to give up the message of the sequence number in {@link #SEQUENCE_OFFSET} on the
     * channel {@link #FLAG_REPLY_CHANNEL} names: it timed out unacknowledged. The receiver answers with
     * {@link #TYPE_GIVE_UP_ANSWER}; the sender returns the message to its sender's handler 0 only when that answer
     * says {@link #FLAG_GIVEN_UP}, so a message is never both delivered and returned.
     */
    static final int TYPE_GIVE_UP = 3;
    /** The answer to a {@link #TYPE_GIVE_UP}, for the same sequence and channel: given up, or delivered before. */
    static final int TYPE_GIVE_UP_ANSWER = 4;
    /**
     * The sender starts a session (a handshake): its public key at {@link #HELLO_KEY_OFFSET}, its random for this
     * handshake at {@link #HELLO_RANDOM_OFFSET}, its wire mode at {@link #HELLO_MODE_OFFSET} and, with
     * {@link #FLAG_HAS_COOKIE}, the cookie the receiver gave it at {@link #HELLO_COOKIE_OFFSET}. Tagged with the
     * handshake key both derive from their key pairs: a receiver that knows the sender checks it at once; one that
     * does not answers a HELLO without a valid cookie with {@link #TYPE_COOKIE} (one hash, no state), and one with a
     * valid cookie by deriving the key and checking the tag, then makes the peer. Either answers with a
     * {@link #TYPE_ANSWER}.
     */
    static final int TYPE_HELLO = 5;
    /**
     * A stateless cookie for a HELLO from an unknown NIC, at {@link #COOKIE_OFFSET}, sent to the HELLO's source
     * address: the claimant proves it receives there by sending it back. Untagged (the receiver has no key yet).
     */
    static final int TYPE_COOKIE = 6;
    /**
     * Several whole messages for one peer, each with its own channel and sequence number ({@link BatchDescriptor}):
     * a sender that drains several messages for one peer at once sends them in one datagram, up to its size limit.
     */
    static final int TYPE_BATCH = 7;
    /**
     * The answer to a {@link #TYPE_HELLO}: the random of the HELLO it answers at {@link #ANSWER_INITIATOR_RANDOM_OFFSET},
     * the answerer's own at {@link #ANSWER_RESPONDER_RANDOM_OFFSET}, its wire mode at {@link #ANSWER_MODE_OFFSET}, and,
     * with {@link #FLAG_WIRE_MISMATCH}, no session: the two ends run different wire modes. Tagged with the handshake key.
     */
    static final int TYPE_ANSWER = 8;
    /** The highest type number. */
    static final int LAST_TYPE = TYPE_ANSWER;

    /**
     * DATA: the message travels on the reply channel (replies and returned messages), else the request channel. Also
     * an entry flag of a {@link #TYPE_BATCH} ({@link BatchDescriptor#FLAGS_OFFSET}).
     */
    static final int FLAG_REPLY_CHANNEL = 0x1;
    /**
     * ACK: the sender of this datagram refused a message because a receive queue was full; it is alive, and the
     * messages it has not acknowledged will be taken when retransmitted.
     */
    static final int FLAG_BUSY = 0x2;
    /**
     * GIVE_UP_ANSWER: the receiver gave the message up and will never deliver it; without the flag, it had taken the
     * message before the give-up came (delivered, or refused and answered).
     */
    static final int FLAG_GIVEN_UP = 0x4;
    /** HELLO: a cookie follows the public key. */
    static final int FLAG_HAS_COOKIE = 0x8;
    /** ANSWER: the answerer runs another wire mode than the HELLO's; no session is made. */
    static final int FLAG_WIRE_MISMATCH = 0x10;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 2;
    static final int TYPE_OFFSET = 3;
    static final int FLAGS_OFFSET = 4;
    static final int FRAGMENT_INDEX_OFFSET = 6;
    static final int FRAGMENT_COUNT_OFFSET = 7;
    static final int SOURCE_NIC_OFFSET = 8;
    static final int DESTINATION_NIC_OFFSET = 16;
    static final int SEQUENCE_OFFSET = 24;
    static final int REQUEST_ACK_NEXT_OFFSET = 32;
    static final int REQUEST_ACK_BITS_OFFSET = 40;
    static final int REPLY_ACK_NEXT_OFFSET = 48;
    static final int REPLY_ACK_BITS_OFFSET = 56;
    static final int REQUEST_FLOOR_OFFSET = 64;
    static final int REPLY_FLOOR_OFFSET = 72;
    static final int BODY_LENGTH_OFFSET = 80;
    static final int FRAGMENT_OFFSET_OFFSET = 84;
    /** Unsigned 16 bits. */
    static final int SOURCE_PORT_OFFSET = 88;
    /** The key epoch of the datagram's key, 8 bits, followed by a reserved byte written as zero. */
    static final int KEY_EPOCH_OFFSET = 90;
    /** The session (handshake) the datagram belongs to, 32 bits. */
    static final int SESSION_OFFSET = 92;
    /** The datagram's transmission number under its key, 64 bits. */
    static final int TRANSMISSION_OFFSET = 96;

    /** Length of the header; the fragment bytes follow. */
    static final int HEADER_LENGTH = 104;

    /**
     * Every datagram but a wake-up and a {@link #TYPE_COOKIE} ends with this many bytes: its tag under the key of its
     * direction and epoch in its session ({@link WireSeal}), or, for a HELLO or ANSWER, under the link's handshake
     * key. A datagram whose tag does not check changes nothing at the receiver.
     */
    static final int TAG_LENGTH = 16;

    /** HELLO: the sender's X25519 public key (32 bytes). */
    static final int HELLO_KEY_OFFSET = HEADER_LENGTH;
    /** HELLO: the cookie (8 bytes), with {@link #FLAG_HAS_COOKIE}. */
    static final int HELLO_COOKIE_OFFSET = HELLO_KEY_OFFSET + 32;
    /** HELLO: the sender's random for this handshake (16 bytes). */
    static final int HELLO_RANDOM_OFFSET = HELLO_COOKIE_OFFSET + 8;
    /** HELLO: the sender's wire mode (8 bits), followed by 7 reserved bytes written as zero. */
    static final int HELLO_MODE_OFFSET = HELLO_RANDOM_OFFSET + 16;
    /** Length of a HELLO before its tag. */
    static final int HELLO_LENGTH = HELLO_MODE_OFFSET + 8;
    /** ANSWER: the random of the HELLO it answers (16 bytes). */
    static final int ANSWER_INITIATOR_RANDOM_OFFSET = HEADER_LENGTH;
    /** ANSWER: the answerer's random (16 bytes). */
    static final int ANSWER_RESPONDER_RANDOM_OFFSET = ANSWER_INITIATOR_RANDOM_OFFSET + 16;
    /** ANSWER: the answerer's wire mode (8 bits), followed by 7 reserved bytes written as zero. */
    static final int ANSWER_MODE_OFFSET = ANSWER_RESPONDER_RANDOM_OFFSET + 16;
    /** Length of an ANSWER before its tag. */
    static final int ANSWER_LENGTH = ANSWER_MODE_OFFSET + 8;
    /** COOKIE: the cookie (8 bytes). */
    static final int COOKIE_OFFSET = HEADER_LENGTH;
    /** Length of a COOKIE (no tag). */
    static final int COOKIE_LENGTH = COOKIE_OFFSET + 8;

    /** Length of a wake-up datagram. */
    static final int WAKE_LENGTH = 1;

    /** Most fragments one message may be cut into (the reassembly mask is a long). */
    static final int MAX_FRAGMENTS = 64;

    private WireDescriptor()
    {
    }
}
