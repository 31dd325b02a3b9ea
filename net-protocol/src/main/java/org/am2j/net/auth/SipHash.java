package org.am2j.net.auth;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;

/**
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012): a 64-bit keyed hash, the tag a NIC
 * puts on every datagram so that its peer can tell the datagram came from the one process that shares the key.
 * <p>
 * An instance holds one 128-bit key (two 64-bit halves {@code k0}, {@code k1}: the key's bytes 0..7 and 8..15 read
 * little-endian, as the reference implementation reads them) and can be keyed again at will: a NIC keeps one per peer
 * and direction and sets it once, when the link to the peer is keyed ({@link NicKeys}). {@link #hash(DirectBuffer,
 * int, int)} reads the message little-endian whatever the platform's byte order, allocates nothing and keeps no state
 * between calls.
 * <p>
 * Thread safety: {@code hash} only reads the key, so any number of threads may hash at once; a key must be set before
 * the instance is published to them (through a lock or a volatile write) and not changed while they may hash.
 * <p>
 * What the tag gives, under the threat model of {@link NicKeys}: without the key, an attacker who has seen any number
 * of tagged datagrams cannot make a valid tag for a datagram it has not seen, except by guessing (one chance in 2^64
 * per try). It does not hide the datagram, and it does not make a datagram fresh: a copy of a datagram the attacker
 * has seen carries a valid tag, so the protocol above must treat a replayed datagram as a duplicate (sequence numbers,
 * acknowledgement state that only moves forward).
 */
public final class SipHash
{
    /** Length of a key in bytes. */
    public static final int KEY_LENGTH = 16;

    /** Length of a tag in bytes, as {@link #hash(DirectBuffer, int, int)} returns it in a {@code long}. */
    public static final int TAG_LENGTH = 8;

    private static final long V0 = 0x736f6d6570736575L; // "somepseu"
    private static final long V1 = 0x646f72616e646f6dL; // "dorandom"
    private static final long V2 = 0x6c7967656e657261L; // "lygenera"
    private static final long V3 = 0x7465646279746573L; // "tedbytes"

    private long k0;
    private long k1;
    private boolean keyed;

    /**
     * Set the key.
     *
     * @param k0 bytes 0..7 of the key, little-endian.
     * @param k1 bytes 8..15 of the key, little-endian.
     * @return this.
     */
    public SipHash key(final long k0, final long k1)
    {
        this.k0 = k0;
        this.k1 = k1;
        this.keyed = true;
        return this;
    }

    /**
     * Set the key from its 16 bytes.
     *
     * @param key    holding the key.
     * @param offset of the key's first byte.
     * @return this.
     */
    public SipHash key(final byte[] key, final int offset)
    {
        if (offset < 0 || offset > key.length - KEY_LENGTH)
        {
            throw new IllegalArgumentException("a SipHash key is " + KEY_LENGTH + " bytes: offset " + offset +
                " of a " + key.length + "-byte array leaves " + Math.max(0, key.length - offset));
        }
        return key(littleEndianLong(key, offset), littleEndianLong(key, offset + 8));
    }

    /**
     * @return whether a key is set.
     */
    public boolean isKeyed()
    {
        return keyed;
    }

    /**
     * @param other another instance.
     * @return whether both hold a key and it is the same key.
     */
    public boolean hasSameKey(final SipHash other)
    {
        return keyed && other.keyed && k0 == other.k0 && k1 == other.k1;
    }

    /**
     * The tag of a range of a buffer under this instance's key.
     *
     * @param buffer holding the message.
     * @param offset of the message's first byte.
     * @param length of the message in bytes, 0 or more.
     * @return the 64-bit tag; its little-endian bytes are the reference implementation's output.
     * @throws IllegalStateException when no key is set.
     */
    public long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        if (!keyed)
        {
            throw new IllegalStateException("SipHash has no key: set one with key(k0, k1) before hashing");
        }
        return hash(k0, k1, buffer, offset, length);
    }

    /**
     * The tag of a range of a buffer under a key given by its halves; allocates nothing.
     *
     * @param k0     bytes 0..7 of the key, little-endian.
     * @param k1     bytes 8..15 of the key, little-endian.
     * @param buffer holding the message.
     * @param offset of the message's first byte.
     * @param length of the message in bytes, 0 or more.
     * @return the 64-bit tag; its little-endian bytes are the reference implementation's output.
     */
    public static long hash(final long k0, final long k1, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < 0)
        {
            throw new IllegalArgumentException("length must be 0 or more: " + length);
        }
        buffer.boundsCheck(offset, length);

        long v0 = k0 ^ V0;
        long v1 = k1 ^ V1;
        long v2 = k0 ^ V2;
        long v3 = k1 ^ V3;

        // Every full 8-byte block in a loop of its own (no test per block: it runs over every byte of a datagram).
        final int blocksEnd = offset + (length & ~7);
        for (int i = offset; i < blocksEnd; i += 8)
        {
            final long m = buffer.getLong(i, ByteOrder.LITTLE_ENDIAN);
            v3 ^= m;
            for (int round = 0; round < 2; round++)
            {
                v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
                v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
                v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
                v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
            }
            v0 ^= m;
        }

        // The last block: the 0..7 bytes left over, then the message length (mod 256) in the top byte.
        final long last = lastBlock(buffer, blocksEnd, length);
        v3 ^= last;
        for (int round = 0; round < 2; round++)
        {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        v0 ^= last;

        v2 ^= 0xFF;
        for (int round = 0; round < 4; round++)
        {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }

    private static long lastBlock(final DirectBuffer buffer, final int at, final int length)
    {
        long last = ((long)length) << 56;
        for (int j = 0; j < (length & 7); j++)
        {
            last |= (buffer.getByte(at + j) & 0xFFL) << (8 * j);
        }
        return last;
    }

    static long littleEndianLong(final byte[] bytes, final int offset)
    {
        long value = 0;
        for (int i = 7; i >= 0; i--)
        {
            value = (value << 8) | (bytes[offset + i] & 0xFFL);
        }
        return value;
    }

    /**
     * @return a description that never shows the key.
     */
    @Override
    public String toString()
    {
        return keyed ? "SipHash-2-4 (keyed)" : "SipHash-2-4 (no key)";
    }
}
