package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.KeyPairGenerator;
import java.security.interfaces.XECPublicKey;
import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * X25519 public keys to and from 32 bytes (RFC 7748): the RFC's encodings, and strict refusal of anything else.
 */
class X25519CodecTest
{
    private static final HexFormat HEX = HexFormat.of();

    /** RFC 7748 section 6.1: Alice's public key. */
    static final String ALICE_PUBLIC = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";

    @Test
    void decodesLittleEndianAndEncodesBack()
    {
        final byte[] encoded = HEX.parseHex(ALICE_PUBLIC);
        final XECPublicKey key = X25519Codec.decode(encoded);
        final byte[] bigEndian = HEX.parseHex(ALICE_PUBLIC);
        for (int i = 0; i < 16; i++)
        {
            final byte swap = bigEndian[i];
            bigEndian[i] = bigEndian[31 - i];
            bigEndian[31 - i] = swap;
        }
        assertEquals(new BigInteger(1, bigEndian), key.getU());
        assertArrayEquals(encoded, X25519Codec.encode(key));

        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[40]);
        buffer.putBytes(5, X25519Codec.encode(key));
        assertEquals(key.getU(), X25519Codec.decode(buffer, 5).getU());
    }

    @Test
    void encodesSmallCoordinatesWithTheirZeroBytes() throws Exception
    {
        final byte[] nine = new byte[32];
        nine[0] = 9; // the base point
        assertArrayEquals(nine, X25519Codec.encode(X25519Codec.decode(nine)));
        // keys the JDK makes round-trip, whatever their leading zero bytes
        final KeyPairGenerator generator = KeyPairGenerator.getInstance("X25519");
        for (int i = 0; i < 32; i++)
        {
            final XECPublicKey key = (XECPublicKey)generator.generateKeyPair().getPublic();
            assertEquals(key.getU(), X25519Codec.decode(X25519Codec.encode(key)).getU());
        }
    }

    @Test
    void refusesWrongLengths()
    {
        final IllegalArgumentException shortKey =
            assertThrows(IllegalArgumentException.class, () -> X25519Codec.decode(new byte[31]));
        assertTrue(shortKey.getMessage().contains("32 bytes, got 31"), shortKey.getMessage());
        assertThrows(IllegalArgumentException.class, () -> X25519Codec.decode(new byte[33]));
        assertThrows(IllegalArgumentException.class, () -> X25519Codec.decode(new byte[0]));
        final IllegalArgumentException truncated =
            assertThrows(IllegalArgumentException.class, () -> X25519Codec.decode(new UnsafeBuffer(new byte[40]), 9));
        assertTrue(truncated.getMessage().contains("leaves too few"), truncated.getMessage());
        assertThrows(IllegalArgumentException.class, () -> X25519Codec.decode(new UnsafeBuffer(new byte[40]), -1));
    }

    @Test
    void refusesNonCanonicalEncodings()
    {
        final byte[] topBit = HEX.parseHex(ALICE_PUBLIC);
        topBit[31] |= (byte)0x80;
        final IllegalArgumentException top = assertThrows(IllegalArgumentException.class, () -> X25519Codec.decode(topBit));
        assertTrue(top.getMessage().contains("top bit"), top.getMessage());

        // p = 2^255 - 19 itself, and the largest 255-bit value: both at or above the prime
        final byte[] p = HEX.parseHex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
        final byte[] max = HEX.parseHex("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
        for (final byte[] encoded : new byte[][] { p, max })
        {
            final IllegalArgumentException big =
                assertThrows(IllegalArgumentException.class, () -> X25519Codec.decode(encoded));
            assertTrue(big.getMessage().contains("non-canonical"), big.getMessage());
        }
        // p - 1 is canonical: the codec takes it (the key agreement refuses it, see NicKeysTest)
        final byte[] pMinusOne = HEX.parseHex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
        assertEquals(X25519Codec.P.subtract(BigInteger.ONE), X25519Codec.decode(pMinusOne).getU());
    }

    @Test
    void refusesToEncodeAnX448Key() throws Exception
    {
        final XECPublicKey x448 = (XECPublicKey)KeyPairGenerator.getInstance("X448").generateKeyPair().getPublic();
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> X25519Codec.encode(x448));
        assertTrue(ex.getMessage().contains("X25519 only"), ex.getMessage());
    }
}
