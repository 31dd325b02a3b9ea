package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The 128-bit tag: a known answer (its first half is the SipHash-2-4 reference vector of the key 00..0f; the second,
 * under 10..1f, from an independent implementation), every flipped bit of the bytes or the tag refused, and no
 * allocation.
 */
class Mac128Test
{
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void knownAnswerAndEveryFlippedBitIsRefused()
    {
        final byte[] key = new byte[Mac128.KEY_LENGTH];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)i;
        }
        final Mac128 mac = new Mac128().key(key, 0);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[63 + Mac128.TAG_LENGTH]);
        for (int i = 0; i < 63; i++)
        {
            frame.putByte(i, (byte)i);
        }
        mac.tag(frame, 0, 63);
        final byte[] tag = new byte[Mac128.TAG_LENGTH];
        frame.getBytes(63, tag);
        assertEquals("724506eb4c328a95e57ac84a174ec95b", HEX.formatHex(tag));
        assertTrue(mac.check(frame, 0, 63));
        for (int bit = 0; bit < 8 * (63 + Mac128.TAG_LENGTH); bit++)
        {
            frame.putByte(bit / 8, (byte)(frame.getByte(bit / 8) ^ (1 << (bit % 8))));
            assertFalse(mac.check(frame, 0, 63), "bit " + bit);
            frame.putByte(bit / 8, (byte)(frame.getByte(bit / 8) ^ (1 << (bit % 8))));
        }
        assertTrue(mac.check(frame, 0, 63));
        key[17] ^= 1;
        assertFalse(new Mac128().key(key, 0).check(frame, 0, 63), "another second key");
    }

    @Test
    @Timeout(60)
    void taggingAndCheckingAllocateNothing()
    {
        final com.sun.management.ThreadMXBean threads = Allocations.threads();
        final Mac128 mac = new Mac128().key(new byte[Mac128.KEY_LENGTH], 0);
        final UnsafeBuffer frame = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(256));
        boolean ok = true;
        for (int i = 0; i < 200_000; i++)
        {
            mac.tag(frame, 0, 104 + (i & 63));
            ok &= mac.check(frame, 0, 104 + (i & 63));
        }
        final long id = Thread.currentThread().getId();
        threads.getThreadAllocatedBytes(id);
        final long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 100_000; i++)
        {
            mac.tag(frame, 0, 104 + (i & 63));
            ok &= mac.check(frame, 0, 104 + (i & 63));
        }
        final long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(ok);
        assertTrue(allocated < 1024, "100,000 tags and checks allocated " + allocated + " bytes");
    }
}
