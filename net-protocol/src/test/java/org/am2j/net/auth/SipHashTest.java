package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SipHash-2-4 against the reference implementation's test vectors, and its contract: keys, ranges, no allocation.
 */
class SipHashTest
{
    /**
     * Output of the reference implementation (vectors_sip64 of github.com/veorq/SipHash, the vectors of the SipHash
     * paper's appendix) for key 00 01 .. 0f and message i = 00 01 .. (i - 1), i in [0, 64), as its bytes in order.
     */
    static final String[] VECTORS =
    {
        "310e0edd47db6f72", "fd67dc93c539f874", "5a4fa9d909806c0d", "2d7efbd796666785",
        "b7877127e09427cf", "8da699cd64557618", "cee3fe586e46c9cb", "37d1018bf50002ab",
        "6224939a79f5f593", "b0e4a90bdf82009e", "f3b9dd94c5bb5d7a", "a7ad6b22462fb3f4",
        "fbe50e86bc8f1e75", "903d84c02756ea14", "eef27a8e90ca23f7", "e545be4961ca29a1",
        "db9bc2577fcc2a3f", "9447be2cf5e99a69", "9cd38d96f0b3c14b", "bd6179a71dc96dbb",
        "98eea21af25cd6be", "c7673b2eb0cbf2d0", "883ea3e395675393", "c8ce5ccd8c030ca8",
        "94af49f6c650adb8", "eab8858ade92e1bc", "f315bb5bb835d817", "adcf6b0763612e2f",
        "a5c91da7acaa4dde", "716595876650a2a6", "28ef495c53a387ad", "42c341d8fa92d832",
        "ce7cf2722f512771", "e37859f94623f3a7", "381205bb1ab0e012", "ae97a10fd434e015",
        "b4a31508beff4d31", "81396229f0907902", "4d0cf49ee5d4dcca", "5c73336a76d8bf9a",
        "d0a704536ba93e0e", "925958fcd6420cad", "a915c29bc8067318", "952b79f3bc0aa6d4",
        "f21df2e41d4535f9", "87577519048f53a9", "10a56cf5dfcd9adb", "eb75095ccd986cd0",
        "51a9cb9ecba312e6", "96afadfc2ce666c7", "72fe52975a4364ee", "5a1645b276d592a1",
        "b274cb8ebf87870a", "6f9bb4203de7b381", "eaecb2a30b22a87f", "9924a43cc1315724",
        "bd838d3aafbf8db7", "0b1a2a3265d51aea", "135079a3231ce660", "932b2846e4d70666",
        "e1915f5cb1eca46c", "f325965ca16d629f", "575ff28e60381be5", "724506eb4c328a95",
    };

    /** Key 00 01 .. 0f as the two little-endian halves. */
    static final long K0 = 0x0706050403020100L;
    static final long K1 = 0x0f0e0d0c0b0a0908L;

