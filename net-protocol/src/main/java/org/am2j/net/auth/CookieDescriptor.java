package org.am2j.net.auth;

/**
 * Layouts of a handshake cookie ({@link Cookies}). The cookie is SipHash-2-4, under the issuing NIC's secret of the
 * time epoch, of these bytes, little-endian, which never leave the issuing process:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |             time epoch: floor(time / period) (64 bits)        |  0
 *  +---------------------------------------------------------------+
 *  |             NIC id the claimant claims (64 bits)              |  8
 *  +-------------------------------+---------------+---------------+
 *  |   source UDP port (unsigned)  |  address len  |  reserved (0) | 16
 *  +-------------------------------+---------------+---------------+
 *  |                          reserved (0)                         | 20
 *  +---------------------------------------------------------------+
 *  |     source IP address: 4 bytes (IPv4) or 16 bytes (IPv6),     | 24
 *  |     network byte order, zero-padded to 16 bytes               |
 *  +---------------------------------------------------------------+
 *  |     the claimant's X25519 public key (32 bytes, RFC 7748)     | 40
 *  +---------------------------------------------------------------+
 *                                                                    72
 * </pre>
 * The address length tells an IPv4 address from the IPv6 address that starts with the same four bytes. The cookie
 * itself is 64 bits: bits 63..1 are bits 63..1 of the tag, bit 0 is the parity of the epoch it was issued in, which
 * tells the verifier which of its two secrets to hash with (one hash per check).
 */
final class CookieDescriptor
{
    static final int EPOCH_OFFSET = 0;
    static final int NIC_ID_OFFSET = 8;
    static final int PORT_OFFSET = 16;
    static final int ADDRESS_LENGTH_OFFSET = 18;
    static final int ADDRESS_OFFSET = 24;
    /** Room for the longest address, IPv6. */
    static final int ADDRESS_CAPACITY = 16;
    static final int PUBLIC_KEY_OFFSET = ADDRESS_OFFSET + ADDRESS_CAPACITY;
    /** Length of the hashed bytes. */
    static final int LENGTH = PUBLIC_KEY_OFFSET + X25519Codec.PUBLIC_KEY_LENGTH;

    /** Length of an IPv4 address. */
    static final int IPV4_LENGTH = 4;
    /** Length of an IPv6 address. */
    static final int IPV6_LENGTH = 16;

    /** Bit of a cookie that holds the parity of its epoch. */
    static final long EPOCH_PARITY_BIT = 1L;

    private CookieDescriptor()
    {
    }
}
