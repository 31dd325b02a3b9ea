package org.am2j.net;

import java.util.Arrays;

import javax.crypto.spec.SecretKeySpec;

import org.am2j.net.auth.LinkSecret;
import org.am2j.net.auth.Mac128;

/**
 * The keys of one key epoch of one direction of a session ({@link LinkSecret#epochKeys}): the AES-128 key that seals
 * its datagrams with AES-GCM, and the {@link Mac128} key that tags those it does not seal. Immutable once made.
 */
final class EpochKeys
{
    /** The epoch, from 0; datagrams carry its low 8 bits. */
    final int epoch;
    /** The AES-128 key. */
    final SecretKeySpec cipherKey;
    /** The tag key. */
    final Mac128 mac = new Mac128();

    /**
     * @param trafficSecret the direction's traffic secret.
     * @param epoch         the epoch.
     */
    EpochKeys(final byte[] trafficSecret, final int epoch)
    {
        this.epoch = epoch;
        final byte[] keys = new byte[LinkSecret.EPOCH_KEYS_LENGTH];
        LinkSecret.epochKeys(trafficSecret, epoch, keys);
        this.cipherKey = new SecretKeySpec(keys, LinkSecret.EPOCH_CIPHER_KEY_OFFSET, LinkSecret.CIPHER_KEY_LENGTH, "AES");
        mac.key(keys, LinkSecret.EPOCH_MAC_KEY_OFFSET);
        Arrays.fill(keys, (byte)0);
    }

    /**
     * @param epochByte the low 8 bits of an epoch, as a datagram carries them.
     * @return true when they are this epoch's.
     */
    boolean named(final int epochByte)
    {
        return (epoch & 0xFF) == epochByte;
    }
}
