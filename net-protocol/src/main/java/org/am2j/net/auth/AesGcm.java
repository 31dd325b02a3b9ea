package org.am2j.net.auth;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * AES-GCM from the JDK's provider over datagrams in the NIC's buffers: the first {@code aadLength} bytes of a datagram
 * (its header) are authenticated, the rest up to {@code length} encrypted, and the 16-byte tag follows them. The
 * nonce is a direction byte, three zero bytes and a 64-bit counter, little-endian; the caller never gives a counter
 * twice under a key in one direction.
 * <p>
 * Where the time goes, and why it is done this way (measured per call with {@code WireSealBenchmark}): the JDK runs
 * AES-GCM on heap arrays with its intrinsics (AES-NI and carry-less multiplies; AVX-512 in one pass on newer JDKs),
 * but over direct {@code ByteBuffer}s it copies the associated data into a new array and the data through two new
 * arrays per call. So the datagram is copied into an array this instance keeps, sealed or opened there, and the
 * result copied back: two plain copies instead of the JDK's allocating ones. Opening decrypts into a second array and
 * copies the plaintext into the datagram only when the tag checks, so a forged datagram's buffer is left as it came.
 * One {@code Cipher} per instance, initialised once per datagram (the JDK keeps the AES key schedule while the key
 * stays the same); the {@code GCMParameterSpec} and the JDK's own per-initialisation state are the only allocation,
 * a bounded amount per call whatever the datagram's size.
 * <p>
 * One thread at a time (the NIC's).
 */
public final class AesGcm
{
    /** Length of the nonce. */
    public static final int NONCE_LENGTH = 12;
    /** Length of the tag. */
    public static final int TAG_LENGTH = 16;

    private final Cipher cipher;
    private final byte[] nonce = new byte[NONCE_LENGTH];
    /** The datagram, copied in. */
    private final byte[] datagram;
    /** What opening decrypts into. */
    private final byte[] plain;

    /**
     * @param capacity the longest datagram, tag included, that is sealed or tagged; a longer one received is refused.
     */
    public AesGcm(final int capacity)
    {
        this.datagram = new byte[capacity];
        this.plain = new byte[capacity];
        try
        {
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
        }
        catch (final GeneralSecurityException ex)
        {
            // Every Java SE platform must provide AES/GCM/NoPadding (javax.crypto.Cipher's required transformations).
            throw new IllegalStateException("this JVM provides no AES/GCM/NoPadding, which every Java SE platform must",
                ex);
        }
    }

    /**
     * Seal the {@code length} bytes from 0 of {@code from} into {@code to}: the same header, the encrypted rest and
     * the tag after it. {@code from} and {@code to} may be the same buffer.
     *
     * @param key       the AES key.
     * @param direction the nonce's first byte.
     * @param counter   the nonce's counter: never the same twice under the key and direction.
     * @param from      the datagram in clear.
     * @param to        where the sealed datagram goes, with room for {@code length} bytes and the tag.
     * @param aadLength bytes of header, authenticated and not encrypted.
     * @param length    bytes of the datagram, header included.
     */
    public void seal(final SecretKey key, final byte direction, final long counter, final DirectBuffer from,
        final MutableDirectBuffer to, final int aadLength, final int length)
    {
        from.getBytes(0, datagram, 0, length);
        try
        {
            cipher.init(Cipher.ENCRYPT_MODE, key, parameters(direction, counter));
            cipher.updateAAD(datagram, 0, aadLength);
            // In place in the array: the JDK encrypts an array into itself at the same offset without a copy.
            cipher.doFinal(datagram, aadLength, length - aadLength, datagram, aadLength);
        }
        catch (final GeneralSecurityException ex)
        {
            // A fresh nonce, a key of the right length and room for the tag: the JDK has no reason to refuse.
            throw new IllegalStateException("AES-GCM refused to seal a datagram", ex);
        }
        to.putBytes(0, datagram, 0, length + TAG_LENGTH);
    }

    /**
     * Check and decrypt a sealed datagram in its buffer: the {@code length} bytes from 0 and the tag after them.
     *
     * @param key       the AES key.
     * @param direction the nonce's first byte.
     * @param counter   the nonce's counter, as the datagram names it.
     * @param buffer    holding the datagram; its encrypted bytes are replaced by the plaintext only when the tag
     *                  checks, and nothing in it changes otherwise.
     * @param aadLength bytes of header.
     * @param length    bytes of the datagram before its tag.
     * @return true when the tag checks; false too for a datagram longer than this instance takes, which nobody sealed.
     */
    public boolean open(final SecretKey key, final byte direction, final long counter, final MutableDirectBuffer buffer,
        final int aadLength, final int length)
    {
        if (!copiedIn(buffer, length + TAG_LENGTH))
        {
            return false;
        }
        try
        {
            cipher.init(Cipher.DECRYPT_MODE, key, parameters(direction, counter));
            cipher.updateAAD(datagram, 0, aadLength);
            // Into a second array: the JDK avoids its one-pass AVX-512 path for an array decrypted into itself, and
            // nothing reaches the datagram's buffer before the tag checks.
            cipher.doFinal(datagram, aadLength, length - aadLength + TAG_LENGTH, plain, aadLength);
        }
        catch (final AEADBadTagException ex)
        {
            return false;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("AES-GCM refused to open a datagram", ex);
        }
        buffer.putBytes(aadLength, plain, aadLength, length - aadLength);
        return true;
    }

    /**
     * Write AES-GCM's tag of a datagram after its {@code length} bytes, its bytes after the header left in clear: the
     * tag that sealing would give it, over the header and the ciphertext, whose ciphertext is thrown away. The
     * receiver makes the same ciphertext from the clear bytes and compares the tags ({@link #checkTag}).
     *
     * @param key       the AES key.
     * @param direction the nonce's first byte.
     * @param counter   the nonce's counter: never the same twice under the key and direction, sealed or tagged.
     * @param buffer    the datagram, with room for the tag after it.
     * @param aadLength bytes of header.
     * @param length    bytes of the datagram, header included.
     */
    public void tag(final SecretKey key, final byte direction, final long counter, final MutableDirectBuffer buffer,
        final int aadLength, final int length)
    {
        buffer.getBytes(0, datagram, 0, length);
        try
        {
            encryptAside(key, direction, counter, aadLength, length, false);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("AES-GCM refused to tag a datagram", ex);
        }
        buffer.putBytes(length, plain, length, TAG_LENGTH);
    }

    /**
     * @param key       the AES key.
     * @param direction the nonce's first byte.
     * @param counter   the nonce's counter, as the datagram names it.
     * @param buffer    holding the datagram: {@code length} bytes and the tag after them; not changed.
     * @param aadLength bytes of header.
     * @param length    bytes of the datagram before its tag.
     * @return true when the tag is the one {@link #tag} gives the datagram. All 16 bytes are compared whatever the
     *         first differences: the time taken says nothing about where they differ. False for a datagram longer than
     *         this instance takes, which nobody tagged.
     */
    public boolean checkTag(final SecretKey key, final byte direction, final long counter, final DirectBuffer buffer,
        final int aadLength, final int length)
    {
        if (!copiedIn(buffer, length + TAG_LENGTH))
        {
            return false;
        }
        try
        {
            encryptAside(key, direction, counter, aadLength, length, true);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("AES-GCM refused to check a datagram's tag", ex);
        }
        int difference = 0;
        for (int i = length; i < length + TAG_LENGTH; i++)
        {
            difference |= datagram[i] ^ plain[i];
        }
        return 0 == difference;
    }

    /**
     * Copy a received datagram in, unless it is longer than any this instance seals or tags.
     *
     * @return false when it is longer.
     */
    private boolean copiedIn(final DirectBuffer buffer, final int bytes)
    {
        if (bytes > datagram.length)
        {
            return false;
        }
        buffer.getBytes(0, datagram, 0, bytes);
        return true;
    }

    /**
     * Encrypt the datagram copied in, header as associated data, into {@link #plain} (ciphertext and tag there).
     */
    private void encryptAside(final SecretKey key, final byte direction, final long counter, final int aadLength,
        final int length, final boolean checking) throws GeneralSecurityException
    {
        try
        {
            cipher.init(Cipher.ENCRYPT_MODE, key, parameters(direction, counter));
        }
        catch (final InvalidAlgorithmParameterException ex)
        {
            if (!checking)
            {
                throw ex;
            }
            // The JDK refuses to encrypt twice in a row under one key and nonce, a guard for senders; a receiver
            // checks a datagram with the nonce of the one it checked just before (a copy of it, or a forgery that
            // must not make the real one fail). Initialised once for a nonce no datagram has (the counter's top bit
            // set: transmissions stay far below it), the cipher takes the datagram's again.
            cipher.init(Cipher.ENCRYPT_MODE, key, parameters(direction, counter ^ Long.MIN_VALUE));
            cipher.init(Cipher.ENCRYPT_MODE, key, parameters(direction, counter));
        }
        cipher.updateAAD(datagram, 0, aadLength);
        cipher.doFinal(datagram, aadLength, length - aadLength, plain, aadLength);
    }

    /**
     * @return AES-GCM's parameters for a datagram: the nonce is the direction's byte, three zero bytes and the
     *         counter, little-endian.
     */
    private GCMParameterSpec parameters(final byte direction, final long counter)
    {
        nonce[0] = direction;
        for (int i = 0; i < 8; i++)
        {
            nonce[4 + i] = (byte)(counter >>> (8 * i));
        }
        // Allocates: the JDK's API takes the nonce in a new immutable object per initialisation.
        return new GCMParameterSpec(8 * TAG_LENGTH, nonce);
    }
}
