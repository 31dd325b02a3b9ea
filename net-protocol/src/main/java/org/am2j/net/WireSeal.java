package org.am2j.net;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the wire mode does to a session's datagram between the NIC and the socket, and back ({@link WireMode}):
 * <ul>
 *   <li>{@code encrypt}: a datagram that carries messages ({@link WireDescriptor#TYPE_DATA},
 *       {@link WireDescriptor#TYPE_BATCH}) is sealed with AES-128-GCM from the JDK's provider: its header is the
 *       associated data, its payload is encrypted, and the 16-byte tag follows it; one {@code doFinal} per datagram,
 *       in the datagram's own buffer (a fragment, a batch, a control datagram), or, for a whole message sent from the
 *       window slot that keeps it in clear for retransmission, into the NIC's send buffer. A header-only datagram (ACK, GIVE_UP and its answer) carries nothing
 *       to hide: it gets the {@link org.am2j.net.auth.Mac128} tag, which measures cheaper than AES-GCM per call for
 *       the same forgery bound;</li>
 *   <li>{@code authenticate}: every datagram gets the {@link org.am2j.net.auth.Mac128} tag;</li>
 *   <li>{@code off}: nothing.</li>
 * </ul>
 * Sealing writes the datagram's key epoch and transmission number into its header first ({@link TransmitKeys}): the
 * nonce is the direction and that number, which never repeats under a key. Opening reads them, picks the epoch's keys
 * ({@link ReceiveKeys}) and checks (and decrypts) before anything of the datagram is used: the JDK may write
 * plaintext into the buffer before it finds the tag wrong, and such a datagram is dropped whole.
 * <p>
 * Allocation: the JDK 17 {@code Cipher} API takes a new {@link GCMParameterSpec} per initialisation and copies the
 * key, the nonce and the associated data each time, so a sealed or opened datagram allocates a bounded amount
 * ({@link #ALLOCATION_BOUND}) that does not grow with its size; tagged datagrams allocate nothing. NIC thread.
 */
final class WireSeal
{
    /** Length of AES-GCM's nonce. */
    static final int NONCE_LENGTH = 12;
    /** Bits of AES-GCM's tag. */
    static final int TAG_BITS = 128;
    /**
     * Most bytes the JDK allocates per sealed or opened datagram (measured on JDK 17: about 1.5 KB for a short message,
     * 3.4 KB for 8 KiB; the allocation tests check it).
     */
    static final int ALLOCATION_BOUND = 4096;

    private final WireMode mode;
    private final long limitBytes;
    private final NicCounters counters;
    private final Cipher sealer;
    private final Cipher opener;
    private final byte[] nonce = new byte[NONCE_LENGTH];
    /** Where kept datagrams are sealed ({@link #seal}). */
    private final ByteBuffer sealed = FrameWriter.direct(NetConfig.MAX_DATAGRAM);
    private final UnsafeBuffer sealedView = new UnsafeBuffer(sealed);

    /**
     * @param mode       the NIC's wire mode.
     * @param limitBytes the most bytes one epoch's keys seal before the direction moves to the next.
     * @param counters   the NIC's counters.
     */
    WireSeal(final WireMode mode, final long limitBytes, final NicCounters counters)
    {
        this.mode = mode;
        this.limitBytes = limitBytes;
        this.counters = counters;
        this.sealer = WireMode.ENCRYPT == mode ? cipher() : null;
        this.opener = WireMode.ENCRYPT == mode ? cipher() : null;
    }

    private static Cipher cipher()
    {
        try
        {
            return Cipher.getInstance("AES/GCM/NoPadding");
        }
        catch (final GeneralSecurityException ex)
        {
            // Every Java SE platform must provide AES/GCM/NoPadding (javax.crypto.Cipher's required transformations).
            throw new IllegalStateException("this JVM provides no AES/GCM/NoPadding, which every Java SE platform must",
                ex);
        }
    }

    /**
     * @param type a datagram's type.
     * @return true when the mode encrypts datagrams of that type (else they are tagged, or left alone when off).
     */
    boolean encrypts(final int type)
    {
        return WireMode.ENCRYPT == mode && (WireDescriptor.TYPE_DATA == type || WireDescriptor.TYPE_BATCH == type);
    }

    /**
     * Seal or tag a datagram of a session: its {@code length} bytes are written, header included, and its buffer has
     * room for the tag after them.
     *
     * @param buffer  the datagram's buffer.
     * @param twin    a second buffer over the same memory (the JDK takes input and output as two objects).
     * @param view    a view of the same memory.
     * @param length  bytes before the tag.
     * @param session the session it goes out in.
     * @param keep    the buffer is a window slot's, whose message must stay in clear for retransmission.
     * @return the buffer that holds the datagram to send: its own, or, for a kept one that is encrypted, the send
     *         buffer (valid until the next call).
     */
    ByteBuffer seal(final ByteBuffer buffer, final ByteBuffer twin, final UnsafeBuffer view, final int length,
        final LinkSession session, final boolean keep)
    {
        if (WireMode.OFF == mode)
        {
            return buffer;
        }
        final TransmitKeys transmit = session.transmit;
        final int type = view.getByte(WireDescriptor.TYPE_OFFSET);
        final boolean encrypt = encrypts(type);
        final int epoch = transmit.epoch();
        final EpochKeys keys = transmit.next(encrypt ? length - WireDescriptor.HEADER_LENGTH : 0, limitBytes);
        if (keys.epoch != epoch)
        {
            counters.increment(NicEvent.REKEYS);
        }
        final long transmission = transmit.transmission();
        view.putByte(WireDescriptor.KEY_EPOCH_OFFSET, (byte)keys.epoch);
        view.putLong(WireDescriptor.TRANSMISSION_OFFSET, transmission);
        if (!encrypt)
        {
            keys.mac.tag(view, 0, length);
            return buffer;
        }
        // A message kept in its window slot for retransmission stays in clear there: it is sealed into the send
        // buffer, its header copied first. Anything else is sealed in its own buffer.
        final ByteBuffer out = keep ? sealed : twin;
        if (keep)
        {
            sealedView.putBytes(0, view, 0, WireDescriptor.HEADER_LENGTH);
        }
        try
        {
            sealer.init(Cipher.ENCRYPT_MODE, keys.cipherKey, parameters(transmit.direction, transmission));
            buffer.limit(WireDescriptor.HEADER_LENGTH).position(0);
            sealer.updateAAD(buffer);
            buffer.limit(length).position(WireDescriptor.HEADER_LENGTH);
            out.limit(length + WireDescriptor.TAG_LENGTH).position(WireDescriptor.HEADER_LENGTH);
            sealer.doFinal(buffer, out);
            return keep ? sealed : buffer;
        }
        catch (final GeneralSecurityException ex)
        {
            // A fresh nonce, a key of the right length and room for the tag: the JDK has no reason to refuse.
            throw new IllegalStateException("AES-GCM refused to seal a datagram", ex);
        }
    }

    /**
     * Check (and decrypt, when the mode encrypts its type) a received datagram of a session in place. Nothing of it
     * may be used when this returns false.
     *
     * @param buffer  the datagram's buffer.
     * @param twin    a second buffer over the same memory.
     * @param view    a view of the same memory.
     * @param length  bytes before the tag.
     * @param session the session it names.
     * @return true when it is authentic; false when its tag does not check under the keys of the epoch it names (or it
     *         names none this side holds).
     */
    boolean open(final ByteBuffer buffer, final ByteBuffer twin, final UnsafeBuffer view, final int length,
        final LinkSession session)
    {
        if (WireMode.OFF == mode)
        {
            return true;
        }
        final ReceiveKeys receive = session.receive;
        final EpochKeys keys = receive.byEpoch(view.getByte(WireDescriptor.KEY_EPOCH_OFFSET) & 0xFF);
        if (null == keys)
        {
            return false;
        }
        if (!encrypts(view.getByte(WireDescriptor.TYPE_OFFSET)))
        {
            if (!keys.mac.check(view, 0, length))
            {
                return false;
            }
        }
        else
        {
            try
            {
                opener.init(Cipher.DECRYPT_MODE, keys.cipherKey,
                    parameters(receive.direction, view.getLong(WireDescriptor.TRANSMISSION_OFFSET)));
                buffer.limit(WireDescriptor.HEADER_LENGTH).position(0);
                opener.updateAAD(buffer);
                buffer.limit(length + WireDescriptor.TAG_LENGTH).position(WireDescriptor.HEADER_LENGTH);
                twin.limit(length + WireDescriptor.TAG_LENGTH).position(WireDescriptor.HEADER_LENGTH);
                opener.doFinal(buffer, twin);
            }
            catch (final AEADBadTagException ex)
            {
                return false;
            }
            catch (final GeneralSecurityException ex)
            {
                throw new IllegalStateException("AES-GCM refused to open a datagram", ex);
            }
        }
        receive.checked(keys);
        return true;
    }

    /**
     * @return AES-GCM's parameters for a datagram: the nonce is the direction's byte, three zero bytes and the
     *         transmission number, little-endian.
     */
    private GCMParameterSpec parameters(final byte direction, final long transmission)
    {
        nonce[0] = direction;
        for (int i = 0; i < 8; i++)
        {
            nonce[4 + i] = (byte)(transmission >>> (8 * i));
        }
        // Allocates: the JDK's API takes the nonce in a new immutable object per initialisation.
        return new GCMParameterSpec(TAG_BITS, nonce);
    }
}
