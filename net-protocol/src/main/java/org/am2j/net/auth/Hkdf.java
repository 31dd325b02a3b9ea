package org.am2j.net.auth;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA256 (RFC 5869): extract a pseudorandom key from input keying material that is secret but not
 * uniform (an X25519 shared secret), then expand it into as many key bytes as needed, bound to a context string.
 * Runs once per link key-up, not per datagram: it allocates.
 */
final class Hkdf
{
    /** Output length of HMAC-SHA256, HashLen in RFC 5869. */
    static final int HASH_LENGTH = 32;

    private static final String HMAC = "HmacSHA256";

    private Hkdf()
    {
    }

    /**
     * HKDF-Extract.
     *
     * @param salt optional salt; null or empty means HashLen zero bytes (RFC 5869 section 2.2).
     * @param ikm  input keying material.
     * @return the pseudorandom key PRK, {@link #HASH_LENGTH} bytes.
     */
    static byte[] extract(final byte[] salt, final byte[] ikm)
    {
        final byte[] key = salt == null || salt.length == 0 ? new byte[HASH_LENGTH] : salt;
        final Mac mac = mac(key);
        return mac.doFinal(ikm);
    }

    /**
     * HKDF-Expand.
     *
     * @param prk    a pseudorandom key of at least {@link #HASH_LENGTH} bytes.
     * @param info   context and application specific information; null means empty.
     * @param length bytes of output keying material, at most 255 * {@link #HASH_LENGTH}.
     * @return the output keying material OKM.
     */
    static byte[] expand(final byte[] prk, final byte[] info, final int length)
    {
        if (prk.length < HASH_LENGTH)
        {
            throw new IllegalArgumentException("HKDF PRK must be at least " + HASH_LENGTH + " bytes: " + prk.length);
        }
        if (length < 1 || length > 255 * HASH_LENGTH)
        {
            throw new IllegalArgumentException("HKDF-SHA256 output length must be in [1, " + 255 * HASH_LENGTH +
                "]: " + length);
        }
        final Mac mac = mac(prk);
        final byte[] okm = new byte[length];
        byte[] t = new byte[0];
        int written = 0;
        for (int counter = 1; written < length; counter++)
        {
            mac.update(t);
            if (info != null)
            {
                mac.update(info);
            }
            mac.update((byte)counter);
            Arrays.fill(t, (byte)0);
            t = mac.doFinal();
            final int n = Math.min(t.length, length - written);
            System.arraycopy(t, 0, okm, written, n);
            written += n;
        }
        Arrays.fill(t, (byte)0);
        return okm;
    }

    private static Mac mac(final byte[] key)
    {
        try
        {
            final Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        }
        catch (final GeneralSecurityException ex)
        {
            // Every Java SE platform must provide HmacSHA256 (java.security.Security's required algorithms).
            throw new IllegalStateException("this JVM provides no " + HMAC + ", which every Java SE platform must", ex);
        }
    }
}
