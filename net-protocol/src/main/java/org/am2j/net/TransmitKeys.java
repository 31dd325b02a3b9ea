package org.am2j.net;

/**
 * The sending side of a session: the keys of its current key epoch, and how many datagrams and sealed bytes they
 * have taken. Every datagram gets the next transmission number under the epoch's keys (a retransmission is a new
 * transmission), and AES-GCM's nonce is made of the direction and that number, so no nonce repeats under a key. The
 * direction moves to the next epoch, with keys of its own, before the epoch's sealed bytes reach the limit
 * ({@code am2j.net.rekeyKiB}, well below AES-GCM's data limit per key) or its transmission numbers the nonce space
 * this NIC uses. NIC thread.
 */
final class TransmitKeys
{
    /** Most transmissions under one epoch's keys. */
    static final long MAX_TRANSMISSIONS = 1L << 40;

    private final byte[] trafficSecret;
    /** The first byte of every nonce: 0 from the lower NIC of the link, 1 from the higher. */
    final byte direction;
    private EpochKeys keys;
    /** Transmissions under {@link #keys} so far: the next datagram's number. */
    private long transmissions;
    /** Bytes AES-GCM processed under {@link #keys}. */
    private long sealedBytes;

    TransmitKeys(final byte[] trafficSecret, final boolean fromLower)
    {
        this.trafficSecret = trafficSecret;
        this.direction = (byte)(fromLower ? 0 : 1);
        this.keys = new EpochKeys(trafficSecret, 0);
    }

    /**
     * The keys for the next datagram, moving to the next epoch first when this one has reached its limits.
     *
     * @param bytes      bytes AES-GCM will process for it (0 when it is only tagged).
     * @param limitBytes the most bytes one epoch's keys seal.
     * @return the keys; {@link #transmission()} is the datagram's number under them.
     */
    EpochKeys next(final int bytes, final long limitBytes)
    {
        if (sealedBytes + bytes > limitBytes || transmissions >= MAX_TRANSMISSIONS)
        {
            // Allocates (a key derivation), once per epoch.
            keys = new EpochKeys(trafficSecret, keys.epoch + 1);
            transmissions = 0;
            sealedBytes = 0;
        }
        sealedBytes += bytes;
        return keys;
    }

    /**
     * @return the number of the datagram {@link #next} gave keys for; the one after it gets the next number.
     */
    long transmission()
    {
        return transmissions++;
    }

    /**
     * @return the current epoch.
     */
    int epoch()
    {
        return keys.epoch;
    }
}
