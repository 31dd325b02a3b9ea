package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Handshake cookies: valid for the claimant they were issued to, in their epoch and the next, and for nobody else;
 * checking one allocates nothing.
 */
class CookiesTest
{
    private static final long PERIOD = 10_000_000_000L;
    /** A clock that starts at an arbitrary point, negative like System.nanoTime() may be. */
    private static final long T0 = -3 * PERIOD + 1234;
    private static final long NIC_ID = 0x0123456789ABCDEFL;
    private static final int PORT = 40_001;

    private final UnsafeBuffer ipv4 = new UnsafeBuffer(new byte[] { 10, 0, 0, 7 });
    private final UnsafeBuffer ipv6 = new UnsafeBuffer(new byte[16]);
    private final UnsafeBuffer publicKey = new UnsafeBuffer(new byte[48]);
    private final int keyOffset = 9;
    private Cookies cookies;

    @BeforeEach
    void setUp()
    {
        cookies = new Cookies(PERIOD, T0);
        publicKey.putBytes(keyOffset, NicKeys.generate().publicKey());
        ipv6.putBytes(0, new byte[] { 10, 0, 0, 7 }); // the same first four bytes as the IPv4 address
        ipv6.putByte(15, (byte)1);
    }

    private long issue(final long now)
    {
        return cookies.issue(ipv4, 0, 4, PORT, NIC_ID, publicKey, keyOffset, now);
    }

    private boolean verify(final long cookie, final long now)
    {
        return cookies.verify(cookie, ipv4, 0, 4, PORT, NIC_ID, publicKey, keyOffset, now);
    }

    @Test
    void aCookieIsValidForItsClaimant()
    {
        final long cookie = issue(T0);
        assertTrue(verify(cookie, T0));
        assertTrue(verify(cookie, T0 + 1));
        assertEquals(cookie, issue(T0 + 5), "the same claimant in the same epoch gets the same cookie");
        assertTrue(cookies.verify(cookie, ipv4, 0, 4, PORT, NIC_ID, publicKey, keyOffset, T0), "verify changes nothing");
    }

    @Test
    void aCookieLivesUntilTheSecondRotationAfterIt()
    {
        final long epochStart = Math.floorDiv(T0, PERIOD) * PERIOD;
        final long cookie = issue(epochStart); // issued at the very start of its epoch

        assertTrue(verify(cookie, epochStart + PERIOD - 1), "end of its own epoch");

        assertTrue(cookies.rotate(epochStart + PERIOD), "first rotation");
        assertFalse(cookies.rotate(epochStart + PERIOD + 1), "no second rotation in one epoch");
        assertTrue(verify(cookie, epochStart + PERIOD), "after one rotation: the previous secret is still accepted");
        assertTrue(verify(cookie, epochStart + 2 * PERIOD - 1), "until the end of the next epoch");
        final long next = issue(epochStart + PERIOD);
        assertNotEquals(cookie, next, "a new epoch makes a new cookie");

        assertFalse(verify(cookie, epochStart + 2 * PERIOD), "two epochs on: expired, even before a rotation");
        assertTrue(cookies.rotate(epochStart + 2 * PERIOD), "second rotation");
        assertFalse(verify(cookie, epochStart + 2 * PERIOD), "after two rotations: expired");
        assertTrue(verify(next, epochStart + 2 * PERIOD), "the cookie of the epoch after it is still good");
        assertFalse(verify(next, epochStart + 3 * PERIOD));
    }

    @Test
    void anOldSecretIsNotAcceptedAgainAfterAJumpOfManyEpochs()
    {
        final long cookie = issue(T0);
        // Two epochs later the slot of the old secret holds a new secret of the same parity: the old cookie, whose
        // parity bit points at that slot, must fail on the hash and on the epoch
        cookies.rotate(T0 + 2 * PERIOD);
        assertFalse(verify(cookie, T0 + 2 * PERIOD));
        assertFalse(verify(cookie, T0 + PERIOD), "a clock that went back does not bring an old cookie back");
        final long late = issue(T0 + 7 * PERIOD); // issue begins the epoch itself
        assertTrue(verify(late, T0 + 7 * PERIOD));
        assertTrue(verify(late, T0 + 8 * PERIOD));
        assertFalse(verify(late, T0 + 9 * PERIOD));
    }

    @Test
    void aCookieIsBoundToAddressPortNicIdAndPublicKey()
    {
        final long cookie = issue(T0);

        final UnsafeBuffer otherAddress = new UnsafeBuffer(new byte[] { 10, 0, 0, 8 });
        assertFalse(cookies.verify(cookie, otherAddress, 0, 4, PORT, NIC_ID, publicKey, keyOffset, T0), "address");
        assertFalse(cookies.verify(cookie, ipv6, 0, 16, PORT, NIC_ID, publicKey, keyOffset, T0), "IPv6 address");
        assertFalse(cookies.verify(cookie, ipv4, 0, 4, PORT + 1, NIC_ID, publicKey, keyOffset, T0), "port");
        assertFalse(cookies.verify(cookie, ipv4, 0, 4, PORT, NIC_ID ^ 1, publicKey, keyOffset, T0), "NIC id");
        for (int bit = 0; bit < 256; bit++)
        {
            final int index = keyOffset + bit / 8;
            final byte original = publicKey.getByte(index);
            publicKey.putByte(index, (byte)(original ^ (1 << (bit % 8))));
            assertFalse(verify(cookie, T0), "public key bit " + bit);
            publicKey.putByte(index, original);
        }
        assertTrue(verify(cookie, T0), "and unchanged it is still good");

        // an IPv6 claimant whose address starts with the IPv4 claimant's bytes gets another cookie
        assertNotEquals(cookie, cookies.issue(ipv6, 0, 16, PORT, NIC_ID, publicKey, keyOffset, T0));
    }

