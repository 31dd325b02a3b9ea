package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.net.auth.FixedRandom;
import org.am2j.net.auth.LinkSecret;
import org.am2j.net.auth.NicKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sealing and opening a session's datagrams ({@link WireSeal}): known answers for AES-GCM and the tag (from an
 * independent computation with Python's cryptography package over the keys of the RFC 7748 key pairs), every flipped
 * bit of header, payload or tag refused, key epochs the receiver follows with datagrams of the previous one still
 * good, and the allocation per datagram within its stated bound.
 */
class WireSealTest
{
    private static final HexFormat HEX = HexFormat.of();
    private static final String ALICE_PRIVATE = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
    private static final String BOB_PRIVATE = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
    /** A header whose bytes are (7 i + 1) mod 256, bytes 88 to 103 zero. */
    private static final String HEADER = "01080f011d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3dae1e8eff6fd040b" +
        "121920272e353c434a51585f666d747b828990979ea5acb3bac1c8cfd6dde4ebf2f900070e151c232a31383f464d545b62" +
        "00000000000000000000000000000000";
    /** The 64 payload bytes (13 i + 5) mod 256, sealed by Alice as transmission 0 of epoch 0, then the tag. */
    private static final String SEALED = "77515fd7d6761867b5de57df7562a8785b34f3d2d07e9271f163a710231823a693c4bfab1565" +
        "a5ca84e825f2b9421d2c9259f0ecfe107a3a09348ae7b53ea66f41e3d0502421ca8b783e5e005f637f54";
    /** The tag of the same header as an ACK (type 2) under epoch 0's Mac128 key. */
    private static final String ACK_TAG = "4cbc33e6d40b4cae3ab771feb48f0a3a";
    private static final int PAYLOAD = 64;

    private final Link alice;
    private final Link bob;

    WireSealTest()
    {
        final NicKeys aliceKeys = NicKeys.generate(new FixedRandom(HEX.parseHex(ALICE_PRIVATE)));
        final NicKeys bobKeys = NicKeys.generate(new FixedRandom(HEX.parseHex(BOB_PRIVATE)));
        final byte[] aliceRandom = HEX.parseHex("000102030405060708090a0b0c0d0e0f");
        final byte[] bobRandom = HEX.parseHex("101112131415161718191a1b1c1d1e1f");
        final LinkSecret a = aliceKeys.linkSecret(0x1111, 0x2222, bobKeys.publicKey());
        final LinkSecret b = bobKeys.linkSecret(0x2222, 0x1111, aliceKeys.publicKey());
        alice = new Link(new LinkSession(a.session(6, 2, aliceRandom, bobRandom), true, true, aliceRandom, bobRandom));
        bob = new Link(new LinkSession(b.session(6, 2, bobRandom, aliceRandom), false, false, aliceRandom, bobRandom));
    }

    @Test
    void aSealedDatagramIsTheKnownAnswerAndOpensToItsPayload()
    {
        final WireSeal sealer = new WireSeal(WireMode.ENCRYPT, Long.MAX_VALUE, new NicCounters());
        final Datagram d = datagram(WireDescriptor.TYPE_DATA);
        assertEquals(d.buffer, sealer.seal(d.buffer, d.view, d.length, alice.session, false));
        assertEquals(HEADER.substring(0, 6) + "01" + HEADER.substring(8) + SEALED, HEX.formatHex(d.bytes(d.length +
            WireDescriptor.TAG_LENGTH)));

        final WireSeal opener = new WireSeal(WireMode.ENCRYPT, Long.MAX_VALUE, new NicCounters());
        assertTrue(opener.open(d.view, d.length, bob.session));
        assertArrayEquals(datagram(WireDescriptor.TYPE_DATA).bytes(d.length), d.bytes(d.length), "payload restored");

        // A kept datagram (a window slot's) stays in clear: the sealed copy is in the send buffer.
        final Datagram kept = datagram(WireDescriptor.TYPE_DATA);
        final ByteBuffer out = sealer.seal(kept.buffer, kept.view, kept.length, alice.session, true);
        assertArrayEquals(slice(datagram(WireDescriptor.TYPE_DATA).bytes(kept.length), WireDescriptor.HEADER_LENGTH),
            slice(kept.bytes(kept.length), WireDescriptor.HEADER_LENGTH), "the slot's message in clear");
        assertFalse(out == kept.buffer);

        // A header-only datagram is tagged, not encrypted: the known tag of the header.
        final Datagram ack = datagram(WireDescriptor.TYPE_ACK);
        final WireSeal fresh = new WireSeal(WireMode.ENCRYPT, Long.MAX_VALUE, new NicCounters());
        final Link again = new WireSealTest().alice;
        fresh.seal(ack.buffer, ack.view, WireDescriptor.HEADER_LENGTH, again.session, false);
        assertEquals(ACK_TAG, HEX.formatHex(slice(ack.bytes(WireDescriptor.HEADER_LENGTH + WireDescriptor.TAG_LENGTH),
            WireDescriptor.HEADER_LENGTH)));
    }