    @Test
    void referenceVectorsAtOffsetZero()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[VECTORS.length]);
        for (int i = 0; i < VECTORS.length; i++)
        {
            message.putByte(i, (byte)i);
        }
        final SipHash sipHash = new SipHash().key(K0, K1);
        for (int length = 0; length < VECTORS.length; length++)
        {
            assertEquals(expected(length), sipHash.hash(message, 0, length), "vector " + length);
        }
    }

    @Test
    void referenceVectorsAtEveryAlignmentOfHeapAndDirectBuffers()
    {
        final SipHash sipHash = new SipHash().key(keyBytes(), 0);
        for (int shift = 0; shift < 8; shift++)
        {
            final UnsafeBuffer heap = new UnsafeBuffer(new byte[shift + VECTORS.length + 8]);
            final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(shift + VECTORS.length + 8));
            // bytes around the message that must not count
            heap.setMemory(0, heap.capacity(), (byte)0xA5);
            direct.setMemory(0, direct.capacity(), (byte)0x5A);
            for (int i = 0; i < VECTORS.length; i++)
            {
                heap.putByte(shift + i, (byte)i);
                direct.putByte(shift + i, (byte)i);
            }
            for (int length = 0; length < VECTORS.length; length++)
            {
                assertEquals(expected(length), sipHash.hash(heap, shift, length), "heap " + shift + "/" + length);
                assertEquals(expected(length), sipHash.hash(direct, shift, length), "direct " + shift + "/" + length);
                assertEquals(expected(length), SipHash.hash(K0, K1, heap, shift, length), "static");
            }
        }
    }

    @Test
    void paperExampleFifteenBytes()
    {
        // The worked example of the SipHash paper (appendix A): key 00..0f, message 00..0e.
        final UnsafeBuffer message = new UnsafeBuffer(new byte[15]);
        for (int i = 0; i < 15; i++)
        {
            message.putByte(i, (byte)i);
        }
        assertEquals(0xa129ca6149be45e5L, SipHash.hash(K0, K1, message, 0, 15));
    }

    @Test
    void keyFromBytesOrHalvesIsTheSameKey()
    {
        final SipHash fromHalves = new SipHash().key(K0, K1);
        final byte[] padded = new byte[20];
        System.arraycopy(keyBytes(), 0, padded, 3, 16);
        assertTrue(fromHalves.hasSameKey(new SipHash().key(keyBytes(), 0)));
        assertTrue(fromHalves.hasSameKey(new SipHash().key(padded, 3)));
    }

    @Test
    void rekeyingChangesTheTagAndEveryKeyBitCounts()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[24]);
        final SipHash sipHash = new SipHash().key(K0, K1);
        final long tag = sipHash.hash(message, 0, 24);
        for (int bit = 0; bit < 128; bit++)
        {
            final long k0 = bit < 64 ? K0 ^ (1L << bit) : K0;
            final long k1 = bit < 64 ? K1 : K1 ^ (1L << (bit - 64));
            assertNotEquals(tag, sipHash.key(k0, k1).hash(message, 0, 24), "key bit " + bit);
        }
        assertEquals(tag, sipHash.key(K0, K1).hash(message, 0, 24));
    }

    @Test
    void everyMessageBitCountsAndLengthCounts()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[24]);
        final long tag = SipHash.hash(K0, K1, message, 0, 24);
        for (int bit = 0; bit < 24 * 8; bit++)
        {
            message.putByte(bit / 8, (byte)(1 << (bit % 8)));
            assertNotEquals(tag, SipHash.hash(K0, K1, message, 0, 24), "message bit " + bit);
            message.putByte(bit / 8, (byte)0);
        }
        // zero bytes appended: the length is in the last block
        assertNotEquals(SipHash.hash(K0, K1, message, 0, 16), SipHash.hash(K0, K1, message, 0, 17));
        assertNotEquals(SipHash.hash(K0, K1, message, 0, 8), SipHash.hash(K0, K1, message, 0, 16));
    }

    @Test
    void refusesToHashWithoutAKey()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
        final SipHash sipHash = new SipHash();
        assertFalse(sipHash.isKeyed());
        final IllegalStateException noKey = assertThrows(IllegalStateException.class, () -> sipHash.hash(message, 0, 8));
        assertTrue(noKey.getMessage().contains("no key"), noKey.getMessage());

        assertFalse(sipHash.hasSameKey(new SipHash()), "two instances without a key do not share one");
        sipHash.key(K0, K1);
        assertTrue(sipHash.isKeyed());
    }

    @Test
    void rangesOutsideTheBufferAndBadKeysAreRefused()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[16]);
        final SipHash sipHash = new SipHash().key(K0, K1);
        assertThrows(IndexOutOfBoundsException.class, () -> sipHash.hash(message, 9, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> sipHash.hash(message, -1, 4));
        assertThrows(IllegalArgumentException.class, () -> sipHash.hash(message, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new SipHash().key(new byte[15], 0));
        assertThrows(IllegalArgumentException.class, () -> new SipHash().key(new byte[16], 1));
    }

    @Test
    void toStringShowsNoKey()
    {
        final SipHash sipHash = new SipHash().key(0x1122334455667788L, 0x99AABBCCDDEEFF00L);
        final String text = sipHash.toString().toLowerCase();
        assertFalse(text.contains("1122") || text.contains("8877") || text.contains("ccdd"), text);
    }

    @Test
    @Timeout(120)
    void hashingAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threads = Allocations.threads();
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[1500]);
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(1500));
        final SipHash sipHash = new SipHash().key(K0, K1);
        long sink = 0;
        for (int i = 0; i < 200_000; i++)
        {
            sink += sipHash.hash(heap, i & 7, 96 + (i & 15)) + sipHash.hash(direct, 0, 1400);
        }

        final long threadId = Thread.currentThread().getId();
        threads.getThreadAllocatedBytes(threadId);
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < 100_000; i++)
        {
            sink += sipHash.hash(heap, i & 7, 96 + (i & 15)) + sipHash.hash(direct, 0, 1400);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertNotEquals(0, sink);
        assertTrue(allocated < 1024, "200,000 hashes allocated " + allocated + " bytes");
    }

    static long expected(final int index)
    {
        final String hex = VECTORS[index];
        long value = 0;
        for (int i = 7; i >= 0; i--)
        {
            value = (value << 8) | Long.parseLong(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return value;
    }

    static byte[] keyBytes()
    {
        final byte[] key = new byte[16];
        for (int i = 0; i < 16; i++)
        {
            key[i] = (byte)i;
        }
        return key;
    }
}
