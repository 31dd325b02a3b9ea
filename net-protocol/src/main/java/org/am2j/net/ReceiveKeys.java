package org.am2j.net;

/**
 * The receiving side of a session: the keys of the epoch the peer sends in, of the one before (datagrams in flight
 * when the peer moved on still check) and of the one after (the peer's next). A datagram of the next epoch that checks
 * moves the side on: the old previous epoch's keys are dropped and the new next one's derived. Only a datagram that
 * checked moves it. NIC thread.
 */
final class ReceiveKeys
{
    private final byte[] trafficSecret;
    /** The first byte of every nonce from the peer. */
    final byte direction;
    private EpochKeys previous;
    private EpochKeys current;
    private EpochKeys next;

    ReceiveKeys(final byte[] trafficSecret, final boolean fromLower)
    {
        this.trafficSecret = trafficSecret;
        this.direction = (byte)(fromLower ? 0 : 1);
        this.current = new EpochKeys(trafficSecret, 0);
        this.next = new EpochKeys(trafficSecret, 1);
    }

    /**
     * @param epochByte the low 8 bits of the epoch a datagram names.
     * @return the keys of that epoch, or null when it is none of the three this side holds.
     */
    EpochKeys byEpoch(final int epochByte)
    {
        if (current.named(epochByte))
        {
            return current;
        }
        if (next.named(epochByte))
        {
            return next;
        }
        return null != previous && previous.named(epochByte) ? previous : null;
    }

    /**
     * A datagram checked under these keys: when they are the next epoch's, the peer has moved on, and so does this side.
     *
     * @param keys the keys it checked under.
     * @return true when this side moved to the next epoch.
     */
    boolean checked(final EpochKeys keys)
    {
        if (keys != next)
        {
            return false;
        }
        previous = current;
        current = next;
        // Allocates (a key derivation), once per epoch.
        next = new EpochKeys(trafficSecret, current.epoch + 1);
        return true;
    }

    /**
     * @return the epoch the peer sends in, as far as this side has seen.
     */
    int epoch()
    {
        return current.epoch;
    }
}
