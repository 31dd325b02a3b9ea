package org.am2j.net.auth;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.XECPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPublicKeySpec;

import org.agrona.DirectBuffer;

/**
 * X25519 public keys as they travel: 32 bytes, the u-coordinate little-endian (RFC 7748 section 5), to and from the
 * JDK's {@link XECPublicKey}.
 * <p>
 * Decoding is strict: am2j's own encoder only makes canonical encodings, so a key whose top bit is set or whose
 * u-coordinate is not below the field prime p = 2^255 - 19 did not come from an am2j NIC and is refused, where RFC 7748
 * (which must accept any 32 bytes for interoperability) would mask and reduce it. Points of small order are not
 * refused here but where they do harm, by the key agreement: see {@link NicKeys#linkSecret(long, long, byte[])}.
 */
public final class X25519Codec
{
    /** Length of an encoded public key. */
    public static final int PUBLIC_KEY_LENGTH = 32;

    /** The field prime of Curve25519, 2^255 - 19. */
    static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));

    private static final String KEY_FACTORY = "XDH";

    private X25519Codec()
    {
    }

    /**
     * Encode a JDK public key.
     *
     * @param key an X25519 public key (not X448).
     * @return its {@link #PUBLIC_KEY_LENGTH} bytes.
     * @throws IllegalArgumentException when the key is not an X25519 key.
     */
    public static byte[] encode(final XECPublicKey key)
    {
        final AlgorithmParameterSpec params = key.getParams();
        if (!(params instanceof NamedParameterSpec) ||
            !NamedParameterSpec.X25519.getName().equalsIgnoreCase(((NamedParameterSpec)params).getName()))
        {
            throw new IllegalArgumentException("not an X25519 public key (parameters " + describe(params) +
                "): am2j NICs agree keys on X25519 only");
        }
        final BigInteger u = key.getU();
        if (u.signum() < 0 || u.compareTo(P) >= 0)
        {
            throw new IllegalArgumentException("X25519 public key's u-coordinate is outside [0, 2^255 - 19)");
        }
        final byte[] bigEndian = u.toByteArray(); // minimal two's complement: at most 32 bytes plus a sign byte
        final byte[] encoded = new byte[PUBLIC_KEY_LENGTH];
        for (int i = 0; i < PUBLIC_KEY_LENGTH && i < bigEndian.length; i++)
        {
            encoded[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return encoded;
    }

    /**
     * Decode a public key.
     *
     * @param encoded exactly {@link #PUBLIC_KEY_LENGTH} bytes.
     * @return the JDK's public key.
     * @throws IllegalArgumentException when the bytes are not a canonical X25519 public key.
     */
    public static XECPublicKey decode(final byte[] encoded)
    {
        if (encoded.length != PUBLIC_KEY_LENGTH)
        {
            throw new IllegalArgumentException("an X25519 public key is " + PUBLIC_KEY_LENGTH + " bytes, got " +
                encoded.length + ": the peer sent a truncated or foreign key; refuse it");
        }
        return decode(encoded, 0);
    }

    /**
     * Decode a public key from a buffer, such as a received datagram.
     *
     * @param buffer holding the key.
     * @param offset of its first byte; {@link #PUBLIC_KEY_LENGTH} bytes must follow.
     * @return the JDK's public key.
     * @throws IllegalArgumentException when the bytes are not a canonical X25519 public key.
     */
    public static XECPublicKey decode(final DirectBuffer buffer, final int offset)
    {
        if (offset < 0 || offset > buffer.capacity() - PUBLIC_KEY_LENGTH)
        {
            throw new IllegalArgumentException("an X25519 public key is " + PUBLIC_KEY_LENGTH + " bytes: offset " +
                offset + " of a " + buffer.capacity() + "-byte buffer leaves too few; refuse the datagram");
        }
        final byte[] encoded = new byte[PUBLIC_KEY_LENGTH];
        buffer.getBytes(offset, encoded);
        return decode(encoded, 0);
    }

    private static XECPublicKey decode(final byte[] encoded, final int offset)
    {
        if ((encoded[offset + PUBLIC_KEY_LENGTH - 1] & 0x80) != 0)
        {
            throw new IllegalArgumentException("X25519 public key has its top bit set, which no am2j NIC encodes: " +
                "a corrupt or forged key; refuse it");
        }
        final byte[] bigEndian = new byte[PUBLIC_KEY_LENGTH];
        for (int i = 0; i < PUBLIC_KEY_LENGTH; i++)
        {
            bigEndian[i] = encoded[offset + PUBLIC_KEY_LENGTH - 1 - i];
        }
        final BigInteger u = new BigInteger(1, bigEndian);
        if (u.compareTo(P) >= 0)
        {
            throw new IllegalArgumentException("X25519 public key's u-coordinate is not below 2^255 - 19, " +
                "a non-canonical encoding no am2j NIC makes: a corrupt or forged key; refuse it");
        }
        try
        {
            return (XECPublicKey)KeyFactory.getInstance(KEY_FACTORY)
                .generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, u));
        }
        catch (final InvalidKeySpecException ex)
        {
            throw new IllegalArgumentException("the JDK refused an X25519 public key: " + ex.getMessage(), ex);
        }
        catch (final GeneralSecurityException ex)
        {
            // Java SE 11 and later provide XDH (JEP 324); a JVM without it cannot run the authenticated wire.
            throw new IllegalStateException("this JVM provides no " + KEY_FACTORY + " key factory (JEP 324)", ex);
        }
    }

    private static String describe(final AlgorithmParameterSpec params)
    {
        return params instanceof NamedParameterSpec ? ((NamedParameterSpec)params).getName() : String.valueOf(params);
    }
}
