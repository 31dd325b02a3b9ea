package org.am2j.net.auth;

import java.nio.charset.StandardCharsets;

/**
 * Layouts of the key derivation of a link between two NICs ({@link LinkSecret}), all HKDF-SHA256 (RFC 5869),
 * little-endian, the two NICs in canonical order so that both ends build the same bytes. The lower NIC is the one whose
 * id is lower as an unsigned number; when both ids are equal, the one whose public key is lower compared byte by byte
 * as unsigned numbers.
 *
 * <h2>The link secret (once per peer)</h2>
 * PRK = HKDF-Extract(no salt (HashLen zero bytes), the X25519 shared secret of the two NICs' long-term keys). It is
 * kept for the life of the peer: every key below derives from it.
 *
 * <h2>The handshake keys (once per peer)</h2>
 * HKDF-Expand(PRK, this info, {@link #HELLO_OKM_LENGTH}): the {@link Mac128} keys that tag the HELLOs and ANSWERs of
 * the handshakes, one per direction. They change only with the NICs' key pairs: a handshake datagram proves who sent it,
 * its randoms prove it is fresh.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |              label "am2j-net-hello-3" (16 ASCII bytes)        |  0
 *  +---------------------------------------------------------------+
 *  |                  lower NIC's id (64 bits)                     | 16
 *  +---------------------------------------------------------------+
 *  |         lower NIC's X25519 public key (32 bytes, RFC 7748)    | 24
 *  +---------------------------------------------------------------+
 *  |                  higher NIC's id (64 bits)                    | 56
 *  +---------------------------------------------------------------+
 *  |        higher NIC's X25519 public key (32 bytes, RFC 7748)    | 64
 *  +---------------------------------------------------------------+
 *                                                                    96
 *  output: Mac128 key lower to higher (32 bytes) | higher to lower (32 bytes)
 * </pre>
 *
 * <h2>The session secrets (once per handshake)</h2>
 * HKDF-Expand(PRK, this info, {@link #SESSION_OKM_LENGTH}): a traffic secret per direction and the session's id. Both
 * NICs contribute a random to every handshake, so no two handshakes of a link, however often it is made again, share a
 * key; the wire version and mode are in the info, so two NICs that disagree on either (or an attacker who changed the
 * mode a HELLO claims) derive unrelated keys and their datagrams fail.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |              label "am2j-net-sess-v3" (16 ASCII bytes)        |  0
 *  +---------------+---------------+-------------------------------+
 *  | wire version  |   wire mode   |         reserved (0)          | 16
 *  +---------------+---------------+-------------------------------+
 *  |                         reserved (0)                          | 20
 *  +---------------------------------------------------------------+
 *  |                  lower NIC's id (64 bits)                     | 24
 *  +---------------------------------------------------------------+
 *  |         lower NIC's X25519 public key (32 bytes)              | 32
 *  +---------------------------------------------------------------+
 *  |         lower NIC's random of this handshake (16 bytes)       | 64
 *  +---------------------------------------------------------------+
 *  |                  higher NIC's id (64 bits)                    | 80
 *  +---------------------------------------------------------------+
 *  |         higher NIC's X25519 public key (32 bytes)             | 88
 *  +---------------------------------------------------------------+
 *  |         higher NIC's random of this handshake (16 bytes)      | 120
 *  +---------------------------------------------------------------+
 *                                                                    136
 *  output: traffic secret lower to higher (32 bytes) | higher to lower (32 bytes) | session id (32 bits)
 * </pre>
 *
 * <h2>The keys of a key epoch (once per epoch and direction)</h2>
 * HKDF-Expand(traffic secret of the direction, this info, {@link #EPOCH_OKM_LENGTH}): the keys that seal the datagrams
 * of one direction in one key epoch.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |              label "am2j-net-epoch-3" (16 ASCII bytes)        |  0
 *  +---------------------------------------------------------------+
 *  |                      epoch (32 bits)                          | 16
 *  +---------------------------------------------------------------+
 *                                                                    20
 *  output: AES-128 key (16 bytes) | Mac128 key (32 bytes)
 * </pre>
 * The labels change with any change to these layouts or to the algorithms, so that two NICs of different versions
 * derive unrelated keys and refuse each other's datagrams instead of misreading them.
 */
