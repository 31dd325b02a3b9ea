package org.am2j.net.auth;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Stateless cookies for the handshake that keys a link: a NIC that hears from a sender it has no link with answers
 * with a cookie instead of doing the key agreement or keeping anything, and does the agreement only for a sender that
 * sends the cookie back, which proves it receives at the address and port it sends from. Refusing a datagram from an
 * unknown sender, or checking the cookie it brings, costs one SipHash and no state.
 * <p>
 * A cookie is a 64-bit keyed hash ({@link SipHash}) over the sender's source address and port, the NIC id it claims,
 * its public key and the time epoch ({@link CookieDescriptor}), under a secret that only this process knows and that
 * changes every period: the secret of an epoch is drawn from a {@link SecureRandom} when the epoch begins, and the
 * previous epoch's secret is still accepted, so a cookie issued at any moment stays valid for at least one period and
 * less than two. A cookie bound to one address, port, NIC id or public key is worth nothing with another; an attacker
 * that reads the cookie on the wire can use it only from that address and port, for that id and key, and still cannot
 * complete the handshake without the private key behind the public key (see {@link NicKeys} for the threat model).
 * <p>
 * {@link #verify} and {@link #issue} allocate nothing, except {@code issue} when it begins a new epoch ({@link
 * #rotate}), which draws a secret once per period; a NIC that calls {@code rotate} from its timers keeps that off the
 * receive path. The {@link InetSocketAddress} variants copy the address bytes out of the JDK's {@link InetAddress}, a
 * 4- or 16-byte allocation; the buffer variants allocate nothing.
 * <p>
 * Time is the caller's monotonic clock in nanoseconds ({@link System#nanoTime()}), never the wall clock: an epoch
 * that went backwards would refuse every cookie until the clock caught up.
 * <p>
 * Not thread-safe: one thread at a time, the NIC's.
 */
public final class Cookies
{
    /** Length of a cookie on the wire, a {@code long}. */
    public static final int COOKIE_LENGTH = 8;

    private final long periodNanos;
    private final SecureRandom random;
    private final byte[] secretBytes = new byte[SipHash.KEY_LENGTH];
    /** The secrets of the two latest epochs, at index {@code epoch & 1}. */
    private final SipHash[] secrets = { new SipHash(), new SipHash() };
    /** The epoch of each secret; meaningful only while that secret {@link SipHash#isKeyed() is keyed}. */
    private final long[] epochs = new long[2];
    private final UnsafeBuffer input = new UnsafeBuffer(new byte[CookieDescriptor.LENGTH]);
    private long currentEpoch;

    /**
     * Cookies with secrets from the JDK's default {@link SecureRandom}.
     *
     * @param periodNanos how often the secret changes, more than 0; a cookie lives between one and two periods.
     * @param nowNanos    the caller's clock now.
     */
    public Cookies(final long periodNanos, final long nowNanos)
    {
        this(periodNanos, nowNanos, new SecureRandom());
    }

    /**
     * Cookies.
     *
     * @param periodNanos how often the secret changes, more than 0; a cookie lives between one and two periods.
     * @param nowNanos    the caller's clock now.
     * @param random      source of the secrets; must be a cryptographically strong generator.
     */
    public Cookies(final long periodNanos, final long nowNanos, final SecureRandom random)
    {
        if (periodNanos <= 0)
        {
            throw new IllegalArgumentException("cookie secret period must be more than 0 ns: " + periodNanos);
        }
        this.periodNanos = periodNanos;
        this.random = random;
        this.currentEpoch = epoch(nowNanos);
        newSecret(currentEpoch);
    }

    /**
     * Begin the epoch of {@code nowNanos} if it has not begun: draw its secret; the secret of the epoch before stays.
     *
     * @param nowNanos the caller's clock now.
     * @return true when a new epoch began.
     */
    public boolean rotate(final long nowNanos)
    {
        final long epoch = epoch(nowNanos);
        if (epoch <= currentEpoch)
        {
            return false;
        }
        currentEpoch = epoch;
        newSecret(epoch);
        return true;
    }

    /**
     * The cookie of a claimant, for this epoch.
     *
     * @param address         holding the source IP address, network byte order.
     * @param addressOffset   of the address's first byte.
     * @param addressLength   4 (IPv4) or 16 (IPv6).
     * @param port            source UDP port, in [0, 65535].
     * @param nicId           the NIC id the claimant claims.
     * @param publicKey       holding the claimant's public key.
     * @param publicKeyOffset of its first byte; {@link X25519Codec#PUBLIC_KEY_LENGTH} bytes must follow.
     * @param nowNanos        the caller's clock now.
     * @return the cookie to send to the claimant.
     */
    public long issue(
        final DirectBuffer address, final int addressOffset, final int addressLength, final int port,
        final long nicId, final DirectBuffer publicKey, final int publicKeyOffset, final long nowNanos)
    {
        rotate(nowNanos);
        final int slot = (int)(currentEpoch & CookieDescriptor.EPOCH_PARITY_BIT);
        fill(currentEpoch, address, addressOffset, addressLength, port, nicId, publicKey, publicKeyOffset);
        final long tag = secrets[slot].hash(input, 0, CookieDescriptor.LENGTH);
        return (tag & ~CookieDescriptor.EPOCH_PARITY_BIT) | slot;
    }

    /**
     * Whether a cookie is one this NIC issued, to this claimant, in this epoch or the one before. Changes nothing.
     *
     * @param cookie          the cookie the claimant sent.
     * @param address         holding the source IP address of the claimant's datagram, network byte order.
     * @param addressOffset   of the address's first byte.
     * @param addressLength   4 (IPv4) or 16 (IPv6).
     * @param port            source UDP port of the claimant's datagram, in [0, 65535].
     * @param nicId           the NIC id the claimant claims.
     * @param publicKey       holding the claimant's public key.
     * @param publicKeyOffset of its first byte; {@link X25519Codec#PUBLIC_KEY_LENGTH} bytes must follow.
     * @param nowNanos        the caller's clock now.
     * @return true when the cookie is valid.
     */
    public boolean verify(
        final long cookie, final DirectBuffer address, final int addressOffset, final int addressLength,
        final int port, final long nicId, final DirectBuffer publicKey, final int publicKeyOffset, final long nowNanos)
    {
        final int slot = (int)(cookie & CookieDescriptor.EPOCH_PARITY_BIT);
        final SipHash secret = secrets[slot];
        final long epoch = epochs[slot];
        final long nowEpoch = epoch(nowNanos);
        // Validate the arguments before looking at the cookie, so a caller's mistake shows on every call.
        fill(epoch, address, addressOffset, addressLength, port, nicId, publicKey, publicKeyOffset);
        if (!secret.isKeyed() || (epoch != nowEpoch && epoch != nowEpoch - 1))
        {
            return false;
        }
        final long tag = secret.hash(input, 0, CookieDescriptor.LENGTH);
        return ((tag ^ cookie) & ~CookieDescriptor.EPOCH_PARITY_BIT) == 0;
    }

    /**
     * {@link #issue(DirectBuffer, int, int, int, long, DirectBuffer, int, long)} for a source socket address; copies
     * the address bytes (one small allocation).
     *
     * @param source          the claimant's datagram's source address and port; must be resolved.
     * @param nicId           the NIC id the claimant claims.
     * @param publicKey       holding the claimant's public key.
     * @param publicKeyOffset of its first byte.
     * @param nowNanos        the caller's clock now.
     * @return the cookie to send to the claimant.
     */
    public long issue(
        final InetSocketAddress source, final long nicId, final DirectBuffer publicKey, final int publicKeyOffset,
        final long nowNanos)
    {
        final byte[] address = addressBytes(source);
        return issue(new UnsafeBuffer(address), 0, address.length, source.getPort(), nicId, publicKey,
            publicKeyOffset, nowNanos);
    }

    /**
     * {@link #verify(long, DirectBuffer, int, int, int, long, DirectBuffer, int, long)} for a source socket address;
     * copies the address bytes (one small allocation).
     *
     * @param cookie          the cookie the claimant sent.
     * @param source          the claimant's datagram's source address and port; must be resolved.
     * @param nicId           the NIC id the claimant claims.
     * @param publicKey       holding the claimant's public key.
     * @param publicKeyOffset of its first byte.
     * @param nowNanos        the caller's clock now.
     * @return true when the cookie is valid.
     */
    public boolean verify(
        final long cookie, final InetSocketAddress source, final long nicId, final DirectBuffer publicKey,
        final int publicKeyOffset, final long nowNanos)
    {
        final byte[] address = addressBytes(source);
        return verify(cookie, new UnsafeBuffer(address), 0, address.length, source.getPort(), nicId, publicKey,
            publicKeyOffset, nowNanos);
    }

    private long epoch(final long nowNanos)
    {
        return Math.floorDiv(nowNanos, periodNanos);
    }

    private void newSecret(final long epoch)
    {
        final int slot = (int)(epoch & CookieDescriptor.EPOCH_PARITY_BIT);
        random.nextBytes(secretBytes);
        secrets[slot].key(secretBytes, 0);
        Arrays.fill(secretBytes, (byte)0);
        epochs[slot] = epoch;
    }

    private void fill(
        final long epoch, final DirectBuffer address, final int addressOffset, final int addressLength,
        final int port, final long nicId, final DirectBuffer publicKey, final int publicKeyOffset)
    {
        if (addressLength != CookieDescriptor.IPV4_LENGTH && addressLength != CookieDescriptor.IPV6_LENGTH)
        {
            throw new IllegalArgumentException("an IP address is 4 (IPv4) or 16 (IPv6) bytes, not " + addressLength);
        }
        if (port < 0 || port > 0xFFFF)
        {
            throw new IllegalArgumentException("a UDP port is in [0, 65535], not " + port);
        }
        publicKey.boundsCheck(publicKeyOffset, X25519Codec.PUBLIC_KEY_LENGTH);

        input.putLong(CookieDescriptor.EPOCH_OFFSET, epoch, ByteOrder.LITTLE_ENDIAN);
        input.putLong(CookieDescriptor.NIC_ID_OFFSET, nicId, ByteOrder.LITTLE_ENDIAN);
        input.putShort(CookieDescriptor.PORT_OFFSET, (short)port, ByteOrder.LITTLE_ENDIAN);
        input.putByte(CookieDescriptor.ADDRESS_LENGTH_OFFSET, (byte)addressLength);
        input.setMemory(CookieDescriptor.ADDRESS_LENGTH_OFFSET + 1,
            CookieDescriptor.ADDRESS_OFFSET - CookieDescriptor.ADDRESS_LENGTH_OFFSET - 1, (byte)0);
        input.setMemory(CookieDescriptor.ADDRESS_OFFSET, CookieDescriptor.ADDRESS_CAPACITY, (byte)0);
        input.putBytes(CookieDescriptor.ADDRESS_OFFSET, address, addressOffset, addressLength);
        input.putBytes(CookieDescriptor.PUBLIC_KEY_OFFSET, publicKey, publicKeyOffset, X25519Codec.PUBLIC_KEY_LENGTH);
    }

    private static byte[] addressBytes(final InetSocketAddress source)
    {
        final InetAddress address = source.getAddress();
        if (address == null)
        {
            throw new IllegalArgumentException("cookie source " + source + " is unresolved: use the address a " +
                "datagram came from");
        }
        return address.getAddress();
    }

    /**
     * @return a description that never shows a secret.
     */
    @Override
    public String toString()
    {
        return "Cookies{periodNanos=" + periodNanos + ", epoch=" + currentEpoch + '}';
    }
}
