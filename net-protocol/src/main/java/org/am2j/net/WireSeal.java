package org.am2j.net;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.net.auth.AesGcm;

/**
 * What the wire mode does to a session's datagram between the NIC and the socket, and back ({@link WireMode}):
 * <ul>
 *   <li>{@code encrypt}: a datagram that carries messages ({@link WireDescriptor#TYPE_DATA},
 *       {@link WireDescriptor#TYPE_BATCH}) is sealed with AES-128-GCM from the JDK's provider ({@link AesGcm}): its
 *       header is the associated data, its payload is encrypted, and the 16-byte tag follows it; sealed in the
 *       datagram's own buffer (a fragment, a batch, a control datagram), or, for a whole message sent from the window
 *       slot that keeps it in clear for retransmission, into the NIC's send buffer. A header-only datagram (ACK,
 *       GIVE_UP and its answer) carries nothing to hide: it gets the {@link org.am2j.net.auth.Mac128} tag, which
 *       measures cheaper than AES-GCM per call for the same forgery bound;</li>
 *   <li>{@code authenticate}: every datagram gets a tag and travels in clear: a DATA datagram (a message or a
 *       fragment of one) of {@link #GCM_TAG_FROM} bytes or more AES-GCM's tag ({@link AesGcm#tag}: the tag sealing
 *       would give it, its ciphertext thrown away, which the receiver makes again from the clear bytes), any other the
 *       {@link org.am2j.net.auth.Mac128} tag: whichever measures cheaper at its size for the same forgery bound, but
 *       batches of short messages, whatever their length, keep the 128-bit tag, which allocates nothing;</li>
 *   <li>{@code off}: nothing.</li>
 * </ul>
 * Sealing writes the datagram's key epoch and transmission number into its header first ({@link TransmitKeys}): the
 * nonce is the direction and that number, which never repeats under a key. Opening reads them, picks the epoch's keys
 * ({@link ReceiveKeys}) and checks (and decrypts) before anything of the datagram is used: a datagram whose tag does
 * not check is dropped whole, its buffer as it came.
 * <p>
 * Allocation: the JDK's {@code Cipher} API takes a new {@code GCMParameterSpec} per initialisation and makes its own
 * state for each, so a sealed or opened datagram allocates a bounded amount ({@link #ALLOCATION_BOUND}) that does not
 * grow with its size (in {@code authenticate} mode, only DATA datagrams of {@link #GCM_TAG_FROM} bytes or more and
 * batches of entries that long on average);
 * datagrams with the 128-bit tag allocate nothing. NIC thread.
 */
final class WireSeal
{
    /**
     * Most bytes the JDK allocates per sealed or opened datagram (the allocation tests check it with short and 8 KiB
     * payloads).
     */
    static final int ALLOCATION_BOUND = 1536;
    /**
     * The shortest DATA datagram (header included, tag not) that {@code authenticate} mode tags with AES-GCM rather than
     * {@link org.am2j.net.auth.Mac128}: AES-GCM costs a fixed amount per call (a {@code Cipher} initialised for the
     * datagram's nonce, the copies) and little per byte, the 128-bit tag nothing fixed and more per byte
     * ({@code WireSealBenchmark}: on 168 payload bytes the 128-bit tag costs a third to a half of AES-GCM's, on 8 KiB
     * two to four times as much; the two meet near 1 KiB).
     */
    static final int GCM_TAG_FROM = 1024;

    /** How a datagram is protected: the 128-bit tag. */
    private static final int MAC = 0;
    /** AES-GCM's tag, the datagram in clear. */
    private static final int GCM_TAG = 1;
    /** Sealed with AES-GCM. */
    private static final int SEAL = 2;

