package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A NIC's key pair and the keys of its links: RFC 7748 vectors through the JDK, the same keys at both ends, one key
 * per direction, bound to both ids and both public keys, and refusal of keys that would give a known secret.
 */
class NicKeysTest
{
    private static final HexFormat HEX = HexFormat.of();

    /** RFC 7748 section 6.1. */
    private static final String ALICE_PRIVATE = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
    private static final String ALICE_PUBLIC = X25519CodecTest.ALICE_PUBLIC;
    private static final String BOB_PRIVATE = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
    private static final String BOB_PUBLIC = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";

    /** Points of small order (the all-zero-secret list of RFC 7748 implementations: 0, 1, two of order 8, p - 1). */
    private static final String[] SMALL_ORDER =
    {
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    };

    private static final long ALICE_ID = 0x1111L;
    private static final long BOB_ID = 0x2222L;

    private static NicKeys alice()
    {
        return NicKeys.generate(new FixedRandom(HEX.parseHex(ALICE_PRIVATE)));
    }

    private static NicKeys bob()
    {
        return NicKeys.generate(new FixedRandom(HEX.parseHex(BOB_PRIVATE)));
    }

    @Test
    void jdkKeyPairsGiveTheRfc7748PublicKeys()
    {
        assertArrayEquals(HEX.parseHex(ALICE_PUBLIC), alice().publicKey());
        assertArrayEquals(HEX.parseHex(BOB_PUBLIC), bob().publicKey());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[34]);
        alice().publicKey(buffer, 2);
        final byte[] written = new byte[32];
        buffer.getBytes(2, written);
        assertArrayEquals(HEX.parseHex(ALICE_PUBLIC), written);
        assertEquals(X25519Codec.decode(HEX.parseHex(ALICE_PUBLIC)).getU(), alice().jdkPublicKey().getU());
    }

    @Test
    void linkKeysAreTheHkdfOfTheRfc7748SharedSecretWithTheLowerNicFirst()
    {
        // Expected values from an independent HKDF-SHA256 (Python hmac) over the RFC's shared secret
        // 4a5d9d5b..161742 with the info of LinkKeyDescriptor.
        final SipHash transmit = new SipHash();
        final SipHash receive = new SipHash();
        alice().deriveLinkKeys(ALICE_ID, BOB_ID, HEX.parseHex(BOB_PUBLIC), transmit, receive);
        assertKey(0xc01acb0c3b8288deL, 0x5b798b0b3de54bf7L, transmit); // Alice is lower: her datagrams use key 0
        assertKey(0x45a78502e6809401L, 0x8ea68ea5ed90ad1aL, receive);

        // An id that is negative as a signed long is the higher one: the order is unsigned
        final long aliceHigh = 0xfffffffffffffff0L;
        alice().deriveLinkKeys(aliceHigh, BOB_ID, HEX.parseHex(BOB_PUBLIC), transmit, receive);
        assertKey(0x37aebad9280c6907L, 0xcac331d1eac613abL, transmit);
        assertKey(0xf5419e671e9efe28L, 0xfe266fb185737d1bL, receive);
    }

    @Test
    void bothEndsDeriveTheSameKeysWithTheRolesSwapped()
    {
        for (int i = 0; i < 8; i++)
        {
            final NicKeys a = NicKeys.generate();
            final NicKeys b = NicKeys.generate();
            final long idA = 0x5EED0000L + i;
            final long idB = i % 2 == 0 ? idA + 1 : idA - 1;
            final Link ab = Link.derive(a, idA, b, idB);
            final Link ba = Link.derive(b, idB, a, idA);
            assertTrue(ab.transmit.hasSameKey(ba.receive), "A to B");
            assertTrue(ab.receive.hasSameKey(ba.transmit), "B to A");

            // what one end tags, the other end checks
            final UnsafeBuffer frame = frame(96);
            assertEquals(ab.transmit.hash(frame, 0, 96), ba.receive.hash(frame, 0, 96));
        }
    }

    @Test
    void directionsHaveDifferentKeysSoAReflectedFrameFails()
    {
        final NicKeys a = NicKeys.generate();
        final NicKeys b = NicKeys.generate();
        final Link ab = Link.derive(a, ALICE_ID, b, BOB_ID);
        assertFalse(ab.transmit.hasSameKey(ab.receive));

        // A frame A sent to B, captured and sent back to A, does not carry a tag A accepts from B
        final UnsafeBuffer frame = frame(120);
        final long tagOnTheWayToB = ab.transmit.hash(frame, 0, 120);
        assertNotEquals(tagOnTheWayToB, ab.receive.hash(frame, 0, 120));
    }

    @Test
    void keysAreBoundToBothIdsAndBothPublicKeys()
    {
        final NicKeys a = NicKeys.generate();
        final NicKeys b = NicKeys.generate();
        final NicKeys c = NicKeys.generate();
        final Link ab = Link.derive(a, ALICE_ID, b, BOB_ID);

        // same key pairs, another id on either side: other keys
        assertDifferent(ab, Link.derive(a, ALICE_ID, b, BOB_ID + 1));
        assertDifferent(ab, Link.derive(a, ALICE_ID + 1, b, BOB_ID));
        // ids swapped between the same two key pairs: other keys
        assertDifferent(ab, Link.derive(a, BOB_ID, b, ALICE_ID));
        // a third NIC claiming B's id: other keys
        assertDifferent(ab, Link.derive(a, ALICE_ID, c, BOB_ID));
        // and every link of A differs from every other
        final Link ac = Link.derive(a, ALICE_ID, c, 0x3333L);
        assertDifferent(ab, ac);
    }

    @Test
    void twoNicsWithTheSameIdStillGetOneKeyPerDirection()
    {
        final NicKeys a = NicKeys.generate();
        final NicKeys b = NicKeys.generate();
        final Link ab = Link.derive(a, ALICE_ID, b, ALICE_ID);
        final Link ba = Link.derive(b, ALICE_ID, a, ALICE_ID);
        assertTrue(ab.transmit.hasSameKey(ba.receive));
        assertTrue(ab.receive.hasSameKey(ba.transmit));
        assertFalse(ab.transmit.hasSameKey(ab.receive));
    }

    @Test
    void refusesToKeyALinkToItself()
    {
        final NicKeys a = NicKeys.generate();
        final SipHash transmit = new SipHash();
        final SipHash receive = new SipHash();
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> a.deriveLinkKeys(ALICE_ID, ALICE_ID, a.publicKey(), transmit, receive));
        assertTrue(ex.getMessage().contains("to itself"), ex.getMessage());
        assertFalse(transmit.isKeyed() || receive.isKeyed());
    }

    @Test
    void refusesSmallOrderPublicKeysAndLeavesTheKeysAlone()
    {
        final NicKeys a = NicKeys.generate();
        final SipHash transmit = new SipHash(1, 2);
        final SipHash receive = new SipHash(3, 4);
        for (final String point : SMALL_ORDER)
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> a.deriveLinkKeys(ALICE_ID, BOB_ID, HEX.parseHex(point), transmit, receive), point);
            assertTrue(ex.getMessage().contains("small order"), ex.getMessage());
            assertTrue(ex.getMessage().contains("2222"), "names the peer: " + ex.getMessage());
            assertTrue(transmit.hasSameKey(new SipHash(1, 2)) && receive.hasSameKey(new SipHash(3, 4)), point);
        }
    }

    @Test
    void refusesMalformedPublicKeysWithAClearException()
    {
        final NicKeys a = NicKeys.generate();
        final SipHash transmit = new SipHash();
        final SipHash receive = new SipHash();
        final byte[] good = bob().publicKey();

        final IllegalArgumentException shortKey = assertThrows(IllegalArgumentException.class,
            () -> a.deriveLinkKeys(ALICE_ID, BOB_ID, new byte[31], transmit, receive));
        assertTrue(shortKey.getMessage().contains("32 bytes"), shortKey.getMessage());

        final byte[] topBit = good.clone();
        topBit[31] |= (byte)0x80;
        assertThrows(IllegalArgumentException.class, () -> a.deriveLinkKeys(ALICE_ID, BOB_ID, topBit, transmit, receive));

        final byte[] p = HEX.parseHex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
        assertThrows(IllegalArgumentException.class, () -> a.deriveLinkKeys(ALICE_ID, BOB_ID, p, transmit, receive));

        final UnsafeBuffer datagram = new UnsafeBuffer(new byte[40]);
        datagram.putBytes(8, good);
        assertThrows(IllegalArgumentException.class,
            () -> a.deriveLinkKeys(ALICE_ID, BOB_ID, datagram, 9, transmit, receive));
        assertFalse(transmit.isKeyed() || receive.isKeyed());

        assertThrows(IllegalArgumentException.class,
            () -> a.deriveLinkKeys(ALICE_ID, BOB_ID, good, transmit, transmit));
    }

    @Test
    void aKeyInABufferGivesTheSameLinkAsTheSameBytesInAnArray()
    {
        final NicKeys a = NicKeys.generate();
        final NicKeys b = NicKeys.generate();
        final UnsafeBuffer datagram = new UnsafeBuffer(new byte[64]);
        b.publicKey(datagram, 13);
        final SipHash transmit = new SipHash();
        final SipHash receive = new SipHash();
        a.deriveLinkKeys(ALICE_ID, BOB_ID, datagram, 13, transmit, receive);
        final Link viaArray = Link.derive(a, ALICE_ID, b, BOB_ID);
        assertTrue(transmit.hasSameKey(viaArray.transmit) && receive.hasSameKey(viaArray.receive));
    }

    @Test
    void toStringShowsOnlyThePublicKey()
    {
        final String text = alice().toString();
        assertTrue(text.contains(ALICE_PUBLIC), text);
        assertFalse(text.contains(ALICE_PRIVATE.substring(0, 12)), text);
    }

    private static void assertKey(final long k0, final long k1, final SipHash key)
    {
        assertEquals(Long.toHexString(k0) + "/" + Long.toHexString(k1),
            Long.toHexString(key.k0()) + "/" + Long.toHexString(key.k1()));
    }

    private static void assertDifferent(final Link one, final Link other)
    {
        assertFalse(one.transmit.hasSameKey(other.transmit), "transmit keys");
        assertFalse(one.receive.hasSameKey(other.receive), "receive keys");
        assertFalse(one.transmit.hasSameKey(other.receive), "crossed keys");
    }

    private static UnsafeBuffer frame(final int length)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[length]);
        for (int i = 0; i < length; i++)
        {
            frame.putByte(i, (byte)(i * 31 + 7));
        }
        return frame;
    }

    /** The two keys one end of a link derived. */
    private static final class Link
    {
        final SipHash transmit = new SipHash();
        final SipHash receive = new SipHash();

        static Link derive(final NicKeys local, final long localId, final NicKeys peer, final long peerId)
        {
            final Link link = new Link();
            local.deriveLinkKeys(localId, peerId, peer.publicKey(), link.transmit, link.receive);
            return link;
        }
    }
}
