package org.am2j.net.auth;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;

import javax.crypto.KeyAgreement;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A NIC's long-term X25519 key pair, and the keys of its links to peer NICs derived from it.
 *
 * <h2>Threat model</h2>
 * The attacker reads every datagram between the nodes and injects datagrams of its choosing, with any source address,
 * port and contents (an off-path or on-path host of the network; not a process on the nodes themselves, which could
 * read the keys from memory). It must not be able to make a NIC accept a datagram its peer did not send, in this
 * session or any earlier one: every datagram carries a tag under a key only the two NICs of the link hold, one key per
 * direction and per session ({@link LinkSecret}).
 * <ul>
 *   <li>Those keys derive from nothing ever sent in clear. Each NIC makes its key pair in its own process
 *       ({@link #generate()}); the private key never leaves the process (no method returns or prints it). What travels
 *       in clear: public keys, NIC ids, session ids, handshake randoms, tags.</li>
 *   <li>The two NICs of a link each compute the X25519 shared secret of their private key and the other's public key
 *       (RFC 7748), then HKDF-SHA256 (RFC 5869) turns it into the link's secret ({@link #linkSecret}), bound to both
 *       NIC ids and both public keys. Reading the public keys does not give the secret (the elliptic curve
 *       Diffie-Hellman problem).</li>
 *   <li>Every handshake makes a session whose keys also derive from a random of each NIC: no two sessions of a link
 *       share a key, so a datagram of an earlier session fails in a later one, however often the link is made
 *       again.</li>
 *   <li>Direction separation: the key of datagrams A to B differs from the key of B to A, so a datagram captured on
 *       its way to B and sent back to A fails A's check rather than passing for one of B's.</li>
 *   <li>Small-order public keys, which would force a shared secret every attacker knows (all zero), are refused.</li>
 *   <li>A tag makes a datagram authentic, not fresh: an attacker may replay a datagram it saw, whole, within its
 *       session. The protocol above must take a replayed datagram as a duplicate (sequence numbers, acknowledgement
 *       state and floors that only move forward).</li>
 *   <li>X25519 alone does not say whose public key one holds: an attacker that substitutes its own public key for a
 *       peer's in the exchange sits in the middle. A NIC must therefore learn its peer's public key over a channel the
 *       attacker cannot alter (the launcher's rendezvous, or endpoint names the application exchanged itself), not
 *       from the datagram that claims it; a handshake over the wire then only proves possession of the matching
 *       private key. The cookies of a handshake ({@link Cookies}) keep an unknown sender from costing the NIC state.</li>
 *   <li>Not in scope: denial of service by flooding the link (the attacker can always drop datagrams), traffic
 *       analysis, and an attacker inside either process.</li>
 * </ul>
 *
 * <h2>Use</h2>
 * Instances are immutable and thread-safe. Key agreement runs once per link, on its set-up path, and allocates; the
 * per-datagram work (a tag under a session's key) does not.
 */
public final class NicKeys
{
    /** Length of an encoded public key, as {@link #publicKey()} returns it. */
    public static final int PUBLIC_KEY_LENGTH = X25519Codec.PUBLIC_KEY_LENGTH;

    private static final String KEY_PAIR_ALGORITHM = "X25519";
    private static final String KEY_AGREEMENT_ALGORITHM = "XDH";

    private final PrivateKey privateKey;
    private final byte[] encodedPublicKey;

    private NicKeys(final KeyPair pair)
    {
        this.privateKey = pair.getPrivate();
        this.encodedPublicKey = X25519Codec.encode((XECPublicKey)pair.getPublic());
    }

    /**
     * Make a fresh key pair from the JDK's default {@link SecureRandom}.
     *
     * @return the NIC's keys.
     */
    public static NicKeys generate()
    {
        return generate(new SecureRandom());
    }

    /**
     * Make a fresh key pair.
     *
     * @param random source of the private key; must be a cryptographically strong generator.
     * @return the NIC's keys.
     */
    public static NicKeys generate(final SecureRandom random)
    {
        try
        {
            final KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_PAIR_ALGORITHM);
            generator.initialize(NamedParameterSpec.X25519, random);
            return new NicKeys(generator.generateKeyPair());
        }
        catch (final GeneralSecurityException ex)
        {
            // Java SE 11 and later provide X25519 (JEP 324).
            throw new IllegalStateException("this JVM cannot make X25519 key pairs (JEP 324)", ex);
        }
    }

    /**
     * @return a copy of the public key's {@link #PUBLIC_KEY_LENGTH} bytes (RFC 7748), to send to peers.
     */
    public byte[] publicKey()
    {
        return encodedPublicKey.clone();
    }

    /**
     * Write the public key's {@link #PUBLIC_KEY_LENGTH} bytes into a buffer, such as a datagram or an endpoint name
     * being encoded.
     *
     * @param buffer to write into.
     * @param offset of the first byte.
     */
    public void publicKey(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putBytes(offset, encodedPublicKey);
    }

    /**
     * The secret of the link between this NIC and a peer NIC, every key of the link derives from: the handshake keys
     * and, per handshake, the session's ({@link LinkSecret}). The peer, calling this with its own keys, its own id as
     * {@code localNicId} and this NIC's id and public key, gets the same secret with the roles swapped.
     *
     * @param localNicId    this NIC's id.
     * @param peerNicId     the peer NIC's id.
     * @param peerPublicKey the peer's public key, {@link #PUBLIC_KEY_LENGTH} bytes (RFC 7748).
     * @return the link's secret.
     * @throws IllegalArgumentException when the peer's public key is malformed or of small order, or names this same
     *                                  NIC.
     */
    public LinkSecret linkSecret(final long localNicId, final long peerNicId, final byte[] peerPublicKey)
    {
        final XECPublicKey peerKey = X25519Codec.decode(peerPublicKey);
        return derive(localNicId, peerNicId, peerKey, peerPublicKey.clone());
    }

    /**
     * {@link #linkSecret(long, long, byte[])} with the peer's public key in a buffer, such as a received datagram.
     *
     * @param localNicId this NIC's id.
     * @param peerNicId  the peer NIC's id.
     * @param buffer     holding the peer's public key.
     * @param offset     of its first byte; {@link #PUBLIC_KEY_LENGTH} bytes must follow.
     * @return the link's secret.
     * @throws IllegalArgumentException when the peer's public key is malformed or of small order, or names this same
     *                                  NIC.
     */
    public LinkSecret linkSecret(final long localNicId, final long peerNicId, final DirectBuffer buffer,
        final int offset)
    {
        final XECPublicKey peerKey = X25519Codec.decode(buffer, offset);
        final byte[] encoded = new byte[PUBLIC_KEY_LENGTH];
        buffer.getBytes(offset, encoded);
        return derive(localNicId, peerNicId, peerKey, encoded);
    }

    private LinkSecret derive(
        final long localNicId, final long peerNicId, final XECPublicKey peerKey, final byte[] peerEncoded)
    {
        final int order = compare(localNicId, encodedPublicKey, peerNicId, peerEncoded);
        if (order == 0)
        {
            throw new IllegalArgumentException("peer NIC " + Long.toHexString(peerNicId) + " has this NIC's id and " +
                "public key: a NIC does not key a link to itself (a reflected or forged handshake); refuse it");
        }
        final byte[] shared = sharedSecret(peerKey, peerNicId);
        try
        {
            return new LinkSecret(Hkdf.extract(null, shared), order < 0, nic(localNicId, encodedPublicKey),
                nic(peerNicId, peerEncoded));
        }
        finally
        {
            Arrays.fill(shared, (byte)0);
        }
    }

    private static byte[] nic(final long nicId, final byte[] publicKey)
    {
        final byte[] bytes = new byte[LinkKeyDescriptor.NIC_LENGTH];
        LinkSecret.littleEndian(bytes).putLong(0, nicId);
        System.arraycopy(publicKey, 0, bytes, 8, PUBLIC_KEY_LENGTH);
        return bytes;
    }

    private byte[] sharedSecret(final XECPublicKey peerKey, final long peerNicId)
    {
        final byte[] shared;
        try
        {
            final KeyAgreement agreement = KeyAgreement.getInstance(KEY_AGREEMENT_ALGORITHM);
            agreement.init(privateKey);
            agreement.doPhase(peerKey, true);
            shared = agreement.generateSecret();
        }
        catch (final InvalidKeyException ex)
        {
            // The peer's key is a decoded X25519 key, so the JDK refuses it only as a point of small order ("Point
            // has small order"); a provider that does not check is caught by the all-zero test below.
            throw smallOrder(peerNicId, ex);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("this JVM cannot run XDH key agreement (JEP 324)", ex);
        }
        int bits = 0;
        for (final byte b : shared)
        {
            bits |= b; // every byte, whatever they hold: the time taken says nothing of the secret
        }
        if (bits == 0)
        {
            throw smallOrder(peerNicId, null);
        }
        return shared;
    }

    private static IllegalArgumentException smallOrder(final long peerNicId, final Exception cause)
    {
        return new IllegalArgumentException("public key of peer NIC " + Long.toHexString(peerNicId) + " is a point " +
            "of small order, which makes a shared secret everyone knows (all zero): a forged or corrupt key; refuse " +
            "the peer", cause);
    }

    /**
     * Canonical order of two NICs: by id as an unsigned number, then by public key byte by byte as unsigned numbers.
     */
    static int compare(final long nicA, final byte[] keyA, final long nicB, final byte[] keyB)
    {
        final int byId = Long.compareUnsigned(nicA, nicB);
        return byId != 0 ? byId : Arrays.compareUnsigned(keyA, keyB);
    }

    /**
     * @return a description with the public key only.
     */
    @Override
    public String toString()
    {
        return "NicKeys{public=" + java.util.HexFormat.of().formatHex(encodedPublicKey) + "}";
    }
}