    private final WireMode mode;
    private final long limitBytes;
    private final int gcmTagFrom;
    private final NicCounters counters;
    /** AES-GCM for the datagrams this NIC seals or tags, and for those it opens or checks; null when the mode is off. */
    private final AesGcm sealer;
    private final AesGcm opener;
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
        this(mode, limitBytes, counters, GCM_TAG_FROM);
    }

    /**
     * @param gcmTagFrom the shortest datagram {@code authenticate} mode tags with AES-GCM (tests lower it).
     */
    WireSeal(final WireMode mode, final long limitBytes, final NicCounters counters, final int gcmTagFrom)
    {
        this.mode = mode;
        this.limitBytes = limitBytes;
        this.gcmTagFrom = gcmTagFrom;
        this.counters = counters;
        this.sealer = WireMode.OFF == mode ? null : new AesGcm(NetConfig.MAX_DATAGRAM);
        this.opener = WireMode.OFF == mode ? null : new AesGcm(NetConfig.MAX_DATAGRAM);
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
     * @param view   the datagram (a batch's entry count is read from its header).
     * @param length its bytes before the tag.
     * @return how the mode protects it (not called when off).
     */
    private int construction(final UnsafeBuffer view, final int length)
    {
        final int type = view.getByte(WireDescriptor.TYPE_OFFSET);
        if (encrypts(type))
        {
            return SEAL;
        }
        if (WireMode.AUTHENTICATE != mode)
        {
            return MAC;
        }
        if (WireDescriptor.TYPE_DATA == type)
        {
            return length >= gcmTagFrom ? GCM_TAG : MAC;
        }
        // A batch by its entries' mean length: one of short messages, however many, keeps the 128-bit tag, which
        // allocates nothing; one of medium messages takes AES-GCM's, whose cost per byte is a third of the other's.
        // The count is read before the tag is checked: a forged one only picks the check that then fails.
        if (WireDescriptor.TYPE_BATCH != type)
        {
            return MAC;
        }
        final int entries = view.getInt(BatchDescriptor.COUNT_OFFSET);
        return entries > 0 && length - WireDescriptor.HEADER_LENGTH >= (long)gcmTagFrom * entries ? GCM_TAG : MAC;
    }

    /**
     * Seal or tag a datagram of a session: its {@code length} bytes are written, header included, and its buffer has
     * room for the tag after them.
     *
     * @param buffer  the datagram's buffer.
     * @param view    a view of the same memory.
     * @param length  bytes before the tag.
     * @param session the session it goes out in.
     * @param keep    the buffer is a window slot's, whose message must stay in clear for retransmission.
     * @return the buffer that holds the datagram to send: its own, or, for a kept one that is encrypted, the send
     *         buffer (valid until the next call).
     */
    ByteBuffer seal(final ByteBuffer buffer, final UnsafeBuffer view, final int length, final LinkSession session,
        final boolean keep)
    {
        if (WireMode.OFF == mode)
        {
            return buffer;
        }
        final TransmitKeys transmit = session.transmit;
        final int construction = construction(view, length);
        final int epoch = transmit.epoch();
        // What AES-GCM processes under the key counts towards its limit, tagged or sealed.
        final EpochKeys keys = transmit.next(MAC == construction ? 0 : length - WireDescriptor.HEADER_LENGTH,
            limitBytes);
        if (keys.epoch != epoch)
        {
            counters.increment(NicEvent.REKEYS);
        }
        final long transmission = transmit.transmission();
        view.putByte(WireDescriptor.KEY_EPOCH_OFFSET, (byte)keys.epoch);
        view.putLong(WireDescriptor.TRANSMISSION_OFFSET, transmission);
        if (MAC == construction)
        {
            keys.mac.tag(view, 0, length);
            return buffer;
        }
        if (GCM_TAG == construction)
        {
            sealer.tag(keys.cipherKey, transmit.direction, transmission, view, WireDescriptor.HEADER_LENGTH, length);
            return buffer;
        }
        // A message kept in its window slot for retransmission stays in clear there: it is sealed into the send
        // buffer. Anything else is sealed in its own buffer.
        sealer.seal(keys.cipherKey, transmit.direction, transmission, view, keep ? sealedView : view,
            WireDescriptor.HEADER_LENGTH, length);
        return keep ? sealed : buffer;
    }

    /**
     * Check (and decrypt, when the mode encrypts its type) a received datagram of a session in place. Nothing of it
     * may be used when this returns false.
     *
     * @param view    the datagram.
     * @param length  bytes before the tag.
     * @param session the session it names.
     * @return true when it is authentic; false when its tag does not check under the keys of the epoch it names (or it
     *         names none this side holds).
     */
    boolean open(final UnsafeBuffer view, final int length, final LinkSession session)
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
        final int construction = construction(view, length);
        final long transmission = view.getLong(WireDescriptor.TRANSMISSION_OFFSET);
        final boolean authentic;
        if (SEAL == construction)
        {
            authentic = opener.open(keys.cipherKey, receive.direction, transmission, view, WireDescriptor.HEADER_LENGTH,
                length);
        }
        else if (GCM_TAG == construction)
        {
            authentic = opener.checkTag(keys.cipherKey, receive.direction, transmission, view,
                WireDescriptor.HEADER_LENGTH, length);
        }
        else
        {
            authentic = keys.mac.check(view, 0, length);
        }
        if (authentic)
        {
            receive.checked(keys);
        }
        return authentic;
    }
}
