package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A NIC's key pair and the keys of its links: RFC 7748 vectors through the JDK, known answers for every derivation,
 * the same keys at both ends, one key per direction, bound to both ids and both public keys, other keys for every
 * handshake (its randoms, wire version and mode), and refusal of keys that would give a known secret.
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
    /**
     * The keys of epoch 0 from Alice to Bob in the session of the known-answer test (randoms 00..0f and 10..1f, wire
     * version 6, mode 2): AES-128 key, Mac128 key.
     */
    static final String EPOCH_0 =
        "122d815bc4dd42a6285b91359e2aedc13def49276c3d0dbd36d9e2556934f9d3b196cdc1836b53b5890a9baa33db180e";
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
    }

    @Test
    void linkKeysAreTheHkdfOfTheRfc7748SharedSecretWithTheLowerNicFirst()
    {
        // Expected values from an independent computation (Python's cryptography X25519 and hmac HKDF-SHA256) over
        // the RFC's key pairs with the infos of LinkKeyDescriptor: Alice (0x1111) is the lower NIC.
        final LinkSecret alice = alice().linkSecret(ALICE_ID, BOB_ID, HEX.parseHex(BOB_PUBLIC));
        final LinkSecret bob = bob().linkSecret(BOB_ID, ALICE_ID, HEX.parseHex(ALICE_PUBLIC));
        assertTrue(alice.localIsLower());
        assertFalse(bob.localIsLower());
        final Mac128 transmit = new Mac128();
        final Mac128 receive = new Mac128();
        alice.helloKeys(transmit, receive);
        final byte[] hello = HEX.parseHex("94a44af57b05f45dd3eea8dd5a4757ae6f33e4d10ec88eb59deaa2e74d393cad" +
            "7dc3292ca95e179118a5c5b7a51395e80900cc2aa942cb4659115e1ad3354ce0");
        assertTrue(transmit.hasSameKey(new Mac128().key(hello, 0)), "Alice is lower: her handshakes use key 0");
        assertTrue(receive.hasSameKey(new Mac128().key(hello, Mac128.KEY_LENGTH)));

        final byte[] aliceRandom = HEX.parseHex("000102030405060708090a0b0c0d0e0f");
        final byte[] bobRandom = HEX.parseHex("101112131415161718191a1b1c1d1e1f");
        final LinkSecret.TrafficSecrets session = alice.session(6, 2, aliceRandom, bobRandom);
        assertEquals("ed73f47d27e2bf3fe2d0de849dbb50361601549e995c7ae7f3bb716b9e58f426",
            HEX.formatHex(session.transmit()));
        assertEquals("991743b140c78edc7c874704bb5f1974847d27f237d8ae86ac8cffe5ad25e0f3",
            HEX.formatHex(session.receive()));
        assertEquals(0x1cbbc464, session.id());
        // Bob, with the randoms as he sees them, gets the same secrets the other way round.
        final LinkSecret.TrafficSecrets bobSession = bob.session(6, 2, bobRandom, aliceRandom);
        assertArrayEquals(session.transmit(), bobSession.receive());
        assertArrayEquals(session.receive(), bobSession.transmit());
        assertEquals(session.id(), bobSession.id());
        // Another wire mode: another session.
        assertEquals(0xd0612c00, alice.session(6, 3, aliceRandom, bobRandom).id());

        // An epoch's keys: AES-128 key, then the Mac128 key.
        final byte[] epoch = new byte[LinkSecret.EPOCH_KEYS_LENGTH];
        LinkSecret.epochKeys(session.transmit(), 0, epoch);
        assertEquals(EPOCH_0, HEX.formatHex(epoch));
        LinkSecret.epochKeys(session.transmit(), 1, epoch);
        assertEquals("a38b7e7159734e8a15bffa0876d5251affce7599b9f4974ddd2cd8eecd20761acc1acf60afbf627d8f73e8cf098958bc",
            HEX.formatHex(epoch));
        LinkSecret.epochKeys(session.receive(), 0, epoch);
        assertEquals("38f5f483ab8e33775996965725d02caa0aac3fb3f5b424834a2a87d06957febed5d27b1e21d7adcf8bdeed247a870429",
            HEX.formatHex(epoch));
    }

    @Test
    void everyHandshakeGivesOtherKeysAndVersionAndModeAreBound()
    {
        final LinkSecret secret = NicKeys.generate().linkSecret(ALICE_ID, BOB_ID, NicKeys.generate().publicKey());
        final byte[] one = random(1);
        final byte[] two = random(2);
        final LinkSecret.TrafficSecrets session = secret.session(6, 2, one, two);
        assertDifferent(session, secret.session(6, 2, one, random(3)), "the peer's random");
        assertDifferent(session, secret.session(6, 2, random(3), two), "our random");
        assertDifferent(session, secret.session(6, 2, two, one), "the randoms swapped");
        assertDifferent(session, secret.session(7, 2, one, two), "the wire version");
        assertDifferent(session, secret.session(6, 3, one, two), "the wire mode");
        assertFalse(Arrays.equals(session.transmit(), session.receive()), "one secret per direction");
        assertThrows(IllegalArgumentException.class, () -> secret.session(6, 2, new byte[8], two));
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
            final UnsafeBuffer frame = frame(96 + Mac128.TAG_LENGTH);
            ab.transmit.tag(frame, 0, 96);
            assertTrue(ba.receive.check(frame, 0, 96));
            final LinkSecret.TrafficSecrets abSession = ab.secret.session(6, 2, random(1), random(2));
            final LinkSecret.TrafficSecrets baSession = ba.secret.session(6, 2, random(2), random(1));
            assertArrayEquals(abSession.transmit(), baSession.receive());
            assertArrayEquals(abSession.receive(), baSession.transmit());
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
        final UnsafeBuffer frame = frame(120 + Mac128.TAG_LENGTH);
        ab.transmit.tag(frame, 0, 120);
        assertFalse(ab.receive.check(frame, 0, 120));
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
        assertDifferent(ab.secret.session(6, 2, random(1), random(2)), ac.secret.session(6, 2, random(1), random(2)),
            "the same randoms on another link");
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
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> a.linkSecret(ALICE_ID, ALICE_ID, a.publicKey()));
        assertTrue(ex.getMessage().contains("to itself"), ex.getMessage());
    }

    @Test
    void refusesSmallOrderPublicKeys()
    {
        final NicKeys a = NicKeys.generate();
        for (final String point : SMALL_ORDER)
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> a.linkSecret(ALICE_ID, BOB_ID, HEX.parseHex(point)), point);
            assertTrue(ex.getMessage().contains("small order"), ex.getMessage());
            assertTrue(ex.getMessage().contains("2222"), "names the peer: " + ex.getMessage());
        }
    }

    @Test
    void refusesMalformedPublicKeysWithAClearException()
    {
        final NicKeys a = NicKeys.generate();
        final byte[] good = bob().publicKey();

        final IllegalArgumentException shortKey = assertThrows(IllegalArgumentException.class,
            () -> a.linkSecret(ALICE_ID, BOB_ID, new byte[31]));
        assertTrue(shortKey.getMessage().contains("32 bytes"), shortKey.getMessage());

        final byte[] topBit = good.clone();
        topBit[31] |= (byte)0x80;
        assertThrows(IllegalArgumentException.class, () -> a.linkSecret(ALICE_ID, BOB_ID, topBit));

        final byte[] p = HEX.parseHex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
        assertThrows(IllegalArgumentException.class, () -> a.linkSecret(ALICE_ID, BOB_ID, p));

        final UnsafeBuffer datagram = new UnsafeBuffer(new byte[40]);
        datagram.putBytes(8, good);
        assertThrows(IllegalArgumentException.class, () -> a.linkSecret(ALICE_ID, BOB_ID, datagram, 9));
        final Mac128 both = new Mac128();
        assertThrows(IllegalArgumentException.class, () -> a.linkSecret(ALICE_ID, BOB_ID, good).helloKeys(both, both));
    }

    @Test
    void aKeyInABufferGivesTheSameLinkAsTheSameBytesInAnArray()
    {
        final NicKeys a = NicKeys.generate();
        final NicKeys b = NicKeys.generate();
        final UnsafeBuffer datagram = new UnsafeBuffer(new byte[64]);
        b.publicKey(datagram, 13);
        final Mac128 transmit = new Mac128();
        final Mac128 receive = new Mac128();
        a.linkSecret(ALICE_ID, BOB_ID, datagram, 13).helloKeys(transmit, receive);
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

    private static void assertDifferent(final Link one, final Link other)
    {
        assertFalse(one.transmit.hasSameKey(other.transmit), "transmit keys");
        assertFalse(one.receive.hasSameKey(other.receive), "receive keys");
        assertFalse(one.transmit.hasSameKey(other.receive), "crossed keys");
    }

    private static void assertDifferent(final LinkSecret.TrafficSecrets one, final LinkSecret.TrafficSecrets other,
        final String change)
    {
        assertFalse(Arrays.equals(one.transmit(), other.transmit()), change + ": transmit");
        assertFalse(Arrays.equals(one.receive(), other.receive()), change + ": receive");
        assertNotEquals(one.id(), other.id(), change + ": id");
    }

    private static byte[] random(final int seed)
    {
        final byte[] bytes = new byte[LinkSecret.RANDOM_LENGTH];
        new java.util.Random(seed).nextBytes(bytes);
        return bytes;
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

    /** The handshake keys one end of a link derived, and its secret. */
    private static final class Link
    {
        final Mac128 transmit = new Mac128();
        final Mac128 receive = new Mac128();
        LinkSecret secret;

        static Link derive(final NicKeys local, final long localId, final NicKeys peer, final long peerId)
        {
            final Link link = new Link();
            link.secret = local.linkSecret(localId, peerId, peer.publicKey());
            link.secret.helloKeys(link.transmit, link.receive);
            return link;
        }
    }
}
