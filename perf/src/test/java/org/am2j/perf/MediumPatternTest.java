package org.am2j.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The medium round trips' data: every round's pattern passes its checksum, every byte counts, another round's data
 * fails; and the limit's medium round trips between two mappings of one file check the data of every round.
 */
@Timeout(60)
class MediumPatternTest
{
    private static final int[] LENGTHS = { 0, 1, 7, 8, 9, 63, 64, 65, 100, 1000, Am.MAX_MEDIUM };

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[Am.MAX_MEDIUM]);
    private final MediumPattern pattern = new MediumPattern();

    @Test
    void everyRoundsPatternPassesItsChecksum()
    {
        for (final int length : LENGTHS)
        {
            for (final int round : new int[]{ 0, 1, 2, 3, 1_000_003, -5, Integer.MAX_VALUE, Integer.MIN_VALUE })
            {
                MediumPattern.fill(buffer, length, round);
                assertTrue(pattern.matches(buffer, length, round), length + " bytes, round " + round);
            }
        }
    }

    @Test
    void anotherRoundsDataFails()
    {
        for (final int length : LENGTHS)
        {
            if (length >= Long.BYTES)
            {
                MediumPattern.fill(buffer, length, 41);
                assertFalse(pattern.matches(buffer, length, 42), length + " bytes");
                assertFalse(pattern.matches(buffer, length, 40), length + " bytes");
            }
        }
    }

    @Test
    void everyByteCounts()
    {
        final int length = Am.MAX_MEDIUM - 3;
        MediumPattern.fill(buffer, length, 7);
        final long checksum = MediumPattern.checksum(buffer, length);
        for (int i = 0; i < length; i++)
        {
            final byte was = buffer.getByte(i);
            buffer.putByte(i, (byte)(was + 1));
            assertNotEquals(checksum, MediumPattern.checksum(buffer, length), "byte " + i);
            assertFalse(pattern.matches(buffer, length, 7), "byte " + i);
            buffer.putByte(i, was);
        }
        // two words of one lane swapped: the lanes keep their order
        final long first = buffer.getLong(0);
        buffer.putLong(0, buffer.getLong(64));
        buffer.putLong(64, first);
        assertNotEquals(checksum, MediumPattern.checksum(buffer, length));
    }

    @Test
    void theLimitsMediumRoundTripsCheckTheDataOfEveryRound() throws Exception
    {
        final Path file = CacheLinePingPong.createFile();
        try (CacheLinePingPong initiator = CacheLinePingPong.map(file);
            CacheLinePingPong responder = CacheLinePingPong.map(file))
        {
            final Histogram histogram = LatencySummary.newHistogram();
            final CompletableFuture<Void> answers = CompletableFuture.runAsync(() ->
            {
                responder.respond(100);
                responder.respondMedium(1_000, Am.MAX_MEDIUM);
                responder.respond(100);
            });
            initiator.roundTrips(100, histogram);
            initiator.mediumRoundTrips(1_000, Am.MAX_MEDIUM, histogram);
            initiator.roundTrips(100, histogram);
            answers.get(30, TimeUnit.SECONDS);
            assertEquals(1_200, histogram.getTotalCount());

            // A responder that writes a word less leaves the initiator's last word in place: stale data, found. (The
            // responder itself reads only the words it expects, which hold the initiator's round.)
            final CompletableFuture<Void> shorter = CompletableFuture.runAsync(
                () -> responder.respondMedium(10, Am.MAX_MEDIUM - Long.BYTES));
            final IllegalStateException stale = assertThrows(IllegalStateException.class,
                () -> initiator.mediumRoundTrips(10, Am.MAX_MEDIUM, histogram));
            assertEquals("10 of 10 medium round trips did not find their round's data", stale.getMessage());
            shorter.get(30, TimeUnit.SECONDS);
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }
}