final class LinkKeyDescriptor
{
    /** Label of the handshake keys' info. */
    static final byte[] HELLO_LABEL = label("am2j-net-hello-3");
    /** Label of the session secrets' info. */
    static final byte[] SESSION_LABEL = label("am2j-net-sess-v3");
    /** Label of an epoch's keys' info. */
    static final byte[] EPOCH_LABEL = label("am2j-net-epoch-3");
    /** Length of every label. */
    static final int LABEL_LENGTH = 16;

    /** Length of a NIC's id and public key, as both infos hold them. */
    static final int NIC_LENGTH = 8 + X25519Codec.PUBLIC_KEY_LENGTH;
    /** Length of a handshake random. */
    static final int RANDOM_LENGTH = 16;

    static final int HELLO_LOWER_OFFSET = LABEL_LENGTH;
    static final int HELLO_HIGHER_OFFSET = HELLO_LOWER_OFFSET + NIC_LENGTH;
    /** Length of the handshake keys' info. */
    static final int HELLO_INFO_LENGTH = HELLO_HIGHER_OFFSET + NIC_LENGTH;
    static final int HELLO_LOWER_TO_HIGHER_OFFSET = 0;
    static final int HELLO_HIGHER_TO_LOWER_OFFSET = Mac128.KEY_LENGTH;
    static final int HELLO_OKM_LENGTH = 2 * Mac128.KEY_LENGTH;

    static final int SESSION_VERSION_OFFSET = LABEL_LENGTH;
    static final int SESSION_MODE_OFFSET = SESSION_VERSION_OFFSET + 1;
    static final int SESSION_LOWER_OFFSET = 24;
    static final int SESSION_LOWER_RANDOM_OFFSET = SESSION_LOWER_OFFSET + NIC_LENGTH;
    static final int SESSION_HIGHER_OFFSET = SESSION_LOWER_RANDOM_OFFSET + RANDOM_LENGTH;
    static final int SESSION_HIGHER_RANDOM_OFFSET = SESSION_HIGHER_OFFSET + NIC_LENGTH;
    /** Length of the session secrets' info. */
    static final int SESSION_INFO_LENGTH = SESSION_HIGHER_RANDOM_OFFSET + RANDOM_LENGTH;
    /** Length of a traffic secret. */
    static final int TRAFFIC_SECRET_LENGTH = 32;
    static final int SESSION_LOWER_TO_HIGHER_OFFSET = 0;
    static final int SESSION_HIGHER_TO_LOWER_OFFSET = TRAFFIC_SECRET_LENGTH;
    static final int SESSION_ID_OFFSET = 2 * TRAFFIC_SECRET_LENGTH;
    static final int SESSION_OKM_LENGTH = SESSION_ID_OFFSET + 4;

    static final int EPOCH_NUMBER_OFFSET = LABEL_LENGTH;
    /** Length of an epoch's keys' info. */
    static final int EPOCH_INFO_LENGTH = EPOCH_NUMBER_OFFSET + 4;
    /** Length of a cipher key (AES-128). */
    static final int CIPHER_KEY_LENGTH = 16;
    static final int EPOCH_CIPHER_KEY_OFFSET = 0;
    static final int EPOCH_MAC_KEY_OFFSET = CIPHER_KEY_LENGTH;
    static final int EPOCH_OKM_LENGTH = EPOCH_MAC_KEY_OFFSET + Mac128.KEY_LENGTH;

    private LinkKeyDescriptor()
    {
    }

    private static byte[] label(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length != 16)
        {
            throw new AssertionError("link key label must be 16 bytes: " + text);
        }
        return bytes;
    }
}