    @Test
    void aLongDatagramInAuthenticateModeCarriesAesGcmsTagInClear()
    {
        // AES-GCM's tag of the datagram (here from its first byte: the lowest threshold) is the tag sealing gives it,
        // the known answer's; its payload stays in clear, and the receiver checks it.
        final WireSeal tagger = new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters(), 0);
        final Datagram d = datagram(WireDescriptor.TYPE_DATA);
        tagger.seal(d.buffer, d.view, d.length, alice.session, false);
        final Datagram clear = datagram(WireDescriptor.TYPE_DATA);
        assertEquals(HEADER.substring(0, 6) + "01" + HEADER.substring(8) +
            HEX.formatHex(slice(clear.bytes(d.length), WireDescriptor.HEADER_LENGTH)) +
            SEALED.substring(SEALED.length() - 2 * WireDescriptor.TAG_LENGTH),
            HEX.formatHex(d.bytes(d.length + WireDescriptor.TAG_LENGTH)));
        final WireSeal checker = new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters(), 0);
        assertTrue(checker.open(d.view, d.length, bob.session));
        assertArrayEquals(datagram(WireDescriptor.TYPE_DATA).bytes(d.length), d.bytes(d.length), "nothing changed");
    }

    @Test
    void inAuthenticateModeABatchOfMediumMessagesTakesTheAesGcmTagAndOneOfShortMessagesTheOther()
    {
        // An opener that never uses AES-GCM's tag (from an unreachable length) checks only the 128-bit tag: it opens
        // a batch exactly when the sealer chose that tag for it.
        final int payload = 4096;
        for (final int entries : new int[] { 2, 16 })
        {
            final boolean medium = payload / entries >= WireSeal.GCM_TAG_FROM;
            final WireSeal sealer = new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters());
            final WireSeal macOnly = new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters(),
                Integer.MAX_VALUE);
            final WireSeal opener = new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters());
            final Datagram d = new Datagram(WireDescriptor.TYPE_BATCH, payload);
            d.view.putInt(BatchDescriptor.COUNT_OFFSET, entries);
            sealer.seal(d.buffer, d.view, d.length, alice.session, false);
            final byte[] sealed = d.bytes(d.length + WireDescriptor.TAG_LENGTH);

            assertEquals(!medium, macOnly.open(d.view, d.length, bob.session), entries + " entries");
            d.view.putBytes(0, sealed);
            assertTrue(opener.open(d.view, d.length, bob.session), entries + " entries");
            // A count forged to the other side of the rule only picks the check that then fails.
            d.view.putBytes(0, sealed);
            d.view.putInt(BatchDescriptor.COUNT_OFFSET, medium ? 16 : 2);
            assertFalse(opener.open(d.view, d.length, bob.session), entries + " entries, count forged");
        }
    }

    @Test
    void aFlippedBitAnywhereIsRefused()
    {
        // Authenticate mode twice: with the 128-bit tag on short datagrams, and with AES-GCM's tag from the first
        // byte (the last flips, of the tag, name the real datagram's nonce: checking them first must not spoil it).
        final int[] gcmTagFrom = { WireSeal.GCM_TAG_FROM, WireSeal.GCM_TAG_FROM, 0 };
        final WireMode[] modes = { WireMode.ENCRYPT, WireMode.AUTHENTICATE, WireMode.AUTHENTICATE };
        for (int m = 0; m < modes.length; m++)
        {
            final WireMode mode = modes[m];
            for (final int type : new int[] { WireDescriptor.TYPE_DATA, WireDescriptor.TYPE_ACK })
            {
                final Link a = new WireSealTest().alice;
                final Link b = new WireSealTest().bob;
                final WireSeal sealer = new WireSeal(mode, Long.MAX_VALUE, new NicCounters(), gcmTagFrom[m]);
                final WireSeal opener = new WireSeal(mode, Long.MAX_VALUE, new NicCounters(), gcmTagFrom[m]);
                final Datagram d = datagram(type);
                final int length = WireDescriptor.TYPE_ACK == type ? WireDescriptor.HEADER_LENGTH : d.length;
                sealer.seal(d.buffer, d.view, length, a.session, false);
                final byte[] sealed = d.bytes(length + WireDescriptor.TAG_LENGTH);
                for (int bit = 0; bit < 8 * sealed.length; bit++)
                {
                    d.view.putBytes(0, sealed);
                    d.view.putByte(bit / 8, (byte)(sealed[bit / 8] ^ (1 << (bit % 8))));
                    assertFalse(opener.open(d.view, length, b.session),
                        mode + " from " + gcmTagFrom[m] + " type " + type + " bit " + bit);
                }
                d.view.putBytes(0, sealed);
                assertTrue(opener.open(d.view, length, b.session), mode + " from " + gcmTagFrom[m] + " type " + type);
                assertEquals(0, b.session.receive.epoch(), "nothing that failed moved the receiver on");
            }
        }
    }

    @Test
    void aDatagramLongerThanAnyTheNicSendsIsRefused()
    {
        // The receive buffer takes any UDP datagram; AES-GCM works on copies sized for the longest the NIC sends. A
        // longer one, sealed or tagged, is refused like any whose tag fails, and the NIC goes on.
        final int payload = NetConfig.MAX_DATAGRAM;
        for (final WireMode mode : new WireMode[] { WireMode.ENCRYPT, WireMode.AUTHENTICATE })
        {
            final Datagram d = new Datagram(WireDescriptor.TYPE_DATA, payload);
            assertFalse(new WireSeal(mode, Long.MAX_VALUE, new NicCounters()).open(d.view, d.length, bob.session),
                mode.text);
        }
    }

    @Test
    void theReceiverFollowsKeyEpochsAndTakesThePreviousOnesDatagramsInFlight()
    {
        // 1000 bytes per key: a new epoch every 15 datagrams of 64 payload bytes.
        final WireSeal sealer = new WireSeal(WireMode.ENCRYPT, 1000, new NicCounters());
        final WireSeal opener = new WireSeal(WireMode.ENCRYPT, 1000, new NicCounters());
        final int count = 100;
        final byte[][] sealed = new byte[count][];
        for (int i = 0; i < count; i++)
        {
            final Datagram d = datagram(WireDescriptor.TYPE_DATA);
            sealer.seal(d.buffer, d.view, d.length, alice.session, false);
            sealed[i] = d.bytes(d.length + WireDescriptor.TAG_LENGTH);
        }
        assertEquals(6, alice.session.transmit.epoch());
        final Datagram d = datagram(WireDescriptor.TYPE_DATA);
        for (int i = 0; i < count; i++)
        {
            d.view.putBytes(0, sealed[i]);
            assertTrue(opener.open(d.view, d.length, bob.session), "datagram " + i);
            assertEquals(i / 15, bob.session.receive.epoch());
            if (i % 15 == 1 && i > 15)
            {
                // A datagram of the previous epoch, still in flight when the sender moved on, is taken.
                d.view.putBytes(0, sealed[i - 2]);
                assertTrue(opener.open(d.view, d.length, bob.session), "late datagram " + (i - 2));
            }
        }
        // Two epochs back: gone.
        d.view.putBytes(0, sealed[count - 1 - 2 * 15]);
        assertFalse(opener.open(d.view, d.length, bob.session));
    }

    @Test
    @Timeout(120)
    void aSealedAndOpenedDatagramAllocatesWithinItsBoundAndATaggedOneNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final WireSeal sealer = new WireSeal(WireMode.ENCRYPT, Long.MAX_VALUE, new NicCounters());
        final WireSeal opener = new WireSeal(WireMode.ENCRYPT, Long.MAX_VALUE, new NicCounters());
        for (final int size : new int[] { 64, 8192 })
        {
            final Datagram d = new Datagram(WireDescriptor.TYPE_DATA, size);
            final Datagram ack = new Datagram(WireDescriptor.TYPE_ACK, 0);
            final long sealedBytes = allocated(threads, 20_000, () ->
            {
                d.view.putByte(WireDescriptor.TYPE_OFFSET, (byte)WireDescriptor.TYPE_DATA);
                sealer.seal(d.buffer, d.view, d.length, alice.session, false);
                assertTrue(opener.open(d.view, d.length, bob.session));
            });
            System.out.printf("AES-GCM, %d payload bytes: %d bytes allocated per sealed or opened datagram (bound %d)%n",
                size, sealedBytes / 40_000, WireSeal.ALLOCATION_BOUND);
            assertTrue(sealedBytes <= 2L * 20_000 * WireSeal.ALLOCATION_BOUND,
                size + " bytes: " + sealedBytes / 40_000 + " bytes per sealed or opened datagram");
            final long taggedBytes = allocated(threads, 20_000, () ->
            {
                sealer.seal(ack.buffer, ack.view, WireDescriptor.HEADER_LENGTH, alice.session, false);
                assertTrue(opener.open(ack.view, WireDescriptor.HEADER_LENGTH, bob.session));
            });
            assertTrue(taggedBytes < 1024, "20,000 tagged datagrams allocated " + taggedBytes + " bytes");
        }
        // Authenticate mode: a short datagram gets the 128-bit tag (nothing allocated), a long one AES-GCM's tag
        // (within the bound).
        final WireSeal tagger = new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters());
        final WireSeal checker = new WireSeal(WireMode.AUTHENTICATE, Long.MAX_VALUE, new NicCounters());
        for (final int size : new int[] { 64, 8192 })
        {
            final Datagram d = new Datagram(WireDescriptor.TYPE_DATA, size);
            final long bytes = allocated(threads, 20_000, () ->
            {
                tagger.seal(d.buffer, d.view, d.length, alice.session, false);
                assertTrue(checker.open(d.view, d.length, bob.session));
            });
            System.out.printf("authenticate, %d payload bytes: %d bytes allocated per tagged or checked datagram%n",
                size, bytes / 40_000);
            assertTrue(d.length < WireSeal.GCM_TAG_FROM ? bytes < 1024 : bytes <= 2L * 20_000 * WireSeal.ALLOCATION_BOUND,
                size + " bytes: " + bytes / 40_000 + " bytes per tagged or checked datagram");
        }
    }

    private static long allocated(final com.sun.management.ThreadMXBean threads, final int n, final Runnable step)
    {
        // The least of three rounds, after a warm-up: the JIT's own work allocates now and then.
        for (int i = 0; i < n; i++)
        {
            step.run();
        }
        long least = Long.MAX_VALUE;
        final long id = Thread.currentThread().getId();
        for (int round = 0; round < 3; round++)
        {
            final long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < n; i++)
            {
                step.run();
            }
            least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
        }
        return least;
    }

    private static Datagram datagram(final int type)
    {
        return new Datagram(type, PAYLOAD);
    }

    private static byte[] slice(final byte[] bytes, final int from)
    {
        return java.util.Arrays.copyOfRange(bytes, from, bytes.length);
    }

    /** A datagram of the test's header and payload in a direct buffer, with its view. */
    private static final class Datagram
    {
        final ByteBuffer buffer;
        final UnsafeBuffer view;
        final int length;

        Datagram(final int type, final int payload)
        {
            length = WireDescriptor.HEADER_LENGTH + payload;
            buffer = FrameWriter.direct(length + WireDescriptor.TAG_LENGTH);
            view = new UnsafeBuffer(buffer);
            view.putBytes(0, HEX.parseHex(HEADER));
            view.putByte(WireDescriptor.TYPE_OFFSET, (byte)type);
            for (int i = 0; i < payload; i++)
            {
                view.putByte(WireDescriptor.HEADER_LENGTH + i, (byte)(i * 13 + 5));
            }
        }

        byte[] bytes(final int count)
        {
            final byte[] bytes = new byte[count];
            view.getBytes(0, bytes);
            return bytes;
        }
    }

    /** One end's session of the test's link. */
    private static final class Link
    {
        final LinkSession session;

        Link(final LinkSession session)
        {
            this.session = session;
        }
    }
}
