package org.am2j.net.auth;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The secret of the link between two NICs, from the X25519 agreement of their long-term keys
 * ({@link NicKeys#linkSecret}), and every key of the link derived from it ({@link LinkKeyDescriptor}):
 * <ul>
 *   <li>the handshake keys ({@link #helloKeys}), one per direction, that tag the HELLOs and ANSWERs which make a
 *       session: fixed for the life of the two key pairs;</li>
 *   <li>per handshake, the session's traffic secrets, one per direction, and its id ({@link #session}): both NICs'
 *       randoms of that handshake, the wire version and the wire mode go into them, so a link made again (a peer
 *       evicted and introduced again, say) never has the keys it had before, and datagrams captured on the earlier
 *       session fail on the new one;</li>
 *   <li>per key epoch of a direction, the keys that seal its datagrams ({@link #epochKeys}).</li>
 * </ul>
 * Each end holds the same secret with the roles swapped: what one calls transmit, the other calls receive.
 * Derivations run on a link's set-up and re-key paths, not per datagram: they allocate.
 */
public final class LinkSecret
{
    /** Length of a handshake random. */
    public static final int RANDOM_LENGTH = LinkKeyDescriptor.RANDOM_LENGTH;
    /** Length of a traffic secret. */
    public static final int TRAFFIC_SECRET_LENGTH = LinkKeyDescriptor.TRAFFIC_SECRET_LENGTH;
    /** Length of an epoch's key material: cipher key, then {@link Mac128} key. */
    public static final int EPOCH_KEYS_LENGTH = LinkKeyDescriptor.EPOCH_OKM_LENGTH;
    /** Offset of the cipher key (AES-128) in an epoch's key material. */
    public static final int EPOCH_CIPHER_KEY_OFFSET = LinkKeyDescriptor.EPOCH_CIPHER_KEY_OFFSET;
    /** Length of the cipher key. */
    public static final int CIPHER_KEY_LENGTH = LinkKeyDescriptor.CIPHER_KEY_LENGTH;
    /** Offset of the {@link Mac128} key in an epoch's key material. */
    public static final int EPOCH_MAC_KEY_OFFSET = LinkKeyDescriptor.EPOCH_MAC_KEY_OFFSET;

    private final byte[] prk;
    private final boolean localIsLower;
    private final byte[] localNic;
    private final byte[] peerNic;

    LinkSecret(final byte[] prk, final boolean localIsLower, final byte[] localNic, final byte[] peerNic)
    {
        this.prk = prk;
        this.localIsLower = localIsLower;
        this.localNic = localNic;
        this.peerNic = peerNic;
    }

    /**
     * @return true when this NIC is the lower of the two in the canonical order (by id as an unsigned number, then
     *         by public key): the order both ends agree on without talking.
     */
    public boolean localIsLower()
    {
        return localIsLower;
    }

    /**
     * The keys of the handshake datagrams of the link.
     *
     * @param transmit set to the key of the handshake datagrams this NIC sends.
     * @param receive  set to the key of those it receives.
     */
    public void helloKeys(final Mac128 transmit, final Mac128 receive)
    {
        if (transmit == receive)
        {
            throw new IllegalArgumentException("transmit and receive must be two Mac128 instances: the directions " +
                "have different keys");
        }
        final byte[] info = new byte[LinkKeyDescriptor.HELLO_INFO_LENGTH];
        System.arraycopy(LinkKeyDescriptor.HELLO_LABEL, 0, info, 0, LinkKeyDescriptor.LABEL_LENGTH);
        System.arraycopy(lower(), 0, info, LinkKeyDescriptor.HELLO_LOWER_OFFSET, LinkKeyDescriptor.NIC_LENGTH);
        System.arraycopy(higher(), 0, info, LinkKeyDescriptor.HELLO_HIGHER_OFFSET, LinkKeyDescriptor.NIC_LENGTH);
        final byte[] okm = Hkdf.expand(prk, info, LinkKeyDescriptor.HELLO_OKM_LENGTH);
        final int lowerToHigher = LinkKeyDescriptor.HELLO_LOWER_TO_HIGHER_OFFSET;
        final int higherToLower = LinkKeyDescriptor.HELLO_HIGHER_TO_LOWER_OFFSET;
        transmit.key(okm, localIsLower ? lowerToHigher : higherToLower);
        receive.key(okm, localIsLower ? higherToLower : lowerToHigher);
        Arrays.fill(okm, (byte)0);
    }

    /**
     * The secrets of one session of the link: one handshake.
     *
     * @param version     the wire version both ends speak.
     * @param mode        the wire mode both ends run (a small number naming it).
     * @param localRandom this NIC's random of the handshake, {@link #RANDOM_LENGTH} bytes.
     * @param peerRandom  the peer's random of the handshake, {@link #RANDOM_LENGTH} bytes.
     * @return the session's traffic secrets and id.
     */
    public TrafficSecrets session(final int version, final int mode, final byte[] localRandom,
        final byte[] peerRandom)
    {
        if (localRandom.length != RANDOM_LENGTH || peerRandom.length != RANDOM_LENGTH)
        {
            throw new IllegalArgumentException("a handshake random is " + RANDOM_LENGTH + " bytes");
        }
        final byte[] info = new byte[LinkKeyDescriptor.SESSION_INFO_LENGTH];
        System.arraycopy(LinkKeyDescriptor.SESSION_LABEL, 0, info, 0, LinkKeyDescriptor.LABEL_LENGTH);
        info[LinkKeyDescriptor.SESSION_VERSION_OFFSET] = (byte)version;
        info[LinkKeyDescriptor.SESSION_MODE_OFFSET] = (byte)mode;
        System.arraycopy(lower(), 0, info, LinkKeyDescriptor.SESSION_LOWER_OFFSET, LinkKeyDescriptor.NIC_LENGTH);
        System.arraycopy(localIsLower ? localRandom : peerRandom, 0, info,
            LinkKeyDescriptor.SESSION_LOWER_RANDOM_OFFSET, RANDOM_LENGTH);
        System.arraycopy(higher(), 0, info, LinkKeyDescriptor.SESSION_HIGHER_OFFSET, LinkKeyDescriptor.NIC_LENGTH);
        System.arraycopy(localIsLower ? peerRandom : localRandom, 0, info,
            LinkKeyDescriptor.SESSION_HIGHER_RANDOM_OFFSET, RANDOM_LENGTH);
        final byte[] okm = Hkdf.expand(prk, info, LinkKeyDescriptor.SESSION_OKM_LENGTH);
        final int lowerToHigher = LinkKeyDescriptor.SESSION_LOWER_TO_HIGHER_OFFSET;
        final int higherToLower = LinkKeyDescriptor.SESSION_HIGHER_TO_LOWER_OFFSET;
        final TrafficSecrets secrets = new TrafficSecrets(
            Arrays.copyOfRange(okm, localIsLower ? lowerToHigher : higherToLower,
                (localIsLower ? lowerToHigher : higherToLower) + TRAFFIC_SECRET_LENGTH),
            Arrays.copyOfRange(okm, localIsLower ? higherToLower : lowerToHigher,
                (localIsLower ? higherToLower : lowerToHigher) + TRAFFIC_SECRET_LENGTH),
            littleEndian(okm).getInt(LinkKeyDescriptor.SESSION_ID_OFFSET));
        Arrays.fill(okm, (byte)0);
        return secrets;
    }

    /**
     * The keys of one key epoch of one direction.
     *
     * @param trafficSecret the direction's traffic secret ({@link TrafficSecrets}).
     * @param epoch         the epoch, from 0.
     * @param into          set to {@link #EPOCH_KEYS_LENGTH} bytes: the cipher key at {@link #EPOCH_CIPHER_KEY_OFFSET},
     *                      the {@link Mac128} key at {@link #EPOCH_MAC_KEY_OFFSET}.
     */
    public static void epochKeys(final byte[] trafficSecret, final int epoch, final byte[] into)
    {
        final byte[] info = new byte[LinkKeyDescriptor.EPOCH_INFO_LENGTH];
        System.arraycopy(LinkKeyDescriptor.EPOCH_LABEL, 0, info, 0, LinkKeyDescriptor.LABEL_LENGTH);
        littleEndian(info).putInt(LinkKeyDescriptor.EPOCH_NUMBER_OFFSET, epoch);
        final byte[] okm = Hkdf.expand(trafficSecret, info, LinkKeyDescriptor.EPOCH_OKM_LENGTH);
        System.arraycopy(okm, 0, into, 0, LinkKeyDescriptor.EPOCH_OKM_LENGTH);
        Arrays.fill(okm, (byte)0);
    }

    /**
     * @param bytes an array.
     * @return a little-endian view of it, as every integer in the key schedule's inputs and outputs is.
     */
    static ByteBuffer littleEndian(final byte[] bytes)
    {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private byte[] lower()
    {
        return localIsLower ? localNic : peerNic;
    }

    private byte[] higher()
    {
        return localIsLower ? peerNic : localNic;
    }

    /**
     * @return a description without any secret.
     */
    @Override
    public String toString()
    {
        return "LinkSecret{" + (localIsLower ? "lower" : "higher") + "}";
    }

    /**
     * The secrets of one session of a link, seen from one end: the traffic secret of each direction, from which the
     * keys of its epochs derive ({@link #epochKeys}), and the session's id, which both ends compute alike and every
     * datagram of the session carries (it names the session; it is no secret). The arrays are the secrets
     * themselves: do not change them.
     */
    public record TrafficSecrets(byte[] transmit, byte[] receive, int id)
    {
    }
}
