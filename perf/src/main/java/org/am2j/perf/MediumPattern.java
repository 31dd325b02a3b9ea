package org.am2j.perf;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;

/**
 * The data of a medium round trip and its checksum, for the AM ranks' handlers ({@link AmMessaging}) and the limit
 * they are held against ({@link CacheLinePingPong#mediumRoundTrips}). Each round the sender writes the pattern of
 * that round ({@link #fill}), which changes every word, and each reader checksums every byte ({@link #checksum}) and
 * compares it with the round's ({@link #matches}): stale or missing bytes fail.
 * <p>
 * The checksum keeps eight independent chains of {@code lane * 31 + word}, one per word of a 64-byte line, so that it
 * reads about a word per cycle: one chain over all words waits for its previous step at every word, and 8 KiB of
 * data then took microseconds, which a medium round trip measured instead of the transfer. It is linear in the words
 * (mod 2^64), and a round's pattern is the pattern of round 0 plus the round times a constant in every word, so the
 * checksum of round r is {@code c0 + r * (c1 - c0)}: two checksums per length give every round's.
 */
final class MediumPattern
{
    /** Added to every word from one round to the next: odd, so no round's pattern repeats another's. */
    private static final long ROUND_STEP = 0x9E37_79B9_7F4A_7C15L;
    /** Between consecutive words of one round. */
    private static final long WORD_STEP = 0xBF58_476D_1CE4_E5B9L;

    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[Am.MAX_MEDIUM]);
    /** The length {@link #base} and {@link #step} were computed for. */
    private int length = -1;
    private long base;
    private long step;

    /**
     * Write the pattern of a round: word j (bytes 8j to 8j + 7) is {@code j * WORD_STEP + round * ROUND_STEP}, the
     * bytes after the last whole word {@code i * 31 + 7} whatever the round.
     *
     * @param buffer where.
     * @param length bytes to write from offset 0.
     * @param round  of the round trip.
     */
    static void fill(final MutableDirectBuffer buffer, final int length, final int round)
    {
        long word = round * ROUND_STEP;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES, word += WORD_STEP)
        {
            buffer.putLong(i, word);
        }
        for (; i < length; i++)
        {
            buffer.putByte(i, (byte)(i * 31 + 7));
        }
    }

    /**
     * @param buffer what to read.
     * @param length bytes from offset 0.
     * @return a checksum of every byte: eight chains over the 64-byte lines, then one over the words and bytes left.
     */
    static long checksum(final DirectBuffer buffer, final int length)
    {
        long l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
        int i = 0;
        for (; i + 64 <= length; i += 64)
        {
            l0 = l0 * 31 + buffer.getLong(i);
            l1 = l1 * 31 + buffer.getLong(i + 8);
            l2 = l2 * 31 + buffer.getLong(i + 16);
            l3 = l3 * 31 + buffer.getLong(i + 24);
            l4 = l4 * 31 + buffer.getLong(i + 32);
            l5 = l5 * 31 + buffer.getLong(i + 40);
            l6 = l6 * 31 + buffer.getLong(i + 48);
            l7 = l7 * 31 + buffer.getLong(i + 56);
        }
        long sum = ((((((l0 * 37 + l1) * 37 + l2) * 37 + l3) * 37 + l4) * 37 + l5) * 37 + l6) * 37 + l7;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            sum = sum * 31 + buffer.getLong(i);
        }
        for (; i < length; i++)
        {
            sum = sum * 31 + buffer.getByte(i);
        }
        return sum;
    }

    /**
     * @param buffer what arrived.
     * @param length its bytes.
     * @param round  the round trip whose pattern it must hold.
     * @return true when its checksum is that of the round's pattern of that length.
     */
    boolean matches(final DirectBuffer buffer, final int length, final int round)
    {
        if (length != this.length)
        {
            fill(scratch, length, 0);
            base = checksum(scratch, length);
            fill(scratch, length, 1);
            step = checksum(scratch, length) - base;
            this.length = length;
        }
        return checksum(buffer, length) == base + round * step;
    }
}