    @Test
    void forgedAndForeignCookiesFail()
    {
        final long cookie = issue(T0);
        assertFalse(verify(cookie ^ 1, T0), "the epoch parity bit flipped");
        for (int bit = 1; bit < 64; bit++)
        {
            assertFalse(verify(cookie ^ (1L << bit), T0), "tag bit " + bit);
        }
        final Cookies otherNic = new Cookies(PERIOD, T0);
        assertFalse(otherNic.verify(cookie, ipv4, 0, 4, PORT, NIC_ID, publicKey, keyOffset, T0), "another NIC's secret");

        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 100_000; i++)
        {
            assertFalse(verify(random.nextLong(), T0), "a guessed cookie");
        }
    }

    @Test
    void eachEpochHasAFreshSecretFromTheRandomSource()
    {
        final FixedRandom random = new FixedRandom(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 });
        final Cookies fixed = new Cookies(PERIOD, T0, random);
        assertEquals(1, random.calls(), "a secret for the first epoch");
        fixed.issue(ipv4, 0, 4, PORT, NIC_ID, publicKey, keyOffset, T0);
        fixed.verify(0, ipv4, 0, 4, PORT, NIC_ID, publicKey, keyOffset, T0 + 5 * PERIOD);
        assertEquals(1, random.calls(), "neither issue in the same epoch nor verify draws a secret");
        fixed.issue(ipv4, 0, 4, PORT, NIC_ID, publicKey, keyOffset, T0 + PERIOD);
        assertEquals(2, random.calls(), "issue in a new epoch draws one");
        fixed.rotate(T0 + 2 * PERIOD);
        assertEquals(3, random.calls());
    }

    @Test
    void socketAddressVariantsAgreeWithBufferVariants() throws Exception
    {
        final InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByAddress(new byte[] { 10, 0, 0, 7 }), PORT);
        final long cookie = cookies.issue(v4, NIC_ID, publicKey, keyOffset, T0);
        assertEquals(issue(T0), cookie);
        assertTrue(cookies.verify(cookie, v4, NIC_ID, publicKey, keyOffset, T0));
        assertFalse(cookies.verify(cookie, new InetSocketAddress(v4.getAddress(), PORT + 1), NIC_ID, publicKey,
            keyOffset, T0));

        final byte[] v6Bytes = new byte[16];
        ipv6.getBytes(0, v6Bytes);
        final InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByAddress(v6Bytes), PORT);
        assertEquals(cookies.issue(ipv6, 0, 16, PORT, NIC_ID, publicKey, keyOffset, T0),
            cookies.issue(v6, NIC_ID, publicKey, keyOffset, T0));

        final IllegalArgumentException unresolved = assertThrows(IllegalArgumentException.class,
            () -> cookies.verify(cookie, InetSocketAddress.createUnresolved("peer.example", PORT), NIC_ID, publicKey,
                keyOffset, T0));
        assertTrue(unresolved.getMessage().contains("unresolved"), unresolved.getMessage());
    }

    @Test
    void refusesArgumentsNoDatagramCouldHave()
    {
        assertThrows(IllegalArgumentException.class, () -> new Cookies(0, T0));
        final IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
            () -> cookies.issue(ipv6, 0, 8, PORT, NIC_ID, publicKey, keyOffset, T0));
        assertTrue(length.getMessage().contains("4 (IPv4) or 16 (IPv6)"), length.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> cookies.verify(0, ipv4, 0, 4, 65_536, NIC_ID, publicKey, keyOffset, T0));
        assertThrows(IllegalArgumentException.class,
            () -> cookies.verify(0, ipv4, 0, 4, -1, NIC_ID, publicKey, keyOffset, T0));
        assertThrows(IndexOutOfBoundsException.class,
            () -> cookies.verify(0, ipv4, 0, 4, PORT, NIC_ID, publicKey, 17, T0), "a public key cut short");
    }

    @Test
    void toStringShowsNoSecret()
    {
        final FixedRandom random = new FixedRandom(new byte[] { (byte)0xAB });
        final String text = new Cookies(PERIOD, T0, random).toString().toLowerCase();
        assertFalse(text.contains("abab"), text);
    }

    @Test
    @Timeout(120)
    void issueAndVerifyAllocateNothing()
    {
        final com.sun.management.ThreadMXBean threads = Allocations.threads();
        final long cookie = issue(T0);
        int valid = 0;
        for (int i = 0; i < 200_000; i++)
        {
            valid += verify(cookie + (i & 2), T0 + i) ? 1 : 0;
            valid += issue(T0 + i) == cookie ? 1 : 0;
        }

        final long threadId = Thread.currentThread().getId();
        threads.getThreadAllocatedBytes(threadId);
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < 100_000; i++)
        {
            valid += verify(cookie + (i & 2), T0 + i) ? 1 : 0;
            valid += issue(T0 + i) == cookie ? 1 : 0;
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertEquals(3 * 150_000, valid, "half the verifications had a forged cookie; every issue the same cookie");
        assertTrue(allocated < 1024, "100,000 issues and verifications allocated " + allocated + " bytes");
    }
}
