package org.am2j.net.auth;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A 128-bit tag: SipHash-2-4 of the same bytes under two independent keys, one after the other. Each is a
 * pseudorandom function of the bytes, so the pair is one with a 128-bit output: a forger who has seen any number of
 * tags under the keys guesses a new one with probability about 2^-128 per attempt, the bound of AES-GCM's 128-bit tag.
 * The wire uses it where it measures cheaper than AES-GCM for the same bound: the header-only datagrams (ACK, GIVE_UP
 * and its answer), every datagram in {@code authenticate} mode, and the handshake. Allocates nothing.
 */
public final class Mac128
{
    /** Length of a key: the two SipHash keys, one after the other. */
    public static final int KEY_LENGTH = 2 * SipHash.KEY_LENGTH;
    /** Length of a tag. */
    public static final int TAG_LENGTH = 2 * SipHash.TAG_LENGTH;

    private final SipHash first = new SipHash();
    private final SipHash second = new SipHash();

    /**
     * @param key    {@link #KEY_LENGTH} bytes from {@code offset}.
     * @param offset of the first.
     * @return this.
     */
    public Mac128 key(final byte[] key, final int offset)
    {
        first.key(key, offset);
        second.key(key, offset + SipHash.KEY_LENGTH);
        return this;
    }

    /**
     * Write the tag of {@code length} bytes right after them.
     *
     * @param buffer holding the bytes, with {@link #TAG_LENGTH} bytes of room after them.
     * @param offset of the first byte.
     * @param length of the bytes.
     */
    public void tag(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        buffer.putLong(offset + length, first.hash(buffer, offset, length));
        buffer.putLong(offset + length + SipHash.TAG_LENGTH, second.hash(buffer, offset, length));
    }

    /**
     * @param buffer holding the bytes and, right after them, a tag.
     * @param offset of the first byte.
     * @param length of the bytes, the tag not included.
     * @return true when the tag is theirs under this key. Both halves are computed and compared whatever the first
     *         gives: the time taken says nothing about where they differ.
     */
    public boolean check(final DirectBuffer buffer, final int offset, final int length)
    {
        final long one = buffer.getLong(offset + length) ^ first.hash(buffer, offset, length);
        final long two = buffer.getLong(offset + length + SipHash.TAG_LENGTH) ^ second.hash(buffer, offset, length);
        return 0 == (one | two);
    }

    /**
     * @param other another key.
     * @return true when both hold the same keys (for tests; compares without branching on the key bytes' values).
     */
    public boolean hasSameKey(final Mac128 other)
    {
        return first.hasSameKey(other.first) & second.hasSameKey(other.second);
    }

    /**
     * @return a description without the keys.
     */
    @Override
    public String toString()
    {
        return "Mac128{keyed=" + first.isKeyed() + "}";
    }
}
