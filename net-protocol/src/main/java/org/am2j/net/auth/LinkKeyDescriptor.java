package org.am2j.net.auth;

import java.nio.charset.StandardCharsets;

/**
 * Layouts of the key derivation of a link between two NICs ({@link NicKeys#deriveLinkKeys}): HKDF-SHA256 (RFC 5869)
 * with the X25519 shared secret as input keying material, no salt (HashLen zero bytes), and this info, little-endian,
 * the two NICs in canonical order so that both ends build the same bytes:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |              label "am2j-net-link-v1" (16 ASCII bytes)        |  0
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
 * </pre>
 * The lower NIC is the one whose id is lower as an unsigned number; when both ids are equal, the one whose public key
 * is lower compared byte by byte as unsigned numbers. The output keying material, {@link #OKM_LENGTH} bytes, holds the
 * SipHash key of each direction:
 * <pre>
 *  +---------------------------------------------------------------+
 *  |    SipHash key of datagrams from the lower NIC to the higher  |  0
 *  |    (16 bytes: k0 then k1, little-endian)                      |
 *  +---------------------------------------------------------------+
 *  |    SipHash key of datagrams from the higher NIC to the lower  | 16
 *  +---------------------------------------------------------------+
 *                                                                    32
 * </pre>
 * The label changes with any change to these layouts or to the algorithms, so that two NICs of different versions
 * derive unrelated keys and refuse each other's datagrams instead of misreading them.
 */
final class LinkKeyDescriptor
{
    /** Label at the start of the info: names the protocol and the version of this derivation. */
    static final byte[] LABEL = "am2j-net-link-v1".getBytes(StandardCharsets.US_ASCII);

    static final int LABEL_OFFSET = 0;
    static final int LOWER_NIC_ID_OFFSET = 16;
    static final int LOWER_PUBLIC_KEY_OFFSET = 24;
    static final int HIGHER_NIC_ID_OFFSET = LOWER_PUBLIC_KEY_OFFSET + X25519Codec.PUBLIC_KEY_LENGTH;
    static final int HIGHER_PUBLIC_KEY_OFFSET = HIGHER_NIC_ID_OFFSET + 8;
    /** Length of the info. */
    static final int INFO_LENGTH = HIGHER_PUBLIC_KEY_OFFSET + X25519Codec.PUBLIC_KEY_LENGTH;

    /** Offset in the output keying material of the key of datagrams from the lower NIC to the higher one. */
    static final int LOWER_TO_HIGHER_KEY_OFFSET = 0;
    /** Offset in the output keying material of the key of datagrams from the higher NIC to the lower one. */
    static final int HIGHER_TO_LOWER_KEY_OFFSET = SipHash.KEY_LENGTH;
    /** Length of the output keying material. */
    static final int OKM_LENGTH = 2 * SipHash.KEY_LENGTH;

    static
    {
        if (LABEL.length != LOWER_NIC_ID_OFFSET)
        {
            throw new AssertionError("link key label must be " + LOWER_NIC_ID_OFFSET + " bytes");
        }
    }

    private LinkKeyDescriptor()
    {
    }
}
